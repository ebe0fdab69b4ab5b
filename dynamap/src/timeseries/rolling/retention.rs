//! Retention: dropping rolled tables by the month their data was written in.

use std::future::Future;

use std::time::Duration;

use aws_sdk_dynamodb::client::Waiters;
use tracing::Instrument;

use super::{RolledTable, RollingTables, WriteMonth};
use crate::error::ServiceError;
use crate::span::call_span;
use crate::{Error, Result, Table};

/// How long retention waits for one dropped table to disappear.
const GONE_TIMEOUT: Duration = Duration::from_secs(300);

impl<T: Table> RollingTables<T> {
    /// Deletes every table of this naming whose data was written before `cutoff`, whatever
    /// event period it holds, and returns the tables it deleted, once they are gone from
    /// `ListTables`.
    ///
    /// Going by write month rather than event time is what keeps late data: events of an
    /// old week that arrived this month sit in a table of this month, and stay until this
    /// month is cut off in turn.
    ///
    /// Writers write to tables of the current month ([`db_for_now`](Self::db_for_now)),
    /// so a cutoff at or before the current month never drops a table being written to.
    /// Tables another run deleted in the meantime are skipped. On an error, the tables
    /// deleted so far stay deleted; running it again finishes the job.
    ///
    /// ```no_run
    /// # use dynamap::timeseries::rolling::{RollingTables, WriteMonth};
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # async fn example(rolling: RollingTables<Events>) -> dynamap::Result<()> {
    /// // Keep the current month and the two before it.
    /// let dropped = rolling.drop_written_before(WriteMonth::now()?.months_before(2)).await?;
    /// for table in &dropped {
    ///     println!("dropped {table}");
    /// }
    /// # Ok(()) }
    /// ```
    pub fn drop_written_before(
        &self,
        cutoff: WriteMonth,
    ) -> impl Future<Output = Result<Vec<RolledTable>>> + Send + use<T> {
        let owned = self.clone();
        async move {
            let this: &Self = &owned;
            let doomed = this
                .tables()
                .await?
                .into_iter()
                .filter(|table| table.written() < cutoff);
            let mut dropped = Vec::new();
            for table in doomed {
                if this.delete(&table).await? {
                    dropped.push(table);
                }
            }
            for table in &dropped {
                this.client()
                    .wait_until_table_not_exists()
                    .table_name(table.name())
                    .wait(GONE_TIMEOUT)
                    .await
                    .map_err(|err| {
                        Error::Service(ServiceError::other(
                            "DescribeTable",
                            format!("table `{table}` was not deleted in time: {err}"),
                            Some(std::sync::Arc::new(err)),
                        ))
                    })?;
            }
            Ok(dropped)
        }
    }

    /// Deletes one table; false when it was already gone.
    async fn delete(&self, table: &RolledTable) -> Result<bool> {
        // Forget it first: if the delete fails halfway, the next writer checks again.
        self.forget(table.name());
        let span = call_span("DeleteTable", table.name(), "");
        let deleted = self
            .client()
            .delete_table()
            .table_name(table.name())
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
}
