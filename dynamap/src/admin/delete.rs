//! DescribeTable and DeleteTable.

use std::future::Future;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::types::TableDescription;
use tracing::Instrument;

use crate::error::ServiceError;
use crate::span::call_span;
use crate::{Error, Result};

/// How long deleting a table waits for it to be gone.
const GONE_TIMEOUT: Duration = Duration::from_secs(300);

impl<L: crate::table::Table> crate::Db<L> {
    /// The live table as DynamoDB describes it: key schema, attribute types, indexes,
    /// billing, stream, item count. A table that does not exist is an error whose
    /// [`code`](crate::Error::code) is `ResourceNotFoundException`.
    ///
    /// ```no_run
    /// # async fn example(db: dynamap::Db<db>) -> dynamap::Result<()> {
    /// let table = db.describe_table().await?;
    /// println!("{:?} holds about {} items", table.table_status(), table.item_count().unwrap_or(0));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`] when the table does not exist
    /// ([`ErrorKind::NotFound`](crate::ErrorKind::NotFound)), or DynamoDB refuses the request or
    /// cannot be reached.
    pub fn describe_table(&self) -> impl Future<Output = Result<TableDescription>> + Send + use<L> {
        let this = self.clone();
        async move {
            let span = call_span("DescribeTable", this.table_name(), "");
            let described = this
                .client()
                .describe_table()
                .table_name(this.table_name())
                .send()
                .instrument(span)
                .await
                .map_err(|err| Error::service("DescribeTable", err))?;
            described.table.ok_or_else(|| {
                Error::Service(ServiceError::other(
                    "DescribeTable",
                    format!("DynamoDB described no table `{}`", this.table_name()),
                    None,
                ))
            })
        }
    }

    /// Deletes this handle's table and every item in it, and returns once it is gone.
    /// Deleting a table that does not exist succeeds, as creating one that exists does. A
    /// table with deletion protection is refused by DynamoDB (an
    /// [`Error::Service`](crate::Error::Service) from DeleteTable) and kept.
    ///
    /// ```no_run
    /// # async fn example<L: dynamap::Table>(db: dynamap::Db<L>) -> dynamap::Result<()> {
    /// db.delete_table().await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`] when DynamoDB refuses the deletion (deletion protection,
    /// access) or cannot be reached, or the table is not gone within five minutes.
    pub fn delete_table(&self) -> impl Future<Output = Result<()>> + Send + use<L> {
        let db = self.clone();
        async move {
            if delete_named(db.client(), db.table_name()).await? {
                wait_until_gone(db.client(), db.table_name()).await?;
            }
            Ok(())
        }
    }
}

/// Deletes table `table`: true when it was deleted, false when there was none.
pub(crate) async fn delete_named(client: &Client, table: &str) -> Result<bool> {
    let span = call_span("DeleteTable", table, "");
    let deleted = client
        .delete_table()
        .table_name(table)
        .send()
        .instrument(span)
        .await;
    match deleted {
        Ok(_) => Ok(true),
        Err(err)
            if err
                .as_service_error()
                .is_some_and(|e| e.is_resource_not_found_exception()) =>
        {
            Ok(false)
        }
        Err(err) => Err(Error::service("DeleteTable", err)),
    }
}

/// Waits until table `table` is gone, at most [`GONE_TIMEOUT`].
pub(crate) async fn wait_until_gone(client: &Client, table: &str) -> Result<()> {
    client
        .wait_until_table_not_exists()
        .table_name(table)
        .wait(GONE_TIMEOUT)
        .await
        .map_err(|err| {
            Error::Service(ServiceError::other(
                "DescribeTable",
                format!("table `{table}` was not deleted in time: {err}"),
                Some(std::sync::Arc::new(err)),
            ))
        })?;
    Ok(())
}
