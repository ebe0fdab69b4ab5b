//! `kind()`, `is_retryable()`, `is_throttled()` and `is_conflict()` for every variant, and
//! causes printed once.

mod cases;
mod encryption;
mod problems;
// Only the exports have errors with an I/O source in the core.
#[cfg(feature = "exports")]
mod sources;

use std::error::Error as _;

use super::*;
use cases::{cases, failure, service, variant_has_a_case};

#[test]
fn every_variant_has_its_kind_and_retryability() {
    let cases = cases();
    let variants: std::collections::HashSet<_> = cases
        .iter()
        .map(|(error, _, _)| {
            variant_has_a_case(error);
            std::mem::discriminant(error)
        })
        .collect();
    assert_eq!(variants.len(), 42, "a variant without a case");
    for (error, kind, retryable) in &cases {
        assert_eq!(error.kind(), *kind, "kind of {error:?}");
        assert_eq!(
            error.is_retryable(),
            *retryable,
            "is_retryable of {error:?}"
        );
        assert_eq!(
            error.is_throttled(),
            *kind == ErrorKind::Throttled,
            "{error:?}"
        );
    }
}

/// The yes/no questions and the kind give one answer for every variant: a caller may branch
/// on either.
#[test]
fn the_questions_agree_with_the_kind_for_every_variant() {
    for (error, kind, retryable) in cases() {
        assert_eq!(
            error.is_conditional_check_failed(),
            kind == ErrorKind::Condition,
            "is_conditional_check_failed of {error:?}"
        );
        assert_eq!(
            error.is_conflict(),
            kind == ErrorKind::Conflict,
            "{error:?}"
        );
        assert_eq!(
            error.is_throttled(),
            kind == ErrorKind::Throttled,
            "{error:?}"
        );
        if retryable {
            assert!(
                matches!(
                    kind,
                    ErrorKind::Throttled
                        | ErrorKind::Conflict
                        | ErrorKind::Service
                        | ErrorKind::Transport
                ),
                "{error:?} is retryable but of kind {kind:?}"
            );
        }
        if kind == ErrorKind::Throttled {
            assert!(retryable, "{error:?} is throttled but not retryable");
        }
    }
}

#[test]
fn conflicts_are_the_errors_a_fresh_read_cures() {
    for (error, kind, _) in cases() {
        let transaction_conflict = matches!(&error, Error::TransactionCanceled { reasons }
            if reasons.iter().any(ActionFailure::is_conflict));
        assert_eq!(
            error.is_conflict(),
            kind == ErrorKind::Conflict || transaction_conflict,
            "{error:?}"
        );
    }
}

#[test]
fn a_cause_is_printed_once() {
    for (error, _, _) in cases() {
        let Some(source) = error.source() else {
            continue;
        };
        let (message, cause) = (error.to_string(), source.to_string());
        assert!(
            !message.contains(&cause),
            "{message:?} repeats its source {cause:?}"
        );
    }
}

#[test]
fn service_errors_say_what_dynamodb_said_without_a_source() {
    let error = service("ValidationException", 400);
    assert_eq!(
        error.to_string(),
        "PutItem failed with ValidationException: test"
    );
    assert!(error.source().is_none());
    assert_eq!(error.http_status(), Some(400));
    assert_eq!(error.code(), Some("ValidationException"));
}

#[test]
fn a_duplicate_batch_key_shows_its_sort_key_as_a_value() {
    let err = Error::DuplicateKey {
        entity: "Counter",
        pk: "COUNTER#c".into(),
        sk: Some("COUNTER".into()),
    };
    assert_eq!(
        err.to_string(),
        "key (pk \"COUNTER#c\", sk \"COUNTER\") of entity `Counter` appears more than once in one batch"
    );
}

#[test]
fn the_typed_request_errors_say_what_is_wrong() {
    let shown = [
        (
            Error::UnknownIndex {
                table: "App",
                index: "GSI9".to_owned(),
            },
            "table `App` has no index `GSI9`",
        ),
        (
            Error::InvalidSetting {
                setting: "limit",
                reason: "a query limit must be at least 1".to_owned(),
            },
            "invalid setting `limit`: a query limit must be at least 1",
        ),
        (
            Error::Unsupported {
                operation: "Query",
                reason: "consistent reads are not available on global secondary index `GSI1`"
                    .to_owned(),
            },
            "unsupported Query request: consistent reads are not available on global secondary index `GSI1`",
        ),
        (
            Error::RequestBuild {
                operation: "BatchWriteItem",
                message: "missing key".to_owned(),
            },
            "cannot build a BatchWriteItem request: missing key",
        ),
        (
            Error::Clock {
                millis: None,
                reason: "the system clock is before 1970".to_owned(),
            },
            "time out of range: the system clock is before 1970",
        ),
        (
            Error::InvalidStreamRecord {
                problem: crate::StreamRecordProblem::UnknownEventName,
                event_name: "X".to_owned(),
            },
            "invalid stream record: unknown event name \"X\"",
        ),
    ];
    for (error, message) in shown {
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn a_canceled_transaction_names_each_failed_action() {
    let mut other = failure("TransactionConflict", false);
    other.index = 2;
    other.message = Some("busy".to_owned());
    assert_eq!(
        describe(&[failure("ConditionalCheckFailed", false), other]),
        "action 0 (put of `Sensor`): ConditionalCheckFailed; action 2 (put of `Sensor`): TransactionConflict (busy)"
    );
    assert_eq!(describe(&[]), "no reason given");
}

#[test]
fn an_item_key_is_named_once_and_shown() {
    use crate::key::ItemKey;

    let err = Error::MissingAttribute {
        entity: "Issue",
        attribute: "owner",
        item: None,
    };
    assert_eq!(err.item_key(), None);
    let key = || ItemKey::strings("REPO#a".into(), Some("ISSUE#1".into()));
    let err = err.at_item(key);
    assert_eq!(err.item_key(), Some(&key()));
    assert_eq!(
        err.to_string(),
        "item (REPO#a, ISSUE#1) of entity `Issue` has no attribute `owner`"
    );
    let other = ItemKey::strings("other".into(), None);
    assert_eq!(
        err.at_item(|| other).item_key(),
        Some(&key()),
        "the first key stays"
    );
}
