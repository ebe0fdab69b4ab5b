//! The table and the car event, as rows store it and as the one-item-per-event baseline does.

use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub(crate) struct Iot;

/// One car's event at a millisecond (`at`, epoch ms), stored as multi-event rows.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{tenant}#{car}", sk = "{at}",
          event_rows(time = "at"))]
pub(crate) struct CarEvent {
    pub(crate) tenant: String,
    pub(crate) car: String,
    pub(crate) at: i64,
    pub(crate) speed: f64,
    pub(crate) seq: u32,
    pub(crate) door: Option<String>,
}

/// The same event as one item of its own: the baseline layout.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEventItem", pk = "CAR#{tenant}#{car}", sk = "{at}#{seq}")]
pub(crate) struct CarEventItem {
    pub(crate) tenant: String,
    pub(crate) car: String,
    pub(crate) at: i64,
    pub(crate) speed: f64,
    pub(crate) seq: u32,
    pub(crate) door: Option<String>,
}

impl From<&CarEvent> for CarEventItem {
    fn from(e: &CarEvent) -> Self {
        CarEventItem {
            tenant: e.tenant.clone(),
            car: e.car.clone(),
            at: e.at,
            speed: e.speed,
            seq: e.seq,
            door: e.door.clone(),
        }
    }
}
