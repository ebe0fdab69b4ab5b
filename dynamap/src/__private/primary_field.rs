//! Helpers for primary keys that are a field's own attribute (`pk = field(user_id)`).

use base64::Engine as _;

use crate::codec::AttributeValue;
use crate::key::{KeyAttribute, KeyAttributeArg, KeyError, KeyErrorKind, KeyPartError};
use crate::table::ScalarType;

/// The value of a key attribute that is field `field`'s own, checked against `limit` (the
/// key size limit of the attribute).
pub fn primary_attribute<T: KeyAttribute>(
    value: &impl KeyAttributeArg<T>,
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
    limit: usize,
) -> Result<AttributeValue, KeyError> {
    value.key_value(limit).map_err(|err| KeyError {
        entity,
        attribute,
        field: Some(field),
        kind: KeyErrorKind::Part(err),
    })
}

/// A field's value read back from the text of a key attribute that is its own (`parse_key`
/// takes key values as text): a string as it is, a number from its decimal text, a binary
/// from base64.
pub fn parse_primary_attribute<T: KeyAttribute + serde::de::DeserializeOwned>(
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
    text: &str,
) -> Result<T, KeyError> {
    let error = |kind| KeyError {
        entity,
        attribute,
        field: Some(field),
        kind,
    };
    let value = match T::TYPE {
        ScalarType::String => AttributeValue::S(text.to_owned()),
        ScalarType::Number => AttributeValue::N(text.to_owned()),
        ScalarType::Binary => match base64::engine::general_purpose::STANDARD.decode(text) {
            Ok(bytes) => AttributeValue::B(bytes.into()),
            Err(err) => {
                return Err(error(KeyErrorKind::Part(KeyPartError::OutOfRange {
                    value: format!("{text:?}: {err}"),
                    supported: "a binary value in base64",
                })));
            }
        },
    };
    crate::codec::deserialized(value).map_err(|err| {
        error(KeyErrorKind::Part(KeyPartError::OutOfRange {
            value: format!("{text:?}: {err}"),
            supported: "a value of the field's type",
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_attribute_text_reads_back_as_the_field_type() {
        let n: i64 = parse_primary_attribute("E", "ts", "ts", "-17").expect("read");
        assert_eq!(n, -17);
        let s: String = parse_primary_attribute("E", "id", "id", "u1").expect("read");
        assert_eq!(s, "u1");
        let bad = parse_primary_attribute::<u32>("E", "ts", "ts", "x").expect_err("refused");
        assert!(matches!(bad.kind, KeyErrorKind::Part(_)));
        let binary: crate::key::Binary =
            parse_primary_attribute("E", "b", "b", "AP8H").expect("read");
        assert_eq!(binary.as_ref(), &[0u8, 255, 7]);
        let bad =
            parse_primary_attribute::<crate::key::Binary>("E", "b", "b", "!").expect_err("refused");
        assert!(matches!(bad.kind, KeyErrorKind::Part(_)));
    }

    #[test]
    fn an_empty_key_attribute_is_an_error_naming_the_field() {
        let err = primary_attribute::<String>(&"", "E", "id", "id", 2048).expect_err("refused");
        assert_eq!(err.field, Some("id"));
        assert!(matches!(err.kind, KeyErrorKind::Part(KeyPartError::Empty)));
    }
}
