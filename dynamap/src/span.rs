//! One DynamoDB call observed: its tracing span, the consumed capacity it asks for, and
//! what it reports when it ends. This is the one path for both tracing and (with the
//! `metrics` feature, on a [`Db::with_metrics`](crate::Db) handle) metrics: every call
//! site makes a [`Call`], sends with [`Call::capacity`] and ends with [`Call::done`] or
//! [`Call::failed`].

use aws_sdk_dynamodb::operation::query::builders::QueryInputBuilder;
use aws_sdk_dynamodb::operation::scan::builders::ScanInputBuilder;
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity, Select};

use crate::Handle;

/// Sends the SDK's fluent `request` as `call`: asking for consumed capacity when the call
/// is listened to, inside the call's span. Answers the SDK's result, for `call` to end.
macro_rules! send_in {
    ($call:expr, $request:expr) => {
        ::tracing::Instrument::instrument(
            $request
                .set_return_consumed_capacity($call.capacity())
                .send(),
            $call.span(),
        )
        .await
    };
}
pub(crate) use send_in;

/// One DynamoDB call on its way.
pub(crate) struct Call {
    span: tracing::Span,
    /// Whether the debug event that reports the capacity is enabled. Computing capacity
    /// is not free (DynamoDB Local spends a few percent of a query's time on it), so
    /// without a listener or metrics a call asks for nothing.
    listened: bool,
    /// The call's labels and start time: `Some` only on a `Db::with_metrics` handle, so
    /// that without it nothing is allocated, timed or recorded.
    #[cfg(feature = "metrics")]
    metered: Option<crate::metrics::Metered>,
}

impl Call {
    /// A call of one entity type (`""` for none), on `index` (`None`: the table).
    pub(crate) fn new(
        db: &Handle,
        operation: &'static str,
        entity: &'static str,
        index: Option<&str>,
    ) -> Self {
        Self::several(db, operation, entity, [entity], index)
    }

    /// A call that reads or writes items of the entity types `types` (a mixed query, a
    /// batch, a transaction); `span_entity` is what its span names. `types` is read only
    /// when metrics are on.
    pub(crate) fn several<I>(
        db: &Handle,
        operation: &'static str,
        span_entity: &'static str,
        types: I,
        index: Option<&str>,
    ) -> Self
    where
        I: IntoIterator<Item = &'static str>,
    {
        let span = new_span(operation, db.table_name(), span_entity, index);
        #[cfg(not(feature = "metrics"))]
        let _ = types;
        Self {
            span,
            listened: tracing::enabled!(tracing::Level::DEBUG),
            #[cfg(feature = "metrics")]
            metered: db
                .metrics_enabled()
                .then(|| crate::metrics::Metered::start(db, operation, types, index)),
        }
    }

    /// Records what a Query or Scan asks for on the span, in OpenTelemetry's terms
    /// (`aws.dynamodb.limit`, `consistent_read`, `scan_forward`, `projection`, `select`,
    /// `segment`, `total_segments`); nothing when no subscriber listens.
    pub(crate) fn read(&self, read: Read<'_>) {
        let span = &self.span;
        if span.is_disabled() {
            return;
        }
        let Read {
            limit,
            consistent,
            forward,
            projection,
            select,
            segment,
        } = read;
        record(span, "aws.dynamodb.limit", limit.map(i64::from));
        record(span, "aws.dynamodb.consistent_read", consistent);
        record(span, "aws.dynamodb.scan_forward", forward);
        record(span, "aws.dynamodb.projection", projection);
        record(span, "aws.dynamodb.select", select.map(Select::as_str));
        if let Some((segment, total)) = segment {
            span.record("aws.dynamodb.segment", i64::from(segment));
            span.record("aws.dynamodb.total_segments", i64::from(total));
        }
    }

    /// Records a Query's or Scan's `Count` and `ScannedCount` on the span.
    pub(crate) fn counted(&self, count: i32, scanned: i32) {
        if !self.span.is_disabled() {
            self.span.record("aws.dynamodb.count", i64::from(count));
            self.span
                .record("aws.dynamodb.scanned_count", i64::from(scanned));
        }
    }

    /// The span to instrument the request with.
    pub(crate) fn span(&self) -> tracing::Span {
        self.span.clone()
    }

    fn metered(&self) -> bool {
        #[cfg(feature = "metrics")]
        return self.metered.is_some();
        #[cfg(not(feature = "metrics"))]
        return false;
    }

    /// What to ask DynamoDB about consumed capacity: per table and index when metrics are
    /// on, the total when the debug event that reports it is enabled, nothing otherwise.
    pub(crate) fn capacity(&self) -> Option<ReturnConsumedCapacity> {
        self.capacity_if(self.listened)
    }

    /// As [`capacity`](Self::capacity), but the total is asked for when `wanted` (a
    /// caller's own need, such as a batch report or a job's budget) rather than when
    /// someone listens.
    pub(crate) fn capacity_if(&self, wanted: bool) -> Option<ReturnConsumedCapacity> {
        if self.metered() {
            Some(ReturnConsumedCapacity::Indexes)
        } else {
            wanted.then_some(ReturnConsumedCapacity::Total)
        }
    }

    /// Reports a call that succeeded with `consumed` (one entry per table it touched;
    /// none when not asked for), and returns the units consumed in total.
    pub(crate) fn done<'c>(self, consumed: impl IntoIterator<Item = &'c ConsumedCapacity>) -> f64 {
        let Self {
            span,
            listened,
            #[cfg(feature = "metrics")]
            metered,
        } = self;
        #[cfg(feature = "metrics")]
        let metered_some = metered.is_some();
        #[cfg(not(feature = "metrics"))]
        let metered_some = false;
        if span.is_disabled() && !metered_some {
            let total = total_units(consumed.into_iter());
            report(&span, listened, total);
            return total;
        }
        let consumed: Vec<&ConsumedCapacity> = consumed.into_iter().collect();
        let total = total_units(consumed.iter().copied());
        if !consumed.is_empty() && !span.is_disabled() {
            span.record(
                "aws.dynamodb.consumed_capacity",
                capacity_json(&consumed).as_str(),
            );
        }
        #[cfg(feature = "metrics")]
        if let Some(metered) = metered {
            metered.done(&consumed);
        }
        report(&span, listened, total);
        total
    }

    /// Ends the call by its `result`: [`done`](Self::done) with the capacity `consumed`
    /// reads from the output, or [`failed`](Self::failed). The result is passed on.
    pub(crate) fn end<O, E>(
        self,
        result: Result<O, E>,
        consumed: impl FnOnce(&O) -> Option<&ConsumedCapacity>,
    ) -> Result<O, E> {
        match &result {
            Ok(output) => {
                self.done(consumed(output));
            }
            Err(_) => self.failed(),
        }
        result
    }

    /// [`end`](Self::end) for calls that answer one capacity entry per table (batches,
    /// transactions).
    pub(crate) fn end_each<O, E>(
        self,
        result: Result<O, E>,
        consumed: impl FnOnce(&O) -> &[ConsumedCapacity],
    ) -> Result<O, E> {
        match &result {
            Ok(output) => {
                self.done(consumed(output));
            }
            Err(_) => self.failed(),
        }
        result
    }

    /// Reports a call that DynamoDB refused or that did not reach it (no capacity is
    /// reported for those).
    pub(crate) fn failed(self) {
        #[cfg(feature = "metrics")]
        if let Some(metered) = self.metered {
            metered.failed();
        }
    }
}

/// The debug event that reports a call's capacity, in its span.
fn report(span: &tracing::Span, listened: bool, units: f64) {
    if listened {
        span.in_scope(|| tracing::debug!(consumed_capacity = units, "dynamodb call done"));
    }
}

/// A span for one DynamoDB call; alone for calls that consume no capacity (the table's
/// life: create, describe, list, delete).
pub(crate) fn call_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
) -> tracing::Span {
    new_span(operation, table, entity, None)
}

/// What a Query or Scan asks for, as [`Call::read`] records it.
#[derive(Default)]
pub(crate) struct Read<'a> {
    pub(crate) limit: Option<i32>,
    pub(crate) consistent: Option<bool>,
    pub(crate) forward: Option<bool>,
    pub(crate) projection: Option<&'a str>,
    pub(crate) select: Option<&'a Select>,
    /// A parallel scan's segment and number of segments.
    pub(crate) segment: Option<(i32, i32)>,
}

impl<'a> Read<'a> {
    /// What a Query request asks for.
    pub(crate) fn query(input: &'a QueryInputBuilder) -> Self {
        Read {
            limit: *input.get_limit(),
            consistent: *input.get_consistent_read(),
            forward: *input.get_scan_index_forward(),
            projection: input.get_projection_expression().as_deref(),
            select: input.get_select().as_ref(),
            segment: None,
        }
    }

    /// What a Scan request asks for.
    pub(crate) fn scan(input: &'a ScanInputBuilder) -> Self {
        Read {
            limit: *input.get_limit(),
            consistent: *input.get_consistent_read(),
            forward: None,
            projection: input.get_projection_expression().as_deref(),
            select: input.get_select().as_ref(),
            segment: input.get_segment().zip(*input.get_total_segments()),
        }
    }
}

/// The span of one call: the library's own fields (`operation`, `table`, `entity`) and
/// OpenTelemetry's semantic conventions for DynamoDB client calls, so that a tracing
/// backend groups these calls with other services' DynamoDB calls. The attributes known
/// only once the request is built or answered are declared empty here and recorded later
/// ([`Call::read`], [`Call::counted`], [`Call::done`]). The field values are computed only
/// when a subscriber wants the span.
fn new_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
    index: Option<&str>,
) -> tracing::Span {
    use tracing::field::Empty;
    tracing::debug_span!(
        "dynamodb",
        otel.name = otel_name(operation),
        otel.kind = "client",
        operation,
        table,
        entity,
        "db.system.name" = "aws.dynamodb",
        "db.operation.name" = operation,
        "rpc.system" = "aws-api",
        "rpc.service" = "DynamoDB",
        "rpc.method" = operation,
        "aws.dynamodb.table_names" = table,
        "aws.dynamodb.index_name" = index,
        "aws.dynamodb.consumed_capacity" = Empty,
        "aws.dynamodb.limit" = Empty,
        "aws.dynamodb.consistent_read" = Empty,
        "aws.dynamodb.scan_forward" = Empty,
        "aws.dynamodb.projection" = Empty,
        "aws.dynamodb.select" = Empty,
        "aws.dynamodb.count" = Empty,
        "aws.dynamodb.scanned_count" = Empty,
        "aws.dynamodb.segment" = Empty,
        "aws.dynamodb.total_segments" = Empty,
    )
}

/// The span name OpenTelemetry's AWS SDK conventions give a call: `DynamoDB.<Operation>`.
fn otel_name(operation: &'static str) -> &'static str {
    match operation {
        "GetItem" => "DynamoDB.GetItem",
        "PutItem" => "DynamoDB.PutItem",
        "UpdateItem" => "DynamoDB.UpdateItem",
        "DeleteItem" => "DynamoDB.DeleteItem",
        "Query" => "DynamoDB.Query",
        "Scan" => "DynamoDB.Scan",
        "BatchGetItem" => "DynamoDB.BatchGetItem",
        "BatchWriteItem" => "DynamoDB.BatchWriteItem",
        "TransactGetItems" => "DynamoDB.TransactGetItems",
        "TransactWriteItems" => "DynamoDB.TransactWriteItems",
        "CreateTable" => "DynamoDB.CreateTable",
        "DescribeTable" => "DynamoDB.DescribeTable",
        "DeleteTable" => "DynamoDB.DeleteTable",
        "ListTables" => "DynamoDB.ListTables",
        _ => "DynamoDB",
    }
}

fn record<V: tracing::Value>(span: &tracing::Span, field: &str, value: Option<V>) {
    if let Some(value) = value {
        span.record(field, value);
    }
}

/// The consumed capacity entries as JSON, one object per table, as DynamoDB names their
/// fields (`aws.dynamodb.consumed_capacity`; a tracing field holds one text, not a list).
fn capacity_json(consumed: &[&ConsumedCapacity]) -> String {
    let entries: Vec<serde_json::Value> = consumed
        .iter()
        .map(|c| {
            let mut entry = serde_json::Map::new();
            let mut put = |name: &str, value: Option<serde_json::Value>| {
                if let Some(value) = value {
                    entry.insert(name.to_owned(), value);
                }
            };
            put("TableName", c.table_name().map(Into::into));
            put("CapacityUnits", c.capacity_units().map(Into::into));
            put("ReadCapacityUnits", c.read_capacity_units().map(Into::into));
            put(
                "WriteCapacityUnits",
                c.write_capacity_units().map(Into::into),
            );
            serde_json::Value::Object(entry)
        })
        .collect();
    serde_json::Value::Array(entries).to_string()
}

/// The capacity units of a call, summed over the tables it touched.
fn total_units<'c>(consumed: impl Iterator<Item = &'c ConsumedCapacity>) -> f64 {
    consumed.filter_map(ConsumedCapacity::capacity_units).sum()
}
