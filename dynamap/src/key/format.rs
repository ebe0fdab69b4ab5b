//! How key parts are written: dynamap's own escaped, order-preserving form, or the forms
//! other mappers write, for tables shared with services that use them.

use super::KeyPartError;

/// How the parts of a key are written into its text: a table's choice
/// (`#[dynamap(key_format(...))]` on the `Table`), which an entity or a field may override
/// with the same attribute.
///
/// The default, [`KeyFormat::ESCAPED`], is dynamap's own form: characters up to `%` escaped
/// (so no value can forge a key), case kept, numbers fixed-width (so text order is number
/// order). The other choices match what other mappers store, ElectroDB's or DynamoDB
/// Toolbox's for example:
///
/// - [`verbatim`](KeyFormat::verbatim): values written as they are. A value holding the
///   delimiter `#` cannot be written unambiguously, so it is refused (a
///   [`KeyPartError::NotVerbatim`](super::KeyPartError::NotVerbatim), before anything is
///   sent) rather than escaped.
/// - [`lowercase`](KeyFormat::lowercase): string parts (and string newtypes) written in
///   lower case; they read back lower-cased.
/// - [`numbers`](KeyFormat::numbers): integers [`Numbers::Plain`] (`4`, `-12`) or
///   [`Numbers::Padded`] to a width with a pad character (`0004`), instead of
///   [`Numbers::Ordered`].
///
/// What each does to order, the forgery guarantee and the look-alike keys is in
/// `docs/design/keys.md` ("Key formats").
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use dynamap::key::{KeyFormat, Numbers};
///
/// #[derive(Table)]
/// #[dynamap(pk = "pk", sk = "sk", key_format(verbatim, lowercase, numbers = "plain"))]
/// struct Shared;
///
/// #[derive(Entity)]
/// #[dynamap(table = Shared, entity = "employee", pk = "$org#employee_{name}", sk = "$employee#level_{level}")]
/// struct Employee { name: String, level: u32 }
///
/// assert_eq!(
///     Shared::KEY_FORMAT,
///     KeyFormat::verbatim().lowercase().numbers(Numbers::Plain)
/// );
/// let key = Employee::key("Mary Ann", 4u32).into_values()?;
/// assert_eq!(key.0, "$org#employee_mary ann");
/// assert_eq!(key.1.as_deref(), Some("$employee#level_4"));
/// // A value holding the delimiter is refused, not escaped.
/// assert!(Employee::key("ops#1", 1u32).values().is_err());
/// # Ok::<(), dynamap::KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyFormat {
    verbatim: bool,
    lowercase: bool,
    numbers: Numbers,
}

/// How integer key parts are written (see [`KeyFormat::numbers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Numbers {
    /// dynamap's form: zero-padded to the type's widest value, negative numbers as `-` and
    /// their distance from the type's minimum, so text order is number order for every
    /// value (`u32` 4 is `0000000004`, `i32` -1 is `-2147483647`).
    Ordered,
    /// Decimal text as `Display` writes it (`4`, `-12`): text order is not number order
    /// (`10` sorts before `9`).
    Plain,
    /// Decimal text left-padded with `pad` to `width` characters (`0004`), a negative
    /// number's `-` first: numbers from 0 to below `10^width` sort as numbers; longer ones
    /// and negative ones do not.
    Padded {
        /// The least number of characters of the digits.
        width: u8,
        /// The character added before the digits.
        pad: char,
    },
}

impl Default for KeyFormat {
    fn default() -> Self {
        Self::ESCAPED
    }
}

impl KeyFormat {
    /// dynamap's own form, the default: escaped, case kept, numbers ordered.
    pub const ESCAPED: Self = Self {
        verbatim: false,
        lowercase: false,
        numbers: Numbers::Ordered,
    };

    /// dynamap's own form ([`ESCAPED`](Self::ESCAPED)).
    #[must_use]
    pub const fn escaped() -> Self {
        Self::ESCAPED
    }

    /// Values written as they are; a value holding `#` is refused.
    #[must_use]
    pub const fn verbatim() -> Self {
        Self {
            verbatim: true,
            ..Self::ESCAPED
        }
    }

    /// This format, with values escaped (`true`, dynamap's form) or verbatim (`false`).
    #[must_use]
    pub const fn with_escaping(self, escaped: bool) -> Self {
        Self {
            verbatim: !escaped,
            ..self
        }
    }

    /// This format, with string parts written in lower case.
    #[must_use]
    pub const fn lowercase(self) -> Self {
        self.with_lowercase(true)
    }

    /// This format, with string parts lower-cased (`true`) or kept as given (`false`).
    #[must_use]
    pub const fn with_lowercase(self, lowercase: bool) -> Self {
        Self { lowercase, ..self }
    }

    /// This format, with integers written as `numbers` says.
    #[must_use]
    pub const fn numbers(self, numbers: Numbers) -> Self {
        Self { numbers, ..self }
    }

    /// True when values are written as they are, not escaped.
    #[must_use]
    pub const fn is_verbatim(&self) -> bool {
        self.verbatim
    }

    /// True when string parts are lower-cased.
    #[must_use]
    pub const fn is_lowercase(&self) -> bool {
        self.lowercase
    }

    /// How integers are written.
    #[must_use]
    pub const fn number_format(&self) -> Numbers {
        self.numbers
    }
}

/// An integer's `Display` text written as `numbers` says, for the formats other than
/// [`Numbers::Ordered`]: as it is, or its digits left-padded (after a `-`).
pub(super) fn write_unordered(out: &mut String, text: &str, numbers: Numbers) {
    match numbers {
        Numbers::Padded { width, pad } => {
            let (sign, digits) = match text.strip_prefix('-') {
                Some(digits) => ("-", digits),
                None => ("", text),
            };
            out.push_str(sign);
            out.extend(std::iter::repeat_n(
                pad,
                usize::from(width).saturating_sub(digits.len()),
            ));
            out.push_str(digits);
        }
        Numbers::Ordered | Numbers::Plain => out.push_str(text),
    }
}

/// Reads an integer written by [`write_unordered`]: the one text it writes for the value,
/// and only that (no `+`, no other padding), so that one value has one key.
pub(super) fn parse_unordered<T: std::str::FromStr + std::fmt::Display>(
    text: &str,
    numbers: Numbers,
    expected: &'static str,
) -> Result<T, KeyPartError> {
    let fail = || KeyPartError::Malformed {
        text: text.to_owned(),
        expected,
    };
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let digits = match numbers {
        Numbers::Padded { pad, .. } => {
            // Keep at least one character: a zero padded with zeros is all pad.
            let kept = rest.trim_start_matches(pad);
            if kept.is_empty() {
                &rest[rest.len().saturating_sub(1)..]
            } else {
                kept
            }
        }
        Numbers::Ordered | Numbers::Plain => rest,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(fail());
    }
    let value: T = format!("{sign}{digits}").parse().map_err(|_| fail())?;
    let mut again = String::new();
    write_unordered(&mut again, &value.to_string(), numbers);
    if again == text {
        Ok(value)
    } else {
        Err(fail())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_set_one_choice_each_and_keep_the_others() {
        let format = KeyFormat::verbatim().lowercase().numbers(Numbers::Plain);
        assert!(format.is_verbatim() && format.is_lowercase());
        assert_eq!(format.number_format(), Numbers::Plain);
        let back = format.with_escaping(true).with_lowercase(false);
        assert_eq!(back, KeyFormat::ESCAPED.numbers(Numbers::Plain));
        assert_eq!(KeyFormat::default(), KeyFormat::escaped());
    }

    fn written(value: i64, numbers: Numbers) -> String {
        let mut out = String::new();
        write_unordered(&mut out, &value.to_string(), numbers);
        out
    }

    const PADDED: Numbers = Numbers::Padded { width: 4, pad: '0' };

    #[test]
    fn plain_and_padded_numbers_write_and_read_back() {
        let spaced = Numbers::Padded { width: 3, pad: ' ' };
        for (value, numbers, text) in [
            (4, Numbers::Plain, "4"),
            (-12, Numbers::Plain, "-12"),
            (0, Numbers::Plain, "0"),
            (4, PADDED, "0004"),
            (0, PADDED, "0000"),
            (-7, PADDED, "-0007"),
            (123_456, PADDED, "123456"),
            (5, spaced, "  5"),
        ] {
            assert_eq!(written(value, numbers), text);
            assert_eq!(
                parse_unordered::<i64>(text, numbers, "n"),
                Ok(value),
                "{text}"
            );
        }
    }

    #[test]
    fn only_the_one_text_of_a_value_reads_back() {
        for (text, numbers) in [
            ("04", Numbers::Plain),
            ("+4", Numbers::Plain),
            ("-0", Numbers::Plain),
            ("", Numbers::Plain),
            ("4", PADDED),
            ("00004", PADDED),
            ("00x4", PADDED),
            ("-", PADDED),
        ] {
            assert!(
                parse_unordered::<i64>(text, numbers, "n").is_err(),
                "{text:?} read back with {numbers:?}"
            );
        }
        assert!(parse_unordered::<u8>("300", Numbers::Plain, "n").is_err());
    }
}
