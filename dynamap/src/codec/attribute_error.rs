//! [`AttributeError`]: why a value could not become an attribute, or be read from one.

use std::fmt;

/// Why a value could not be converted to or from a DynamoDB attribute value: a value of
/// the wrong type, a number out of range or not finite, a missing struct field, an unknown
/// enum variant, or what a type's own serde implementation reported.
///
/// Direct conversions ([`Attribute`](super::Attribute)) and the serde path report it alike,
/// so [`Error::Encode`](crate::Error::Encode) and
/// [`Error::InvalidAttribute`](crate::Error::InvalidAttribute) carry either. It implements
/// serde's `ser::Error` and `de::Error`, so a `Serialize` or `Deserialize` implementation
/// reports through it as through any serde error.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Attribute, AttributeValue};
///
/// let err = u8::from_attribute(AttributeValue::N("300".into())).unwrap_err();
/// assert!(err.to_string().contains("300"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeError {
    message: String,
}

impl AttributeError {
    /// What went wrong, as the error's `Display` says it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// An error saying `message`: for conversions written by hand, such as a schema
    /// upgrade's `with` function.
    pub fn new(message: impl fmt::Display) -> Self {
        Self::with_message(message)
    }

    fn with_message(message: impl fmt::Display) -> Self {
        AttributeError {
            message: message.to_string(),
        }
    }
}

impl fmt::Display for AttributeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AttributeError {}

impl serde::ser::Error for AttributeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Self::with_message(message)
    }
}

impl serde::de::Error for AttributeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Self::with_message(message)
    }
}
