//! The answer of one conditional write call (PutItem, DeleteItem, UpdateItem), read the same
//! way for every operation.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::ConsumedCapacity;

use crate::span::Call;
use crate::{Error, Result};

/// The call's output (its consumed capacity reported by `call`), `failed()` when its
/// condition did not hold, or the service error.
pub(crate) fn conditional_answer<O, E>(
    call: Call,
    operation: &'static str,
    result: std::result::Result<O, SdkError<E, HttpResponse>>,
    consumed: impl FnOnce(&O) -> Option<&ConsumedCapacity>,
    failed: impl FnOnce() -> Error,
) -> Result<O>
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    match call.end(result, consumed) {
        Ok(output) => Ok(output),
        Err(err) if err.code() == Some("ConditionalCheckFailedException") => Err(failed()),
        Err(err) => Err(Error::service(operation, err)),
    }
}
