//! What a caller branches on when a cursor, a stream record or an expression is refused:
//! the typed fields of [`Error::InvalidCursor`](super::Error::InvalidCursor),
//! [`Error::InvalidStreamRecord`](super::Error::InvalidStreamRecord) and
//! [`Error::InvalidExpression`](super::Error::InvalidExpression).

use super::Error;

impl Error {
    /// The error with an expression's part set to [`ExpressionPart::Filter`]: a condition
    /// rendered as a query's or scan's filter.
    pub(crate) fn in_filter(self) -> Self {
        match self {
            Error::InvalidExpression { reason, .. } => Error::InvalidExpression {
                part: ExpressionPart::Filter,
                reason,
            },
            other => other,
        }
    }
}

/// Which check a page cursor failed ([`Error::InvalidCursor`](crate::Error::InvalidCursor)).
///
/// # Examples
///
/// ```
/// # fn check(err: dynamap::Error) {
/// use dynamap::{CursorProblem, Error};
/// match err {
///     Error::InvalidCursor { problem: CursorProblem::OtherQuery, .. } => {
///         // a cursor of another listing: start this one from the first page
///     }
///     Error::InvalidCursor { .. } => {
///         // edited, signed with another key, or made by another dynamap version
///     }
///     _ => {}
/// }
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CursorProblem {
    /// The text is not a cursor dynamap made: not base64url, too short, or its signed
    /// payload does not have a cursor's form.
    Malformed,
    /// The signature does not match: the cursor was edited, or signed with another key
    /// ([`Db::with_cursor_key`](crate::Db::with_cursor_key)).
    Tampered,
    /// The cursor is genuine but belongs to another query: another table, index or
    /// partition, the same partition read another way, or a merged read of several
    /// partitions instead of a query of one (or the reverse).
    OtherQuery,
    /// The cursor is genuine but of a form this version of dynamap does not read (made by
    /// another version).
    OtherVersion,
}

/// What is wrong with a stream record
/// ([`Error::InvalidStreamRecord`](crate::Error::InvalidStreamRecord)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StreamRecordProblem {
    /// The event name is not `INSERT`, `MODIFY` or `REMOVE` (or there is none).
    UnknownEventName,
    /// The record carries neither `OldImage` nor `NewImage` (a `KEYS_ONLY` stream), so its
    /// entity type is unknown; read it with
    /// `StreamRecord::parts` (feature `streams`) instead.
    NoImage,
}

/// Which part of a request an expression that could not be built belongs to
/// ([`Error::InvalidExpression`](crate::Error::InvalidExpression)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExpressionPart {
    /// A write's condition (`.condition(..)`, a transaction's condition check).
    Condition,
    /// A query's or scan's filter.
    Filter,
    /// An update's changes (`set`, `increment`, `add_to_set`, ...).
    Update,
}
