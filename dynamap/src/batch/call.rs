//! What batch writes and reads share: the call context, error classification, waiting.
//! The retry loop itself is in [`driver`](super::driver).

use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::config::{AsyncSleep, SharedAsyncSleep};
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use crate::retry::{RetryPolicy, SplitMix64};
use crate::{Error, Handle, Result};

/// How a batch runs; what its builder sets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    pub(super) concurrency: usize,
    pub(super) retry: RetryPolicy,
    pub(super) capacity: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            concurrency: super::DEFAULT_CONCURRENCY,
            retry: RetryPolicy::default(),
            capacity: false,
        }
    }
}

/// Everything a chunk needs to make its calls.
pub(super) struct Ctx<'a> {
    pub(super) db: &'a Handle,
    pub(super) retry: RetryPolicy,
    /// Ask DynamoDB for the consumed capacity (always on a metered `Db`). Off by
    /// default: DynamoDB Local spends about a fifth of its batch write throughput
    /// computing it.
    pub(super) capacity: bool,
    sleep: SharedAsyncSleep,
}

impl<'a> Ctx<'a> {
    /// Uses the client's own sleep implementation, so waits run on whatever runtime the
    /// client is set up for; the SDK's default (Tokio) when it has none configured.
    pub(super) fn new(db: &'a Handle, settings: Settings) -> Result<Self> {
        let sleep = db
            .client()
            .config()
            .sleep_impl()
            .or_else(aws_smithy_async::rt::sleep::default_async_sleep)
            .ok_or_else(|| Error::InvalidSetting {
                setting: "sleep_impl",
                reason: "batch retries need an async sleep: configure the client's `sleep_impl`"
                    .to_owned(),
            })?;
        Ok(Self {
            db,
            retry: settings.retry,
            capacity: settings.capacity,
            sleep,
        })
    }

    /// Waits before the next call, after `stalls` calls in a row made no progress.
    pub(super) async fn back_off(&self, stalls: u32, rng: &mut SplitMix64) {
        let delay = self.retry.delay(stalls, rng);
        if delay > Duration::ZERO {
            self.sleep.sleep(delay).await;
        }
    }
}

/// Converts a failed call's error, and says whether retrying it may succeed
/// ([`Error::is_retryable`]): throttling, server errors (5xx) and transport failures may;
/// anything else (a validation error, a missing table, bad credentials) will fail again the
/// same way.
///
/// Transport failures include timeouts after the request was sent, which may have been
/// applied: retrying is still right, because batch puts and deletes are idempotent.
pub(super) fn classify<E>(operation: &'static str, err: SdkError<E, HttpResponse>) -> (Error, bool)
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    let error = Error::service(operation, err);
    let retry = error.is_retryable();
    (error, retry)
}

/// The entity recorded on a call's span: the common entity type, or `"mixed"`.
pub(super) fn span_entity(mut entities: impl Iterator<Item = &'static str>) -> &'static str {
    let Some(first) = entities.next() else {
        return "";
    };
    if entities.all(|e| e == first) {
        first
    } else {
        "mixed"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_entity_names_one_type_or_says_mixed() {
        assert_eq!(span_entity(["A", "A"].into_iter()), "A");
        assert_eq!(span_entity(["A", "B", "A"].into_iter()), "mixed");
        assert_eq!(span_entity(std::iter::empty()), "");
    }
}
