//! The `option` module every `with` module for `time::OffsetDateTime` has: `None` stored as
//! null, a present value in the parent module's own form.

/// Writes `pub mod option` into a `with` module whose `serialize` and `deserialize` handle
/// one `OffsetDateTime`; `$form` says how a value is stored, for the docs.
macro_rules! time_option_module {
    ($form:literal) => {
        /// The same form for `Option<OffsetDateTime>` fields: `None` is stored as null.
        pub mod option {
            use serde::{Deserialize, Deserializer, Serializer};
            use time::OffsetDateTime;

            #[doc = concat!("Serializes a present timestamp ", $form, ", and `None` as null.")]
            ///
            /// # Errors
            ///
            /// Fails as the parent module's `serialize` does for a present timestamp.
            pub fn serialize<S: Serializer>(
                value: &Option<OffsetDateTime>,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                match value {
                    Some(value) => super::serialize(value, serializer),
                    None => serializer.serialize_none(),
                }
            }

            #[doc = concat!("Deserializes a timestamp stored ", $form, "; null reads as `None`.")]
            ///
            /// # Errors
            ///
            /// Fails as the parent module's `deserialize` does for a value that is not null.
            pub fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Option<OffsetDateTime>, D::Error> {
                /// A present value, read in the parent module's form.
                struct Present(OffsetDateTime);

                impl<'de> Deserialize<'de> for Present {
                    fn deserialize<D: Deserializer<'de>>(
                        deserializer: D,
                    ) -> Result<Self, D::Error> {
                        super::deserialize(deserializer).map(Present)
                    }
                }

                Ok(Option::<Present>::deserialize(deserializer)?.map(|present| present.0))
            }
        }
    };
}

pub(super) use time_option_module;
