//! One TransactWriteItems call: checked against DynamoDB's limits, sent, and a
//! cancellation explained action by action.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use tracing::Instrument;

use super::{Action, failure, limits};
use crate::span::{call_span, capacity_wanted};
use crate::{Db, Error, Result};

/// Checks and sends `actions` as one TransactWriteItems.
pub(crate) async fn send_actions(
    db: &Db,
    actions: Vec<Action>,
    token: Option<String>,
) -> Result<()> {
    limits::validate(&actions)?;
    if actions.is_empty() {
        return Ok(());
    }
    let described: Vec<(&'static str, &'static str, bool)> = actions
        .iter()
        .map(|a| (a.entity, a.operation, a.version_only))
        .collect();
    let entity = described.first().map_or("", |d| d.0);
    let span = call_span("TransactWriteItems", db.table_name(), entity);
    let result = db
        .client()
        .transact_write_items()
        .set_transact_items(Some(actions.into_iter().map(|a| a.write).collect()))
        .set_client_request_token(token)
        .set_return_consumed_capacity(capacity_wanted())
        .send()
        .instrument(span.clone())
        .await;
    match result {
        Ok(output) => {
            let total: f64 = output
                .consumed_capacity()
                .iter()
                .filter_map(|c| c.capacity_units())
                .sum();
            span.in_scope(|| tracing::debug!(consumed_capacity = total, "dynamodb call done"));
            Ok(())
        }
        Err(err) => match err.as_service_error() {
            Some(TransactWriteItemsError::TransactionCanceledException(canceled)) => {
                let reasons = failure::failures(canceled.cancellation_reasons(), |i| {
                    described.get(i).copied().unwrap_or(("", "", false))
                });
                Err(Error::TransactionCanceled { reasons })
            }
            _ => Err(Error::service("TransactWriteItems", err)),
        },
    }
}
