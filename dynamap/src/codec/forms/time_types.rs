//! Stored forms of the `time` crate's types (feature `time`): date-times as fixed-width
//! text that sorts as time does, the same text their key parts use, and durations as a
//! number of seconds. Each also reads the forms serde stored before: `time`'s lists of
//! numbers, and the strings it writes when its `serde-human-readable` feature is on.

use time::format_description::BorrowedFormatItem;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use super::super::attribute::{Attribute, AttributeError};
use super::super::attribute_error::mismatch;
use super::seconds::{self, Seconds};
use super::std_types::not_a;
use super::{AttributeValue, numbers};
use crate::KeyPart;
use crate::key::{format_timestamp, parse_timestamp};

/// `time`'s human-readable forms (its `serde-human-readable` feature), read from items
/// stored while that feature was on somewhere in the build.
const HUMAN_OFFSET: &[BorrowedFormatItem<'_>] = format_description!(
    "[year]-[month]-[day] [hour]:[minute]:[second].[subsecond] [offset_hour sign:mandatory]:[offset_minute]:[offset_second]"
);
const HUMAN_PRIMITIVE: &[BorrowedFormatItem<'_>] =
    format_description!("[year]-[month]-[day] [hour]:[minute]:[second].[subsecond]");
const HUMAN_TIME: &[BorrowedFormatItem<'_>] =
    format_description!("[hour]:[minute]:[second].[subsecond]");

fn text_error(error: impl std::fmt::Display) -> AttributeError {
    AttributeError::new(error)
}

/// The date and time of serde's list form, `[year, ordinal, hour, minute, second,
/// nanosecond, ...]` from `at` on.
fn listed_date_time(list: &[AttributeValue]) -> Option<PrimitiveDateTime> {
    let [year, ordinal, hour, minute, second, nanosecond] = numbers::<6>(list.get(..6)?)?;
    let date =
        Date::from_ordinal_date(i32::try_from(year).ok()?, u16::try_from(ordinal).ok()?).ok()?;
    Some(PrimitiveDateTime::new(
        date,
        listed_time(&[hour, minute, second, nanosecond])?,
    ))
}

fn listed_time([hour, minute, second, nanosecond]: &[i64; 4]) -> Option<Time> {
    Time::from_hms_nano(
        u8::try_from(*hour).ok()?,
        u8::try_from(*minute).ok()?,
        u8::try_from(*second).ok()?,
        u32::try_from(*nanosecond).ok()?,
    )
    .ok()
}

/// serde's nine numbers: the local date and time, then the offset's hours, minutes and
/// seconds.
fn listed_offset_date_time(list: &[AttributeValue]) -> Option<OffsetDateTime> {
    let at = listed_date_time(list)?;
    let [hours, minutes, seconds] = numbers::<3>(list.get(6..)?)?;
    let offset = UtcOffset::from_hms(
        i8::try_from(hours).ok()?,
        i8::try_from(minutes).ok()?,
        i8::try_from(seconds).ok()?,
    )
    .ok()?;
    Some(at.assume_offset(offset))
}

/// `2020-03-01T12:30:00.000000000Z`: UTC, fixed width, what `codec::timestamp` and the
/// key part write. Reads serde's nine numbers and `time`'s human-readable text, and any
/// RFC 3339 timestamp.
impl Attribute for OffsetDateTime {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        format_timestamp(self)
            .map(AttributeValue::S)
            .map_err(text_error)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::S(text) => parse_timestamp(text).ok().or_else(|| {
                OffsetDateTime::parse(text, HUMAN_OFFSET)
                    .or_else(|_| OffsetDateTime::parse(text, &Rfc3339))
                    .ok()
            }),
            AttributeValue::L(list) if list.len() == 9 => listed_offset_date_time(list),
            _ => return Err(mismatch("a timestamp string (S)", &value)),
        };
        read.ok_or_else(|| {
            not_a(
                &value,
                "a UTC timestamp like 2020-03-01T12:30:00.000000000Z",
            )
        })
    }
}

/// `2020-03-01T12:30:00.000000000`: the timestamp text without the `Z`, as the value has
/// no offset. Reads serde's six numbers and `time`'s human-readable text.
impl Attribute for PrimitiveDateTime {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        let mut text = format_timestamp(&self.assume_utc()).map_err(text_error)?;
        text.pop(); // the `Z`
        Ok(AttributeValue::S(text))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::S(text) => parse_timestamp(&format!("{text}Z"))
                .map(|at| PrimitiveDateTime::new(at.date(), at.time()))
                .ok()
                .or_else(|| PrimitiveDateTime::parse(text, HUMAN_PRIMITIVE).ok()),
            AttributeValue::L(list) if list.len() == 6 => listed_date_time(list),
            _ => return Err(mismatch("a date-time string (S)", &value)),
        };
        read.ok_or_else(|| not_a(&value, "a date-time like 2020-03-01T12:30:00.000000000"))
    }
}

/// `2020-03-01`, the date's key part. Reads serde's `[year, ordinal]`.
impl Attribute for Date {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        let mut text = String::with_capacity(10);
        self.write_key_part(&mut text).map_err(text_error)?;
        Ok(AttributeValue::S(text))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::S(text) => Date::parse_key_part(text).ok(),
            AttributeValue::L(list) => numbers::<2>(list).and_then(|[year, ordinal]| {
                Date::from_ordinal_date(i32::try_from(year).ok()?, u16::try_from(ordinal).ok()?)
                    .ok()
            }),
            _ => return Err(mismatch("a date string (S)", &value)),
        };
        read.ok_or_else(|| not_a(&value, "a date like 2020-03-01"))
    }
}

/// `12:30:00.000000000`: fixed width, so text order is time order. Reads serde's
/// `[hour, minute, second, nanosecond]` and `time`'s human-readable text.
impl Attribute for Time {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        let (hour, minute, second, nanos) = self.as_hms_nano();
        Ok(AttributeValue::S(format!(
            "{hour:02}:{minute:02}:{second:02}.{nanos:09}"
        )))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::S(text) => parse_timestamp(&format!("2000-01-01T{text}Z"))
                .map(OffsetDateTime::time)
                .ok()
                .or_else(|| Time::parse(text, HUMAN_TIME).ok()),
            AttributeValue::L(list) => numbers::<4>(list).and_then(|time| listed_time(&time)),
            _ => return Err(mismatch("a time string (S)", &value)),
        };
        read.ok_or_else(|| not_a(&value, "a time of day like 12:30:00.000000000"))
    }
}

/// A number of seconds, `-90.5`, exact to the nanosecond. Reads serde's `[seconds,
/// nanoseconds]` and `time`'s human-readable text (`-90.500000000`).
impl Attribute for Duration {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::N(seconds::format(Seconds {
            negative: self.is_negative(),
            secs: self.whole_seconds().unsigned_abs(),
            nanos: self.subsec_nanoseconds().unsigned_abs(),
        })))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let from_seconds = |text: &str| {
            let Seconds {
                negative,
                secs,
                nanos,
            } = seconds::parse(text)?;
            let secs = i128::from(secs);
            let secs = i64::try_from(if negative { -secs } else { secs }).ok()?;
            let nanos = i32::try_from(nanos).ok()?;
            Some(Duration::new(secs, if negative { -nanos } else { nanos }))
        };
        let read = match &value {
            AttributeValue::N(text) | AttributeValue::S(text) => from_seconds(text),
            AttributeValue::L(list) => numbers::<2>(list).and_then(|[secs, nanos]| {
                let nanos = i32::try_from(nanos)
                    .ok()
                    .filter(|n| n.abs() < 1_000_000_000)?;
                Some(Duration::new(secs, nanos))
            }),
            _ => return Err(mismatch("a number of seconds (N)", &value)),
        };
        read.ok_or_else(|| not_a(&value, "a number of seconds"))
    }
}

#[cfg(test)]
mod tests {
    use time::macros::{date, datetime, time};

    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    fn list(numbers: &[i64]) -> AttributeValue {
        AttributeValue::L(
            numbers
                .iter()
                .map(|n| AttributeValue::N(n.to_string()))
                .collect(),
        )
    }

    /// Writes `text` and reads it back, and reads each old form as the same value.
    fn pinned<T>(value: T, stored: AttributeValue, old: &[AttributeValue])
    where
        T: Attribute + PartialEq + std::fmt::Debug + serde::Serialize + Copy,
    {
        assert_eq!(value.to_attribute(), Ok(stored.clone()));
        assert_eq!(T::from_attribute(stored), Ok(value));
        // What serde stored in this build (`time`'s list form; its text form when the
        // build turned on `serde-human-readable`) reads back too.
        let serde = crate::codec::serialized(&value).expect("serde stores it");
        assert_eq!(T::from_attribute(serde), Ok(value));
        for form in old {
            assert_eq!(T::from_attribute(form.clone()), Ok(value), "{form:?}");
        }
    }

    #[test]
    fn offset_date_times_are_utc_timestamp_text() {
        pinned(
            datetime!(2020-03-01 14:30:00.5 +02:00),
            s("2020-03-01T12:30:00.500000000Z"),
            &[
                list(&[2020, 61, 14, 30, 0, 500_000_000, 2, 0, 0]),
                s("2020-03-01 14:30:00.5 +02:00:00"),
                s("2020-03-01T12:30:00.5Z"),
            ],
        );
        assert!(datetime!(-0001-12-31 0:00 UTC).to_attribute().is_err());
        assert!(OffsetDateTime::from_attribute(list(&[2020, 400, 0, 0, 0, 0, 0, 0, 0])).is_err());
        assert!(OffsetDateTime::from_attribute(s("yesterday")).is_err());
    }

    #[test]
    fn primitive_date_times_are_the_text_without_z() {
        pinned(
            datetime!(2020-03-01 12:30:00.000000001),
            s("2020-03-01T12:30:00.000000001"),
            &[
                list(&[2020, 61, 12, 30, 0, 1]),
                s("2020-03-01 12:30:00.000000001"),
            ],
        );
        assert!(PrimitiveDateTime::from_attribute(s("2020-03-01T12:30:00.000000001Z")).is_err());
    }

    #[test]
    fn dates_are_their_key_part() {
        pinned(
            date!(2026 - 11 - 26),
            s("2026-11-26"),
            &[list(&[2026, 330])],
        );
        assert!(Date::from_attribute(s("2026-11-31")).is_err());
    }

    #[test]
    fn times_are_fixed_width_text() {
        pinned(
            time!(07:05:09.25),
            s("07:05:09.250000000"),
            &[list(&[7, 5, 9, 250_000_000]), s("07:05:09.25")],
        );
        assert!(Time::from_attribute(s("24:00:00.000000000")).is_err());
    }

    #[test]
    fn durations_are_exact_seconds() {
        pinned(
            Duration::new(-90, -500_000_000),
            AttributeValue::N("-90.5".into()),
            &[list(&[-90, -500_000_000]), s("-90.500000000")],
        );
        pinned(
            Duration::nanoseconds(1),
            AttributeValue::N("0.000000001".into()),
            &[list(&[0, 1]), s("0.000000001")],
        );
        pinned(
            Duration::MIN,
            AttributeValue::N("-9223372036854775808.999999999".into()),
            &[],
        );
        assert!(Duration::from_attribute(list(&[0, 1_000_000_000])).is_err());
    }
}
