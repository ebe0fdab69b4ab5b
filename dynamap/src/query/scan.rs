//! Scans: every item of the table (or of an index) of one entity type, optionally in
//! parallel segments.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::Select;
use futures_util::stream::{self, Stream, StreamExt, TryStreamExt};

use super::cursor::{self, Binding, Cursor};
use super::page_fill::{Offered, PageFill};
use super::{Decode, Page, UnknownEntity};
use crate::clone_builder::clone_builder;
use crate::codec::{AttributeValue, Item};
use crate::expr::{Condition, NameMap, Placeholders, ValueMap};
use crate::span::send_in;
use crate::span::{Call, Read};
use crate::table::Table;
use crate::{Error, Handle, Result};

/// The most segments DynamoDB accepts in one parallel scan.
const MAX_SEGMENTS: u32 = 1_000_000;

/// How many segments a scan reads at once unless told otherwise: as many calls in flight as
/// a batch keeps, whatever the number of segments.
const DEFAULT_CONCURRENCY: usize = 16;

/// A scan of the whole table, sent by [`send`](Scan::send) (one page, with a cursor for the
/// next), [`all`](Scan::all), [`count`](Scan::count) or [`stream`](Scan::stream).
/// Reading every item costs read capacity for every item: prefer queries.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
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
    db: Handle,
    index: Option<&'static str>,
    filter: Option<Condition<T>>,
    segments: u32,
    /// Segments read at once.
    concurrency: usize,
    limit: Option<usize>,
    consistent: bool,
    unknown: UnknownEntity,
    include_expired: bool,
    pub(super) after: Option<Cursor>,
    marker: PhantomData<fn() -> T>,
}

clone_builder!(Scan<T> {
    db, index, filter, segments, concurrency, limit, consistent, unknown, include_expired, after,
    marker,
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
            .field("after", &self.after.as_ref().map(cursor::Redacted))
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// A scan of every item of type `T` (an entity, or an `EntityEnum` for every type).
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String, kind: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let gas_sensors = db.scan::<Sensor>().filter(Sensor::KIND.eq("gas")).segments(4).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn scan<T: Decode + crate::InLayout<L>>(&self) -> Scan<T> {
        Scan {
            db: self.handle().clone(),
            index: None,
            filter: None,
            segments: 1,
            concurrency: DEFAULT_CONCURRENCY,
            limit: None,
            consistent: false,
            unknown: UnknownEntity::default(),
            include_expired: self.includes_expired(),
            after: None,
            marker: PhantomData,
        }
    }
}

impl<T: Decode> Scan<T> {
    /// The same scan, decoding its items as `U` (see `lossy.rs`).
    pub(super) fn retarget<U>(self) -> Scan<U> {
        Scan {
            db: self.db,
            index: self.index,
            filter: self.filter.map(Condition::retype),
            segments: self.segments,
            concurrency: self.concurrency,
            limit: self.limit,
            consistent: self.consistent,
            unknown: self.unknown,
            include_expired: self.include_expired,
            after: self.after,
            marker: PhantomData,
        }
    }

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

    /// Resumes after the last item of the page that returned `cursor`: for
    /// [`send`](Self::send). The cursor must come from a scan of the same table or index
    /// with the same filter, entity type and number of segments; another is
    /// [`Error::InvalidCursor`]. The page size (`limit`) may change between pages.
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.after = Some(cursor);
        self
    }

    /// What a scan into an enum does with unknown entity types.
    pub fn on_unknown(mut self, policy: UnknownEntity) -> Self {
        self.unknown = policy;
        self
    }

    /// The filter every request of this scan sends, checked first.
    pub(super) fn prepare(&self) -> Result<Prepared> {
        if self.segments == 0 || self.segments > MAX_SEGMENTS {
            return Err(Error::InvalidSetting {
                setting: "segments",
                reason: format!(
                    "a scan takes 1 to {MAX_SEGMENTS} segments, not {}",
                    self.segments
                ),
            });
        }
        if let Some(name) = self.index {
            let Some(index) = <T::Table as Table>::SCHEMA.index(name) else {
                return Err(Error::UnknownIndex {
                    table: <T::Table as Table>::SCHEMA.type_name,
                    index: name.to_owned(),
                });
            };
            if self.consistent && !index.local {
                return Err(Error::Unsupported {
                    operation: "Scan",
                    reason: format!(
                        "consistent reads are not available on global secondary index `{name}`"
                    ),
                });
            }
        }
        let schema = <T::Table as Table>::SCHEMA;
        let mut key_attributes = vec![schema.pk];
        key_attributes.extend(schema.sk);
        if let Some(index) = self.index.and_then(|name| schema.index(name)) {
            key_attributes.extend(index.pk_attributes().map(|(name, _)| name));
            key_attributes.extend(index.sk_attributes().map(|(name, _)| name));
        }
        let digest = super::exec::digest(
            None,
            self.filter
                .as_ref()
                .map(Condition::render)
                .transpose()
                .map_err(Error::in_filter)?,
            &[],
            (T::SINGLE_ENTITY, T::ALIASES),
            self.include_expired,
            false,
        );
        let mut p = Placeholders::default();
        let filter =
            super::filter::read_filter::<T>(self.filter.as_ref(), self.include_expired, &mut p)?;
        let (names, values) = p.into_parts();
        Ok(Prepared {
            filter,
            names,
            values,
            key_attributes,
            digest,
        })
    }

    /// One page: up to [`limit`](Self::limit) items (without a limit, the matches of the
    /// first DynamoDB response that has any, up to 1 MB read), reading segment after segment
    /// in order, and a cursor for [`after`](Self::after) exactly when more matching items
    /// follow. A page that ends the scan has no cursor: once a page is full, the scan reads on
    /// until it finds one more match (not returned; the next page starts with it) or the end.
    ///
    /// # Errors
    ///
    /// As [`all`](Self::all), and [`Error::InvalidCursor`] for a cursor of another scan.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String, city: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let first = db.scan::<Sensor>().limit(100).send().await?;
    /// if let Some(cursor) = first.cursor {
    ///     let second = db.scan::<Sensor>().limit(100).after(cursor).send().await?;
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn send(self) -> Result<Page<T>> {
        let prepared = self.prepare()?;
        let (mut segment, mut start) = match &self.after {
            Some(after) => self.resume(&prepared, after)?,
            None => (0, None),
        };
        // A position is the segment and key attributes of an item, for the cursor.
        let mut fill = PageFill::new(self.limit);
        loop {
            // Whole responses (no `Limit`): a scan's filter usually keeps few of the items
            // read, so requests sized to what the page still wants would be many and small.
            let output = self
                .request(&prepared, segment, start.take(), false)
                .await?;
            let next = output.last_evaluated_key;
            for raw in output.items.unwrap_or_default() {
                let position = fill
                    .wants_position()
                    .then(|| (segment, prepared.keys_of(&raw)));
                let Some(item) = T::decode(raw, self.unknown)? else {
                    fill.skip();
                    continue;
                };
                if let Offered::Beyond = fill.offer(item, position) {
                    // A match beyond the page: more follow; resume after the last returned.
                    return Ok(fill.into_page(true, |(at, keys)| self.cursor(&prepared, at, &keys)));
                }
            }
            fill.end_response();
            match next {
                Some(next) => start = Some(next),
                None if segment + 1 < self.segments => segment += 1,
                None => {
                    return Ok(
                        fill.into_page(false, |(at, keys)| self.cursor(&prepared, at, &keys))
                    );
                }
            }
        }
    }

    /// The segment and start key `cursor` resumes at, once it is known to be this scan's.
    pub(super) fn resume(
        &self,
        prepared: &Prepared,
        cursor: &Cursor,
    ) -> Result<(u32, Option<Item>)> {
        let mut segment = 0;
        let start = cursor::decode_matching(cursor, self.db.cursor_key(), |found| {
            let (index, segments) = (self.index.unwrap_or(""), self.segments);
            if (found.table, found.index) != (self.db.table_name(), index) {
                return Err("it belongs to another scan (table or index)");
            }
            segment = parse_segment(found.partition, segments)
                .ok_or("it belongs to a query, or to a scan with another number of segments")?;
            if found.query != prepared.digest {
                return Err(
                    "it belongs to a scan with another filter or entity; a cursor resumes only the scan that made it",
                );
            }
            Ok(())
        })?;
        Ok((segment, (!start.is_empty()).then_some(start)))
    }

    /// The cursor resuming at `segment`, after the item with key attributes `keys` (none:
    /// from the segment's start).
    fn cursor(
        &self,
        prepared: &Prepared,
        segment: u32,
        keys: &[(&'static str, AttributeValue)],
    ) -> Cursor {
        let partition = segment_binding(segment, self.segments);
        let binding = Binding {
            table: self.db.table_name(),
            index: self.index.unwrap_or(""),
            partition: &partition,
            query: &prepared.digest,
        };
        cursor::encode(&binding, keys, self.db.cursor_key())
    }

    /// Every matching item (up to [`limit`](Self::limit)), segments read concurrently and
    /// concatenated in segment order.
    ///
    /// # Errors
    ///
    /// Fails before sending with [`Error::InvalidSetting`] for a segment count out of range,
    /// [`Error::UnknownIndex`], [`Error::Unsupported`] for a consistent read of a global index,
    /// and [`Error::InvalidExpression`] when the filter does not render; with [`Error::Service`] when DynamoDB refuses the request or cannot
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
        let entity = T::SINGLE_ENTITY.unwrap_or("");
        let types = T::ENTITY_TYPES.iter().copied();
        let call = Call::several(&self.db, "Scan", entity, types, self.index);
        let request = self.builder(prepared, segment, start, count);
        call.read(Read::scan(request.as_input()));
        let result = send_in!(call, request);
        if let Ok(output) = &result {
            call.counted(output.count(), output.scanned_count());
        }
        call.end(result, |o| o.consumed_capacity())
            .map_err(|e| Error::service("Scan", e))
    }

    /// One request of this scan, as sent (and previewed).
    pub(super) fn builder(
        &self,
        prepared: &Prepared,
        segment: u32,
        start: Option<Item>,
        count: bool,
    ) -> aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder {
        let parallel = self.segments > 1;
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
    }
}

/// What every request of one scan sends besides its segment and start key.
pub(super) struct Prepared {
    filter: Option<String>,
    names: Option<NameMap>,
    values: Option<ValueMap>,
    /// The attributes that make up a cursor: the table's keys and the index's.
    key_attributes: Vec<&'static str>,
    /// What a cursor is bound to beyond table and index: the filter and the entity types.
    digest: String,
}

impl Prepared {
    /// The key attributes of an item or a `LastEvaluatedKey`, with their types.
    fn keys_of(&self, key: &Item) -> Vec<(&'static str, AttributeValue)> {
        self.key_attributes
            .iter()
            .filter_map(|name| Some((*name, key.get(*name)?.clone())))
            .collect()
    }
}

/// What a scan cursor holds in place of a partition: the segment to resume in, and how many
/// segments the scan has (a cursor does not resume a scan split another way).
fn segment_binding(segment: u32, segments: u32) -> String {
    format!("scan segment {segment} of {segments}")
}

fn parse_segment(binding: &str, segments: u32) -> Option<u32> {
    let rest = binding.strip_prefix("scan segment ")?;
    let (segment, total) = rest.split_once(" of ")?;
    let (segment, total): (u32, u32) = (segment.parse().ok()?, total.parse().ok()?);
    (total == segments && segment < segments).then_some(segment)
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

/// `scan.await` is [`scan.send()`](Scan::send): one page.
impl<T: Decode + Send + 'static> std::future::IntoFuture for Scan<T> {
    type Output = Result<Page<T>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Self::Output> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
