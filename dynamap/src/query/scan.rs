//! Scans: every item of the table (or of an index) of one entity type, optionally in
//! parallel segments.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::Select;
use futures_util::stream::{self, Stream, StreamExt, TryStreamExt};
use tracing::Instrument;

use super::{Decode, UnknownEntity};
use crate::clone_builder::clone_builder;
use crate::codec::Item;
use crate::expr::{Condition, NameMap, Placeholders, ValueMap};
use crate::span::call_span;
use crate::table::Table;
use crate::{Db, Error, Result};

/// The most segments DynamoDB accepts in one parallel scan.
const MAX_SEGMENTS: u32 = 1_000_000;

/// How many segments a scan reads at once unless told otherwise: as many calls in flight as
/// a batch keeps, whatever the number of segments.
const DEFAULT_CONCURRENCY: usize = 16;

/// A scan of the whole table, sent by [`all`](Scan::all), [`count`](Scan::count) or
/// [`stream`](Scan::stream).
/// Reading every item costs read capacity for every item: prefer queries.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// let in_poznan: Vec<Sensor> = db
///     .scan::<Sensor>()
///     .filter(Sensor::CITY.eq("Poznań"))
///     .segments(4) // four parallel segments
///     .all()
///     .await?;
/// let sensors = db.scan::<Sensor>().count().await?;
/// # Ok(()) }
/// ```
#[must_use = "a scan does nothing until it is sent"]
pub struct Scan<T> {
    db: Db,
    index: Option<&'static str>,
    filter: Option<Condition<T>>,
    segments: u32,
    /// Segments read at once.
    concurrency: usize,
    limit: Option<usize>,
    consistent: bool,
    unknown: UnknownEntity,
    include_expired: bool,
    marker: PhantomData<fn() -> T>,
}

clone_builder!(Scan<T> {
    db, index, filter, segments, concurrency, limit, consistent, unknown, include_expired, marker,
});

impl<T> std::fmt::Debug for Scan<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scan")
            .field("table", &self.db.table_name())
            .field("target", &std::any::type_name::<T>())
            .field("index", &self.index)
            .field("filter", &self.filter)
            .field("segments", &self.segments)
            .field("concurrency", &self.concurrency)
            .field("limit", &self.limit)
            .field("consistent", &self.consistent)
            .finish_non_exhaustive()
    }
}

impl Db {
    /// A scan of every item of type `T` (an entity, or an `EntityEnum` for every type).
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String, kind: String }
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// let gas_sensors = db.scan::<Sensor>().filter(Sensor::KIND.eq("gas")).segments(4).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn scan<T: Decode>(&self) -> Scan<T> {
        Scan {
            db: self.clone(),
            index: None,
            filter: None,
            segments: 1,
            concurrency: DEFAULT_CONCURRENCY,
            limit: None,
            consistent: false,
            unknown: UnknownEntity::default(),
            include_expired: self.includes_expired(),
            marker: PhantomData,
        }
    }
}

impl<T: Decode> Scan<T> {
    /// Scans index `name` instead of the table.
    pub fn index(mut self, name: &'static str) -> Self {
        self.index = Some(name);
        self
    }

    /// Keeps only items matching `condition`.
    pub fn filter(mut self, condition: Condition<T>) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// Splits the scan into `n` segments (1 to 1,000,000) that [`all`](Self::all) and
    /// [`count`](Self::count) read in parallel, [`concurrency`](Self::concurrency) at a time.
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n;
        self
    }

    /// Reads at most `n` segments at once (at least 1; 16 by default), however many there
    /// are, so a scan of many segments keeps a bounded number of requests in flight.
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Returns at most `n` items (at least 1): the first ones in segment order. Each
    /// segment stops reading once it alone has `n`.
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n.max(1));
        self
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet,
    /// which scans hide by default (on tables with a TTL attribute).
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Strongly consistent reads (the table and its local indexes; a global index refuses
    /// them before sending).
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// What a scan into an enum does with unknown entity types.
    pub fn on_unknown(mut self, policy: UnknownEntity) -> Self {
        self.unknown = policy;
        self
    }

    /// The filter every request of this scan sends, checked first.
    fn prepare(&self) -> Result<Prepared> {
        if self.segments == 0 || self.segments > MAX_SEGMENTS {
            return Err(Error::InvalidRequest {
                reason: format!(
                    "a scan takes 1 to {MAX_SEGMENTS} segments, not {}",
                    self.segments
                ),
            });
        }
        if let Some(name) = self.index {
            let Some(index) = <T::Table as Table>::SCHEMA.index(name) else {
                return Err(Error::InvalidRequest {
                    reason: format!("the table has no index `{name}`"),
                });
            };
            if self.consistent && !index.local {
                return Err(Error::InvalidRequest {
                    reason: format!(
                        "consistent reads are not available on global secondary index `{name}`"
                    ),
                });
            }
        }
        let mut p = Placeholders::default();
        let filter =
            super::filter::read_filter::<T>(self.filter.as_ref(), self.include_expired, &mut p)?;
        let (names, values) = p.into_parts();
        Ok(Prepared {
            filter,
            names,
            values,
        })
    }

    /// Every matching item (up to [`limit`](Self::limit)), segments read concurrently and
    /// concatenated in segment order.
    ///
    /// # Errors
    ///
    /// Fails before sending with [`Error::InvalidRequest`] for a segment count out of range, an
    /// unknown index or a consistent read of a global index, [`Error::InvalidExpression`] when the
    /// filter does not render; with [`Error::Service`] when DynamoDB refuses the request or cannot
    /// be reached; and with a decode error when an item does not decode.
    pub async fn all(self) -> Result<Vec<T>> {
        let prepared = self.prepare()?;
        let limit = self.limit.unwrap_or(usize::MAX);
        let segments: Vec<Vec<T>> = stream::iter(0..self.segments)
            .map(|segment| self.segment_items(&prepared, segment, limit))
            .buffered(self.concurrency)
            .try_collect()
            .await?;
        Ok(segments.into_iter().flatten().take(limit).collect())
    }

    /// How many items match, counted by DynamoDB (a limit does not apply).
    ///
    /// # Errors
    ///
    /// As [`all`](Self::all), apart from decoding (no items are read).
    pub async fn count(self) -> Result<usize> {
        let prepared = self.prepare()?;
        let counts: Vec<usize> = stream::iter(0..self.segments)
            .map(|segment| self.segment_count(&prepared, segment))
            .buffer_unordered(self.concurrency)
            .try_collect()
            .await?;
        Ok(counts.into_iter().sum())
    }

    /// Every matching item (up to [`limit`](Self::limit)) as a stream that reads the next
    /// page when the current one is used up, segment after segment in order, so only one
    /// page is in memory at a time. (For throughput across segments, use
    /// [`all`](Self::all).)
    pub fn stream(self) -> impl Stream<Item = Result<T>> + Send + 'static
    where
        T: Send + 'static,
    {
        let limit = self.limit.unwrap_or(usize::MAX);
        let pages = match self.prepare() {
            Err(err) => stream::once(async move { Err(err) }).left_stream(),
            Ok(prepared) => {
                let start = PageState {
                    scan: self,
                    prepared,
                    segment: 0,
                    start: None,
                };
                stream::try_unfold(Some(start), PageState::next).right_stream()
            }
        };
        pages
            .map_ok(|page: Vec<T>| stream::iter(page.into_iter().map(Ok)))
            .try_flatten()
            .take(limit)
    }

    /// The items of one segment, at most `limit`.
    async fn segment_items(
        &self,
        prepared: &Prepared,
        segment: u32,
        limit: usize,
    ) -> Result<Vec<T>> {
        let mut items = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let output = self.request(prepared, segment, start.take(), false).await?;
            items.extend(self.decode(output.items.unwrap_or_default())?);
            match output.last_evaluated_key {
                Some(next) if items.len() < limit => start = Some(next),
                _ => return Ok(items),
            }
        }
    }

    /// How many items of one segment match.
    async fn segment_count(&self, prepared: &Prepared, segment: u32) -> Result<usize> {
        let mut total = 0usize;
        let mut start: Option<Item> = None;
        loop {
            let output = self.request(prepared, segment, start.take(), true).await?;
            total += usize::try_from(output.count()).unwrap_or(0);
            match output.last_evaluated_key {
                Some(next) => start = Some(next),
                None => return Ok(total),
            }
        }
    }

    fn decode(&self, items: Vec<Item>) -> Result<Vec<T>> {
        let mut decoded = Vec::with_capacity(items.len());
        for item in items {
            decoded.extend(T::decode(item, self.unknown)?);
        }
        Ok(decoded)
    }

    async fn request(
        &self,
        prepared: &Prepared,
        segment: u32,
        start: Option<Item>,
        count: bool,
    ) -> Result<aws_sdk_dynamodb::operation::scan::ScanOutput> {
        let parallel = self.segments > 1;
        let entity = T::SINGLE_ENTITY.unwrap_or("");
        let span = call_span("Scan", self.db.table_name(), entity);
        self.db
            .client()
            .scan()
            .table_name(self.db.table_name())
            .set_index_name(self.index.map(str::to_owned))
            .set_filter_expression(prepared.filter.clone())
            .set_expression_attribute_names(prepared.names.clone())
            .set_expression_attribute_values(prepared.values.clone())
            .consistent_read(self.consistent)
            .set_segment(parallel.then_some(segment as i32))
            .set_total_segments(parallel.then_some(self.segments as i32))
            .set_exclusive_start_key(start)
            .set_select(count.then_some(Select::Count))
            .send()
            .instrument(span)
            .await
            .map_err(|e| Error::service("Scan", e))
    }
}

/// What every request of one scan sends besides its segment and start key.
struct Prepared {
    filter: Option<String>,
    names: Option<NameMap>,
    values: Option<ValueMap>,
}

/// Where a scan's stream is: the segment and the key to start its next page from; `None`
/// once every segment is read.
struct PageState<T> {
    scan: Scan<T>,
    prepared: Prepared,
    segment: u32,
    start: Option<Item>,
}

impl<T: Decode> PageState<T> {
    /// The next page, and where to go on from it.
    async fn next(state: Option<Self>) -> Result<Option<(Vec<T>, Option<Self>)>> {
        let Some(mut state) = state else {
            return Ok(None);
        };
        let output = state
            .scan
            .request(&state.prepared, state.segment, state.start.take(), false)
            .await?;
        let page = state.scan.decode(output.items.unwrap_or_default())?;
        let next = match output.last_evaluated_key {
            Some(key) => Some(PageState {
                start: Some(key),
                ..state
            }),
            None if state.segment + 1 < state.scan.segments => Some(PageState {
                segment: state.segment + 1,
                start: None,
                ..state
            }),
            None => None,
        };
        Ok(Some((page, next)))
    }
}
