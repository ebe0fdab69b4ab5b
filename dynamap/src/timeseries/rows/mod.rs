//! Multi-event rows: several events per (partition, timestamp) key in one item.
//!
//! A time series keyed by partition and millisecond timestamp can receive more than one
//! event at the same millisecond. Instead of one item per event, a multi-event row keeps
//! every event of one timestamp in one item, as a list of event ids and one id-to-value map
//! per field (the layout of seed 002's "Leveraging Maps").
//!
//! An event type is an ordinary [`Entity`] whose partition key names the series and whose
//! sort key is the timestamp, plus [`EventRow`]:
//!
//! ```no_run
//! use dynamap::{Entity, Table};
//! use dynamap::timeseries::rows::{EventRow, WritePath};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct Iot;
//!
//! #[derive(Entity, Debug, Clone, PartialEq)]
//! #[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{tenant}#{car}", sk = "{at}")]
//! struct CarEvent {
//!     tenant: String,
//!     car: String,
//!     at: i64, // epoch milliseconds
//!     speed: f64,
//!     door: Option<String>,
//! }
//!
//! impl EventRow for CarEvent {}
//!
//! # async fn example(db: dynamap::Db<Iot>) -> dynamap::Result<()> {
//! let rows = db.event_rows::<CarEvent>().write_path(WritePath::MapFirst);
//! let event = CarEvent { tenant: "n111".into(), car: "a_table".into(), at: 1, speed: 88.0, door: None };
//! let outcome = rows.write(&event).await?;
//! assert!(rows.write(&event).await?.status == dynamap::timeseries::rows::WriteStatus::AlreadyStored);
//!
//! let at_one: Vec<CarEvent> = rows.at(CarEvent::key("n111", "a_table", 1i64)).await?;
//! # Ok(()) }
//! ```
//!
//! # Row layout
//!
//! The seed's two events at timestamp 1 of tenant `n111`, table `a_table`, as one item:
//!
//! | attribute | value |
//! |---|---|
//! | `PK`, `SK` | `CAR#n111#a_table`, `00000000000000000001` (the entity's own key) |
//! | `_type` | `CarEvent` |
//! | `tenant`, `car`, `at` | the key fields, shared by every event of the row |
//! | `_ids` | `["2CsD…", "Xk0q…"]`: a list, in the order the events arrived |
//! | `_cap` | `250`: how many events the row takes |
//! | `speed` | `{"2CsD…": 88, "Xk0q…": 42}`: one map per other field, id to value |
//! | `door` | `{"Xk0q…": "open"}`: an event whose field is `None` has no entry |
//!
//! A row holds the fields of the key templates once (they are the same for every event of
//! the row) and every other attribute of [`Entity::to_item`] as a map. Reading rebuilds each
//! event's item from the shared attributes and each map's entry for its id, and decodes it
//! with [`Entity::from_item`].
//!
//! Ids are a list rather than a string set so that events read back in arrival order; a
//! list does not deduplicate by itself, so every add is conditioned on `NOT contains(_ids,
//! :id)`. Ids are [`EventId`]s: deterministic hashes of the event's whole item (so of its
//! content and timestamp), which makes writing an event again store nothing.
//!
//! # Overflow
//!
//! A row takes at most its cap of events: [`EventRow::ROW_CAP`] (default 250, the limit the
//! seed worked under), or [`EventRows::cap`]. The cap is stored in the row when the row is
//! created, so changing it later affects new rows only and never reopens a full one. A row
//! also closes (its `_cap` drops to 0) when the next event would take it past DynamoDB's
//! 400 KB item limit. Events past a full row go to the timestamp's overflow rows, with sort
//! keys `<sk>#0001`, `<sk>#0002`, … (and a `_row` attribute with the index). Writers try
//! rows in order and every row only ever fills, so no event is rejected, and a replayed
//! event finds the row that holds it. Reads include the overflow rows; events come back
//! row by row, each row in arrival order. An event too large to fit in an empty row is
//! refused before sending ([`Error::ItemTooLarge`](crate::Error::ItemTooLarge)).
//!
//! # Write paths
//!
//! Adding to a row that does not exist fails, and so does creating one that does: a write
//! has to guess which request to send first, and pays a second request when wrong
//! ([`WritePath`]: map-first, create-first, by the event's age, or adaptively from what
//! the handle's earlier writes found). Either way the outcome is the same: every request is a single
//! conditional write, and a refused one returns the row as it stood, so concurrent first
//! writers of a timestamp race safely (one creates the row, the others add to it) and a
//! write of an event already stored changes nothing. See the `write` module's notes for
//! why. Every retry loop is bounded; a write that keeps losing races returns
//! [`Error::Contention`](crate::Error::Contention).
//!
//! A field missing from an existing row (an optional field every earlier event left out,
//! or one added to the struct later) makes DynamoDB refuse the add; the write then adds
//! the missing maps with `if_not_exists` and adds again. Rows are created with an empty
//! map for every optional field to make this rare.
//!
//! # Limits
//!
//! Entities with a version field, lookup items or index templates are refused
//! ([`Error::EventRowUnsupported`](crate::Error::EventRowUnsupported)): a row is one item,
//! so it has one version and one index key, not one per event. The table's TTL attribute,
//! if the event has one, is stored in a map like any field, so DynamoDB's TTL does not
//! expire rows. Timestamps should have fixed-width encodings (integers,
//! `time::OffsetDateTime`), so that no other timestamp's row sorts among a timestamp's
//! overflow rows.

mod adaptive;
mod api;
mod event_time;
mod id;
mod layout;
mod outcome;
mod overflow;
mod read;
mod request;
mod write;

use std::time::SystemTime;

pub use api::EventRows;
pub use event_time::EventTime;
pub use id::EventId;
pub(crate) use layout::rows_of;
pub use outcome::{WriteOutcome, WritePath, WriteStatus};

use crate::Entity;

/// An entity stored as multi-event rows: the "entity option" for event types of which
/// several can share one (partition, timestamp) key. See the [module documentation](self).
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity)] #[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}")]
/// # struct CarEvent { car: String, at: i64, speed: f64 }
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use dynamap::timeseries::rows::EventRow;
///
/// impl EventRow for CarEvent {
///     const ROW_CAP: usize = 100;
///
///     fn event_time(&self) -> Option<SystemTime> {
///         Some(UNIX_EPOCH + Duration::from_millis(u64::try_from(self.at).ok()?))
///     }
/// }
/// ```
pub trait EventRow: Entity {
    /// How many events one row holds before later ones go to an overflow row.
    const ROW_CAP: usize = 250;

    /// When the event happened, for [`WritePath::Auto`]. `None` (the default) makes `Auto`
    /// write map-first.
    fn event_time(&self) -> Option<SystemTime> {
        None
    }
}
