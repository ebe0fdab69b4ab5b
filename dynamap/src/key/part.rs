//! Types that can fill a hole in a key template, and their text encodings.
//!
//! Every encoding is order-preserving: comparing two rendered parts as strings (which is how
//! DynamoDB orders sort keys) gives the same answer as comparing the values.
//!
//! | type | encoding | example |
//! |---|---|---|
//! | `String`, `&str` | the text itself (escaped by the template, see [`crate::key`]) | `humidity-1` |
//! | unsigned integers | zero-padded decimal, fixed width per type | `u32` 42 → `0000000042` |
//! | signed integers | non-negative: zero-padded decimal; negative: `-` then the distance from the type's minimum, zero-padded | `i32` 42 → `0000000042`, -1 → `-2147483647` |
//! | `time::OffsetDateTime` | UTC, RFC 3339 with nine fraction digits | `2020-03-01T12:30:00.000000000Z` |
//! | `uuid::Uuid` | lowercase hyphenated | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//!
//! `-` sorts before every digit, and the distance from the minimum grows with the value, so
//! negative numbers sort before positive ones and in their own order.

use crate::key_format::Numbers;
use crate::sealed::{KeyArgSeal, Sealed};
use std::fmt;

/// A value that can fill a `{field}` hole in a key template.
///
/// Implemented for strings, every integer type, `time::OffsetDateTime` (feature `time`) and
/// `uuid::Uuid` (feature `uuid`). String newtypes and fieldless enums get it from
/// `#[derive(KeyPart)]`.
///
/// # Examples
///
/// ```
/// use dynamap::KeyPart;
///
/// // Numbers render so that text order is number order, negative ones included.
/// let (mut a, mut b) = (String::new(), String::new());
/// (-5i64).write_key_part(&mut a)?;
/// 3i64.write_key_part(&mut b)?;
/// assert!(a < b);
/// assert_eq!(i64::parse_key_part(&a)?, -5);
/// # Ok::<(), dynamap::key::KeyPartError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key part",
    label = "this field is used in a key template",
    note = "key parts are strings, integers, `time::OffsetDateTime` and `uuid::Uuid`; for a type of your own, derive it on a string newtype or a fieldless enum with `#[derive(dynamap::KeyPart)]`, or implement `dynamap::KeyPart` for it"
)]
pub trait KeyPart: Sized {
    /// Appends this value's text to `out`. The text may hold any character; the template
    /// escapes the delimiter afterwards.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyPartError`] when the value cannot be a key part (for example an
    /// empty string).
    fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError>;

    /// Reads a value back from the text [`write_key_part`](KeyPart::write_key_part) wrote.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyPartError`] when `text` is not a value of this type.
    fn parse_key_part(text: &str) -> Result<Self, KeyPartError>;

    /// True for text parts (strings and string newtypes), which a
    /// [lower-casing](super::KeyFormat::lowercase) key format lower-cases. Other types'
    /// text is their own encoding, which lower-casing would break.
    #[doc(hidden)]
    const TEXT: bool = false;

    /// True for types whose text never holds a character the template escapes (numbers,
    /// timestamps, UUIDs): their parts skip the escape scan.
    #[doc(hidden)]
    const ESCAPE_FREE: bool = false;

    /// About how many bytes this value's text takes, so a key is allocated once at its size.
    #[doc(hidden)]
    fn key_len_hint(&self) -> usize {
        16
    }

    /// Appends this value's text as `numbers` says, for integers; other types write their
    /// one form.
    ///
    /// # Errors
    ///
    /// As [`write_key_part`](KeyPart::write_key_part).
    #[doc(hidden)]
    fn write_key_part_as(&self, out: &mut String, numbers: Numbers) -> Result<(), KeyPartError> {
        let _ = numbers;
        self.write_key_part(out)
    }

    /// Reads back what [`write_key_part_as`](KeyPart::write_key_part_as) wrote with
    /// `numbers`.
    ///
    /// # Errors
    ///
    /// As [`parse_key_part`](KeyPart::parse_key_part).
    #[doc(hidden)]
    fn parse_key_part_as(text: &str, numbers: Numbers) -> Result<Self, KeyPartError> {
        let _ = numbers;
        Self::parse_key_part(text)
    }
}

/// Why a value could not become a key part, or a key part could not be read back.
///
/// # Examples
///
/// ```
/// use dynamap::KeyPart;
/// use dynamap::key::KeyPartError;
///
/// assert!(matches!(u32::parse_key_part("not a number"), Err(KeyPartError::Malformed { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyPartError {
    /// The part rendered to empty text. DynamoDB rejects empty key values, and an empty
    /// segment would make keys ambiguous.
    Empty,
    /// The value cannot be encoded in order (a timestamp outside years 0000 to 9999).
    OutOfRange {
        /// The value, as debug text.
        value: String,
        /// What the encoding supports.
        supported: &'static str,
    },
    /// A [verbatim](super::KeyFormat::verbatim) key part holds the delimiter `#`: written
    /// as it is, it would split into other parts when read back (or forge another key), so
    /// it is refused rather than escaped.
    NotVerbatim {
        /// The part's text.
        text: String,
    },
    /// Stored text is not in the form this type writes.
    Malformed {
        /// The text found.
        text: String,
        /// The form expected.
        expected: &'static str,
    },
}

impl fmt::Display for KeyPartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyPartError::Empty => f.write_str("key parts cannot be empty"),
            KeyPartError::OutOfRange { value, supported } => {
                write!(
                    f,
                    "{value} cannot be a key part: supported range is {supported}"
                )
            }
            KeyPartError::NotVerbatim { text } => write!(
                f,
                "{text:?} holds `#`, the key delimiter, which a verbatim key format cannot carry"
            ),
            KeyPartError::Malformed { text, expected } => {
                write!(f, "{text:?} is not {expected}")
            }
        }
    }
}

impl std::error::Error for KeyPartError {}

/// A value accepted where a key part of type `T` is expected: `T` itself, `&T`, and `&str`
/// for `String` parts. Generated key builders take `impl KeyArg<FieldType>`.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String }
/// let id = String::from("S1");
/// let a = Sensor::key("S1");       // &str
/// let b = Sensor::key(&id);        // &String
/// let c = Sensor::key(id.clone()); // String
/// assert_eq!(a.values()?, b.values()?);
/// # Ok::<(), dynamap::KeyError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "a `{Self}` cannot be given for a key part of type `{T}`",
    label = "expected a `{T}` or a reference to one",
    note = "key builders take the key field's own type, a reference to it, or `&str` for a `String` field"
)]
pub trait KeyArg<T>: Sealed<(KeyArgSeal, T)> {
    /// Appends the part's text, as [`KeyPart::write_key_part`].
    ///
    /// # Errors
    ///
    /// Fails as [`KeyPart::write_key_part`] does.
    fn write_key_arg(&self, out: &mut String) -> Result<(), KeyPartError>;

    /// Appends the part's text as [`KeyPart::write_key_part_as`] does.
    ///
    /// # Errors
    ///
    /// As [`write_key_arg`](KeyArg::write_key_arg).
    #[doc(hidden)]
    fn write_key_arg_as(&self, out: &mut String, numbers: Numbers) -> Result<(), KeyPartError> {
        let _ = numbers;
        self.write_key_arg(out)
    }

    /// As [`KeyPart::key_len_hint`].
    #[doc(hidden)]
    fn key_len_hint(&self) -> usize {
        16
    }
}

impl<T: KeyPart> Sealed<(KeyArgSeal, T)> for T {}
impl<T: KeyPart> Sealed<(KeyArgSeal, T)> for &T {}
impl Sealed<(KeyArgSeal, String)> for &str {}

impl<T: KeyPart> KeyArg<T> for T {
    fn write_key_arg(&self, out: &mut String) -> Result<(), KeyPartError> {
        self.write_key_part(out)
    }

    fn write_key_arg_as(&self, out: &mut String, numbers: Numbers) -> Result<(), KeyPartError> {
        self.write_key_part_as(out, numbers)
    }

    fn key_len_hint(&self) -> usize {
        self.key_len_hint()
    }
}

impl<T: KeyPart> KeyArg<T> for &T {
    fn write_key_arg(&self, out: &mut String) -> Result<(), KeyPartError> {
        (**self).write_key_part(out)
    }

    fn write_key_arg_as(&self, out: &mut String, numbers: Numbers) -> Result<(), KeyPartError> {
        (**self).write_key_part_as(out, numbers)
    }

    fn key_len_hint(&self) -> usize {
        (**self).key_len_hint()
    }
}

impl KeyArg<String> for &str {
    fn write_key_arg(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(self);
        Ok(())
    }

    fn key_len_hint(&self) -> usize {
        self.len()
    }
}

impl KeyPart for String {
    fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(self);
        Ok(())
    }

    fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
        Ok(text.to_owned())
    }

    const TEXT: bool = true;

    fn key_len_hint(&self) -> usize {
        self.len()
    }
}

pub(super) fn malformed(text: &str, expected: &'static str) -> KeyPartError {
    KeyPartError::Malformed {
        text: text.to_owned(),
        expected,
    }
}

#[cfg(feature = "time")]
mod timestamp;

#[cfg(feature = "time")]
pub(crate) use timestamp::{format as format_timestamp, parse as parse_timestamp};

#[cfg(feature = "uuid")]
impl KeyPart for uuid::Uuid {
    fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(
            self.hyphenated()
                .encode_lower(&mut uuid::Uuid::encode_buffer()),
        );
        Ok(())
    }

    fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
        const EXPECTED: &str = "a lowercase hyphenated UUID";
        let value = uuid::Uuid::try_parse(text).map_err(|_| malformed(text, EXPECTED))?;
        // Only the form we write, so one value has exactly one key.
        let mut buffer = uuid::Uuid::encode_buffer();
        if value.hyphenated().encode_lower(&mut buffer) != text {
            return Err(malformed(text, EXPECTED));
        }
        Ok(value)
    }

    const ESCAPE_FREE: bool = true;

    fn key_len_hint(&self) -> usize {
        uuid::fmt::Hyphenated::LENGTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render<T: KeyPart>(value: T) -> String {
        let mut out = String::new();
        value.write_key_part(&mut out).expect("renders");
        out
    }

    fn assert_order_preserved<T: KeyPart + Ord + Copy + fmt::Debug>(values: &[T]) {
        for a in values {
            let ra = render(*a);
            assert_eq!(T::parse_key_part(&ra), Ok(*a), "round trip of {a:?}");
            for b in values {
                assert_eq!(ra.cmp(&render(*b)), a.cmp(b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn unsigned_integers_keep_order() {
        assert_order_preserved(&[0u8, 1, 9, 10, 99, 100, 255]);
        assert_order_preserved(&[0u64, 7, 10, 1_000, u64::MAX - 1, u64::MAX]);
        assert_eq!(render(42u32), "0000000042");
    }

    #[test]
    fn signed_integers_keep_order_across_zero() {
        assert_order_preserved(&[i8::MIN, -100, -10, -2, -1, 0, 1, 2, 10, 100, i8::MAX]);
        assert_order_preserved(&[
            i64::MIN,
            i64::MIN + 1,
            -1_000_000,
            -1,
            0,
            1,
            1_000_000,
            i64::MAX,
        ]);
        assert_order_preserved(&[i128::MIN, -1, 0, i128::MAX]);
        assert_eq!(render(-1i32), "-2147483647");
        assert_eq!(render(42i32), "0000000042");
    }

    #[test]
    fn integer_parsing_rejects_other_forms() {
        for text in [
            "42",
            "+000000042",
            "00000000042",
            "-0000000000x",
            "",
            "-",
            "-2147483648",
        ] {
            assert!(i32::parse_key_part(text).is_err(), "{text:?}");
        }
        assert!(u8::parse_key_part("256").is_err());
        assert!(i8::parse_key_part("128").is_err());
    }

    #[cfg(feature = "time")]
    #[test]
    fn timestamps_normalise_to_utc_and_keep_order() {
        use time::macros::datetime;
        let a = datetime!(2020-03-01 12:30:00 +02:00);
        assert_eq!(render(a), "2020-03-01T10:30:00.000000000Z");
        assert_order_preserved(&[
            datetime!(0000-01-01 00:00 UTC),
            datetime!(1969-12-31 23:59:59.999999999 UTC),
            datetime!(2020-03-01 10:30:00 UTC),
            datetime!(2020-03-01 12:29:59.5 +02:00),
            datetime!(2020-03-01 10:30:00.000000001 UTC),
            datetime!(9999-12-31 23:59:59.999999999 UTC),
        ]);
        let parsed = time::OffsetDateTime::parse_key_part(&render(a)).expect("parses");
        assert_eq!(parsed, a);
        assert_eq!(parsed.offset(), time::UtcOffset::UTC);
    }

    #[cfg(feature = "time")]
    #[test]
    fn timestamps_outside_four_digit_years_are_rejected() {
        use time::macros::datetime;
        let mut out = String::new();
        let err = datetime!(-0001-12-31 00:00 UTC).write_key_part(&mut out);
        assert!(matches!(err, Err(KeyPartError::OutOfRange { .. })));
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn uuids_render_lowercase_and_parse_back() {
        let id = uuid::Uuid::parse_str("67E55044-10B1-426F-9247-BB680E5FE0C8").expect("valid");
        let text = render(id);
        assert_eq!(text, "67e55044-10b1-426f-9247-bb680e5fe0c8");
        assert_eq!(uuid::Uuid::parse_key_part(&text), Ok(id));
        assert!(uuid::Uuid::parse_key_part("67E55044-10B1-426F-9247-BB680E5FE0C8").is_err());
    }
}
