//! What can go wrong while getting a DynamoDB Local ready.

/// An error from [`DynamoLocal`](crate::DynamoLocal): the server could not be installed,
/// started or reached, or a test table could not be created on it.
///
/// `?` converts it into a [`dynamap::Error`] in a function returning [`dynamap::Result`]: a
/// request's error is itself, and a setup failure is an [`dynamap::Error::Service`] that
/// could not reach DynamoDB ([`dynamap::ErrorKind::Transport`]), its message kept.
///
/// ```no_run
/// fn client() -> dynamap::Result<aws_sdk_dynamodb::Client> {
///     let local = dynamap_local::DynamoLocal::shared()?;
///     Ok(local.client())
/// }
/// ```
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

impl From<Error> for dynamap::Error {
    fn from(err: Error) -> Self {
        match err {
            Error::Setup(message) => dynamap::Error::Service(dynamap::ServiceError::not_reached(
                "DynamoDB Local",
                message,
            )),
            Error::Dynamap(err) => err,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question_mark(err: Error) -> dynamap::Result<()> {
        Err(err)?
    }

    #[test]
    fn question_mark_converts_into_a_dynamap_error() {
        let err = question_mark(Error::Setup("java not found".into())).expect_err("setup");
        assert_eq!(err.kind(), dynamap::ErrorKind::Transport);
        assert!(err.is_retryable());
        assert!(err.to_string().contains("java not found"), "{err}");

        let inner = dynamap::timeseries::rolling::TableNaming::new("no spaces!")
            .expect_err("an invalid prefix");
        let err = question_mark(Error::Dynamap(inner)).expect_err("request");
        assert!(
            matches!(err, dynamap::Error::InvalidTableName { .. }),
            "{err:?}"
        );
    }
}
