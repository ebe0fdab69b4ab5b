//! One TransactWriteItems call: checked against DynamoDB's limits, sent (again with the same
//! token when an answer is lost), and a cancellation explained action by action.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsFluentBuilder;
use aws_sdk_dynamodb::types::TransactWriteItem;
use tracing::Instrument;

use super::exact::{AfterLoss, new_token, one_attempt, send_exactly};
use super::{Action, Nested, failure, limits, missing_parent};
use crate::preview::{Preview, Request as PreviewRequest, input_of};
use crate::span::Call;
use crate::{Error, Handle, Result};

/// Checks and sends `actions` as one TransactWriteItems, with `token` as its
/// `ClientRequestToken` (a fresh one when `None`).
///
/// Every attempt carries the same token and the same actions, so after a lost answer
/// DynamoDB answers a resend with the first outcome and applies nothing twice: the answer
/// is the truth, or [`Error::OutcomeUnknown`] when every resend's answer was lost too.
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
    let (entity, operation) = described.first().map_or(("", ""), |d| (d.0, d.1));
    let writes: Vec<TransactWriteItem> = actions.into_iter().map(|a| a.write).collect();
    let token = token.unwrap_or_else(new_token);
    let attempt = |_lost| {
        // Lookup items count as their owner's entity type: their actions carry it.
        let types = described.iter().map(|d| d.0);
        let call = Call::several(db, "TransactWriteItems", entity, types, None);
        let request = request(db, writes.clone(), Some(token.clone()))
            .set_return_consumed_capacity(call.capacity())
            .customize()
            .config_override(one_attempt());
        let described = &described;
        let nested = &nested;
        async move {
            let result = request.send().instrument(call.span()).await;
            call.end_each(result, |o| o.consumed_capacity())
                .map(drop)
                .map_err(|err| canceled(err, described, nested_entity, nested))
        }
    };
    send_exactly(db, entity, operation, AfterLoss::SameToken, attempt).await
}

/// The TransactWriteItems [`send_actions`] would make of `actions`, not sent: checked the
/// same way first; none for no actions. The token is the caller's, if any.
pub(crate) fn preview_actions(
    db: &Handle,
    actions: Vec<Action>,
    token: Option<String>,
) -> Result<Preview> {
    limits::validate(&actions)?;
    if actions.is_empty() {
        return Ok(Preview::new(Vec::new()));
    }
    let writes = actions.into_iter().map(|a| a.write).collect();
    let request = request(db, writes, token);
    let input = input_of!(request, "TransactWriteItems")?;
    Ok(Preview::one(PreviewRequest::TransactWriteItems(input)))
}

/// The TransactWriteItems of `writes`, as sent and previewed.
fn request(
    db: &Handle,
    writes: Vec<TransactWriteItem>,
    token: Option<String>,
) -> TransactWriteItemsFluentBuilder {
    db.client()
        .transact_write_items()
        .set_transact_items(Some(writes))
        .set_client_request_token(token)
}

/// A failed TransactWriteItems as an [`Error`]: a cancellation with its reasons, action by
/// action, or the service error (naming a missing parent of a nested update).
fn canceled(
    err: aws_sdk_dynamodb::error::SdkError<
        TransactWriteItemsError,
        aws_sdk_dynamodb::config::http::HttpResponse,
    >,
    described: &[(&'static str, &'static str, bool)],
    nested_entity: Option<&'static str>,
    nested: &[Nested],
) -> Error {
    match err.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(canceled)) => {
            let reasons = failure::failures(canceled.cancellation_reasons(), |i| {
                described.get(i).copied().unwrap_or(("", "", false))
            });
            Error::TransactionCanceled { reasons }
        }
        _ => {
            let err = Error::service("TransactWriteItems", err);
            match nested_entity {
                Some(entity) => missing_parent(entity, nested, err),
                None => err,
            }
        }
    }
}
