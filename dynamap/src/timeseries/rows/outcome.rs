//! How a write starts, and what it did.

use std::time::{Duration, SystemTime};

use super::EventId;

/// Which request a write tries first. Every path stores each event exactly once; they differ
/// in how many requests a write takes (see the [module documentation](super#write-paths)).
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity, Debug, Clone, PartialEq)]
/// # #[dynamap(table = Iot, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
/// # struct Ping { device: String, at: i64, value: i64 }
/// # async fn example(db: dynamap::Db<Iot>) -> dynamap::Result<()> {
/// use dynamap::timeseries::rows::WritePath;
/// // An upload of old events: their rows mostly exist already, so start by adding.
/// let uploads = db.event_rows::<Ping>().write_path(WritePath::MapFirst);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WritePath {
    /// Add to the row assuming it exists; create it when it does not. One request when the
    /// timestamp already has events, two for a new timestamp. The seed's choice.
    MapFirst,
    /// Create the row assuming it does not exist; add to it when it does. One request for a
    /// new timestamp, two when the timestamp already has events.
    CreateFirst,
    /// Create-first for events whose [`EventRow::event_time`](super::EventRow::event_time)
    /// is within `recent` of now (a new timestamp is likely), map-first for older ones and
    /// for events that do not tell their time: the seed's "if it's within the last 5
    /// seconds, assume it's new".
    Auto {
        /// How recent an event must be to be assumed new.
        recent: Duration,
    },
    /// Learns from the handle's own writes: create-first while at most two thirds of its
    /// recent writes found their timestamp's row already there, map-first otherwise. Each
    /// path costs one request when its guess is right and two when wrong (map-first three
    /// when writers of a new timestamp race, hence the lean to create-first), so this
    /// follows the cheaper one whatever the events' age; it helps most in a backfill, where `Auto`
    /// judges old events by age alone and guesses "the row exists" for what are mostly new
    /// timestamps. Keep one [`EventRows`](super::EventRows) handle (or its clones) for the
    /// whole ingest, since the learning lives in the handle.
    Adaptive,
}

impl Default for WritePath {
    /// [`WritePath::Auto`] with the seed's 5 seconds.
    fn default() -> Self {
        WritePath::Auto {
            recent: Duration::from_secs(5),
        }
    }
}

impl WritePath {
    /// Whether a write of an event at `time` starts by creating the row.
    /// `Adaptive` is decided by the handle, which knows what its writes found.
    pub(crate) fn create_first(self, time: Option<SystemTime>, now: SystemTime) -> bool {
        match self {
            WritePath::MapFirst | WritePath::Adaptive => false,
            WritePath::CreateFirst => true,
            WritePath::Auto { recent } => time.is_some_and(|t| match now.duration_since(t) {
                Ok(age) => age <= recent,
                // A timestamp in the future: as new as it gets.
                Err(_) => true,
            }),
        }
    }
}

/// What one write did.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity, Debug, Clone, PartialEq)]
/// # #[dynamap(table = Iot, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
/// # struct Ping { device: String, at: i64, value: i64 }
/// # async fn example(db: dynamap::Db<Iot>) -> dynamap::Result<()> {
/// let outcome = db.event_rows::<Ping>().write(&Ping { device: "d1".into(), at: 1, value: 7 }).await?;
/// println!("row {}, {} request(s), stored: {}", outcome.row, outcome.requests, outcome.stored());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOutcome {
    /// The event's id.
    pub id: EventId,
    /// The row holding the event: 0 for the timestamp's first row, `n` for its `n`th
    /// overflow row.
    pub row: u32,
    /// Whether this write stored the event, or found it already stored.
    pub status: WriteStatus,
    /// Whether the write started by creating the row (create-first) or by adding to it
    /// (map-first).
    pub started_with_create: bool,
    /// How many DynamoDB requests the write took.
    pub requests: u32,
}

/// Whether a write stored its event.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity, Debug, Clone, PartialEq)]
/// # #[dynamap(table = Iot, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
/// # struct Ping { device: String, at: i64, value: i64 }
/// # async fn example(db: dynamap::Db<Iot>) -> dynamap::Result<()> {
/// use dynamap::timeseries::rows::WriteStatus;
/// let ping = Ping { device: "d1".into(), at: 1, value: 7 };
/// let rows = db.event_rows::<Ping>();
/// rows.write(&ping).await?;
/// assert_eq!(rows.write(&ping).await?.status, WriteStatus::AlreadyStored);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteStatus {
    /// This write stored the event.
    Stored,
    /// The event was already stored (by an earlier or concurrent write of the same event),
    /// so nothing changed.
    AlreadyStored,
}

impl WriteOutcome {
    /// True when this write stored the event.
    pub fn stored(&self) -> bool {
        self.status == WriteStatus::Stored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_creates_first_for_recent_events_only() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let path = WritePath::Auto {
            recent: Duration::from_secs(5),
        };
        assert!(path.create_first(Some(now - Duration::from_secs(5)), now));
        assert!(path.create_first(Some(now + Duration::from_secs(60)), now));
        assert!(!path.create_first(Some(now - Duration::from_secs(6)), now));
        assert!(!path.create_first(None, now));
        assert!(WritePath::CreateFirst.create_first(None, now));
        assert!(!WritePath::MapFirst.create_first(Some(now), now));
    }
}
