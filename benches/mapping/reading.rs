//! The timestamp-keyed entity: the timestamp is in the sort key and is an attribute of its
//! own. The hand-written code renders it once, with fixed-width code, and copies the text
//! into both.

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::Entity;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::hand::{
    HandError, check_type, float, key, n, parse_timestamp, s, take_bool, take_n, take_opt_s,
    take_s, timestamp,
};
use crate::{Bench, Item};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamap(table = Bench, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
pub(crate) struct Reading {
    sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    #[serde(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    value: f64,
    unit: String,
    counter: i64,
    note: Option<String>,
    valid: bool,
}

pub(crate) fn reading(i: usize) -> Reading {
    let i64_i = i as i64;
    Reading {
        sensor_id: format!("sensor-{}", i % 31),
        at: datetime!(2024-01-01 00:00 UTC)
            + time::Duration::seconds(i64_i)
            + time::Duration::microseconds(i64_i % 1000),
        value: 20.0 + (i % 1000) as f64 * 0.013,
        unit: "celsius".to_owned(),
        counter: i64_i,
        note: i
            .is_multiple_of(4)
            .then(|| format!("calibrated by technician {}", i % 17)),
        valid: !i.is_multiple_of(10),
    }
}

pub(crate) fn reading_to_item(r: &Reading) -> Item {
    let at = timestamp(r.at);
    let at = std::str::from_utf8(&at).expect("ASCII digits and separators");
    let mut item = Item::with_capacity(10);
    item.insert("PK".to_owned(), key("SENSOR#", &r.sensor_id));
    item.insert("SK".to_owned(), key("READ#", at));
    item.insert("_type".to_owned(), s("Reading"));
    item.insert("sensor_id".to_owned(), s(&r.sensor_id));
    item.insert("at".to_owned(), s(at));
    item.insert("value".to_owned(), float(r.value));
    item.insert("unit".to_owned(), s(&r.unit));
    item.insert("counter".to_owned(), n(r.counter));
    if let Some(note) = &r.note {
        item.insert("note".to_owned(), s(note));
    }
    item.insert("valid".to_owned(), AttributeValue::Bool(r.valid));
    item
}

pub(crate) fn reading_from_item(mut item: Item) -> Result<Reading, HandError> {
    check_type(&item, "Reading")?;
    Ok(Reading {
        at: parse_timestamp(&take_s(&mut item, "at")?)?,
        sensor_id: take_s(&mut item, "sensor_id")?,
        value: take_n(&mut item, "value")?,
        unit: take_s(&mut item, "unit")?,
        counter: take_n(&mut item, "counter")?,
        note: take_opt_s(&mut item, "note")?,
        valid: take_bool(&mut item, "valid")?,
    })
}
