//! [`ErrorKind`]: the categories of [`Error`](super::Error), for matching by what to do.

/// What kind of failure an [`Error`](super::Error) is, from [`Error::kind`](super::Error::kind):
/// a small set of categories to match on, each telling what a caller can do about it.
///
/// More categories may be added; a `match` needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The request cannot be sent as it is, whether found before sending (a bad key part,
    /// expression, cursor or table name, an unknown index, a setting out of range, a request
    /// shape that is not supported, an update that leaves a key half-set, a time out of
    /// range) or by DynamoDB (`ValidationException`). Sending it again fails the same way.
    InvalidRequest,
    /// A DynamoDB limit stands in the way: an item, key, transaction or compressed value too
    /// large, too many actions, the same item twice in one batch or transaction, every
    /// event row of a timestamp full.
    Limit,
    /// A value could not be turned into an attribute.
    Encode,
    /// A stored item could not be read into the type asked for: a missing or malformed
    /// attribute, another entity type, a key of another shape, corrupt compressed data, a
    /// stream record that is not a change.
    Decode,
    /// A condition did not hold: `create` found an item, `replace` or a conditional delete
    /// found none, a condition of the caller's failed, or a lookup belongs to another item.
    Condition,
    /// A concurrent writer won: the version moved on, a transaction conflicted, or a write
    /// kept losing races. Read again, recompute and retry ([`Db::modify`](crate::Db::modify),
    /// [`Db::transact_retry`](crate::Db::transact_retry)).
    Conflict,
    /// DynamoDB throttled the request, or kept batch items unprocessed until the retry policy
    /// gave up. Retrying later, more slowly, may succeed.
    Throttled,
    /// The table or index does not exist (`ResourceNotFoundException`).
    NotFound,
    /// Any other error DynamoDB answered: access denied, a server error, a waiter that
    /// gave up. [`Error::is_retryable`](super::Error::is_retryable) tells whether
    /// retrying may help.
    Service,
    /// DynamoDB could not be reached, did not answer in time, or answered unreadably.
    /// Whether the request was applied is unknown; for a write whose resends could not
    /// settle that, [`Error::OutcomeUnknown`](super::Error::OutcomeUnknown).
    Transport,
}
