//! How a value in an expression becomes an attribute value. Below both [`Attr`](super::Attr)
//! and [`Path`](super::Path), which carry an encoder for the values compared with them.

use serde::Serialize;

use crate::codec::AttributeValue;

/// How a field's values are stored: serde by default, the field's `with` module otherwise.
pub(crate) type Encoder<T> = fn(&T) -> std::result::Result<AttributeValue, String>;

/// The default encoder: the value's own `Serialize`.
pub(crate) fn serde_encoder<T: Serialize>(
    value: &T,
) -> std::result::Result<AttributeValue, String> {
    crate::codec::serialized(value).map_err(|err| err.to_string())
}
