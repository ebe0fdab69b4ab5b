//! One DynamoDB call observed: its tracing span, the consumed capacity it asks for, and
//! what it reports when it ends. This is the one path for both tracing and (with the
//! `metrics` feature, on a [`Db::with_metrics`](crate::Db) handle) metrics: every call
//! site makes a [`Call`], sends with [`Call::capacity`] and ends with [`Call::done`] or
//! [`Call::failed`].

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};

use crate::Handle;

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
        let span = tracing::debug_span!(
            "dynamodb",
            operation,
            table = db.table_name(),
            entity = span_entity
        );
        #[cfg(not(feature = "metrics"))]
        let _ = (types, index);
        Self {
            span,
            listened: tracing::enabled!(tracing::Level::DEBUG),
            #[cfg(feature = "metrics")]
            metered: db
                .metrics_enabled()
                .then(|| crate::metrics::Metered::start(db, operation, types, index)),
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
        if let Some(metered) = metered {
            let consumed: Vec<&ConsumedCapacity> = consumed.into_iter().collect();
            let total = total_units(consumed.iter().copied());
            metered.done(&consumed);
            report(&span, listened, total);
            return total;
        }
        let total = total_units(consumed.into_iter());
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
    tracing::debug_span!("dynamodb", operation, table, entity)
}

/// The capacity units of a call, summed over the tables it touched.
fn total_units<'c>(consumed: impl Iterator<Item = &'c ConsumedCapacity>) -> f64 {
    consumed.filter_map(ConsumedCapacity::capacity_units).sum()
}
