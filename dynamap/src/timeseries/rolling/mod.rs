//! Tables rolled by event period and write month.
//!
//! DynamoDB has no cheap way to delete old items in bulk, so time series are kept in one
//! table per span of time, and a span's data goes by deleting its table. Grouping by event
//! time alone loses data that arrives late: a car offline for months uploads old events,
//! which would go into an old table and be dropped with it. So tables are grouped by event
//! period *and* write month, named
//!
//! ```text
//! [prefix][period start ms]_[period end ms]_[write month]_[write year]
//! iot.1491696000000_1492300799999_4_2017
//! ```
//!
//! and:
//!
//! - writers ask [`RollingTables::db_for`] (or [`db_for_now`](RollingTables::db_for_now))
//!   for the table of an event, created on first use, or hand a mixed batch of events to
//!   [`RollingTables::ingest`], which routes each to its table;
//! - readers ask [`RollingTables::range`] for every table holding a range of event times,
//!   late data included, and [`RangeTables::query`] merges the tables' results in time order;
//! - retention, [`RollingTables::drop_written_before`], drops tables by write month, so old
//!   events that arrived recently stay as long as any other recent data.
//!
//! Times are milliseconds since the Unix epoch (`i64`), as in the table names; with the
//! `time` feature, [`epoch_millis`] converts an `OffsetDateTime`. Periods are weeks from
//! Sunday 00:00 UTC unless [`Periods`] says otherwise.
//!
//! [`TableNaming`], [`Periods`] and [`WriteMonth`] are the pure part, usable without a
//! client. See [`RollingTables`] for a full example.

mod ingest;
mod merge;
mod month;
mod naming;
mod periods;
mod range;
mod retention;
mod tables;

pub use ingest::{Ingest, IngestRows, RolledBatchReport, RolledRowsReport, TableBatch};
pub use month::WriteMonth;
pub use naming::{MAX_PREFIX_LEN, MAX_TABLE_NAME_LEN, RolledTable, TableNaming};
pub use periods::{Period, Periods, SUNDAY_ORIGIN_MS, WEEK_MS};
pub use range::RangeTables;
pub use tables::RollingTables;

use crate::{Error, Result};

/// Milliseconds since the Unix epoch of `t`.
///
/// ```
/// use time::macros::datetime;
///
/// let ms = dynamap::timeseries::rolling::epoch_millis(datetime!(2017-04-09 0:00 UTC));
/// assert_eq!(ms, 1_491_696_000_000);
/// ```
#[cfg(feature = "time")]
pub fn epoch_millis(t: time::OffsetDateTime) -> i64 {
    // `time` spans years -9999 to 9999, well inside i64 milliseconds.
    i64::try_from(t.unix_timestamp_nanos().div_euclid(1_000_000)).unwrap_or(i64::MAX)
}

/// The system clock in milliseconds since the Unix epoch.
pub(crate) fn now_millis() -> Result<i64> {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| Error::Clock {
            millis: None,
            reason: "the system clock is before 1970".to_owned(),
        })?;
    i64::try_from(since.as_millis()).map_err(|_| Error::Clock {
        millis: None,
        reason: "the system clock is past the year 292 million".to_owned(),
    })
}
