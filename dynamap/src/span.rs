//! Tracing for DynamoDB calls: one span per call, and the capacity it consumed, asked for
//! only when someone listens.

/// A span for one DynamoDB call.
pub(crate) fn call_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
) -> tracing::Span {
    tracing::debug_span!("dynamodb", operation, table, entity)
}

/// What to ask DynamoDB about consumed capacity: the total when the debug event that
/// reports it ([`record_capacity`]) is enabled, nothing otherwise. Computing it is not free
/// (DynamoDB Local spends a few percent of a query's time on it), so a call asks only when
/// something listens.
pub(crate) fn capacity_wanted() -> Option<aws_sdk_dynamodb::types::ReturnConsumedCapacity> {
    tracing::enabled!(tracing::Level::DEBUG)
        .then_some(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
}

/// Reports the capacity a call consumed, as an event in its span.
pub(crate) fn record_capacity(
    span: &tracing::Span,
    consumed: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>,
) {
    let units = consumed.and_then(|c| c.capacity_units()).unwrap_or(0.0);
    span.in_scope(|| tracing::debug!(consumed_capacity = units, "dynamodb call done"));
}
