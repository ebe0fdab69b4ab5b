//! The benchmark's table and entity: a sensor reading, as an application would store it.

use dynamap::{Entity, Table};
use time::OffsetDateTime;
use time::macros::datetime;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub(crate) struct BenchTable;

/// A sensor reading, as an application would store it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = BenchTable, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
pub(crate) struct Reading {
    pub(crate) sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) at: OffsetDateTime,
    pub(crate) value: f64,
    pub(crate) unit: String,
    pub(crate) counter: i64,
    pub(crate) note: Option<String>,
    pub(crate) valid: bool,
}

/// The `i`th reading of a sensor: distinct timestamps, a note on every fourth.
pub(crate) fn reading(sensor_id: &str, i: usize) -> Reading {
    let i64_i = i64::try_from(i).expect("index fits in i64");
    Reading {
        sensor_id: sensor_id.to_owned(),
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
