//! One stored attribute as the value of its column: a number parsed, a timestamp read from
//! text or epoch seconds, anything else rendered as a JSON document. A value that does not
//! fit its column is an error naming what was found, never a guess.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use dynamap::codec::AttributeValue;
use serde_json::{Map, Number, Value};

use crate::ColumnKind;

/// A column's value in one row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Bytes(Vec<u8>),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// `value` (absent: `None`) as a cell of a `kind` column.
pub(crate) fn cell(kind: ColumnKind, value: Option<AttributeValue>) -> Result<Cell, String> {
    let value = match value {
        None | Some(AttributeValue::Null(_)) => return Ok(Cell::Null),
        Some(value) => value,
    };
    match (kind, value) {
        (ColumnKind::Text, AttributeValue::S(text)) => Ok(Cell::Bytes(text.into_bytes())),
        (ColumnKind::Int, AttributeValue::N(n)) => n
            .parse()
            .map(Cell::Int)
            .map_err(|_| format!("the number {n} is not a 64-bit integer")),
        // Unsigned 64-bit integers are stored in INT64's bits, as Parquet's unsigned
        // integer type says.
        (ColumnKind::UInt, AttributeValue::N(n)) => n
            .parse::<u64>()
            .map(|n| Cell::Int(n.cast_signed()))
            .map_err(|_| format!("the number {n} is not an unsigned 64-bit integer")),
        (ColumnKind::Float, AttributeValue::N(n)) => n
            .parse()
            .map(Cell::Float)
            .map_err(|_| format!("the number {n} is not a float")),
        (ColumnKind::Bool, AttributeValue::Bool(b)) => Ok(Cell::Bool(b)),
        (ColumnKind::Binary, AttributeValue::B(blob)) => Ok(Cell::Bytes(blob.into_inner())),
        (ColumnKind::Timestamp, value) => timestamp_micros(&value).map(Cell::Int),
        (ColumnKind::Json, value) => Ok(Cell::Bytes(json(value).to_string().into_bytes())),
        (kind, value) => Err(format!(
            "a {} attribute cannot be a {kind:?} column's value",
            type_name(&value)
        )),
    }
}

/// A timestamp stored as RFC 3339 text or as epoch seconds, in microseconds since the epoch.
fn timestamp_micros(value: &AttributeValue) -> Result<i64, String> {
    match value {
        AttributeValue::N(seconds) => {
            if let Ok(seconds) = seconds.parse::<i64>() {
                return seconds
                    .checked_mul(1_000_000)
                    .ok_or_else(|| format!("{seconds} seconds is out of range"));
            }
            match seconds.parse::<f64>() {
                // Rounded to the microsecond; out-of-range values saturate, as `as` does.
                #[expect(clippy::cast_possible_truncation, reason = "rounded and saturating")]
                Ok(seconds) if seconds.is_finite() => Ok((seconds * 1e6).round() as i64),
                _ => Err(format!("{seconds} is not a number of seconds")),
            }
        }
        AttributeValue::S(text) => rfc3339_micros(text),
        other => Err(format!(
            "a {} attribute is not a timestamp",
            type_name(other)
        )),
    }
}

/// RFC 3339 text (how `time::OffsetDateTime` and `std::time::SystemTime` fields are stored)
/// in microseconds since the epoch. Read with `time` whatever dynamap's own features, so a
/// `SystemTime` column reads without dynamap's `time` feature.
fn rfc3339_micros(text: &str) -> Result<i64, String> {
    let at = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .map_err(|err| format!("`{text}` is not an RFC 3339 timestamp: {err}"))?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000)
        .map_err(|_| format!("`{text}` is out of range"))
}

/// The stored attribute as a plain JSON document: maps as objects, lists and sets as
/// arrays, numbers as numbers (as text when JSON cannot hold them exactly), binary as
/// base64 text.
pub(crate) fn json(value: AttributeValue) -> Value {
    match value {
        AttributeValue::S(text) => Value::String(text),
        AttributeValue::N(n) => number(n),
        AttributeValue::Bool(b) => Value::Bool(b),
        AttributeValue::B(blob) => Value::String(BASE64.encode(blob.as_ref())),
        AttributeValue::M(map) => {
            // Sorted, so equal items render equal documents.
            let mut entries: Vec<_> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(name, value)| (name, json(value)))
                    .collect::<Map<_, _>>(),
            )
        }
        AttributeValue::L(list) => Value::Array(list.into_iter().map(json).collect()),
        AttributeValue::Ss(set) => Value::Array(set.into_iter().map(Value::String).collect()),
        AttributeValue::Ns(set) => Value::Array(set.into_iter().map(number).collect()),
        AttributeValue::Bs(set) => Value::Array(
            set.into_iter()
                .map(|blob| Value::String(BASE64.encode(blob.as_ref())))
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// A DynamoDB number as a JSON number when it reads back as the same number, else as text
/// (DynamoDB keeps 38 digits, more than an `f64`).
fn number(n: String) -> Value {
    if let Ok(int) = n.parse::<i64>() {
        return Value::Number(int.into());
    }
    if let Ok(int) = n.parse::<u64>() {
        return Value::Number(int.into());
    }
    match n.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(float) if float.to_string() == n => Value::Number(float),
        _ => Value::String(n),
    }
}

fn type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "string (S)",
        AttributeValue::N(_) => "number (N)",
        AttributeValue::B(_) => "binary (B)",
        AttributeValue::Bool(_) => "boolean (BOOL)",
        AttributeValue::M(_) => "map (M)",
        AttributeValue::L(_) => "list (L)",
        AttributeValue::Ss(_) => "string set (SS)",
        AttributeValue::Ns(_) => "number set (NS)",
        AttributeValue::Bs(_) => "binary set (BS)",
        _ => "NULL or unknown",
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use dynamap::aws_sdk_dynamodb::primitives::Blob;
    use dynamap::codec::AttributeValue as Av;

    use super::{Cell, cell, json};
    use crate::ColumnKind;

    #[test]
    fn scalars_fill_their_columns() {
        let text = cell(ColumnKind::Text, Some(Av::S("Mary Ann".into())));
        assert_eq!(text, Ok(Cell::Bytes(b"Mary Ann".to_vec())));
        assert_eq!(
            cell(ColumnKind::Int, Some(Av::N("-4".into()))),
            Ok(Cell::Int(-4))
        );
        assert_eq!(
            cell(ColumnKind::UInt, Some(Av::N(u64::MAX.to_string()))),
            Ok(Cell::Int(-1))
        );
        assert_eq!(
            cell(ColumnKind::Float, Some(Av::N("0.5".into()))),
            Ok(Cell::Float(0.5))
        );
        assert_eq!(
            cell(ColumnKind::Bool, Some(Av::Bool(true))),
            Ok(Cell::Bool(true))
        );
        assert_eq!(cell(ColumnKind::Int, None), Ok(Cell::Null));
        assert_eq!(cell(ColumnKind::Text, Some(Av::Null(true))), Ok(Cell::Null));
    }

    #[test]
    fn timestamps_read_epoch_seconds_and_text() {
        let seconds = cell(ColumnKind::Timestamp, Some(Av::N("1583065800".into())));
        assert_eq!(seconds, Ok(Cell::Int(1_583_065_800_000_000)));
        assert_eq!(
            cell(
                ColumnKind::Timestamp,
                Some(Av::S("2020-03-01T12:30:00.000001000Z".into()))
            ),
            Ok(Cell::Int(1_583_065_800_000_001))
        );
        let wrong = cell(ColumnKind::Timestamp, Some(Av::Bool(true)));
        assert!(
            wrong.is_err_and(|e| e.contains("boolean (BOOL)")),
            "a bool is no timestamp"
        );
    }

    #[test]
    fn a_value_that_does_not_fit_is_an_error_naming_what_was_found() {
        let err =
            cell(ColumnKind::Int, Some(Av::S("4".into()))).expect_err("text in an int column");
        assert!(err.contains("string (S)"), "{err}");
        let err = cell(ColumnKind::Int, Some(Av::N("1e400".into()))).expect_err("too large");
        assert!(err.contains("1e400"), "{err}");
    }

    #[test]
    fn other_values_are_json_documents() {
        let map = Av::M(HashMap::from([
            (
                "b".to_owned(),
                Av::L(vec![Av::N("1".into()), Av::N("2.5".into())]),
            ),
            ("a".to_owned(), Av::Ss(vec!["x".into()])),
            ("c".to_owned(), Av::B(Blob::new(vec![0xff]))),
            (
                "d".to_owned(),
                Av::N("12345678901234567890123456789".into()),
            ),
        ]));
        assert_eq!(
            json(map).to_string(),
            r#"{"a":["x"],"b":[1,2.5],"c":"/w==","d":"12345678901234567890123456789"}"#
        );
    }
}
