//! One TransactWriteItems call: checked against DynamoDB's limits, sent, and a
//! cancellation explained action by action.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use tracing::Instrument;

use super::{Action, Nested, failure, limits, missing_parent};
use crate::span::Call;
use crate::{Error, Handle, Result};

/// Checks and sends `actions` as one TransactWriteItems.
pub(crate) async fn send_actions(
    db: &Handle,
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
    // Updates reaching inside an attribute, to name them if the item lacks it.
    let nested_entity = actions
        .iter()
        .find(|a| !a.nested.is_empty())
        .map(|a| a.entity);
    let nested: Vec<Nested> = actions.iter().flat_map(|a| a.nested.clone()).collect();
    let entity = described.first().map_or("", |d| d.0);
    // Lookup items count as their owner's entity type: their actions carry it.
    let types = described.iter().map(|d| d.0);
    let call = Call::several(db, "TransactWriteItems", entity, types, None);
    let result = db
        .client()
        .transact_write_items()
        .set_transact_items(Some(actions.into_iter().map(|a| a.write).collect()))
        .set_client_request_token(token)
        .set_return_consumed_capacity(call.capacity())
        .send()
        .instrument(call.span())
        .await;
    match result {
        Ok(output) => {
            // One entry per table the transaction wrote.
            call.done(output.consumed_capacity());
            Ok(())
        }
        Err(err) => {
            call.failed();
            match err.as_service_error() {
                Some(TransactWriteItemsError::TransactionCanceledException(canceled)) => {
                    let reasons = failure::failures(canceled.cancellation_reasons(), |i| {
                        described.get(i).copied().unwrap_or(("", "", false))
                    });
                    Err(Error::TransactionCanceled { reasons })
                }
                _ => {
                    let err = Error::service("TransactWriteItems", err);
                    Err(match nested_entity {
                        Some(entity) => missing_parent(entity, &nested, err),
                        None => err,
                    })
                }
            }
        }
    }
}
