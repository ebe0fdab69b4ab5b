//! Range queries across rolled tables, merged in time order.

use std::future::Future;
use std::ops::RangeInclusive;

use futures_util::Stream;

use super::merge::MergeSorted;
use super::{RolledTable, RollingTables};
use crate::query::{Decode, Query};
use crate::timeseries::rows::{EventRow, EventRows};
use crate::{Db, InLayout, Result, Table};

/// The tables holding a range of event times, found by [`RollingTables::range`], ready to be
/// queried together.
///
/// A query of every table comes back as one stream in time order. The streams borrow the
/// tables' handles, which is why finding the tables and querying them are two steps.
pub struct RangeTables<T> {
    range: RangeInclusive<i64>,
    tables: Vec<(RolledTable, Db<T>)>,
}

impl<T> Clone for RangeTables<T> {
    fn clone(&self) -> Self {
        Self {
            range: self.range.clone(),
            tables: self.tables.clone(),
        }
    }
}

impl<T> std::fmt::Debug for RangeTables<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RangeTables")
            .field("range", &self.range)
            .field("tables", &self.tables)
            .finish()
    }
}

impl<T: Table> RollingTables<T> {
    /// The tables holding event times in `range` (milliseconds since the Unix epoch, both
    /// ends inclusive), including tables of late data written in later months. See
    /// [`RangeTables::query`].
    ///
    /// # Errors
    ///
    /// As [`tables_overlapping`](RollingTables::tables_overlapping):
    /// [`Error::Service`](crate::Error::Service) when `ListTables` fails or DynamoDB cannot be
    /// reached.
    pub fn range(
        &self,
        range: RangeInclusive<i64>,
    ) -> impl Future<Output = Result<RangeTables<T>>> + Send + use<T> {
        let this = self.clone();
        async move {
            let tables = this
                .tables_overlapping(range.clone())
                .await?
                .into_iter()
                .map(|table| {
                    let db = this.db(&table);
                    (table, db)
                })
                .collect();
            Ok(RangeTables { range, tables })
        }
    }
}

impl<T: Table> RangeTables<T> {
    /// The range of event times asked for.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::timeseries::rolling::RollingTables;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # async fn example(rolling: RollingTables<Events>) -> dynamap::Result<()> {
    /// let tables = rolling.range(1_491_696_000_000..=1_492_300_799_999).await?;
    /// assert_eq!(*tables.range().start(), 1_491_696_000_000);
    /// # Ok(()) }
    /// ```
    pub fn range(&self) -> &RangeInclusive<i64> {
        &self.range
    }

    /// The tables, in order of period, then write month.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::timeseries::rolling::RollingTables;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # async fn example(rolling: RollingTables<Events>) -> dynamap::Result<()> {
    /// let tables = rolling.range(1_491_696_000_000..=1_492_300_799_999).await?;
    /// for table in tables.tables() {
    ///     println!("{} (written {})", table.name(), table.written());
    /// }
    /// # Ok(()) }
    /// ```
    pub fn tables(&self) -> impl ExactSizeIterator<Item = &RolledTable> {
        self.tables.iter().map(|(table, _)| table)
    }

    /// Handles on the tables, in the same order.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::timeseries::rolling::RollingTables;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Events;
    /// # async fn example(rolling: RollingTables<Events>) -> dynamap::Result<()> {
    /// let tables = rolling.range(1_491_696_000_000..=1_492_300_799_999).await?;
    /// for db in tables.dbs() {
    ///     println!("{}", db.table_name());
    /// }
    /// # Ok(()) }
    /// ```
    pub fn dbs(&self) -> impl ExactSizeIterator<Item = &Db<T>> {
        self.tables.iter().map(|(_, db)| db)
    }

    /// Runs the query `build` makes for each table and merges the results into one stream,
    /// ascending by `key`.
    ///
    /// `build` should narrow the sort key to the range ([`sk_between`](Query::sk_between)):
    /// a table holds its whole period, which may reach past the range. Each table's results
    /// must come in `key` order, so `key` is the value the sort key orders by, such as the
    /// event time (with a tie-breaker, if the caller needs one, in both). Do not make the
    /// queries descending here; use [`query_descending`](Self::query_descending).
    ///
    /// Pages are read as the stream is used up, one page per table at a time; a
    /// [`limit`](Query::limit) in `build` applies to each table, so use
    /// [`StreamExt::take`](futures_util::StreamExt::take) for a total.
    ///
    /// Items with equal keys come in table order (period, then write month). An error from
    /// one table is passed on; stop there, or the rest of that table is missing.
    pub fn query<'a, E, S, K>(
        &'a self,
        build: impl Fn(&'a Db<T>) -> Query<E, S>,
        key: impl Fn(&E) -> K + 'a,
    ) -> impl Stream<Item = Result<E>> + 'a
    where
        E: Decode + InLayout<T> + 'a,
        S: 'a,
        K: Ord + 'a,
    {
        self.merge(build, key, false)
    }

    /// Like [`query`](Self::query), newest first: each table is queried descending (this
    /// method calls [`Query::descending`] itself) and the results merged descending by `key`.
    pub fn query_descending<'a, E, S, K>(
        &'a self,
        build: impl Fn(&'a Db<T>) -> Query<E, S>,
        key: impl Fn(&E) -> K + 'a,
    ) -> impl Stream<Item = Result<E>> + 'a
    where
        E: Decode + InLayout<T> + 'a,
        S: 'a,
        K: Ord + 'a,
    {
        self.merge(move |db| build(db).descending(), key, true)
    }

    /// Reads multi-event rows from every table and merges them in time order: `read` makes
    /// one table's stream from that table's [`EventRows`] handle, usually with
    /// [`EventRows::range`], and `key` is what its events are ordered by (the event time).
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::timeseries::rolling::{RollingTables, TableNaming};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
    /// # #[derive(Entity)]
    /// # #[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}", event_rows)]
    /// # struct CarEvent { car: String, at: i64, speed: f64 }
    /// # async fn example(rolling: RollingTables<Iot>, from: i64, to: i64) -> dynamap::Result<()> {
    /// use futures_util::TryStreamExt;
    ///
    /// let tables = rolling.range(from..=to).await?;
    /// let events: Vec<CarEvent> = tables
    ///     .event_rows(|rows| rows.range(CarEvent::partition("car-7"), (from,), (to,)), |e| e.at)
    ///     .try_collect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    ///
    /// Events with equal keys come in table order (period, then write month), and within a
    /// table in arrival order. Pages are read as the stream is used up.
    pub fn event_rows<'a, E, St, K>(
        &'a self,
        read: impl Fn(EventRows<E>) -> St,
        key: impl Fn(&E) -> K + 'a,
    ) -> impl Stream<Item = Result<E>> + 'a
    where
        E: EventRow + InLayout<T> + 'a,
        St: Stream<Item = Result<E>> + 'a,
        K: Ord + 'a,
    {
        let streams: Vec<_> = self
            .dbs()
            .map(|db| Box::pin(read(db.event_rows::<E>())))
            .collect();
        MergeSorted::new(streams, key, false)
    }

    fn merge<'a, E, S, K>(
        &'a self,
        build: impl Fn(&'a Db<T>) -> Query<E, S>,
        key: impl Fn(&E) -> K + 'a,
        descending: bool,
    ) -> impl Stream<Item = Result<E>> + 'a
    where
        E: Decode + InLayout<T> + 'a,
        S: 'a,
        K: Ord + 'a,
    {
        // Pinned boxes of the one stream type, not trait objects: the merged stream stays
        // `Send` when the items are.
        let streams: Vec<_> = self.dbs().map(|db| Box::pin(build(db).stream())).collect();
        MergeSorted::new(streams, key, descending)
    }
}
