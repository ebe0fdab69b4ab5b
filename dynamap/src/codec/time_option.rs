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

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;
    use time::macros::datetime;

    use crate::codec::{AttributeValue, deserialized, serialized};

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Text(#[serde(with = "crate::codec::timestamp::option")] Option<OffsetDateTime>);

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Seconds(#[serde(with = "crate::codec::epoch_seconds::option")] Option<OffsetDateTime>);

    #[test]
    fn none_is_stored_as_null_and_null_reads_as_none() {
        let null = AttributeValue::Null(true);
        assert_eq!(serialized(&Text(None)).ok(), Some(null.clone()));
        assert_eq!(serialized(&Seconds(None)).ok(), Some(null.clone()));
        assert_eq!(deserialized::<Text>(null.clone()).ok(), Some(Text(None)));
        assert_eq!(deserialized::<Seconds>(null).ok(), Some(Seconds(None)));
    }

    #[test]
    fn a_present_value_keeps_its_modules_form() {
        let at = datetime!(2021-01-01 0:00 UTC);
        let text = AttributeValue::S("2021-01-01T00:00:00.000000000Z".to_owned());
        let seconds = AttributeValue::N("1609459200".to_owned());
        assert_eq!(serialized(&Text(Some(at))).ok(), Some(text.clone()));
        assert_eq!(serialized(&Seconds(Some(at))).ok(), Some(seconds.clone()));
        assert_eq!(deserialized::<Text>(text).ok(), Some(Text(Some(at))));
        assert_eq!(
            deserialized::<Seconds>(seconds).ok(),
            Some(Seconds(Some(at)))
        );
    }

    #[test]
    fn a_value_in_the_other_form_is_an_error() {
        let seconds = AttributeValue::N("1609459200".to_owned());
        assert!(deserialized::<Text>(seconds).is_err());
    }
}
