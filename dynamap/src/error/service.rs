//! [`ServiceError`]: what DynamoDB answered, or why it could not be reached.

use std::fmt;
use std::sync::Arc;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::RequestId;

use super::ErrorKind;

/// Error codes DynamoDB uses when a request was throttled.
const THROTTLING_CODES: &[&str] = &[
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
];

/// Error codes of DynamoDB's server-side failures (HTTP 5xx).
const SERVER_ERROR_CODES: &[&str] = &[
    "InternalServerError",
    "ServiceUnavailable",
    "InternalFailure",
];

/// How a call failed, as far as the SDK says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// DynamoDB answered with an error.
    Answered,
    /// The request never reached DynamoDB, timed out, or its answer could not be read.
    Transport,
    /// The request could not be built: a required parameter is missing or invalid.
    NotBuilt,
    /// Anything else: a waiter that gave up, an answer of an unexpected shape.
    Other,
    /// The AWS Database Encryption SDK's interceptor refused the request before it was
    /// sent: an update of a signed attribute, an expression on an encrypted one, an
    /// attribute its configuration does not name.
    EncryptionRefused,
    /// The interceptor could not verify or decrypt an item DynamoDB returned: altered,
    /// signed with another key, or written without encryption.
    EncryptionUnverified,
}

/// A failure of the AWS Database Encryption SDK's interceptor, marked by the type
/// `dynamap_encryption::Interceptor` wraps it in (through `__private::encryption_failure`),
/// so that it is found by type among the causes of an SDK error, never by its text.
#[derive(Debug)]
pub(crate) struct EncryptionFailure(pub(crate) Box<dyn std::error::Error + Send + Sync>);

impl fmt::Display for EncryptionFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the encryption interceptor failed")
    }
}

impl std::error::Error for EncryptionFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// Whether the AWS Database Encryption SDK's interceptor failed the call.
fn from_encryption_interceptor(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(inner) = cause {
        if inner.is::<EncryptionFailure>() {
            return true;
        }
        cause = inner.source();
    }
    false
}

/// An error DynamoDB answered, or a failure to reach it: the payload of
/// [`Error::Service`](super::Error::Service).
///
/// It keeps DynamoDB's error code and message, the HTTP status and request id (for AWS
/// support), and the SDK's own error, typed, through [`sdk_error`](Self::sdk_error).
///
/// # Examples
///
/// ```no_run
/// use aws_sdk_dynamodb::operation::get_item::GetItemError;
///
/// # async fn example<L: dynamap::Table>(db: dynamap::Db<L>) {
/// let err = db.client().get_item().table_name("missing").send().await.unwrap_err();
/// let err = dynamap::Error::from_sdk("GetItem", err);
/// if let dynamap::Error::Service(service) = &err {
///     println!("{} (request {:?}, HTTP {:?})", service, service.request_id(), service.http_status());
///     let typed = service.sdk_error::<GetItemError>().and_then(|e| e.as_service_error());
///     assert!(matches!(typed, Some(GetItemError::ResourceNotFoundException(_))));
/// }
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ServiceError {
    operation: &'static str,
    code: Option<String>,
    message: String,
    http_status: Option<u16>,
    request_id: Option<String>,
    failure: Failure,
    /// The SDK's error (or a waiter's), for typed access; not a `source()`, since the
    /// message already says what it says.
    cause: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl ServiceError {
    /// A failed SDK call, keeping its code, message, HTTP status and request id.
    pub(crate) fn from_sdk<E>(operation: &'static str, err: SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        let failure = match &err {
            SdkError::ServiceError(_) => Failure::Answered,
            SdkError::DispatchFailure(_)
            | SdkError::TimeoutError(_)
            | SdkError::ResponseError(_) => Failure::Transport,
            SdkError::ConstructionFailure(_) => Failure::NotBuilt,
            _ => Failure::Other,
        };
        let failure = match (failure, from_encryption_interceptor(&err)) {
            (_, false) => failure,
            (Failure::NotBuilt, true) => Failure::EncryptionRefused,
            (_, true) => Failure::EncryptionUnverified,
        };
        ServiceError {
            operation,
            code: err.code().map(str::to_owned),
            message: err
                .message()
                .map(str::to_owned)
                .unwrap_or_else(|| short_cause(&err)),
            http_status: err.raw_response().map(|r| r.status().as_u16()),
            request_id: err.request_id().map(str::to_owned),
            failure,
            cause: Some(Arc::new(err)),
        }
    }

    /// A failure that is not an SDK error of one call: a waiter that gave up, an answer of a
    /// shape DynamoDB does not send.
    pub(crate) fn other(
        operation: &'static str,
        message: String,
        cause: Option<Arc<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        ServiceError {
            operation,
            code: None,
            message,
            http_status: None,
            request_id: None,
            failure: Failure::Other,
            cause,
        }
    }

    /// A failure to reach `operation`'s server at all, described by `message`: how
    /// `dynamap-local` reports a DynamoDB Local that could not be installed or started
    /// ([`ErrorKind::Transport`](super::ErrorKind::Transport), retryable).
    #[doc(hidden)]
    pub fn not_reached(operation: &'static str, message: impl Into<String>) -> Self {
        ServiceError {
            failure: Failure::Transport,
            ..Self::other(operation, message.into(), None)
        }
    }

    /// The DynamoDB operation, such as `PutItem`.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// DynamoDB's error code, such as `ProvisionedThroughputExceededException`; `None` when
    /// DynamoDB did not answer.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// DynamoDB's message, or a description of a failure to reach it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The HTTP status of DynamoDB's answer, when there was one.
    pub fn http_status(&self) -> Option<u16> {
        self.http_status
    }

    /// The request id DynamoDB gave the call (`x-amzn-requestid`), which AWS support asks
    /// for; `None` when DynamoDB did not answer.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// True when DynamoDB could not be reached, did not answer in time, or answered
    /// unreadably: nothing says whether the request was applied.
    pub fn is_transport(&self) -> bool {
        self.failure == Failure::Transport
    }

    /// True when the AWS Database Encryption SDK's interceptor failed the call: it refused
    /// the request (an update of a signed attribute, an attribute its configuration does
    /// not name), or an item read back could not be verified or decrypted (altered, or
    /// protected with another key). Never retried.
    pub fn is_encryption_failure(&self) -> bool {
        matches!(
            self.failure,
            Failure::EncryptionRefused | Failure::EncryptionUnverified
        )
    }

    /// The SDK's own error, typed, when this came from a call whose operation error is `E`
    /// (`PutItemError`, `QueryError`, ...).
    pub fn sdk_error<E: std::error::Error + 'static>(&self) -> Option<&SdkError<E, HttpResponse>> {
        self.cause.as_deref()?.downcast_ref()
    }

    /// The category; see [`Error::kind`](super::Error::kind).
    pub(super) fn kind(&self) -> ErrorKind {
        match (self.failure, self.code()) {
            (Failure::Transport, _) => ErrorKind::Transport,
            (Failure::NotBuilt | Failure::EncryptionRefused, _) => ErrorKind::InvalidRequest,
            (Failure::EncryptionUnverified, _) => ErrorKind::Decode,
            (_, Some("ConditionalCheckFailedException")) => ErrorKind::Condition,
            (_, Some("TransactionConflictException" | "TransactionInProgressException")) => {
                ErrorKind::Conflict
            }
            (_, Some(code)) if THROTTLING_CODES.contains(&code) => ErrorKind::Throttled,
            (_, Some("ResourceNotFoundException")) => ErrorKind::NotFound,
            (_, Some("ValidationException" | "SerializationException")) => {
                ErrorKind::InvalidRequest
            }
            (_, Some("ItemCollectionSizeLimitExceededException" | "LimitExceededException")) => {
                ErrorKind::Limit
            }
            _ => ErrorKind::Service,
        }
    }

    /// True when the same request may succeed later: throttling, a server error, a failure
    /// to reach DynamoDB, a transaction conflict, or a transaction of the same token still
    /// in progress.
    pub(super) fn is_retryable(&self) -> bool {
        let server_error = self.http_status.is_some_and(|s| (500..600).contains(&s))
            || self.code().is_some_and(|c| SERVER_ERROR_CODES.contains(&c));
        match self.kind() {
            ErrorKind::Throttled | ErrorKind::Transport | ErrorKind::Conflict => true,
            ErrorKind::Service => server_error,
            _ => false,
        }
    }

    /// An answer of DynamoDB's with `code` and HTTP `status`, for tests.
    #[cfg(test)]
    pub(crate) fn answered(code: &str, status: u16) -> Self {
        ServiceError {
            code: Some(code.to_owned()),
            http_status: Some(status),
            failure: Failure::Answered,
            ..Self::other("PutItem", "test".to_owned(), None)
        }
    }

    /// A failure to reach DynamoDB, for tests.
    #[cfg(test)]
    pub(crate) fn unreachable() -> Self {
        ServiceError {
            failure: Failure::Transport,
            ..Self::other("PutItem", "dispatch failure".to_owned(), None)
        }
    }

    /// A request that could not be built, for tests.
    #[cfg(test)]
    pub(crate) fn not_built() -> Self {
        ServiceError {
            failure: Failure::NotBuilt,
            ..Self::other("PutItem", "missing table name".to_owned(), None)
        }
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed", self.operation)?;
        if let Some(code) = &self.code {
            write!(f, " with {code}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ServiceError {}

/// A transport failure in a line: what kind of failure, and its innermost cause ("dispatch
/// failure: Connection refused (os error 111)"), not the SDK's nested debug dump.
fn short_cause<E, R>(err: &SdkError<E, R>) -> String
where
    E: std::error::Error + 'static,
    R: fmt::Debug,
{
    let kind = match err {
        SdkError::DispatchFailure(_) => "dispatch failure (DynamoDB could not be reached)",
        SdkError::TimeoutError(_) => "timed out",
        SdkError::ResponseError(_) => "unreadable response",
        SdkError::ConstructionFailure(_) => "request could not be built",
        _ => "request failed",
    };
    let mut innermost = None;
    let mut cause = std::error::Error::source(err);
    while let Some(inner) = cause {
        innermost = Some(inner);
        cause = inner.source();
    }
    match innermost.map(ToString::to_string) {
        Some(cause) if !cause.is_empty() => format!("{kind}: {cause}"),
        _ => kind.to_owned(),
    }
}
