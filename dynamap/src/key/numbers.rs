//! Integers as key parts: dynamap's ordered form (fixed width, negative numbers by their
//! distance from the minimum) and the forms of the other key formats (see [`Numbers`]):
//! plain decimal text, or digits padded to a width.

use super::part::malformed;
use super::{KeyPart, KeyPartError};
use crate::key_format::Numbers;

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

/// Parses exactly `width` ASCII digits (no sign, no `+`, which `str::parse` would accept).
fn parse_digits<U: std::str::FromStr>(
    text: &str,
    width: usize,
    expected: &'static str,
) -> Result<U, KeyPartError> {
    if text.len() != width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed(text, expected));
    }
    text.parse().map_err(|_| malformed(text, expected))
}

/// Appends `digits` with zeros before them to make `width` digits (the form `{:0width$}`
/// writes, without `core::fmt`).
fn zero_padded(out: &mut String, digits: &str, width: usize) {
    out.extend(std::iter::repeat_n('0', width.saturating_sub(digits.len())));
    out.push_str(digits);
}

/// The integer hooks of [`KeyPart`]: the ordered form, or [`write_unordered`]'s.
macro_rules! integer_formats {
    ($ty:ty) => {
        fn write_key_part_as(
            &self,
            out: &mut String,
            numbers: Numbers,
        ) -> Result<(), KeyPartError> {
            match numbers {
                Numbers::Ordered => self.write_key_part(out),
                other => {
                    write_unordered(out, &self.to_string(), other);
                    Ok(())
                }
            }
        }

        fn parse_key_part_as(text: &str, numbers: Numbers) -> Result<Self, KeyPartError> {
            match numbers {
                Numbers::Ordered => Self::parse_key_part(text),
                other => parse_unordered(
                    text,
                    other,
                    concat!(
                        "a decimal ",
                        stringify!($ty),
                        " in the key format's number form"
                    ),
                ),
            }
        }
    };
}

macro_rules! unsigned_key_part {
    ($($ty:ty => $width:literal),* $(,)?) => {$(
        impl KeyPart for $ty {
            fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
                zero_padded(out, itoa::Buffer::new().format(*self), $width);
                Ok(())
            }

            fn key_len_hint(&self) -> usize {
                $width
            }

            fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
                parse_digits(text, $width, concat!("a zero-padded ", $width, "-digit ", stringify!($ty)))
            }

            integer_formats!($ty);
        }
    )*};
}

unsigned_key_part!(u8 => 3, u16 => 5, u32 => 10, u64 => 20, u128 => 39, usize => 20);

macro_rules! signed_key_part {
    ($($ty:ty as $unsigned:ty => $width:literal),* $(,)?) => {$(
        impl KeyPart for $ty {
            fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
                let mut digits = itoa::Buffer::new();
                if *self >= 0 {
                    zero_padded(out, digits.format(*self), $width);
                } else {
                    let distance = self.wrapping_sub(<$ty>::MIN) as $unsigned;
                    out.push('-');
                    zero_padded(out, digits.format(distance), $width);
                }
                Ok(())
            }

            fn key_len_hint(&self) -> usize {
                $width + 1
            }

            fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
                const EXPECTED: &str = concat!("a zero-padded ", $width, "-digit ", stringify!($ty));
                match text.strip_prefix('-') {
                    None => {
                        let value: $unsigned = parse_digits(text, $width, EXPECTED)?;
                        <$ty>::try_from(value).map_err(|_| malformed(text, EXPECTED))
                    }
                    Some(digits) => {
                        let distance: $unsigned = parse_digits(digits, $width, EXPECTED)?;
                        if distance > <$ty>::MAX as $unsigned {
                            return Err(malformed(text, EXPECTED));
                        }
                        Ok(<$ty>::MIN.wrapping_add(distance as $ty))
                    }
                }
            }

            integer_formats!($ty);
        }
    )*};
}

signed_key_part!(
    i8 as u8 => 3,
    i16 as u16 => 5,
    i32 as u32 => 10,
    i64 as u64 => 19,
    i128 as u128 => 39,
    isize as usize => 19,
);

#[cfg(test)]
mod tests {
    use super::*;

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
