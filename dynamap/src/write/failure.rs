//! Why DynamoDB canceled a transaction, action by action.

use aws_sdk_dynamodb::types::CancellationReason;

use crate::error::{ActionFailure, EvaluatedItem};

/// The failing actions among DynamoDB's reasons, which come one per action in request order
/// with code `None` for the actions that were fine.
pub(crate) fn failures(
    reasons: &[CancellationReason],
    describe: impl Fn(usize) -> (&'static str, &'static str, bool),
) -> Vec<ActionFailure> {
    reasons
        .iter()
        .enumerate()
        .filter(|(_, r)| r.code().is_some_and(|c| c != "None"))
        .map(|(index, r)| {
            let (entity, operation, version_only) = describe(index);
            ActionFailure {
                index,
                entity,
                operation,
                code: r.code().map(str::to_owned),
                message: r.message().map(str::to_owned),
                version_only,
                evaluated: r.item().map(|item| EvaluatedItem(item.clone())),
            }
        })
        .collect()
}
