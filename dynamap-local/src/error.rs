//! What can go wrong while getting a DynamoDB Local ready.

/// An error from [`DynamoLocal`](crate::DynamoLocal): the server could not be installed,
/// started or reached, or a test table could not be created on it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// DynamoDB Local could not be installed, started or reached. The message says what to
    /// install or where the server's log is.
    #[error("dynamodb local: {0}")]
    Setup(String),
    /// A request to the server failed, e.g. creating a fresh table.
    #[error(transparent)]
    Dynamap(#[from] dynamap::Error),
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
