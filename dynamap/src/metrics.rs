//! Capacity and latency metrics of every DynamoDB call, through the [`metrics`]
//! facade (feature `metrics`), so any exporter (Prometheus, StatsD, CloudWatch EMF, ...)
//! collects them.
//!
//! Off by default: [`Db::with_metrics`](crate::Db::with_metrics) turns them on for a handle
//! (and its clones). Such a handle asks DynamoDB for the capacity each call consumed, per
//! table and per index (`ReturnConsumedCapacity::INDEXES`), which enlarges every response;
//! a handle without it records nothing, allocates no labels and asks for no capacity.
//!
//! | metric | kind | labels | what it counts |
//! |---|---|---|---|
//! | [`REQUESTS`] `dynamap_requests_total` | counter | `table`, `operation`, `entity`, `index`, `outcome` | DynamoDB calls |
//! | [`REQUEST_DURATION`] `dynamap_request_duration_seconds` | histogram | `table`, `operation`, `entity`, `index`, `outcome` | seconds from sending a call to its answer |
//! | [`READ_CAPACITY`] `dynamap_read_capacity_milliunits_total` | counter | `table`, `operation`, `entity`, `index` | read capacity units consumed, in thousandths |
//! | [`WRITE_CAPACITY`] `dynamap_write_capacity_milliunits_total` | counter | `table`, `operation`, `entity`, `index` | write capacity units consumed, in thousandths |
//!
//! The labels:
//! - `table`: the table's name (for a transaction, each table it touched);
//! - `operation`: DynamoDB's operation (`GetItem`, `PutItem`, `UpdateItem`, `DeleteItem`,
//!   `Query`, `Scan`, `BatchGetItem`, `BatchWriteItem`, `TransactGetItems`,
//!   `TransactWriteItems`);
//! - `entity`: the entity type read or written; for a call of several types (a mixed query
//!   decoded into an `EntityEnum`, a batch, a transaction) the types in byte order joined by
//!   `|`, such as `Reading|Sensor`; lookup items count as their owner's type, a job's
//!   checkpoints as `_dynamap.checkpoint`, and an audit's scan of every type as empty;
//! - `index`: on the capacity counters, where the units were consumed: `table` for the
//!   table itself, or an index's name (a put of an item in two global secondary indexes
//!   counts three times); on the request metrics, the index a query or scan reads, or
//!   `table`;
//! - `outcome`: `ok`, or `error` when DynamoDB refused the call (a failed condition, a
//!   canceled transaction, throttling) or could not be reached.
//!
//! Capacity is counted in thousandths of a unit because a `metrics` counter holds whole
//! numbers and DynamoDB reports halves (an eventually consistent read of up to 4 KB is
//! 0.5 units): divide by 1,000 for units. A failed call reports no capacity (DynamoDB
//! returns none with an error), though a failed condition still costs DynamoDB's units.
//!
//! ```
//! // Names and descriptions, for the exporter's HELP lines; call once at start-up, after
//! // installing the recorder.
//! dynamap::metrics::describe();
//! assert_eq!(dynamap::metrics::WRITE_CAPACITY, "dynamap_write_capacity_milliunits_total");
//! ```

use std::time::Instant;

use ::metrics::{Label, SharedString, Unit};
use aws_sdk_dynamodb::types::{Capacity, ConsumedCapacity};

use crate::Handle;

/// Counter: DynamoDB calls made, by `table`, `operation`, `entity`, `index` and `outcome`.
pub const REQUESTS: &str = "dynamap_requests_total";
/// Histogram: seconds from sending a DynamoDB call to its answer (retries of the SDK's
/// own included), by `table`, `operation`, `entity`, `index` and `outcome`.
pub const REQUEST_DURATION: &str = "dynamap_request_duration_seconds";
/// Counter: read capacity units consumed, in thousandths, by `table`, `operation`,
/// `entity` and `index` (where they were consumed).
pub const READ_CAPACITY: &str = "dynamap_read_capacity_milliunits_total";
/// Counter: write capacity units consumed, in thousandths, by `table`, `operation`,
/// `entity` and `index` (where they were consumed).
pub const WRITE_CAPACITY: &str = "dynamap_write_capacity_milliunits_total";

/// The `index` label's value for units consumed on the table itself, and for calls that
/// read no index.
pub const TABLE_INDEX: &str = "table";

/// Describes dynamap's metrics (their units and help text) to the installed recorder.
/// Optional: metrics are recorded without it, but exporters print the descriptions (a
/// Prometheus scrape's `# HELP` lines). Call it after installing the recorder.
pub fn describe() {
    ::metrics::describe_counter!(REQUESTS, Unit::Count, "DynamoDB calls made by dynamap");
    ::metrics::describe_histogram!(
        REQUEST_DURATION,
        Unit::Seconds,
        "Seconds from sending a DynamoDB call to its answer"
    );
    ::metrics::describe_counter!(
        READ_CAPACITY,
        Unit::Count,
        "Read capacity units consumed, in thousandths, where consumed (index label)"
    );
    ::metrics::describe_counter!(
        WRITE_CAPACITY,
        Unit::Count,
        "Write capacity units consumed, in thousandths, where consumed (index label)"
    );
}

/// The labels and start time of one call on a metered handle.
pub(crate) struct Metered {
    table: SharedString,
    operation: &'static str,
    entity: SharedString,
    index: SharedString,
    start: Instant,
}

impl Metered {
    pub(crate) fn start<I>(
        db: &Handle,
        operation: &'static str,
        types: I,
        index: Option<&str>,
    ) -> Self
    where
        I: IntoIterator<Item = &'static str>,
    {
        Self {
            table: SharedString::from_owned(db.table_name().to_owned()),
            operation,
            entity: entity_label(types),
            index: SharedString::from_owned(index.unwrap_or(TABLE_INDEX).to_owned()),
            start: Instant::now(),
        }
    }

    pub(crate) fn done(self, consumed: &[&ConsumedCapacity]) {
        let reads = is_read(self.operation);
        for entry in consumed {
            let table = entry.table_name().map_or_else(
                || self.table.clone(),
                |t| SharedString::from_owned(t.to_owned()),
            );
            let mut broken_down = false;
            if let Some(capacity) = entry.table() {
                broken_down = true;
                self.units(&table, TABLE_INDEX, capacity, reads);
            }
            let indexes = entry.global_secondary_indexes().into_iter().flatten();
            let local = entry.local_secondary_indexes().into_iter().flatten();
            for (name, capacity) in indexes.chain(local) {
                broken_down = true;
                self.units(&table, name, capacity, reads);
            }
            if !broken_down {
                // Only the total (DynamoDB gave no breakdown): it is the addressed target's.
                let capacity = Capacity::builder()
                    .set_capacity_units(entry.capacity_units())
                    .set_read_capacity_units(entry.read_capacity_units())
                    .set_write_capacity_units(entry.write_capacity_units())
                    .build();
                self.units(&table, &self.index, &capacity, reads);
            }
        }
        self.request("ok");
    }

    pub(crate) fn failed(self) {
        self.request("error");
    }

    fn request(self, outcome: &'static str) {
        let elapsed = self.start.elapsed();
        let labels = vec![
            Label::new("table", self.table),
            Label::from_static_parts("operation", self.operation),
            Label::new("entity", self.entity),
            Label::new("index", self.index),
            Label::from_static_parts("outcome", outcome),
        ];
        ::metrics::counter!(REQUESTS, labels.clone()).increment(1);
        ::metrics::histogram!(REQUEST_DURATION, labels).record(elapsed.as_secs_f64());
    }

    /// Counts `capacity`, consumed on `index` of `table`.
    fn units(&self, table: &SharedString, index: &str, capacity: &Capacity, reads: bool) {
        let (read, write) = split(capacity, reads);
        for (name, units) in [(READ_CAPACITY, read), (WRITE_CAPACITY, write)] {
            let milli = milliunits(units);
            if milli == 0 {
                continue;
            }
            let labels = vec![
                Label::new("table", table.clone()),
                Label::from_static_parts("operation", self.operation),
                Label::new("entity", self.entity.clone()),
                Label::new("index", SharedString::from_owned(index.to_owned())),
            ];
            ::metrics::counter!(name, labels).increment(milli);
        }
    }
}

/// The `entity` label: the one type, or the distinct types in byte order joined by `|`.
fn entity_label(types: impl IntoIterator<Item = &'static str>) -> SharedString {
    let mut types: Vec<&'static str> = types.into_iter().collect();
    types.sort_unstable();
    types.dedup();
    match types.as_slice() {
        [] => SharedString::const_str(""),
        [one] => SharedString::const_str(one),
        several => SharedString::from_owned(several.join("|")),
    }
}

/// Whether `operation` reads: its units without a read/write split are read units.
fn is_read(operation: &str) -> bool {
    matches!(
        operation,
        "GetItem" | "Query" | "Scan" | "BatchGetItem" | "TransactGetItems"
    )
}

/// Read and write units of `capacity`: DynamoDB's own split when it gives one, otherwise
/// the total as the operation's kind.
fn split(capacity: &Capacity, reads: bool) -> (f64, f64) {
    match (
        capacity.read_capacity_units(),
        capacity.write_capacity_units(),
    ) {
        (None, None) => {
            let total = capacity.capacity_units().unwrap_or(0.0);
            if reads { (total, 0.0) } else { (0.0, total) }
        }
        (read, write) => (read.unwrap_or(0.0), write.unwrap_or(0.0)),
    }
}

/// Units in thousandths, rounded (DynamoDB reports halves and whole units).
fn milliunits(units: f64) -> u64 {
    let milli = (units * 1000.0).round();
    if milli.is_finite() && milli > 0.0 {
        // In range: a call consumes far fewer than 2^64 / 1000 units.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let milli = milli as u64;
        milli
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_label_names_one_type_or_the_sorted_set() {
        assert_eq!(entity_label(["Sensor"]).as_ref(), "Sensor");
        assert_eq!(
            entity_label(["Sensor", "Reading", "Sensor"]).as_ref(),
            "Reading|Sensor"
        );
        assert_eq!(entity_label([]).as_ref(), "");
    }

    #[test]
    fn units_split_by_dynamodb_or_by_operation() {
        let total = Capacity::builder().capacity_units(1.5).build();
        assert_eq!(split(&total, true), (1.5, 0.0));
        assert_eq!(split(&total, false), (0.0, 1.5));
        let both = Capacity::builder()
            .capacity_units(3.0)
            .read_capacity_units(1.0)
            .write_capacity_units(2.0)
            .build();
        assert_eq!(split(&both, true), (1.0, 2.0));
    }

    #[test]
    fn milliunits_are_exact_for_halves_and_zero_for_nonsense() {
        assert_eq!(milliunits(0.5), 500);
        assert_eq!(milliunits(3.0), 3000);
        assert_eq!(milliunits(-1.0), 0);
        assert_eq!(milliunits(f64::NAN), 0);
    }
}
