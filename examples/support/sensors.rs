//! Seed 003's sensors: the entities of the `sensors` example, here so that the `model`
//! example and the guide's generated chart draw the very types the app stores.

use dynamap::model::Model;
use dynamap::{Entity, EntityEnum};
use time::{Duration, OffsetDateTime, macros::datetime};

use crate::tables::App;

/// A sensor's details: `SENSOR#<id>` / `SENSORINFO`, and in the location index under
/// `CITY#<city>` / `LOC#<building>#<floor>#<room>` when it has a room: a sensor without one
/// (on a roof, in a corridor) gets no index attributes, so the index stays sparse.
///
/// Every sensor also has a location item, `SITE#<city>` / `BUILDING#<building>#<floor>#<id>`,
/// written, moved and deleted with it in one transaction: seed 003's "additional item".
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = App,
    entity = "Sensor",
    pk = "SENSOR#{id}",
    sk = "SENSORINFO",
    index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{room}"),
    lookup(name = "site", pk = "SITE#{city}", sk = "BUILDING#{building}#{floor}#{id}")
)]
pub struct Sensor {
    /// The sensor's id.
    pub id: String,
    /// The city it is in.
    pub city: String,
    /// Its building.
    pub building: String,
    /// Its floor.
    pub floor: String,
    /// Its room; none on a roof or in a corridor.
    pub room: Option<String>,
    /// What it measures, stored as `type`.
    #[dynamap(rename = "type")]
    pub kind: String,
}

/// One reading, in the same partition as its sensor: `SENSOR#<id>` / `READ#<time>`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
pub struct Reading {
    /// The sensor that took it.
    pub sensor_id: String,
    /// When it was taken.
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub at: OffsetDateTime,
    /// What it read.
    pub value: f64,
}

/// What the sensor's partition holds: its details and its readings.
#[derive(EntityEnum, Debug)]
pub enum SensorItem {
    /// A sensor's details.
    Sensor(Sensor),
    /// One of its readings.
    Reading(Reading),
}

/// A sensor, from borrowed text.
pub fn sensor(
    id: &str,
    city: &str,
    building: &str,
    floor: &str,
    room: Option<&str>,
    kind: &str,
) -> Sensor {
    Sensor {
        id: id.into(),
        city: city.into(),
        building: building.into(),
        floor: floor.into(),
        room: room.map(Into::into),
        kind: kind.into(),
    }
}

/// When the example's readings start.
pub const READINGS_START: OffsetDateTime = datetime!(2020-03-01 12:30 UTC);

/// The data model of the sensors table: its entities, with two sensors (one on a roof,
/// without a room, so out of the location index) and two readings of the first as samples.
///
/// # Errors
///
/// Fails when a sample does not encode.
pub fn model() -> dynamap::Result<Model<App>> {
    let model = Model::<App>::new("sensors")
        .entity::<SensorItem>()
        .pattern::<Sensor>(None, "Sensor details")
        .pattern::<Reading>(None, "Latest readings of a sensor")
        .pattern::<Sensor>(Some("GSI1"), "Sensors by location (with a room)")
        .pattern::<Sensor>(Some("site"), "Every sensor by location")
        .sample(&sensor(
            "humidity-sensor-1",
            "Poznań",
            "A",
            "3",
            Some("112"),
            "humidity",
        ))?
        .sample(&sensor(
            "rain-sensor-8",
            "Poznań",
            "A",
            "roof",
            None,
            "rain",
        ))?;
    (0..2).try_fold(model, |model, minute| {
        model.sample(&Reading {
            sensor_id: "humidity-sensor-1".into(),
            at: READINGS_START + Duration::minutes(minute),
            value: 0.5 + 0.01 * minute as f64,
        })
    })
}
