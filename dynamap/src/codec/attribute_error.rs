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

/// The error for a value of the wrong DynamoDB type.
#[cold]
pub(crate) fn mismatch(expected: &str, found: &super::AttributeValue) -> AttributeError {
    <AttributeError as serde::de::Error>::custom(format!(
        "expected {expected}, found {}",
        type_name(found)
    ))
}

fn type_name(value: &super::AttributeValue) -> &'static str {
    use super::AttributeValue;
    match value {
        AttributeValue::S(_) => "a string (S)",
        AttributeValue::N(_) => "a number (N)",
        AttributeValue::B(_) => "binary (B)",
        AttributeValue::Bool(_) => "a boolean (BOOL)",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::L(_) => "a list (L)",
        AttributeValue::M(_) => "a map (M)",
        AttributeValue::Ss(_) => "a string set (SS)",
        AttributeValue::Ns(_) => "a number set (NS)",
        AttributeValue::Bs(_) => "a binary set (BS)",
        _ => "an attribute type this SDK does not know",
    }
}
