//! What an [`Error`] tells beyond its message (the key of the item it is about, DynamoDB's
//! code, HTTP status and request id), and errors made from the SDK's.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use super::{Error, ServiceError};
use crate::key::ItemKey;

impl Error {
    /// The primary key of the stored item that did not decode, when the error is about one
    /// read from a table (a missing, malformed or compressed attribute, another entity type,
    /// an older shape that did not read).
    pub fn item_key(&self) -> Option<&ItemKey> {
        match self {
            Error::MissingAttribute { item, .. }
            | Error::InvalidAttribute { item, .. }
            | Error::Compressed { item, .. }
            | Error::WrongEntityType { item, .. }
            | Error::Upgrade { item, .. } => item.as_deref(),
            _ => None,
        }
    }

    /// The error with the key of the item it is about, when it is an item's decoding error
    /// that does not name one yet.
    pub(crate) fn at_item(mut self, key: impl FnOnce() -> ItemKey) -> Self {
        if let Error::MissingAttribute { item, .. }
        | Error::InvalidAttribute { item, .. }
        | Error::Compressed { item, .. }
        | Error::WrongEntityType { item, .. }
        | Error::Upgrade { item, .. } = &mut self
            && item.is_none()
        {
            *item = Some(Box::new(key()));
        }
        self
    }

    /// The I/O error behind an error reading an export or writing Parquet files
    /// ([`Error::InvalidExport`], [`Error::Parquet`]), typed: to tell a missing file
    /// (`ErrorKind::NotFound`) from a damaged one or a full disk. `source()` returns the same
    /// cause, as a `dyn Error`.
    ///
    /// ```no_run
    /// # #[cfg(feature = "exports")]
    /// # fn example() {
    /// match dynamap::export::Export::open("exports/01234") {
    ///     Err(err) if err.io_error().is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound) => {
    ///         println!("not exported yet");
    ///     }
    ///     other => println!("{other:?}"),
    /// }
    /// # }
    /// ```
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            Error::InvalidExport { source, .. } | Error::Parquet { source, .. } => {
                source.as_deref()?.downcast_ref()
            }
            _ => None,
        }
    }

    /// The DynamoDB error code, when DynamoDB answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Service(service) => service.code(),
            _ => None,
        }
    }

    /// The HTTP status of DynamoDB's answer, for [`Error::Service`].
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Error::Service(service) => service.http_status(),
            _ => None,
        }
    }

    /// The request id DynamoDB gave the failed call, for [`Error::Service`]: what AWS
    /// support asks for.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Service(service) => service.request_id(),
            _ => None,
        }
    }

    /// An error of a raw SDK call made next to dynamap's (`db.client().query()...`), as a
    /// dynamap [`Error::Service`] keeping the code, message, HTTP status, request id and the
    /// SDK error itself, so one error type serves both. `operation` names the call, such as
    /// `"Query"`. The `?` operator converts too, naming the operation `"DynamoDB"`.
    ///
    /// ```no_run
    /// # async fn example<L: dynamap::Table>(db: dynamap::Db<L>) -> dynamap::Result<()> {
    /// let tables = db.client().list_tables().send().await
    ///     .map_err(|err| dynamap::Error::from_sdk("ListTables", err))?;
    /// # Ok(()) }
    /// ```
    pub fn from_sdk<E>(operation: &'static str, err: SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        Error::Service(ServiceError::from_sdk(operation, err))
    }

    /// Wraps an SDK error, keeping its code and message.
    pub(crate) fn service<E>(operation: &'static str, err: SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        Self::from_sdk(operation, err)
    }
}

/// `a`, `b`: names in backticks, for messages.
pub(super) fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` (pk, sk)` for an item whose key is known, for messages.
pub(super) fn at(item: &Option<Box<ItemKey>>) -> String {
    item.as_ref()
        .map(|key| format!(" {key}"))
        .unwrap_or_default()
}

impl<E> From<SdkError<E, HttpResponse>> for Error
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    fn from(err: SdkError<E, HttpResponse>) -> Self {
        Error::service("DynamoDB", err)
    }
}
