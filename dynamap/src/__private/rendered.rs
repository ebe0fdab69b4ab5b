//! A timestamp field rendered once by `to_item`, for every key that holds it and for its
//! own attribute: the derive uses it for a `with = "dynamap::codec::timestamp"` field in a
//! key template, where both store the same text.

use time::OffsetDateTime;

use serde::ser::Error as _;

use crate::codec::{AttributeError, AttributeValue};
use crate::key::{KeyArg, KeyPartError, format_timestamp};
use crate::sealed::{KeyArgSeal, Sealed};

/// A timestamp's sortable UTC text, or why it has none (a year out of range): each use
/// reports that error as rendering it there would have. The text is the attribute's own
/// string: keys copy it first, then the attribute takes it.
pub struct RenderedTimestamp(Result<String, KeyPartError>);

impl RenderedTimestamp {
    /// Renders `value` once.
    #[inline]
    pub fn new(value: &OffsetDateTime) -> Self {
        RenderedTimestamp(format_timestamp(value))
    }

    /// The attribute `dynamap::codec::timestamp::to_attribute` makes of the value.
    ///
    /// # Errors
    ///
    /// The value's rendering error, as `to_attribute` reports it.
    #[inline]
    pub fn into_attribute(self) -> Result<AttributeValue, AttributeError> {
        self.0
            .map(AttributeValue::S)
            .map_err(AttributeError::custom)
    }
}

impl Sealed<(KeyArgSeal, OffsetDateTime)> for RenderedTimestamp {}

impl KeyArg<OffsetDateTime> for RenderedTimestamp {
    #[inline]
    fn write_key_arg(&self, out: &mut String) -> Result<(), KeyPartError> {
        match &self.0 {
            Ok(text) => {
                out.push_str(text);
                Ok(())
            }
            Err(err) => Err(err.clone()),
        }
    }

    #[inline]
    fn key_len_hint(&self) -> usize {
        self.0.as_ref().map_or(0, String::len)
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;
    use crate::KeyPart;
    use crate::codec::timestamp;

    #[test]
    fn renders_what_the_key_part_and_the_attribute_would() {
        for value in [
            datetime!(2020-03-01 12:30:00.000000001 UTC),
            datetime!(2026-11-25 05:00:00 +05:30),
            datetime!(-0001-12-31 23:59:59 UTC),
            datetime!(9999-12-31 23:00:00 -02:00),
        ] {
            let rendered = RenderedTimestamp::new(&value);
            let (mut key, mut once) = (String::new(), String::new());
            let direct = value.write_key_part(&mut key);
            assert_eq!(rendered.write_key_arg(&mut once), direct);
            assert_eq!(once, key);
            assert_eq!(rendered.into_attribute(), timestamp::to_attribute(&value));
        }
    }
}
