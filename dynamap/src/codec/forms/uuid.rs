//! `uuid::Uuid` (feature `uuid`): lowercase hyphenated text, its key part, which is also
//! what serde stored.

use super::super::attribute::{Attribute, AttributeError};
use super::super::attribute_error::mismatch;
use super::AttributeValue;

/// `67e55044-10b1-426f-9247-bb680e5fe0c8`. Reads any text `Uuid::parse_str` does
/// (uppercase, simple, braced, URN), and the 16 bytes of a binary.
impl Attribute for uuid::Uuid {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(
            self.hyphenated()
                .encode_lower(&mut uuid::Uuid::encode_buffer())
                .to_owned(),
        ))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::S(text) => uuid::Uuid::parse_str(&text)
                .map_err(|error| AttributeError::new(format!("{text:?}: {error}"))),
            AttributeValue::B(bytes) => uuid::Uuid::from_slice(bytes.as_ref())
                .map_err(|error| AttributeError::new(format!("{bytes:?}: {error}"))),
            other => Err(mismatch("a string (S)", &other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_lowercase_hyphenated_text_as_serde_stored_them() {
        let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
        let text = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        assert_eq!(id.to_attribute(), Ok(AttributeValue::S(text.into())));
        assert_eq!(crate::codec::serialized(&id), id.to_attribute());
        for old in [
            AttributeValue::S(text.to_uppercase()),
            AttributeValue::S(text.replace('-', "")),
            AttributeValue::B(id.as_bytes().to_vec().into()),
        ] {
            assert_eq!(uuid::Uuid::from_attribute(old), Ok(id));
        }
        assert!(uuid::Uuid::from_attribute(AttributeValue::S("x".into())).is_err());
        assert!(uuid::Uuid::from_attribute(AttributeValue::N("1".into())).is_err());
    }
}
