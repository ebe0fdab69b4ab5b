//! Entities for the transaction, versioning and lookup tests.

use dynamap::Entity;

use crate::models::App;

/// A counter updated with optimistic locking.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Counter", pk = "COUNTER#{id}", sk = "COUNTER")]
pub(crate) struct Counter {
    pub(crate) id: String,
    pub(crate) value: u64,
    #[dynamap(version)]
    pub(crate) version: u64,
}

/// Seed 003's sensor with its location kept in an extra item, synced by transactions.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = App,
    entity = "PlacedSensor",
    pk = "PLACED#{id}",
    sk = "INFO",
    lookup(name = "location", pk = "CITY#{city}", sk = "LOCATION#{building}#{floor}#{room}#{id}")
)]
pub(crate) struct PlacedSensor {
    pub(crate) id: String,
    pub(crate) city: String,
    pub(crate) building: String,
    pub(crate) floor: String,
    pub(crate) room: String,
}

/// One user per e-mail address: a lookup used as a uniqueness guard.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Member", pk = "MEMBER#{id}", sk = "PROFILE", lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
pub(crate) struct Member {
    pub(crate) id: String,
    pub(crate) email: String,
}

/// A device with fields of every kind an update touches.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
pub(crate) struct Device {
    pub(crate) id: String,
    #[dynamap(rename = "status")]
    pub(crate) state: String,
    pub(crate) alarms: u32,
    pub(crate) balance: i64,
    pub(crate) tags: Vec<String>,
    pub(crate) note: Option<String>,
}
