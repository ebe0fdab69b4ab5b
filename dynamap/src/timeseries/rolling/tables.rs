//! The router: from (event time, write time) to a table, created on first use; and the list
//! of the tables that exist.

use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex, PoisonError};

use aws_sdk_dynamodb::Client;
use futures_util::lock::Mutex as AsyncMutex;
use tracing::Instrument;

use super::{RolledTable, TableNaming};
use crate::span::call_span;
use crate::{Db, Error, Handle, Result, Table};

/// Per table name: whether this process has made sure the table exists. The async mutex
/// makes concurrent first users of one table wait for a single `CreateTable`.
type Created = Mutex<HashMap<String, Arc<AsyncMutex<bool>>>>;

/// Tables rolled by event period and write month, all with layout `T`: the router writers
/// ask for a table, the range query that reads across tables, and retention.
///
/// Cheap to clone: clones share the client and the record of tables already created.
///
/// ```no_run
/// use dynamap::timeseries::rolling::{RollingTables, TableNaming, WriteMonth};
/// use dynamap::{Entity, Table};
/// use futures_util::TryStreamExt;
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct Events;
///
/// #[derive(Entity, Debug)]
/// #[dynamap(table = Events, entity = "Reading", pk = "DEV#{device}", sk = "AT#{at}")]
/// struct Reading { device: String, at: i64, value: f64 }
///
/// # async fn example(client: aws_sdk_dynamodb::Client) -> dynamap::Result<()> {
/// let rolling = RollingTables::<Events>::new(client, TableNaming::new("iot.")?);
///
/// // Write: the table of the event's week and this month, created on first use.
/// let reading = Reading { device: "car-7".into(), at: 1_491_800_000_000, value: 1.5 };
/// rolling.db_for_now(reading.at).await?.put(&reading).await?;
///
/// // Read a week, across every table holding it (late data included), in time order.
/// let (from, to) = (1_491_696_000_000, 1_492_300_799_999);
/// let tables = rolling.range(from..=to).await?;
/// let readings: Vec<Reading> = tables
///     .query(|db| db.query(Reading::partition("car-7")).sk_between((from,), (to,)), |r| r.at)
///     .try_collect()
///     .await?;
///
/// // Retention: drop what was written more than three months ago.
/// let dropped = rolling.drop_written_before(WriteMonth::now()?.months_before(3)).await?;
/// # Ok(()) }
/// ```
pub struct RollingTables<T> {
    /// What every rolled table's handle copies: the client and every setting.
    base: Handle,
    naming: Arc<TableNaming>,
    created: Arc<Created>,
    layout: PhantomData<fn() -> T>,
}

impl<T> Clone for RollingTables<T> {
    fn clone(&self) -> Self {
        Self {
            base: self.base.clone(),
            naming: Arc::clone(&self.naming),
            created: Arc::clone(&self.created),
            layout: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for RollingTables<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RollingTables")
            .field("naming", &self.naming)
            .finish_non_exhaustive()
    }
}

impl<T: Table> RollingTables<T> {
    /// Rolled tables named by `naming`, reached through `client`, with a handle's default
    /// settings. To keep metrics, a cursor key or expired items on every rolled table, make
    /// them [`from_db`](Self::from_db).
    pub fn new(client: Client, naming: TableNaming) -> Self {
        Self::from_db(&Db::new(client, naming.prefix()), naming)
    }

    /// Rolled tables named by `naming`, each reached through a handle with `db`'s client and
    /// every one of its settings (`Db::with_metrics`, [`Db::with_cursor_key`],
    /// [`Db::include_expired_items`]); `db`'s own table name is not used.
    ///
    /// ```
    /// # use dynamap::timeseries::rolling::{RollingTables, TableNaming};
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # fn example(client: aws_sdk_dynamodb::Client) -> dynamap::Result<()> {
    /// let db = dynamap::Db::<Events>::new(client, "iot").with_cursor_key(b"a secret of the service");
    /// let rolling = RollingTables::from_db(&db, TableNaming::new("iot.")?);
    /// # Ok(()) }
    /// ```
    pub fn from_db(db: &Db<T>, naming: TableNaming) -> Self {
        Self {
            base: db.handle().clone(),
            naming: Arc::new(naming),
            created: Arc::default(),
            layout: PhantomData,
        }
    }

    /// How the tables are named.
    pub fn naming(&self) -> &TableNaming {
        &self.naming
    }

    /// The SDK client.
    pub fn client(&self) -> &Client {
        self.base.client()
    }

    /// The table for an event at `event_ms` written at `written_ms` (milliseconds since the
    /// Unix epoch), created with layout `T` if it does not exist yet.
    ///
    /// Each table is created at most once per process however many tasks ask at the same
    /// time: the first creates it, the others wait for it. Across processes creation is
    /// idempotent too ([`Db::create_table`] accepts a table that already exists). A failed
    /// creation is not remembered: the next call tries again.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Clock`] when the times have no table (see
    /// [`TableNaming::table_for`]), and as [`Db::create_table`] does when the table must be
    /// created.
    pub fn db_for(
        &self,
        event_ms: i64,
        written_ms: i64,
    ) -> impl Future<Output = Result<Db<T>>> + Send + use<T> {
        let this = self.clone();
        async move {
            let table = this.naming.table_for(event_ms, written_ms)?;
            this.created_db(&table).await
        }
    }

    /// A handle on `table`, created with layout `T` if this process has not made sure of it
    /// yet (see [`db_for`](Self::db_for)).
    pub(super) async fn created_db(&self, table: &RolledTable) -> Result<Db<T>> {
        let db = self.db(table);
        let guard = {
            let mut created = self.created.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(created.entry(table.name().to_owned()).or_default())
        };
        let mut exists = guard.lock().await;
        if !*exists {
            db.create_table().await?;
            *exists = true;
        }
        Ok(db)
    }

    /// [`db_for`](Self::db_for) with the write time taken from the system clock: what a
    /// writer uses, so that data always lands in a table of the current write month.
    ///
    /// # Errors
    ///
    /// As [`db_for`](Self::db_for), and with [`Error::Clock`] when the system clock is before
    /// 1970.
    pub fn db_for_now(&self, event_ms: i64) -> impl Future<Output = Result<Db<T>>> + Send + use<T> {
        let this = self.clone();
        async move { this.db_for(event_ms, super::now_millis()?).await }
    }

    /// A handle on `table`, without creating anything, with every setting of the handle
    /// the tables were made [`from_db`](Self::from_db).
    pub fn db(&self, table: &RolledTable) -> Db<T> {
        Db::from_handle(self.base.on_table(table.name()))
    }

    /// Every table of this naming in the account and region, in order of period, then write
    /// month. Reads every page of `ListTables`; other tables are skipped.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`] when `ListTables` fails or DynamoDB cannot be reached.
    pub fn tables(&self) -> impl Future<Output = Result<Vec<RolledTable>>> + Send + use<T> {
        let this = self.clone();
        async move {
            let mut tables = Vec::new();
            let mut start: Option<String> = None;
            loop {
                let span = call_span("ListTables", this.naming.prefix(), "");
                let page = this
                    .client()
                    .list_tables()
                    .set_exclusive_start_table_name(start.take())
                    .send()
                    .instrument(span)
                    .await
                    .map_err(|err| Error::service("ListTables", err))?;
                tables.extend(
                    page.table_names()
                        .iter()
                        .filter_map(|name| this.naming.parse(name)),
                );
                match page.last_evaluated_table_name {
                    Some(last) => start = Some(last),
                    None => break,
                }
            }
            tables.sort();
            Ok(tables)
        }
    }

    /// The tables holding event times in `range` (milliseconds, inclusive): one per period
    /// the range touches and write month data of that period was written in, so late data
    /// written months after its events is included.
    ///
    /// # Errors
    ///
    /// As [`tables`](Self::tables).
    pub fn tables_overlapping(
        &self,
        range: RangeInclusive<i64>,
    ) -> impl Future<Output = Result<Vec<RolledTable>>> + Send + use<T> {
        let this = self.clone();
        async move {
            let mut tables = this.tables().await?;
            tables.retain(|table| table.overlaps(&range));
            Ok(tables)
        }
    }

    /// Forgets that `name` was created, so that the next [`db_for`](Self::db_for) of it
    /// creates it again (after retention dropped it).
    pub(super) fn forget(&self, name: &str) {
        self.created
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(name);
    }
}
