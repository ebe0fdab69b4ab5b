//! Scans: every item of the table (or of an index) of one entity type, optionally in
//! parallel segments.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::Select;
use futures_util::future::try_join_all;
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

/// A scan of the whole table, sent by [`all`](Scan::all) or [`count`](Scan::count).
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
    consistent: bool,
    unknown: UnknownEntity,
    include_expired: bool,
    marker: PhantomData<fn() -> T>,
}

clone_builder!(Scan<T> { db, index, filter, segments, consistent, unknown, include_expired, marker });

impl<T> std::fmt::Debug for Scan<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scan")
            .field("table", &self.db.table_name())
            .field("target", &std::any::type_name::<T>())
            .field("index", &self.index)
            .field("filter", &self.filter)
            .field("segments", &self.segments)
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

    /// Reads in `n` parallel segments (1 to 1,000,000), one concurrent request each.
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n;
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

    fn prepare(&self) -> Result<Placeholders> {
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
        Ok(Placeholders::default())
    }

    fn filter_expression(&self, p: &mut Placeholders) -> Result<Option<String>> {
        super::filter::read_filter::<T>(self.filter.as_ref(), self.include_expired, p)
    }

    /// Every matching item, segments read concurrently and concatenated in segment order.
    pub async fn all(self) -> Result<Vec<T>> {
        let mut p = self.prepare()?;
        let filter = self.filter_expression(&mut p)?;
        let (names, values) = p.into_parts();
        let segments = (0..self.segments).map(|segment| {
            let (filter, names, values) = (filter.clone(), names.clone(), values.clone());
            let this = &self;
            async move {
                let mut items = Vec::new();
                let mut start: Option<Item> = None;
                loop {
                    let output = this
                        .request(segment, start.take(), &filter, &names, &values, false)
                        .await?;
                    for item in output.items.unwrap_or_default() {
                        if let Some(item) = T::decode(item, this.unknown)? {
                            items.push(item);
                        }
                    }
                    match output.last_evaluated_key {
                        Some(next) => start = Some(next),
                        None => return Ok::<_, Error>(items),
                    }
                }
            }
        });
        Ok(try_join_all(segments)
            .await?
            .into_iter()
            .flatten()
            .collect())
    }

    /// How many items match, counted by DynamoDB.
    pub async fn count(self) -> Result<usize> {
        let mut p = self.prepare()?;
        let filter = self.filter_expression(&mut p)?;
        let (names, values) = p.into_parts();
        let segments = (0..self.segments).map(|segment| {
            let (filter, names, values) = (filter.clone(), names.clone(), values.clone());
            let this = &self;
            async move {
                let mut total = 0usize;
                let mut start: Option<Item> = None;
                loop {
                    let output = this
                        .request(segment, start.take(), &filter, &names, &values, true)
                        .await?;
                    total += usize::try_from(output.count()).unwrap_or(0);
                    match output.last_evaluated_key {
                        Some(next) => start = Some(next),
                        None => return Ok::<_, Error>(total),
                    }
                }
            }
        });
        Ok(try_join_all(segments).await?.into_iter().sum())
    }

    async fn request(
        &self,
        segment: u32,
        start: Option<Item>,
        filter: &Option<String>,
        names: &Option<NameMap>,
        values: &Option<ValueMap>,
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
            .set_filter_expression(filter.clone())
            .set_expression_attribute_names(names.clone())
            .set_expression_attribute_values(values.clone())
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
