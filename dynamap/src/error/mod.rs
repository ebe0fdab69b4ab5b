//! The error types every dynamap operation returns.

mod action_failure;
mod classify;
mod details;
mod incomplete;
mod kind;
mod messages;
mod problems;
mod service;
#[cfg(test)]
mod tests;
mod variants;

pub use action_failure::ActionFailure;
pub(crate) use action_failure::EvaluatedItem;
pub(crate) use action_failure::describe;
pub use incomplete::IncompleteKey;
pub use kind::ErrorKind;
pub use problems::{CursorProblem, ExpressionPart, StreamRecordProblem};
pub(crate) use service::EncryptionFailure;
pub use service::ServiceError;
pub use variants::Error;

/// The result type of dynamap operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;
