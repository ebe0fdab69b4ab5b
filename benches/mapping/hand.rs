//! What a careful user writes without a mapper: one helper per attribute type, strings moved
//! out of the item rather than cloned, and the timestamp in dynamap's stored form written
//! and read with fixed-width code.

use aws_sdk_dynamodb::types::AttributeValue;
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use crate::Item;

/// Why a hand-written decoder rejected an item (attribute name, problem).
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` when a decode fails
pub(crate) struct HandError(pub(crate) &'static str, pub(crate) &'static str);

pub(crate) fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

/// A key: a prefix and one part, in one allocation of the exact size.
pub(crate) fn key(prefix: &str, part: &str) -> AttributeValue {
    let mut key = String::with_capacity(prefix.len() + part.len());
    key.push_str(prefix);
    key.push_str(part);
    AttributeValue::S(key)
}

/// An integer, written with `itoa` (the text `Display` writes, faster).
pub(crate) fn n(value: impl itoa::Integer) -> AttributeValue {
    AttributeValue::N(itoa::Buffer::new().format(value).to_owned())
}

/// A float, written by `Display` (a shortest-digits writer spells a few values differently).
pub(crate) fn float(value: f64) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

pub(crate) fn check_type(item: &Item, expected: &str) -> Result<(), HandError> {
    match item.get("_type") {
        Some(AttributeValue::S(t)) if t == expected => Ok(()),
        _ => Err(HandError("_type", "another entity")),
    }
}

pub(crate) fn take_s(item: &mut Item, name: &'static str) -> Result<String, HandError> {
    match item.remove(name) {
        Some(AttributeValue::S(s)) => Ok(s),
        Some(_) => Err(HandError(name, "not a string")),
        None => Err(HandError(name, "missing")),
    }
}

pub(crate) fn take_opt_s(item: &mut Item, name: &'static str) -> Result<Option<String>, HandError> {
    match item.remove(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::S(s)) => Ok(Some(s)),
        Some(_) => Err(HandError(name, "not a string")),
    }
}

pub(crate) fn parse_n<T: std::str::FromStr>(
    value: &AttributeValue,
    name: &'static str,
) -> Result<T, HandError> {
    value
        .as_n()
        .map_err(|_| HandError(name, "not a number"))?
        .parse()
        .map_err(|_| HandError(name, "number out of range"))
}

pub(crate) fn take_n<T: std::str::FromStr>(
    item: &mut Item,
    name: &'static str,
) -> Result<T, HandError> {
    parse_n(&item.remove(name).ok_or(HandError(name, "missing"))?, name)
}

pub(crate) fn take_bool(item: &mut Item, name: &'static str) -> Result<bool, HandError> {
    match item.remove(name) {
        Some(AttributeValue::Bool(b)) => Ok(b),
        _ => Err(HandError(name, "not a boolean")),
    }
}

pub(crate) fn take_list(
    item: &mut Item,
    name: &'static str,
) -> Result<Vec<AttributeValue>, HandError> {
    match item.remove(name) {
        Some(AttributeValue::L(list)) => Ok(list),
        _ => Err(HandError(name, "not a list")),
    }
}

pub(crate) fn take_map(item: &mut Item, name: &'static str) -> Result<Item, HandError> {
    match item.remove(name) {
        Some(AttributeValue::M(map)) => Ok(map),
        _ => Err(HandError(name, "not a map")),
    }
}

pub(crate) fn strings(values: &[String]) -> AttributeValue {
    AttributeValue::L(values.iter().map(|v| s(v)).collect())
}

pub(crate) fn read_strings(
    list: Vec<AttributeValue>,
    name: &'static str,
) -> Result<Vec<String>, HandError> {
    list.into_iter()
        .map(|v| match v {
            AttributeValue::S(s) => Ok(s),
            _ => Err(HandError(name, "not a string")),
        })
        .collect()
}

/// The length of `2024-01-01T00:00:00.000000000Z`.
pub(crate) const TIMESTAMP_LEN: usize = 30;

/// `at` in UTC as `2024-01-01T00:00:00.000000000Z`, into a buffer on the stack: rendered
/// once, then copied wherever it is stored (years 0 to 9999, as the bench's values are).
pub(crate) fn timestamp(at: OffsetDateTime) -> [u8; TIMESTAMP_LEN] {
    let utc = at.to_offset(UtcOffset::UTC);
    let (year, month, day) = utc.to_calendar_date();
    let (hour, minute, second, nanos) = utc.to_hms_nano();
    let mut out = *b"0000-00-00T00:00:00.000000000Z";
    let mut digits = |end: usize, mut n: u32, width: usize| {
        for i in (end - width..end).rev() {
            out[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
    };
    digits(4, year as u32, 4);
    digits(7, u32::from(month as u8), 2);
    digits(10, u32::from(day), 2);
    digits(13, u32::from(hour), 2);
    digits(16, u32::from(minute), 2);
    digits(19, u32::from(second), 2);
    digits(29, nanos, 9);
    out
}

/// Reads what [`timestamp`] writes.
pub(crate) fn parse_timestamp(text: &str) -> Result<OffsetDateTime, HandError> {
    let fail = || HandError("at", "not a timestamp");
    let bytes = text.as_bytes();
    if bytes.len() != TIMESTAMP_LEN || bytes[29] != b'Z' {
        return Err(fail());
    }
    let number = |from: usize, width: usize| {
        bytes[from..from + width].iter().try_fold(0u32, |n, &b| {
            b.is_ascii_digit()
                .then(|| n * 10 + u32::from(b - b'0'))
                .ok_or_else(fail)
        })
    };
    let month = Month::try_from(number(5, 2)? as u8).map_err(|_| fail())?;
    let date = Date::from_calendar_date(number(0, 4)? as i32, month, number(8, 2)? as u8)
        .map_err(|_| fail())?;
    let time = Time::from_hms_nano(
        number(11, 2)? as u8,
        number(14, 2)? as u8,
        number(17, 2)? as u8,
        number(20, 9)?,
    )
    .map_err(|_| fail())?;
    Ok(PrimitiveDateTime::new(date, time).assume_utc())
}
