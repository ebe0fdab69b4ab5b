//! `time::OffsetDateTime` and `time::Date` as key parts: the fixed-width UTC text that
//! sorts as time does.

use super::{KeyPart, KeyPartError, malformed};
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

const EXPECTED: &str = "a UTC timestamp like 2020-03-01T12:30:00.000000000Z";
/// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`: fixed width, so text order is time order.
const LEN: usize = 30;

fn out_of_range(value: &OffsetDateTime) -> KeyPartError {
    KeyPartError::OutOfRange {
        value: value.to_string(),
        supported: "years 0000 to 9999 (UTC)",
    }
}

/// Renders a timestamp in the fixed-width, order-preserving UTC form keys use.
pub(crate) fn format(value: &OffsetDateTime) -> Result<String, KeyPartError> {
    render(value).map(|text| text.as_str().to_owned())
}

/// [`format`]'s text, on the stack: rendered once, it can be copied into a key and an
/// attribute alike.
#[derive(Clone, Copy)]
struct Text([u8; LEN]);

impl Text {
    fn as_str(&self) -> &str {
        // Only ASCII digits and separators are ever written, so this never fails.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// [`format`]'s text, written digit by digit into a buffer on the stack: every key and
/// timestamp field goes through here.
fn render(value: &OffsetDateTime) -> Result<Text, KeyPartError> {
    // Near the ends of `time`'s range, moving to UTC can leave it: an error, not a panic.
    let utc = value
        .checked_to_offset(UtcOffset::UTC)
        .ok_or_else(|| out_of_range(value))?;
    let (year, month, day) = utc.to_calendar_date();
    let year = u32::try_from(year)
        .ok()
        .filter(|y| *y <= 9999)
        .ok_or_else(|| out_of_range(value))?;
    let (hour, minute, second, nanosecond) = utc.to_hms_nano();
    let mut text = *b"0000-00-00T00:00:00.000000000Z";
    // Each number ends where its separator is.
    let mut digits = |end: usize, n: u32, width: usize| {
        let mut n = n;
        for digit in text[end - width..end].iter_mut().rev() {
            *digit = b'0' + (n % 10) as u8;
            n /= 10;
        }
    };
    digits(4, year, 4);
    digits(7, u32::from(u8::from(month)), 2);
    digits(10, u32::from(day), 2);
    digits(13, u32::from(hour), 2);
    digits(16, u32::from(minute), 2);
    digits(19, u32::from(second), 2);
    digits(29, nanosecond, 9);
    Ok(Text(text))
}

/// Parses the form [`format`] writes, and only that form.
pub(crate) fn parse(text: &str) -> Result<OffsetDateTime, KeyPartError> {
    let bytes = text.as_bytes();
    let fail = || malformed(text, EXPECTED);
    if bytes.len() != LEN {
        return Err(fail());
    }
    for (at, separator) in [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
        (29, b'Z'),
    ] {
        if bytes[at] != separator {
            return Err(fail());
        }
    }
    let number = |from: usize, width: usize| -> Result<u32, KeyPartError> {
        bytes[from..from + width].iter().try_fold(0u32, |n, &b| {
            if b.is_ascii_digit() {
                Ok(n * 10 + u32::from(b - b'0'))
            } else {
                Err(fail())
            }
        })
    };
    let small = |n: u32| u8::try_from(n).map_err(|_| fail());
    let year = i32::try_from(number(0, 4)?).map_err(|_| fail())?;
    let month = Month::try_from(small(number(5, 2)?)?).map_err(|_| fail())?;
    let date = Date::from_calendar_date(year, month, small(number(8, 2)?)?).map_err(|_| fail())?;
    let time = Time::from_hms_nano(
        small(number(11, 2)?)?,
        small(number(14, 2)?)?,
        small(number(17, 2)?)?,
        number(20, 9)?,
    )
    .map_err(|_| fail())?;
    Ok(PrimitiveDateTime::new(date, time).assume_utc())
}

impl KeyPart for OffsetDateTime {
    fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(render(self)?.as_str());
        Ok(())
    }

    fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
        parse(text)
    }

    const ESCAPE_FREE: bool = true;

    fn key_len_hint(&self) -> usize {
        LEN
    }
}

/// A calendar date, `2026-11-26`: the date part of the timestamp form, so dates sort
/// as they follow each other (years 0000 to 9999) and a day computed from a timestamp
/// reads as the timestamp's own prefix.
impl KeyPart for Date {
    fn write_key_part(&self, out: &mut String) -> Result<(), KeyPartError> {
        let text = render(&self.midnight().assume_utc())?;
        out.push_str(&text.as_str()[..DATE_LEN]);
        Ok(())
    }

    const ESCAPE_FREE: bool = true;

    fn key_len_hint(&self) -> usize {
        DATE_LEN
    }

    fn parse_key_part(text: &str) -> Result<Self, KeyPartError> {
        let fail = || malformed(text, "a date like 2026-11-26");
        if text.len() != DATE_LEN {
            return Err(fail());
        }
        parse(&format!("{text}T00:00:00.000000000Z"))
            .map(OffsetDateTime::date)
            .map_err(|_| fail())
    }
}

/// `YYYY-MM-DD`.
const DATE_LEN: usize = 10;

#[cfg(test)]
mod tests {
    use time::format_description::FormatItem;
    use time::macros::{datetime, format_description};

    use super::*;

    /// The form as `time`'s own formatter writes it: the reference the fast code must match.
    const FORMAT: &[FormatItem<'static>] =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:9]Z");

    #[test]
    fn writes_and_reads_what_the_time_format_does() {
        for value in [
            datetime!(0000-01-01 00:00:00 UTC),
            datetime!(2020-03-01 12:30:00.000000001 UTC),
            datetime!(2024-02-29 23:59:59.999999999 UTC),
            datetime!(9999-12-31 23:59:59.999999999 UTC),
            datetime!(2026-11-25 05:00:00 +05:30),
        ] {
            let expected = value
                .to_offset(UtcOffset::UTC)
                .format(FORMAT)
                .expect("formats");
            assert_eq!(format(&value).expect("in range"), expected);
            assert_eq!(parse(&expected), Ok(value));
        }
    }

    #[test]
    fn dates_are_the_timestamp_prefix_and_sort_in_order() {
        let mut text = String::new();
        datetime!(2026-11-26 23:59:59 UTC)
            .date()
            .write_key_part(&mut text)
            .expect("in range");
        assert_eq!(text, "2026-11-26");
        assert_eq!(
            Date::parse_key_part(&text),
            Ok(datetime!(2026-11-26 0:00 UTC).date())
        );
        let days = [
            "0001-01-01",
            "0999-12-31",
            "2026-02-28",
            "2026-11-26",
            "9999-12-31",
        ];
        assert!(days.windows(2).all(|w| w[0] < w[1]));
        for day in days {
            let date = Date::parse_key_part(day).expect("a date");
            let mut again = String::new();
            date.write_key_part(&mut again).expect("in range");
            assert_eq!(again, day);
        }
        for bad in ["", "2026-11-26T", "2026-02-30", "26-11-26", "2026/11/26"] {
            assert!(Date::parse_key_part(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn refuses_anything_else() {
        for text in [
            "",
            "2020-03-01T12:30:00.000000000",
            "2020-03-01T12:30:00.000000000z",
            "2020-03-01 12:30:00.000000000Z",
            "2020-02-30T12:30:00.000000000Z",
            "2020-13-01T12:30:00.000000000Z",
            "2020-03-01T24:00:00.000000000Z",
            "2020-03-01T12:60:00.000000000Z",
            "2020-03-01T12:30:60.000000000Z",
            "+020-03-01T12:30:00.000000000Z",
            "2020-03-01T12:30:00.00000000xZ",
            "2020-03-01T12:30:00.0000000000Z",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
