//! Queries: one partition of the table or of an index, typed by its entity.
//!
//! ```no_run
//! # use dynamap::{Entity, Table};
//! # #[derive(Table)]
//! # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
//! # struct App;
//! # #[derive(Entity)]
//! # #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
//! #           index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{room}"))]
//! # struct Sensor { id: String, city: String, building: String, floor: String, room: String }
//! # #[derive(Entity)]
//! # #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
//! # struct Reading { sensor_id: String, at: i64, value: f64 }
//! # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
//! // The 10 latest readings of sensor S1.
//! let latest = db.query(Reading::partition("S1")).descending().limit(10).send().await?;
//!
//! // Readings in a time range, all pages.
//! let range = db.query(Reading::partition("S1")).sk_between((1_000i64,), (2_000i64,)).all().await?;
//!
//! // Sensors on floor 2 of building A in Poznań, through the index, the sort key's parts
//! // given by name. Floor "2" never matches floor "20": prefixes end on a segment boundary.
//! let floor_2 = Sensor::gsi1_sk().building("A").floor("2");
//! let floor = db.query(Sensor::gsi1("Poznań")).sk_prefix(floor_2).all().await?;
//!
//! // Resume where a page ended.
//! if let Some(cursor) = latest.cursor {
//!     let next = db.query(Reading::partition("S1")).descending().limit(10).after(cursor).send().await?;
//! }
//! # Ok(()) }
//! ```
//!
//! A query of one entity reads only that entity's items: it narrows the sort key to the
//! template's leading literal (`READ#`) unless a sort condition is given, and filters on the
//! entity-type attribute. [`Query::decode_as`] reads every item of the partition into an enum.

mod cursor;
mod decoding;
mod deprecated;
mod entity_projection;
mod exec;
mod filter;
mod lookup;
mod lossy;
mod merged;
mod options;
mod page;
mod page_fill;
mod partial_read;
mod preview;
mod projection;
mod scan;
mod sort_condition;
mod sort_key;
mod validate;

use std::marker::PhantomData;

pub use crate::decode::{Decode, UnknownEntity};
pub use cursor::Cursor;
pub use entity_projection::EntityProjection;
#[doc(hidden)]
pub use entity_projection::{EntityFields, Field};
pub use lookup::OwnerKey;
pub use page::Page;
pub use partial_read::PartialRead;
pub use projection::Projected;
pub use scan::Scan;
use sort_condition::SortCondition;

use crate::Handle;
use crate::clone_builder::clone_builder;
use crate::expr::Condition;
use crate::key::{KeyError, PartitionKey, Segment};

/// A query on one partition, sent by [`send`](Query::send) (one page),
/// [`all`](Query::all), [`stream`](Query::stream) or [`count`](Query::count).
///
/// `T` is what items decode into; `S` is the tuple of the sort key's part types.
#[must_use = "a query does nothing until it is sent"]
pub struct Query<T, S = ()> {
    db: Handle,
    entity: &'static str,
    /// One value per partition key attribute (several in a multi-attribute index key).
    partition: std::result::Result<Vec<crate::codec::AttributeValue>, KeyError>,
    index_name: Option<&'static str>,
    sort_template: &'static [Segment],
    sort: Option<std::result::Result<SortCondition, KeyError>>,
    filter: Option<Condition<T>>,
    projection: Vec<&'static str>,
    descending: bool,
    /// `limit(n)`. `first(n)` and `last(n)` are kept apart from it, so that combining them
    /// is refused rather than decided by the order of the calls.
    limit: Option<usize>,
    /// `first(n)`: the smallest sort keys, `n` a page.
    first: Option<usize>,
    /// `last(n)`: the greatest sort keys, `n` a page.
    last: Option<usize>,
    consistent: bool,
    after: Option<Cursor>,
    unknown: UnknownEntity,
    include_expired: bool,
    /// Several physical partitions read merged (`PartitionKey::across`); `None` for one.
    groups: Option<std::result::Result<crate::key::Groups, KeyError>>,
    /// At most this many requests at once, reading several partitions.
    fan_out: usize,
    marker: PhantomData<fn() -> S>,
}

clone_builder!(Query<T, S> {
    db, entity, partition, index_name, sort_template, sort, filter, projection, descending,
    limit, first, last, consistent, after, unknown, include_expired, groups, fan_out, marker,
});

impl<T, S> std::fmt::Debug for Query<T, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("table", &self.db.table_name())
            .field("entity", &self.entity)
            .field("index", &self.index_name)
            .field("partition", &self.partition)
            .field("partitions", &self.groups)
            .field("filter", &self.filter)
            .field("projection", &self.projection)
            .field("descending", &self.descending)
            .field("limit", &self.limit)
            .field("first", &self.first)
            .field("last", &self.last)
            .field("consistent", &self.consistent)
            .field("after", &self.after.as_ref().map(cursor::Redacted))
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// A query on `partition`: `Entity::partition(...)` for the table, the generated
    /// index builder (`Entity::gsi1(...)`) for an index, or a lookup's builder
    /// (`Entity::by_location(...)`) for the keys of the entities owning the lookup items
    /// it finds (see [`OwnerKey`]).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let scores: Vec<Score> = db.query(Score::partition("chess")).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn query<T: Decode + crate::InLayout<L>, S>(
        &self,
        partition: PartitionKey<T, S>,
    ) -> Query<T, S> {
        let index_name = partition.index();
        let sort_template = partition.sort_template();
        let (partition, groups) = partition.into_parts();
        Query {
            db: self.handle().clone(),
            entity: T::SINGLE_ENTITY.unwrap_or(std::any::type_name::<T>()),
            index_name,
            sort_template,
            partition,
            groups,
            fan_out: merged::DEFAULT_FAN_OUT,
            sort: None,
            filter: None,
            projection: Vec::new(),
            descending: false,
            limit: None,
            first: None,
            last: None,
            consistent: false,
            after: None,
            unknown: UnknownEntity::default(),
            include_expired: self.includes_expired(),
            marker: PhantomData,
        }
    }
}

impl<T: Decode, S> Query<T, S> {
    /// Keeps only items matching `condition`, checked by DynamoDB after reading (it costs
    /// the reads, not the results). Filters combine with `and`.
    ///
    /// A filter cannot name a key attribute of the table or index the query reads (the
    /// partition and sort key attributes, each attribute of a multi-attribute key, such as
    /// `score` in a leaderboard index on `sk = field(score)`): DynamoDB refuses it, so the
    /// query fails before sending with [`Error::InvalidExpression`](crate::Error::InvalidExpression).
    /// Give the partition in the query's builder and a sort condition
    /// ([`sk_gt`](Query::sk_gt) and the others) instead. Other indexes' key attributes
    /// filter like any attribute.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let noted = db.query(Score::partition("chess")).filter(Score::NOTE.exists()).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn filter(mut self, condition: Condition<T>) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// Reads only these attributes (plus the keys and the entity type, always): field
    /// constants (`.project((Sensor::CITY, Sensor::FLOOR))`) or attribute names (see
    /// [`Projected`]).
    ///
    /// Field constants compile only for an entity that decodes with any field left out
    /// ([`PartialRead`]): each field an `Option`, with `#[dynamap(default)]`, skipped, or
    /// in the primary key templates, whose value is read back from the item's key. An
    /// entity with required fields is read in part with [`project_as`](Query::project_as)
    /// and a struct of the fields to read. Attribute names are not checked when compiling:
    /// leaving out a required field's attribute fails decoding, naming it.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // Reads the keys and `note` only: `game`, `score` and `user` are read from the keys.
    /// let notes = db.query(Score::partition("chess")).project(Score::NOTE).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn project(mut self, attributes: impl Projected<T>) -> Self {
        attributes.attribute_names(&mut self.projection);
        self
    }

    /// Reads each item as `P`, a struct of some of the entity's fields deriving
    /// [`EntityProjection`]: only its fields' attributes are read (plus the keys and the
    /// entity type), and the derive checked each field's name and type against the entity.
    /// A field of the primary key templates is read back from the item's key when its
    /// attribute is missing.
    ///
    /// Filters and the other settings carry over; call it last, since a filter takes
    /// conditions on the entity's fields.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, EntityProjection, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String>, replay: Vec<u8> }
    /// #[derive(EntityProjection, Debug)]
    /// #[dynamap(entity = Score)]
    /// struct Ranked { score: i64, user: String }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // Reads no `replay`; `score` and `user` come from the sort key.
    /// let top: Vec<Ranked> = db
    ///     .query(Score::partition("chess"))
    ///     .descending()
    ///     .limit(10)
    ///     .project_as::<Ranked>()
    ///     .all()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn project_as<P: EntityProjection<Entity = T>>(mut self) -> Query<P, S>
    where
        T: crate::Entity,
    {
        P::attribute_names(&mut self.projection);
        self.retarget()
    }
}
