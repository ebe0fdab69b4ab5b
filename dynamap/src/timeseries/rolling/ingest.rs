//! Writing a mixed batch of events across rolled tables: each routed to the table of its
//! event period and write month, tables created once, written a table at a time.

use std::collections::BTreeMap;
use std::fmt;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;

use futures_util::{StreamExt, stream};

use super::{RolledTable, RollingTables};
use crate::batch::BatchWriteReport;
use crate::preview::Preview;
use crate::timeseries::rows::{EventRow, WriteOutcome, WritePath};
use crate::{Entity, Result, Table};

/// A time of an event, in milliseconds since the Unix epoch.
type Millis<'a, E> = Arc<dyn Fn(&E) -> i64 + Send + Sync + 'a>;

/// Events to write across rolled tables, made by [`RollingTables::ingest`]: the caller no
/// longer groups events by table. Sent ([`send`](Self::send), or awaited), it writes them
/// as items with the batch engine; [`event_rows`](Self::event_rows) writes them as
/// multi-event rows instead.
///
/// It borrows the events, so its future lives as long as they do. Clone it to send the
/// same events again.
///
/// ```no_run
/// # use dynamap::timeseries::rolling::{RollingTables, TableNaming};
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
/// # #[derive(Entity)] #[dynamap(table = Events, entity = "Reading", pk = "DEV#{device}", sk = "AT#{at}")]
/// # struct Reading { device: String, at: i64, value: f64 }
/// # async fn example(rolling: RollingTables<Events>, readings: Vec<Reading>) -> dynamap::Result<()> {
/// // Each reading to the table of its week and of this month, created on first use.
/// let report = rolling.ingest(&readings, |r| r.at).await;
/// assert!(report.is_complete(), "{} not written", report.failed());
/// # Ok(()) }
/// ```
#[must_use = "an ingest does nothing until it is sent or awaited"]
pub struct Ingest<'a, T, E> {
    rolling: &'a RollingTables<T>,
    events: &'a [E],
    event_ms: Millis<'a, E>,
    written_ms: Option<Millis<'a, E>>,
    concurrency: usize,
}

impl<T, E> Clone for Ingest<'_, T, E> {
    fn clone(&self) -> Self {
        Self {
            rolling: self.rolling,
            events: self.events,
            event_ms: Arc::clone(&self.event_ms),
            written_ms: self.written_ms.clone(),
            concurrency: self.concurrency,
        }
    }
}

impl<T, E> fmt::Debug for Ingest<'_, T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ingest")
            .field("rolling", self.rolling)
            .field("events", &self.events.len())
            .field("written_at", &self.written_ms.is_some())
            .field("concurrency", &self.concurrency)
            .finish()
    }
}

impl<T: Table> RollingTables<T> {
    /// Routes `events` to their tables by `event_ms` (each event's time, in milliseconds
    /// since the Unix epoch) and the current write month; see [`Ingest`].
    pub fn ingest<'a, E>(
        &'a self,
        events: &'a [E],
        event_ms: impl Fn(&E) -> i64 + Send + Sync + 'a,
    ) -> Ingest<'a, T, E> {
        Ingest {
            rolling: self,
            events,
            event_ms: Arc::new(event_ms),
            written_ms: None,
            concurrency: 8,
        }
    }
}

impl<'a, T: Table, E> Ingest<'a, T, E> {
    /// The write time of each event instead of the system clock: for replaying or importing
    /// data as of when it was (or would have been) written.
    pub fn written_at(mut self, written_ms: impl Fn(&E) -> i64 + Send + Sync + 'a) -> Self {
        self.written_ms = Some(Arc::new(written_ms));
        self
    }

    /// How many event-row writes run at once (default 8); batches use their own.
    pub fn concurrency(mut self, writes: usize) -> Self {
        self.concurrency = writes.max(1);
        self
    }

    /// Each event's position, by the table it goes to (in table name order). An event whose
    /// table cannot be named (a time out of range, or a clock before 1970) is in `refused`.
    fn route(&self) -> Routes {
        let now = super::now_millis();
        let mut routes = Routes::default();
        for (index, event) in self.events.iter().enumerate() {
            let written = match (&self.written_ms, &now) {
                (Some(written), _) => Ok(written(event)),
                (None, Ok(now)) => Ok(*now),
                (None, Err(err)) => Err(err.clone()),
            };
            let table = written.and_then(|written| {
                self.rolling
                    .naming()
                    .table_for((self.event_ms)(event), written)
            });
            match table {
                Ok(table) => routes
                    .tables
                    .entry(table.name().to_owned())
                    .or_insert_with(|| (table, Vec::new()))
                    .1
                    .push(index),
                Err(err) => routes.refused.push((index, err)),
            }
        }
        routes
    }
}

/// Where each event goes: per table name, the table and the events' positions.
#[derive(Default)]
struct Routes {
    tables: BTreeMap<String, (RolledTable, Vec<usize>)>,
    refused: Vec<(usize, crate::Error)>,
}

impl<T: Table, E> Ingest<'_, T, E>
where
    E: Entity<Table = T> + Sync,
    for<'e> &'e E: crate::AsEntity<Entity = E>,
{
    /// Writes every event as an item, with one batch write per table (puts, 25 a call,
    /// retried as [`BatchWrite`](crate::batch::BatchWrite) does), a table at a time.
    #[doc(alias = "put_all")]
    pub async fn send(self) -> RolledBatchReport {
        let routes = self.route();
        let mut report = RolledBatchReport {
            refused: routes.refused,
            ..RolledBatchReport::default()
        };
        for (table, positions) in routes.tables.into_values() {
            let written = match self.rolling.created_db(&table).await {
                Ok(db) => db.put_all(positions.iter().map(|&i| &self.events[i])).await,
                Err(err) => Err(err),
            };
            report.tables.push(TableBatch {
                table,
                positions,
                written,
            });
        }
        report
    }

    /// The requests [`send`](Self::send) would make, not sent (see [`crate::preview`]):
    /// each table's `BatchWriteItem` calls, tables in name order. Left out: the
    /// `CreateTable` of a table this handle has not created yet, sent before its writes
    /// (the layout's, as `create_table_json` shows it), and events no table can be named
    /// for, which `send` reports as refused.
    ///
    /// ```no_run
    /// # use dynamap::timeseries::rolling::RollingTables;
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # #[derive(Entity)] #[dynamap(table = Events, entity = "Reading", pk = "DEV#{device}", sk = "AT#{at}")]
    /// # struct Reading { device: String, at: i64, value: f64 }
    /// # fn example(rolling: RollingTables<Events>, readings: Vec<Reading>) -> dynamap::Result<()> {
    /// println!("{}", rolling.ingest(&readings, |r| r.at).preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The error of the first event that would not be written (an encoding, key or size
    /// error), which `send` reports in its table's batch report.
    pub fn preview(&self) -> Result<Preview> {
        let mut requests = Vec::new();
        for (table, positions) in self.route().tables.into_values() {
            let events = positions.iter().map(|&i| &self.events[i]);
            let batch = self.rolling.db(&table).put_all(events).preview()?;
            requests.extend(batch.into_requests());
        }
        Ok(Preview::new(requests))
    }

    /// Writes every event as an item; see [`send`](Self::send).
    #[deprecated(note = "use `send` (or `.await` the ingest)")]
    pub async fn put_all(self) -> RolledBatchReport {
        self.send().await
    }
}

impl<'a, T, E> IntoFuture for Ingest<'a, T, E>
where
    T: Table,
    E: Entity<Table = T> + Sync,
    for<'e> &'e E: crate::AsEntity<Entity = E>,
{
    type Output = RolledBatchReport;
    type IntoFuture = Pin<Box<dyn Future<Output = RolledBatchReport> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<'a, T, E> Ingest<'a, T, E> {
    /// Writes the events into multi-event rows (see
    /// [`EventRows`](crate::timeseries::rows::EventRows)) of their tables instead of as
    /// items, `path` choosing how each write starts; sent by
    /// [`send`](IngestRows::send) or by awaiting it.
    pub fn event_rows(self, path: WritePath) -> IngestRows<'a, T, E> {
        IngestRows { ingest: self, path }
    }
}

/// Events to write into multi-event rows across rolled tables, made by
/// [`Ingest::event_rows`].
#[must_use = "an ingest does nothing until it is sent or awaited"]
pub struct IngestRows<'a, T, E> {
    ingest: Ingest<'a, T, E>,
    path: WritePath,
}

impl<T, E> Clone for IngestRows<'_, T, E> {
    fn clone(&self) -> Self {
        Self {
            ingest: self.ingest.clone(),
            path: self.path,
        }
    }
}

impl<T, E> fmt::Debug for IngestRows<'_, T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IngestRows")
            .field("ingest", &self.ingest)
            .field("path", &self.path)
            .finish()
    }
}

impl<'a, T: Table, E: EventRow<Table = T> + Sync> IntoFuture for IngestRows<'a, T, E> {
    type Output = RolledRowsReport;
    type IntoFuture = Pin<Box<dyn Future<Output = RolledRowsReport> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<T: Table, E: EventRow<Table = T> + Sync> IngestRows<'_, T, E> {
    /// Writes every event into multi-event rows of its table, [`Ingest::concurrency`]
    /// writes at once. One outcome per event, in the order given; an event whose table
    /// could not be named or created gets that error.
    pub async fn send(self) -> RolledRowsReport {
        let IngestRows { ingest: this, path } = self;
        this.rows(path).await
    }
}

impl<T: Table, E: EventRow<Table = T> + Sync> IngestRows<'_, T, E> {
    /// The requests [`send`](Self::send) would make first, not sent (see
    /// [`crate::preview`]): for each event, in table name order, the first request of its
    /// write into row 0 of its timestamp (a `PutItem` creating the row or an `UpdateItem`
    /// adding to it, as the write path chooses). Whether more follow (the row is full, or
    /// holds the event already) depends on the answer. Left out, as for
    /// [`Ingest::preview`]: the `CreateTable` of a table not created yet, and refused
    /// events.
    ///
    /// # Errors
    ///
    /// The error of the first event that would fail before sending
    /// ([`Error::EventRowUnsupported`](crate::Error::EventRowUnsupported), an encoding or
    /// size error).
    pub fn preview(&self) -> Result<Preview> {
        let ingest = &self.ingest;
        let mut requests = Vec::new();
        for (table, positions) in ingest.route().tables.into_values() {
            let rows = ingest
                .rolling
                .db(&table)
                .event_rows::<E>()
                .write_path(self.path);
            for i in positions {
                requests.push(rows.first_request(&ingest.events[i])?);
            }
        }
        Ok(Preview::new(requests))
    }
}

impl<T: Table, E: EventRow<Table = T> + Sync> Ingest<'_, T, E> {
    async fn rows(self, path: WritePath) -> RolledRowsReport {
        // Every position is routed once: refused, to a table that could not be created, or
        // to a write; sorting by position puts the outcomes in the order given.
        let mut outcomes: Vec<(usize, Result<WriteOutcome>)> =
            Vec::with_capacity(self.events.len());
        let mut tables = Vec::new();
        let routes = self.route();
        outcomes.extend(routes.refused.into_iter().map(|(i, err)| (i, Err(err))));
        let mut writes = Vec::with_capacity(self.events.len());
        for (table, positions) in routes.tables.into_values() {
            match self.rolling.created_db(&table).await {
                Ok(db) => {
                    let rows = db.event_rows::<E>().write_path(path);
                    writes.extend(positions.into_iter().map(|i| {
                        let write = rows.write(&self.events[i]);
                        async move { (i, write.await) }
                    }));
                    tables.push(table);
                }
                Err(err) => outcomes.extend(positions.into_iter().map(|i| (i, Err(err.clone())))),
            }
        }
        let mut done = stream::iter(writes).buffer_unordered(self.concurrency);
        while let Some(outcome) = done.next().await {
            outcomes.push(outcome);
        }
        outcomes.sort_unstable_by_key(|(i, _)| *i);
        debug_assert!(outcomes.iter().enumerate().all(|(n, (i, _))| n == *i));
        RolledRowsReport {
            outcomes: outcomes.into_iter().map(|(_, outcome)| outcome).collect(),
            tables,
        }
    }
}

/// What [`Ingest::send`] did, table by table.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct RolledBatchReport {
    /// One entry per table written to, in table name order.
    pub tables: Vec<TableBatch>,
    /// Events no table could be named for (an event or write time out of range, or a system
    /// clock before 1970: [`Error::Clock`](crate::Error::Clock)), by position, with the error.
    pub refused: Vec<(usize, crate::Error)>,
}

/// One table's share of an ingest.
#[derive(Debug)]
#[non_exhaustive]
pub struct TableBatch {
    /// The table.
    pub table: RolledTable,
    /// The positions, in the events given, of the events routed here.
    pub positions: Vec<usize>,
    /// The batch write's report, or why the table could not be created or written.
    pub written: Result<BatchWriteReport>,
}

impl RolledBatchReport {
    /// True when every event was written.
    pub fn is_complete(&self) -> bool {
        self.refused.is_empty()
            && self
                .tables
                .iter()
                .all(|t| t.written.as_ref().is_ok_and(BatchWriteReport::is_complete))
    }

    /// How many events were written.
    pub fn written(&self) -> usize {
        self.tables
            .iter()
            .filter_map(|t| t.written.as_ref().ok())
            .map(|r| r.written)
            .sum()
    }

    /// How many events were not written.
    pub fn failed(&self) -> usize {
        self.refused.len()
            + self
                .tables
                .iter()
                .map(|t| match &t.written {
                    Ok(report) => report.failed.len(),
                    Err(_) => t.positions.len(),
                })
                .sum::<usize>()
    }
}

/// What [`IngestRows::send`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct RolledRowsReport {
    /// One outcome per event, in the order given.
    pub outcomes: Vec<Result<WriteOutcome>>,
    /// The tables written to, in table name order.
    pub tables: Vec<RolledTable>,
}
