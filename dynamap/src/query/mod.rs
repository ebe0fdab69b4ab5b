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
mod deprecated;
mod entity_projection;
mod exec;
mod filter;
mod lookup;
mod lossy;
mod merged;
mod page;
mod page_fill;
mod partial_read;
mod projection;
mod scan;
mod sort_condition;
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
use sort_condition::{SortCondition, SortOp, bound};

use crate::Handle;
use crate::clone_builder::clone_builder;
use crate::expr::Condition;
use crate::key::{KeyError, PartitionKey, Segment, SortArgs};
use crate::table::{IndexSchema, Table};

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
            .field("after", &self.after)
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
    /// Reads every item of the partition, of any entity type, decoding each into the enum
    /// `U` by its entity-type attribute. Sort key conditions still apply.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Game", pk = "GAME#{game}", sk = "INFO")]
    /// # struct Game { game: String }
    /// #[derive(dynamap::EntityEnum, Debug)]
    /// enum GameItem { Game(Game), Score(Score) }
    /// let everything = db.query(Score::partition("chess")).decode_as::<GameItem>().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn decode_as<U: Decode<Table = T::Table>>(self) -> Query<U, S> {
        self.retarget()
    }

    /// The same query, its items decoded as `U` (an enum of the table, a projection, the
    /// items as `Result`s): everything else, the filter included, carries over.
    pub(super) fn retarget<U>(self) -> Query<U, S> {
        Query {
            db: self.db,
            entity: self.entity,
            partition: self.partition,
            index_name: self.index_name,
            sort_template: self.sort_template,
            sort: self.sort,
            filter: self.filter.map(Condition::retype),
            projection: self.projection,
            descending: self.descending,
            limit: self.limit,
            first: self.first,
            last: self.last,
            consistent: self.consistent,
            after: self.after,
            unknown: self.unknown,
            include_expired: self.include_expired,
            groups: self.groups,
            fan_out: self.fan_out,
            marker: PhantomData,
        }
    }

    /// What a mixed query does with items of entity types its enum does not know.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Game", pk = "GAME#{game}", sk = "INFO")]
    /// # struct Game { game: String }
    /// # #[derive(dynamap::EntityEnum, Debug)] enum GameItem { Game(Game), Score(Score) }
    /// use dynamap::query::UnknownEntity;
    /// let strict = db.query(Score::partition("chess")).decode_as::<GameItem>().on_unknown(UnknownEntity::Error).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn on_unknown(mut self, policy: UnknownEntity) -> Self {
        self.unknown = policy;
        self
    }

    /// The sort key attributes: the table's or the index's one, or every attribute of a
    /// multi-attribute index key, in key order.
    fn sort_attributes(&self) -> Vec<&'static str> {
        match self.index() {
            Some(index) => index.sk_attributes().map(|(name, _)| name).collect(),
            None => <T::Table as Table>::SCHEMA.sk.into_iter().collect(),
        }
    }

    fn index(&self) -> Option<&'static IndexSchema> {
        self.index_name
            .and_then(|name| <T::Table as Table>::SCHEMA.index(name))
    }

    fn sort_on<A: SortArgs<S>>(mut self, op: SortOp, args: A) -> Self {
        let attributes = self.sort_attributes();
        let bound = bound(self.entity, &attributes, self.sort_template, &args);
        self.sort = Some(bound.map(|b| SortCondition::from_bound(op, b)));
        self
    }

    /// Sort key equals the given parts; with fewer parts than the template has, every
    /// key with those leading parts (as [`sk_prefix`](Query::sk_prefix)).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let tens = db.query(Score::partition("chess")).sk_eq(Score::sk().score(10i64)).all().await?; // every user with 10
    /// # Ok(()) }
    /// ```
    pub fn sk_eq<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Eq, parts)
    }

    /// Sort key's given parts are less than `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let negative = db.query(Score::partition("chess")).sk_lt(Score::sk().score(0i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_lt<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Lt, parts)
    }

    /// Sort key's given parts are at most `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let up_to_ten = db.query(Score::partition("chess")).sk_le(Score::sk().score(10i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_le<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Le, parts)
    }

    /// Sort key's given parts are greater than `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let above_ten = db.query(Score::partition("chess")).sk_gt(Score::sk().score(10i64)).all().await?; // not 10 itself
    /// # Ok(()) }
    /// ```
    pub fn sk_gt<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Gt, parts)
    }

    /// Sort key's given parts are at least `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let from_ten = db.query(Score::partition("chess")).sk_ge(Score::sk().score(10i64).user("m")).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_ge<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Ge, parts)
    }

    /// Sort key starts with the given leading parts, ending on a segment boundary:
    /// `Sensor::gsi1_sk().building("A").floor("2")` matches floor `2` of building `A`, never
    /// floor `20`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let tens = db.query(Score::partition("chess")).sk_prefix(Score::sk().score(10i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_prefix<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Prefix, parts)
    }

    /// `low <= sort key <= high`, both inclusive, each comparing the parts it gives.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let middle = db.query(Score::partition("chess")).sk_between(Score::sk().score(10i64), Score::sk().score(20i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_between<L: SortArgs<S>, H: SortArgs<S>>(mut self, low: L, high: H) -> Self {
        let attributes = self.sort_attributes();
        let low = bound(self.entity, &attributes, self.sort_template, &low);
        let high = bound(self.entity, &attributes, self.sort_template, &high);
        self.sort = Some(low.and_then(|low| high.map(|high| SortCondition::between(low, high))));
        self
    }

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

    /// Newest (greatest sort key) first.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let highest_first = db.query(Score::partition("chess")).descending().limit(10).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn descending(mut self) -> Self {
        self.descending = true;
        self
    }

    /// The direction the query reads in: `first`/`last` decide it, or `descending`.
    pub(crate) fn reads_descending(&self) -> bool {
        match (self.first, self.last) {
            (Some(_), _) => false,
            (None, Some(_)) => true,
            (None, None) => self.descending,
        }
    }

    /// The most items a page holds (and, for `all` and `stream`, the most in total): the
    /// one of `limit`, `first` and `last` that was given (validation refuses several).
    pub(crate) fn page_limit(&self) -> Option<usize> {
        self.first.or(self.last).or(self.limit)
    }

    /// At most `n` items per page (and in total, for [`all`](Query::all) and
    /// [`stream`](Query::stream)): items returned, after filtering, not items read.
    ///
    /// [`first(n)`](Query::first) and [`last(n)`](Query::last) set the page size
    /// themselves, so a query with `limit` and either of them fails when sent, with
    /// [`Error::Unsupported`](crate::Error::Unsupported) and before any request, in whichever
    /// order they were called: `limit(3).last(5)` and `last(5).limit(3)` are both refused
    /// rather than one silently overriding the other (write `last(3)`). Calling `limit` again
    /// replaces the earlier value.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let page = db.query(Score::partition("chess")).limit(25).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// The `n` items with the smallest sort keys, smallest first: pages of `n` (at most `n`
    /// in total for [`all`](Query::all) and [`stream`](Query::stream)), each cursor going on
    /// with the next smallest. It sets both the order and the page size, so a query that
    /// also has [`descending`](Query::descending), [`limit`](Query::limit) or
    /// [`last`](Query::last), called before or after it, fails when sent with
    /// [`Error::Unsupported`](crate::Error::Unsupported), before any request. Calling
    /// `first` again replaces the earlier `n`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let bottom_three = db.query(Score::partition("chess")).first(3).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn first(mut self, n: usize) -> Self {
        self.first = Some(n);
        self
    }

    /// The `n` items with the greatest sort keys, greatest first (a top-N): pages of `n` (at
    /// most `n` in total for [`all`](Query::all) and [`stream`](Query::stream)), each cursor
    /// going on with the next greatest. It sets both the order and the page size, so a query
    /// that also has [`descending`](Query::descending), [`limit`](Query::limit) or
    /// [`first`](Query::first), called before or after it, fails when sent with
    /// [`Error::Unsupported`](crate::Error::Unsupported), before any request. Calling `last`
    /// again replaces the earlier `n`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let top_three = db.query(Score::partition("chess")).last(3).all().await?; // greatest first
    /// # Ok(()) }
    /// ```
    pub fn last(mut self, n: usize) -> Self {
        self.last = Some(n);
        self
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet,
    /// which queries hide by default (on tables with a TTL attribute).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let all = db.query(Score::partition("chess")).include_expired().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Strongly consistent reads. The table and its local indexes offer them; on a global
    /// index the query fails before sending.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let fresh = db.query(Score::partition("chess")).consistent().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Resumes after the page that returned `cursor`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let page = db.query(Score::partition("chess")).limit(10).send().await?;
    /// if let Some(cursor) = page.cursor {
    ///     let next = db.query(Score::partition("chess")).limit(10).after(cursor).send().await?;
    /// }
    /// # Ok(()) }
    /// ```
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.after = Some(cursor);
        self
    }
}
