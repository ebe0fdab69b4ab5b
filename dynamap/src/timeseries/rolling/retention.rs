//! Retention: dropping rolled tables by the month their data was written in.

use std::future::Future;

use super::{RolledTable, RollingTables, WriteMonth};
use crate::admin::delete::{delete_named, wait_until_gone};
use crate::{Result, Table};

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
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`](crate::Error::Service) when `ListTables` or a `DeleteTable`
    /// fails, DynamoDB cannot be reached, or a deleted table is not gone within five minutes;
    /// tables deleted until then stay deleted.
    pub fn drop_written_before(
        &self,
        cutoff: WriteMonth,
    ) -> impl Future<Output = Result<Vec<RolledTable>>> + Send + use<T> {
        let this = self.clone();
        async move {
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
                wait_until_gone(this.client(), table.name()).await?;
            }
            Ok(dropped)
        }
    }

    /// Deletes one table; false when it was already gone.
    async fn delete(&self, table: &RolledTable) -> Result<bool> {
        // Forget it first: if the delete fails halfway, the next writer checks again.
        self.forget(table.name());
        delete_named(self.client(), table.name()).await
    }
}
