//! One error of every variant with its kind and retryability, and the helpers that
//! make them.

use serde::ser::Error as _;

use super::super::*;
use crate::codec::{AttributeError, CodecError};
use crate::key::{KeyError, KeyErrorKind, KeyPartError};

fn key(kind: KeyErrorKind) -> Error {
    Error::Key(KeyError {
        entity: "Sensor",
        attribute: "PK",
        field: Some("id"),
        kind,
    })
}

pub(super) fn failure(code: &str, version_only: bool) -> ActionFailure {
    ActionFailure {
        index: 0,
        entity: "Sensor",
        operation: "put",
        code: Some(code.to_owned()),
        message: None,
        version_only,
        evaluated: None,
    }
}

fn canceled(reasons: Vec<ActionFailure>) -> Error {
    Error::TransactionCanceled { reasons }
}

pub(super) fn service(code: &str, status: u16) -> Error {
    Error::Service(ServiceError::answered(code, status))
}

/// Every variant (every service failure and transaction outcome too), with its kind and
/// whether retrying the same request may succeed.
pub(super) fn cases() -> Vec<(Error, ErrorKind, bool)> {
    let (entity, attribute) = ("Sensor", "city");
    let reason = || "x".to_owned();
    use ErrorKind::*;
    vec![
        (
            key(KeyErrorKind::Part(KeyPartError::Empty)),
            InvalidRequest,
            false,
        ),
        (
            key(KeyErrorKind::TooLong {
                len: 3000,
                limit: 2048,
            }),
            Limit,
            false,
        ),
        (
            key(KeyErrorKind::NoMatch {
                key: "X".into(),
                template: "SENSOR#{id}",
            }),
            Decode,
            false,
        ),
        (
            Error::ItemTooLarge {
                entity,
                size: 500_000,
                limit: 409_600,
            },
            Limit,
            false,
        ),
        (
            Error::Encode {
                entity,
                attribute,
                source: AttributeError::custom("not a city name"),
            },
            Encode,
            false,
        ),
        (
            Error::MissingAttribute {
                entity,
                attribute,
                item: None,
            },
            Decode,
            false,
        ),
        (
            Error::InvalidAttribute {
                entity,
                attribute,
                source: AttributeError::custom("not a city name"),
                item: None,
            },
            Decode,
            false,
        ),
        (
            Error::Compressed {
                entity,
                attribute,
                source: CodecError::Corrupt("bytes out of order"),
                item: None,
            },
            Decode,
            false,
        ),
        (
            Error::CompressedTooLarge {
                entity,
                attribute,
                size: 9,
                budget: 8,
            },
            Limit,
            false,
        ),
        (
            Error::WrongEntityType {
                expected: entity,
                attribute,
                found: None,
                item: None,
            },
            Decode,
            false,
        ),
        (
            Error::ConditionalCheckFailed {
                entity,
                operation: "create",
            },
            Condition,
            false,
        ),
        (
            Error::VersionConflict {
                entity,
                expected: 3,
            },
            Conflict,
            false,
        ),
        (
            Error::LookupTaken {
                entity,
                lookup: "email",
            },
            Condition,
            false,
        ),
        (Error::Contention { entity, rounds: 50 }, Conflict, false),
        // Whether it was applied is unknown: retrying as it is could apply it twice.
        (
            Error::OutcomeUnknown {
                entity,
                operation: "create",
                attempts: 2,
                source: Box::new(Error::Service(ServiceError::answered(
                    "InternalServerError",
                    500,
                ))),
            },
            Transport,
            false,
        ),
        (
            Error::TooManyActions {
                actions: 101,
                limit: 100,
            },
            Limit,
            false,
        ),
        (
            Error::TransactionTooLarge {
                size: 5 << 20,
                limit: 4 << 20,
            },
            Limit,
            false,
        ),
        (
            Error::DuplicateTransactionItem {
                first_entity: entity,
                entity,
                first: 0,
                second: 1,
            },
            Limit,
            false,
        ),
        (
            canceled(vec![failure("ConditionalCheckFailed", false)]),
            Condition,
            false,
        ),
        (
            canceled(vec![failure("ConditionalCheckFailed", true)]),
            Conflict,
            false,
        ),
        (
            canceled(vec![failure("TransactionConflict", false)]),
            Conflict,
            true,
        ),
        (
            canceled(vec![failure("ThrottlingError", false)]),
            Throttled,
            true,
        ),
        (
            canceled(vec![failure("ValidationError", false)]),
            InvalidRequest,
            false,
        ),
        (
            canceled(vec![failure("ItemCollectionSizeLimitExceeded", false)]),
            Service,
            false,
        ),
        (canceled(Vec::new()), Service, false),
        (
            Error::InvalidExpression {
                part: crate::ExpressionPart::Filter,
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::UnknownIndex {
                table: "App",
                index: "GSI9".to_owned(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::InvalidSetting {
                setting: "limit",
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::Unsupported {
                operation: "Query",
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::RequestBuild {
                operation: "BatchWriteItem",
                message: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::Clock {
                millis: None,
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::InvalidStreamRecord {
                problem: crate::StreamRecordProblem::NoImage,
                event_name: "INSERT".to_owned(),
            },
            Decode,
            false,
        ),
        (
            Error::InvalidExport {
                file: "data/a.json.gz".into(),
                line: Some(3),
                reason: reason(),
                source: Some(std::sync::Arc::new(std::io::Error::other("unexpected end"))),
            },
            Decode,
            false,
        ),
        (
            Error::Parquet {
                file: "out/Sensor.parquet".into(),
                reason: reason(),
                source: Some(std::sync::Arc::new(std::io::Error::other("disk full"))),
            },
            Encode,
            false,
        ),
        (
            Error::InvalidCursor {
                problem: crate::CursorProblem::Tampered,
                reason: "edited",
            },
            InvalidRequest,
            false,
        ),
        (
            Error::incomplete_keys(
                entity,
                vec![IncompleteKey::new(reason(), "{a}#{b}", vec!["b"])],
            ),
            InvalidRequest,
            false,
        ),
        (
            Error::MissingParent {
                entity,
                paths: vec!["counts.alarm".into()],
                parents: vec!["counts".into()],
            },
            InvalidRequest,
            false,
        ),
        (
            Error::UnknownEntityType {
                target: "AnyEntity",
                attribute,
                found: None,
            },
            Decode,
            false,
        ),
        (
            Error::NewerSchemaVersion {
                entity,
                pk: reason(),
                sk: None,
                found: 4,
                known: 3,
            },
            Decode,
            false,
        ),
        (
            Error::OlderSchemaVersion {
                entity,
                pk: reason(),
                sk: None,
                found: 1,
                current: 3,
            },
            Condition,
            false,
        ),
        (
            Error::Adopt {
                entity,
                source: <crate::codec::AttributeError as serde::de::Error>::custom(reason()),
            },
            Decode,
            false,
        ),
        (
            Error::Upgrade {
                entity,
                from: 1,
                source: <crate::codec::AttributeError as serde::de::Error>::custom(reason()),
                item: None,
            },
            Decode,
            false,
        ),
        (
            service("ProvisionedThroughputExceededException", 400),
            Throttled,
            true,
        ),
        (service("ThrottlingException", 400), Throttled, true),
        (service("RequestLimitExceeded", 400), Throttled, true),
        (
            service("TransactionInProgressException", 400),
            Conflict,
            true,
        ),
        (service("TransactionConflictException", 400), Conflict, true),
        (
            service("ConditionalCheckFailedException", 400),
            Condition,
            false,
        ),
        (service("ResourceNotFoundException", 400), NotFound, false),
        (service("ValidationException", 400), InvalidRequest, false),
        (
            service("ItemCollectionSizeLimitExceededException", 400),
            Limit,
            false,
        ),
        (service("AccessDeniedException", 400), Service, false),
        (service("InternalServerError", 500), Service, true),
        (service("ServiceUnavailable", 503), Service, true),
        (Error::Service(ServiceError::unreachable()), Transport, true),
        (
            Error::Service(ServiceError::not_built()),
            InvalidRequest,
            false,
        ),
        (
            Error::Service(ServiceError::other("DescribeTable", reason(), None)),
            Service,
            false,
        ),
        (
            Error::DuplicateKey {
                entity,
                pk: reason(),
                sk: None,
            },
            Limit,
            false,
        ),
        (
            Error::Unprocessed {
                operation: "BatchWriteItem",
                attempts: 10,
            },
            Throttled,
            true,
        ),
        (
            Error::InvalidTableName {
                name: reason(),
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::EventRowUnsupported {
                entity,
                reason: reason(),
            },
            InvalidRequest,
            false,
        ),
        (
            Error::MalformedEventRow {
                entity,
                pk: reason(),
                sk: reason(),
                reason: reason(),
            },
            Decode,
            false,
        ),
        (
            Error::EventRowsFull {
                entity,
                sk: reason(),
                rows: 8,
            },
            Limit,
            false,
        ),
        (
            batch_write(Error::Unprocessed {
                operation: "BatchWriteItem",
                attempts: 10,
            }),
            Throttled,
            true,
        ),
        (
            batch_write(service("ValidationException", 400)),
            InvalidRequest,
            false,
        ),
    ]
}

fn batch_write(first: Error) -> Error {
    Error::BatchWrite {
        written: 3,
        failed: 2,
        first: Box::new(first),
    }
}

/// Fails to compile when a variant is added without a row in [`cases`].
pub(super) fn variant_has_a_case(error: &Error) {
    match error {
        Error::Key(_)
        | Error::ItemTooLarge { .. }
        | Error::Encode { .. }
        | Error::MissingAttribute { .. }
        | Error::InvalidAttribute { .. }
        | Error::Compressed { .. }
        | Error::CompressedTooLarge { .. }
        | Error::WrongEntityType { .. }
        | Error::ConditionalCheckFailed { .. }
        | Error::VersionConflict { .. }
        | Error::LookupTaken { .. }
        | Error::Contention { .. }
        | Error::OutcomeUnknown { .. }
        | Error::TooManyActions { .. }
        | Error::TransactionTooLarge { .. }
        | Error::DuplicateTransactionItem { .. }
        | Error::TransactionCanceled { .. }
        | Error::InvalidExpression { .. }
        | Error::UnknownIndex { .. }
        | Error::InvalidSetting { .. }
        | Error::Unsupported { .. }
        | Error::RequestBuild { .. }
        | Error::Clock { .. }
        | Error::InvalidStreamRecord { .. }
        | Error::InvalidExport { .. }
        | Error::Parquet { .. }
        | Error::InvalidCursor { .. }
        | Error::IncompleteKeyUpdate { .. }
        | Error::MissingParent { .. }
        | Error::UnknownEntityType { .. }
        | Error::NewerSchemaVersion { .. }
        | Error::Upgrade { .. }
        | Error::Adopt { .. }
        | Error::OlderSchemaVersion { .. }
        | Error::Service(_)
        | Error::DuplicateKey { .. }
        | Error::Unprocessed { .. }
        | Error::InvalidTableName { .. }
        | Error::EventRowUnsupported { .. }
        | Error::MalformedEventRow { .. }
        | Error::EventRowsFull { .. }
        | Error::BatchWrite { .. } => {}
    }
}
