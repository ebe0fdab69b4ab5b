//! What an [`Error`] means for the caller: its [`ErrorKind`], and whether it is a failed
//! condition, throttling, a lost race, or worth retrying as it is.

use super::{ActionFailure, Error, ErrorKind};
use crate::key::KeyErrorKind;

impl Error {
    /// The category of the error, to match on without naming every variant.
    ///
    /// ```
    /// use dynamap::ErrorKind;
    ///
    /// # fn check(err: dynamap::Error) {
    /// match err.kind() {
    ///     ErrorKind::Condition => println!("the item was not in the state asked for"),
    ///     ErrorKind::Conflict | ErrorKind::Throttled => println!("try again: {err}"),
    ///     _ => println!("failed: {err}"),
    /// }
    /// # }
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Key(key) => match key.kind {
                KeyErrorKind::TooLong { .. } => ErrorKind::Limit,
                KeyErrorKind::NoMatch { .. } => ErrorKind::Decode,
                _ => ErrorKind::InvalidRequest,
            },
            Error::ItemTooLarge { .. }
            | Error::CompressedTooLarge { .. }
            | Error::TooManyActions { .. }
            | Error::TransactionTooLarge { .. }
            | Error::DuplicateTransactionItem { .. }
            | Error::DuplicateKey { .. }
            | Error::EventRowsFull { .. } => ErrorKind::Limit,
            Error::Encode { .. } | Error::Parquet { .. } => ErrorKind::Encode,
            Error::MissingAttribute { .. }
            | Error::InvalidAttribute { .. }
            | Error::Compressed { .. }
            | Error::WrongEntityType { .. }
            | Error::UnknownEntityType { .. }
            | Error::NewerSchemaVersion { .. }
            | Error::Upgrade { .. }
            | Error::Adopt { .. }
            | Error::MalformedEventRow { .. }
            | Error::InvalidStreamRecord { .. }
            | Error::InvalidExport { .. } => ErrorKind::Decode,
            Error::ConditionalCheckFailed { .. }
            | Error::LookupTaken { .. }
            | Error::OlderSchemaVersion { .. } => ErrorKind::Condition,
            Error::VersionConflict { .. } | Error::Contention { .. } => ErrorKind::Conflict,
            Error::TransactionCanceled { reasons } => canceled_kind(reasons),
            Error::InvalidExpression { .. }
            | Error::UnknownIndex { .. }
            | Error::InvalidSetting { .. }
            | Error::Unsupported { .. }
            | Error::RequestBuild { .. }
            | Error::Clock { .. }
            | Error::InvalidCursor { .. }
            | Error::IncompleteKeyUpdate { .. }
            | Error::MissingParent { .. }
            | Error::InvalidTableName { .. }
            | Error::EventRowUnsupported { .. } => ErrorKind::InvalidRequest,
            Error::Service(service) => service.kind(),
            Error::Unprocessed { .. } => ErrorKind::Throttled,
            Error::OutcomeUnknown { .. } => ErrorKind::Transport,
            Error::BatchWrite { first, .. } => first.kind(),
        }
    }

    /// True when a conditional write failed because the item was in the wrong state:
    /// exactly the errors of kind [`ErrorKind::Condition`] (`create` found an item, `replace`
    /// or a conditional delete found none, a condition of yours did not hold, a lookup is
    /// another item's, an update met an item of an older schema version, or a transaction
    /// canceled for one of these).
    ///
    /// A version that moved on ([`Error::VersionConflict`], or a transaction canceled by
    /// one) is a lost race, not a failed condition: its kind is [`ErrorKind::Conflict`], and
    /// [`is_conflict`](Error::is_conflict) answers for it. No error is both, and neither is
    /// [retryable](Error::is_retryable) as it is.
    pub fn is_conditional_check_failed(&self) -> bool {
        self.kind() == ErrorKind::Condition
    }

    /// True when DynamoDB throttled the request, or kept batch items unprocessed until the
    /// retry policy gave up ([`ErrorKind::Throttled`]); retrying later may succeed.
    pub fn is_throttled(&self) -> bool {
        self.kind() == ErrorKind::Throttled
    }

    /// True when retrying the same request later may succeed: throttling and unprocessed
    /// batch items, server errors (5xx), failures to reach DynamoDB at all, a transaction
    /// conflict, and transactions cancelled only because another transaction held one of
    /// their items or they were throttled.
    ///
    /// Not retryable as they are: failed conditions, including [`Error::VersionConflict`]:
    /// the item changed, so the write must be recomputed from a fresh read
    /// ([`is_conflict`](Error::is_conflict) answers for those; [`Db::modify`](crate::Db::modify)
    /// does the whole loop); and every error found before sending, which would be found again.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::TransactionCanceled { reasons } => {
                !reasons.is_empty()
                    && reasons.iter().all(|r| {
                        r.is_busy() || r.code.as_deref().is_some_and(|c| c == "ThrottlingError")
                    })
            }
            Error::Service(service) => service.is_retryable(),
            Error::Unprocessed { .. } => true,
            Error::BatchWrite { first, .. } => first.is_retryable(),
            _ => false,
        }
    }

    /// True when the AWS Database Encryption SDK's interceptor failed the call (the
    /// `Interceptor` of the `dynamap-encryption` crate, though the check needs none): it
    /// refused the request, such as an
    /// update of a signed attribute ([`ErrorKind::InvalidRequest`]), or an item read back
    /// was altered or protected with another key and was not decoded ([`ErrorKind::Decode`]).
    pub fn is_encryption_failure(&self) -> bool {
        match self {
            Error::Service(service) => service.is_encryption_failure(),
            _ => false,
        }
    }

    /// True when a concurrent writer won: a version that moved on
    /// ([`Error::VersionConflict`]) or a transaction conflict. Read again, recompute and
    /// retry, as [`Db::modify`](crate::Db::modify) does.
    pub fn is_conflict(&self) -> bool {
        self.kind() == ErrorKind::Conflict
    }
}

/// The category of a canceled transaction, by its failed actions: a concurrent writer won,
/// a condition did not hold, it was throttled, or something else.
fn canceled_kind(reasons: &[ActionFailure]) -> ErrorKind {
    if reasons.iter().any(ActionFailure::is_conflict) {
        ErrorKind::Conflict
    } else if reasons
        .iter()
        .any(ActionFailure::is_conditional_check_failed)
    {
        ErrorKind::Condition
    } else if !reasons.is_empty()
        && reasons
            .iter()
            .all(|r| r.code.as_deref() == Some("ThrottlingError"))
    {
        ErrorKind::Throttled
    } else if reasons
        .iter()
        .any(|r| r.code.as_deref() == Some("ValidationError"))
    {
        ErrorKind::InvalidRequest
    } else {
        ErrorKind::Service
    }
}
