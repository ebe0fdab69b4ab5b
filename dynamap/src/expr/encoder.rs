//! How a value in an expression becomes an attribute value. Below both [`Attr`](super::Attr)
//! and [`Path`](super::Path), which carry an encoder for the values compared with them.

use serde::Serialize;

use crate::codec::{AttributeError, AttributeValue};

/// How a field's values are stored: serde by default, the field's `with` module otherwise.
pub(crate) type Encoder<T> = fn(&T) -> std::result::Result<AttributeValue, String>;

/// The default encoder: the value's own `Serialize`.
pub(crate) fn serde_encoder<T: Serialize>(
    value: &T,
) -> std::result::Result<AttributeValue, String> {
    expression_encoded(crate::codec::serialized(value))
}

/// A field's encoded value, its error as the message an expression reports. The encoders
/// of the derive's field constants (`Sensor::CITY`) end here, so the conversion is compiled
/// once in this crate rather than as a closure in every constant of every entity.
#[doc(hidden)]
pub fn expression_encoded(
    encoded: std::result::Result<AttributeValue, AttributeError>,
) -> std::result::Result<AttributeValue, String> {
    encoded.map_err(|err| err.to_string())
}

/// The encoder of a value a [`Path`](super::Path) reaches inside an attribute (a map's value,
/// a list's element, a struct's field): the form dynamap chose for the well-known types that
/// have one (`codec/forms/`: `time`'s types, `SystemTime`, durations, `Uuid`, IP addresses),
/// the same form those values take as fields or as values of a map or list field, so one
/// attribute never mixes two forms of one type. Other values: their own `Serialize`.
pub(crate) fn path_encoder<T: Serialize + 'static>(
    value: &T,
) -> std::result::Result<AttributeValue, String> {
    use crate::codec::Attribute;
    let any: &dyn std::any::Any = value;
    macro_rules! chosen {
        ($($ty:ty),* $(,)?) => {$(
            if let Some(value) = any.downcast_ref::<$ty>() {
                return value.to_attribute().map_err(|err| err.to_string());
            }
        )*};
    }
    chosen!(
        std::time::SystemTime,
        std::time::Duration,
        std::net::IpAddr,
        std::net::Ipv4Addr,
        std::net::Ipv6Addr,
    );
    #[cfg(feature = "time")]
    chosen!(
        time::OffsetDateTime,
        time::PrimitiveDateTime,
        time::Date,
        time::Time,
        time::Duration,
    );
    #[cfg(feature = "uuid")]
    chosen!(uuid::Uuid);
    serde_encoder(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value reached by a path takes the chosen form, not serde's (a list of numbers for
    /// `time`'s types, a `{secs, nanos}` map for a duration).
    #[test]
    fn values_reached_by_paths_take_the_chosen_forms() {
        let at = time::macros::datetime!(2020-03-01 14:30 +02:00);
        assert_eq!(
            path_encoder(&at),
            Ok(AttributeValue::S("2020-03-01T12:30:00.000000000Z".into()))
        );
        assert_eq!(
            path_encoder(&std::time::Duration::from_millis(90_500)),
            Ok(AttributeValue::N("90.5".into()))
        );
        assert_eq!(path_encoder(&7u32), Ok(AttributeValue::N("7".into())));
    }

    /// `Uuid`'s chosen form (the hyphenated text) needs the `uuid` feature.
    #[cfg(feature = "uuid")]
    #[test]
    fn uuids_reached_by_paths_take_the_chosen_form() {
        let id = uuid::Uuid::nil();
        assert_eq!(
            path_encoder(&id),
            Ok(AttributeValue::S(
                "00000000-0000-0000-0000-000000000000".into()
            ))
        );
    }
}
