//! Seed 000's nights: the entity of the `sleep_events` example, here so that the `model`
//! example draws the very type the app stores.

use dynamap::Entity;
use dynamap::model::Model;

use crate::sleep::{self, Event, NIGHT};
use crate::tables::SleepTable;

/// One user's night: `ACCOUNT#<id>` / `NIGHT#<date>`. The event list is one compressed
/// binary attribute, named as in the seed; its codec is recorded in the value's header
/// instead of a separate `compression_type` attribute.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = SleepTable,
    entity = "Night",
    pk = "ACCOUNT#{account_id}",
    sk = "NIGHT#{target_date_of_night}"
)]
pub struct Night {
    /// The user's account.
    pub account_id: String,
    /// The date of the night, in the user's local time.
    pub target_date_of_night: String,
    /// How many times the events were processed.
    pub revision: u32,
    /// The night's events, stored compressed.
    #[dynamap(rename = "events_data", compress)]
    pub events: Vec<Event>,
}

/// The data model of the sleep table: one night, with the first minutes of its events (a
/// whole night's list is one binary attribute of about 10 KB either way).
///
/// # Errors
///
/// Fails when the sample does not encode.
pub fn model() -> dynamap::Result<Model<SleepTable>> {
    let mut events = sleep::night(42);
    events.truncate(6);
    Model::<SleepTable>::new("sleep_events")
        .pattern::<Night>(None, "A user's nights")
        .sample(&Night {
            account_id: "A1".into(),
            target_date_of_night: NIGHT.into(),
            revision: 1,
            events,
        })
}
