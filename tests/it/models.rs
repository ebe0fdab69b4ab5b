//! The entities the tests store: seed 003's sensors and readings, and one entity using every
//! kind of key part.

use dynamap::{Entity, KeyPart, Table};
use time::OffsetDateTime;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    ttl = "expires_at",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub(crate) struct App;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = App,
    entity = "Sensor",
    pk = "SENSOR#{id}",
    sk = "SENSORINFO",
    index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{room}")
)]
pub(crate) struct Sensor {
    pub(crate) id: String,
    pub(crate) city: String,
    pub(crate) building: String,
    pub(crate) floor: String,
    /// Sensors not yet placed in a room stay out of the location index.
    pub(crate) room: Option<String>,
    #[dynamap(rename = "type")]
    pub(crate) kind: SensorKind,
    pub(crate) note: Option<String>,
    #[dynamap(skip)]
    pub(crate) cached_label: String,
}

#[derive(
    KeyPart,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub(crate) enum SensorKind {
    Gas,
    Humidity,
    #[serde(rename = "co2")] // the key and the stored attribute both say `co2`
    CarbonDioxide,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
pub(crate) struct Reading {
    pub(crate) sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) at: OffsetDateTime,
    pub(crate) value: f64,
}

#[derive(KeyPart, Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Tenant(pub(crate) String);

/// Every kind of key part in one sort key.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Sample", pk = "TENANT#{tenant}", sk = "S#{small}#{big}#{at}#{id}#{kind}")]
pub(crate) struct Sample {
    pub(crate) tenant: Tenant,
    pub(crate) small: u8,
    pub(crate) big: i64,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) at: OffsetDateTime,
    pub(crate) id: uuid::Uuid,
    pub(crate) kind: SensorKind,
}

pub(crate) fn sensor(id: &str) -> Sensor {
    Sensor {
        id: id.to_owned(),
        city: "Poznań".to_owned(),
        building: "A".to_owned(),
        floor: "2".to_owned(),
        room: Some("13".to_owned()),
        kind: SensorKind::Gas,
        note: None,
        cached_label: String::new(),
    }
}

/// A game's scores, ordered by score (negative ones too), ties broken by user.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
pub(crate) struct Score {
    pub(crate) game: String,
    pub(crate) score: i64,
    pub(crate) user: String,
}

/// A customer's orders by time (seed 001).
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{placed_at}")]
pub(crate) struct Order {
    pub(crate) customer: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) placed_at: OffsetDateTime,
    pub(crate) total: f64,
}

/// A sensor with the readings of its partition, as one query returns them (seed 003).
#[derive(dynamap::EntityEnum, Debug, Clone, PartialEq)]
pub(crate) enum SensorItem {
    Sensor(Sensor),
    Reading(Reading),
}

/// One follower's timeline entry (seed 004), written for every follower when a streamer goes
/// live. The sort key is time, then stream id, so events at the same instant stay distinct.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Timeline", pk = "USER#{follower}", sk = "TL#{at}#{stream}")]
pub(crate) struct TimelineEntry {
    pub(crate) follower: u64,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) at: OffsetDateTime,
    pub(crate) stream: String,
    pub(crate) streamer: String,
    /// Time to live: a month after the event, in epoch seconds.
    pub(crate) expires_at: i64,
}
