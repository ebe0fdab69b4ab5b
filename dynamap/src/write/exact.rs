//! Writes whose answer is the truth even when an answer is lost.
//!
//! A write whose answer is lost (a timeout, a dropped connection, an HTTP 5xx) may have been
//! applied. Sent again as a new request, it meets its own write: a `create` finds the item
//! it created and "fails". So dynamap sends every write itself, one attempt at a time (the
//! SDK's own retries are turned off for the call, and the client's retry settings used
//! instead), and knows when an answer was lost. What it may conclude afterwards depends on
//! how the write is sent again, [`AfterLoss`]. `docs/design/writes.md` says what each answer
//! guarantees.

use std::future::Future;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;

use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::{Error, Handle, Result};

/// After a lost answer, the attempts a write gets in all (at least; more when the client's
/// retry settings allow more), so that a short outage or a slow transaction in progress is
/// ridden out.
const LOST_ATTEMPTS: u32 = 6;

/// After a lost answer, no attempt starts later than this after the first: far inside the
/// ten minutes for which DynamoDB answers a transaction's token with its first outcome.
const LOST_DEADLINE: Duration = Duration::from_secs(60);

/// How a write is sent again after a lost answer, which says what its answer means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterLoss {
    /// With the first request's `ClientRequestToken` and the same actions: DynamoDB answers
    /// with the first outcome, so every answer is the truth.
    SameToken,
    /// As a new request: a failed condition may be the write's own doing, so it is never
    /// the answer ([`Error::OutcomeUnknown`] instead, unless the attempt proved it applied).
    Recheck,
    /// Not at all: applying it twice would change more than once (an increment, an
    /// append), so a lost answer is [`Error::OutcomeUnknown`] at once.
    Never,
}

/// The per-call configuration every attempt runs with: one attempt, no SDK retries, so that
/// each lost answer is seen here.
pub(crate) fn one_attempt() -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder().retry_config(RetryConfig::disabled())
}

/// True when a failed call may have been applied: DynamoDB could not be reached or did not
/// answer readably, answered with a server error (5xx), or still runs a transaction of the
/// same token.
pub(crate) fn answer_lost(err: &Error) -> bool {
    let Error::Service(service) = err else {
        return false;
    };
    service.is_transport()
        || service
            .http_status()
            .is_some_and(|s| (500..600).contains(&s))
        || service.code() == Some("TransactionInProgressException")
}

/// Sends one write by `attempt` (given `true` once an answer was lost) until it answers,
/// retrying what the client's retry settings retry (throttling, server errors, failures to
/// reach DynamoDB) with their backoff, and after a lost answer as `after_loss` says.
/// `entity` and `operation` name the write in [`Error::OutcomeUnknown`].
pub(crate) async fn send_exactly<O, F, Fut>(
    db: &Handle,
    entity: &'static str,
    operation: &'static str,
    after_loss: AfterLoss,
    mut attempt: F,
) -> Result<O>
where
    F: FnMut(bool) -> Fut,
    Fut: Future<Output = Result<O>>,
{
    let settings = db
        .client()
        .config()
        .retry_config()
        .cloned()
        .unwrap_or_else(RetryConfig::standard);
    let policy = RetryPolicy::default()
        .base(settings.initial_backoff())
        .cap(settings.max_backoff());
    let mut rng = SplitMix64::from_entropy();
    let started = Instant::now();
    let mut lost: Option<Error> = None;
    let mut sent = 0u32;
    loop {
        let err = match attempt(lost.is_some()).await {
            Ok(output) => return Ok(output),
            Err(err) => err,
        };
        sent += 1;
        let unknown = |source: Error| Error::OutcomeUnknown {
            entity,
            operation,
            attempts: sent,
            source: Box::new(source),
        };
        if answer_lost(&err) {
            if after_loss == AfterLoss::Never {
                return Err(unknown(err));
            }
            lost = Some(err);
        } else if !err.is_retryable() {
            return match lost {
                // A version that moved on is a failed condition too (kind `Conflict`, so
                // not `is_conditional_check_failed()`): after a lost answer it may be this
                // write's own version.
                Some(first)
                    if after_loss == AfterLoss::Recheck
                        && (err.is_conditional_check_failed()
                            || matches!(err, Error::VersionConflict { .. })) =>
                {
                    Err(unknown(first))
                }
                _ => Err(err),
            };
        } else if sent >= settings.max_attempts() && lost.is_none() {
            return Err(err);
        }
        if let Some(first) = lost.take_if(|_| {
            sent >= settings.max_attempts().max(LOST_ATTEMPTS) || started.elapsed() >= LOST_DEADLINE
        }) {
            return Err(unknown(first));
        }
        pause(db, &policy, sent - 1, &mut rng).await;
    }
}

/// True when the stored item `stored` is `written`: the same attributes with the same
/// values, members of a set in any order. A put whose condition fails after a lost answer
/// and finds exactly its own item was applied (or another writer stored the same item;
/// either way the item is as the put leaves it).
pub(crate) fn same_item(stored: &Item, written: &Item) -> bool {
    stored.len() == written.len()
        && written
            .iter()
            .all(|(name, value)| stored.get(name).is_some_and(|s| same_value(s, value)))
}

fn same_value(stored: &AttributeValue, written: &AttributeValue) -> bool {
    use AttributeValue as V;
    fn same_set<T: PartialEq>(a: &[T], b: &[T]) -> bool {
        a.len() == b.len() && b.iter().all(|m| a.contains(m))
    }
    match (stored, written) {
        (V::Ss(a), V::Ss(b)) | (V::Ns(a), V::Ns(b)) => same_set(a, b),
        (V::Bs(a), V::Bs(b)) => same_set(a, b),
        (V::L(a), V::L(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b)),
        (V::M(a), V::M(b)) => same_item(a, b),
        _ => stored == written,
    }
}

/// A fresh `ClientRequestToken`: a random UUID (version 4 layout), from the process's
/// random hashing keys, the clock and a counter.
pub(crate) fn new_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut clock = SplitMix64::from_entropy();
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(clock.next_u64());
    hasher.write_u32(std::process::id());
    let high = hasher.finish();
    hasher.write_u64(clock.next_u64());
    let low = hasher.finish();
    let bits = (u128::from(high) << 64) | u128::from(low);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-4{}-{:x}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        (u8::from_str_radix(&hex[16..17], 16).unwrap_or(0) & 0x3) | 0x8,
        &hex[17..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ServiceError;

    #[test]
    fn tokens_are_uuids_and_differ() {
        let tokens: std::collections::HashSet<String> = (0..1000).map(|_| new_token()).collect();
        assert_eq!(tokens.len(), 1000);
        for token in &tokens {
            assert_eq!(token.len(), 36, "{token}");
            let dashes: Vec<usize> = token.match_indices('-').map(|(i, _)| i).collect();
            assert_eq!(dashes, [8, 13, 18, 23], "{token}");
            assert_eq!(&token[14..15], "4", "{token}");
            assert!("89ab".contains(&token[19..20]), "{token}");
        }
    }

    #[test]
    fn the_same_item_has_its_sets_in_any_order() {
        use AttributeValue as V;
        let item = |tags: &[&str], extra: Option<&str>| {
            let mut item: Item = [
                ("PK".to_owned(), V::S("A".into())),
                (
                    "tags".to_owned(),
                    V::Ss(tags.iter().map(|t| (*t).to_owned()).collect()),
                ),
                (
                    "n".to_owned(),
                    V::M([("x".to_owned(), V::N("1".into()))].into()),
                ),
            ]
            .into();
            if let Some(extra) = extra {
                item.insert("extra".into(), V::S(extra.into()));
            }
            item
        };
        assert!(same_item(
            &item(&["a", "b"], None),
            &item(&["b", "a"], None)
        ));
        assert!(!same_item(
            &item(&["a", "b"], None),
            &item(&["a", "c"], None)
        ));
        assert!(!same_item(&item(&["a"], Some("x")), &item(&["a"], None)));
        assert!(!same_item(&item(&["a"], None), &item(&["a"], Some("x"))));
    }

    #[test]
    fn lost_answers_are_server_errors_transport_and_transactions_in_progress() {
        let answered = |code, status| Error::Service(ServiceError::answered(code, status));
        assert!(answer_lost(&answered("InternalServerError", 500)));
        assert!(answer_lost(&answered("ServiceUnavailable", 503)));
        assert!(answer_lost(&answered(
            "TransactionInProgressException",
            400
        )));
        assert!(answer_lost(&Error::Service(ServiceError::unreachable())));
        // Refusals: nothing was applied.
        assert!(!answer_lost(&answered("ThrottlingException", 400)));
        assert!(!answer_lost(&answered(
            "ConditionalCheckFailedException",
            400
        )));
        assert!(!answer_lost(&answered("ValidationException", 400)));
        assert!(!answer_lost(&Error::Service(ServiceError::not_built())));
    }
}
