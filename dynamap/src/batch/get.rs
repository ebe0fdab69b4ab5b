//! The batch get builder.

use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use super::call::Settings;
use super::{BatchGetReport, ItemKey, get_exec};
use crate::clone_builder::clone_builder;
use crate::codec::Item;
use crate::decode::{Decode, UnknownEntity};
use crate::key::{Key, KeyError};
use crate::retry::RetryPolicy;
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// A pending read of many items, sent when awaited: of one entity type (made by
/// [`Db::batch_get`](crate::Db::batch_get)), or of several, decoded into an enum deriving `EntityEnum` by each
/// item's entity type (made by [`Db::batch_get`](crate::Db::batch_get), into another type with [`decode_as`](BatchGet::decode_as)). `T` is what items decode into.
///
/// Keys are sent 100 to a `BatchGetItem` call, up to
/// [`concurrency`](Self::concurrency) calls at once; `UnprocessedKeys` (throttling, or
/// DynamoDB's 16 MB response limit) and throttled or failed calls are retried as for
/// [batch writes](super#retries). A key given more than once is read once, and its item is
/// returned at every position that asked for it. An item that does not decode as `T` (of
/// another entity type, or one the enum does not list) is reported in
/// [`failed`](BatchGetReport::failed) at its position.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
/// # struct Sensor { id: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let ids = ["S1", "S2", "S3"];
/// let report = db.batch_get(ids.iter().map(|id| Sensor::key(*id))).consistent().await?;
/// for (id, sensor) in ids.iter().zip(&report.items) {
///     match sensor {
///         Some(sensor) => println!("{id}: found"),
///         None => println!("{id}: missing, or failed"),
///     }
/// }
/// for failed in &report.failed {
///     eprintln!("key #{} could not be read: {}", failed.index, failed.error);
/// }
/// # Ok(()) }
/// ```
#[must_use = "a batch get does nothing until it is awaited"]
pub struct BatchGet<T> {
    db: Handle,
    keys: Vec<Result<ItemKey, KeyError>>,
    consistent: bool,
    include_expired: bool,
    settings: Settings,
    target: PhantomData<fn() -> T>,
}

clone_builder!(BatchGet<T> { db, keys, consistent, include_expired, settings, target });

impl<L: crate::table::Table> crate::Db<L> {
    /// Reads the items `keys` name, all of entity `E`; see [`BatchGet`].
    #[doc(alias = "batch_get_as")]
    pub fn batch_get<E: Entity + crate::InLayout<L>>(
        &self,
        keys: impl IntoIterator<Item = Key<E>>,
    ) -> BatchGet<E> {
        BatchGet::on(self.handle(), keys)
    }
}

impl<E: Entity> BatchGet<E> {
    /// A batch get of `keys` through `db`, whose layout the caller has checked.
    pub(crate) fn on(db: &Handle, keys: impl IntoIterator<Item = Key<E>>) -> Self {
        BatchGet {
            db: db.clone(),
            keys: Vec::new(),
            consistent: false,
            include_expired: db.includes_expired(),
            settings: Settings::default(),
            target: PhantomData,
        }
        .keys(keys)
    }
}

impl<T: Decode> BatchGet<T> {
    /// Decodes the items into `U` instead, an enum deriving `EntityEnum`, by each item's
    /// entity type: keys of any of its entities can then be added with
    /// [`key`](BatchGet::key) and [`keys`](BatchGet::keys), and the report has one entry per
    /// key in the order they were added. The same spelling decodes a query
    /// ([`Query::decode_as`](crate::query::Query::decode_as)), a get and a read transaction's
    /// slot into another type.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, EntityEnum, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "USER#{name}", sk = "USER")]
    /// # struct User { name: String }
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Repo", pk = "REPO#{owner}#{name}", sk = "REPO")]
    /// # struct Repo { owner: String, name: String }
    /// #[derive(EntityEnum)]
    /// enum Item { User(User), Repo(Repo) }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let report = db
    ///     .batch_get([User::key("alice")])
    ///     .decode_as::<Item>()
    ///     .keys(["dynamap", "serde"].map(|name| Repo::key("alice", name)))
    ///     .await?;
    /// for item in report.into_found() {
    ///     match item {
    ///         Item::User(user) => println!("user {}", user.name),
    ///         Item::Repo(repo) => println!("repo {}", repo.name),
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn decode_as<U: Decode<Table = T::Table>>(self) -> BatchGet<U> {
        BatchGet {
            db: self.db,
            keys: self.keys,
            consistent: self.consistent,
            include_expired: self.include_expired,
            settings: self.settings,
            target: PhantomData,
        }
    }

    /// Adds the item `key` names; its entry in the report comes after those added before.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let report = db.batch_get([Sensor::key("S1")]).key(Sensor::key("S2")).await?;
    /// # Ok(()) }
    /// ```
    pub fn key<E: Entity<Table = T::Table>>(mut self, key: Key<E>) -> Self {
        self.keys.push(key.item_key());
        self
    }

    /// Adds the items `keys` name, all of one entity type, in order.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let report = db.batch_get([Sensor::key("S1")]).keys(["S2", "S3"].map(Sensor::key)).await?;
    /// # Ok(()) }
    /// ```
    pub fn keys<E: Entity<Table = T::Table>>(self, keys: impl IntoIterator<Item = Key<E>>) -> Self {
        keys.into_iter().fold(self, Self::key)
    }

    /// Reads with strong consistency. Costs twice the read capacity.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet,
    /// which batch gets report as not found by default (on tables with a TTL attribute).
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// How many `BatchGetItem` calls may be in flight at once (default
    /// [`DEFAULT_CONCURRENCY`](super::DEFAULT_CONCURRENCY); `0` is taken as `1`).
    pub fn concurrency(mut self, calls: usize) -> Self {
        self.settings.concurrency = calls.max(1);
        self
    }

    /// Asks DynamoDB for the read capacity each call consumed: recorded on each call's
    /// span and summed into [`BatchGetReport::consumed_capacity`]. Off by default,
    /// because it is not free everywhere: DynamoDB Local loses about a fifth of its batch
    /// write throughput computing it.
    pub fn track_capacity(mut self) -> Self {
        self.settings.capacity = true;
        self
    }

    /// How unprocessed keys and failed calls are retried.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.settings.retry = policy;
        self
    }

    /// The calls [`send`](BatchGet::send) would make, not sent (see [`crate::preview`]):
    /// one `BatchGetItem` per 100 distinct keys, in order, as first sent.
    ///
    /// # Errors
    ///
    /// The error of the first key that `send` would report as failed before sending (a
    /// key that does not render), and [`Error::InvalidSetting`] as `send`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let keys = (0..150).map(|i| Sensor::key(i.to_string()));
    /// assert_eq!(db.batch_get(keys).preview()?.requests().len(), 2); // 100 + 50
    /// # Ok(()) }
    /// ```
    pub fn preview(&self) -> Result<crate::preview::Preview> {
        let schema = <T::Table as Table>::SCHEMA;
        let target = super::get_call::Target {
            names: (schema.pk, schema.sk),
            entity: T::SINGLE_ENTITY.unwrap_or(std::any::type_name::<T>()),
            consistent: self.consistent,
        };
        get_exec::preview(&self.db, self.keys.clone(), target, self.settings)
    }

    /// Sends the calls. Fails as a whole only when the batch cannot run at all; a key that
    /// could not be read is in [`BatchGetReport::failed`].
    ///
    /// # Errors
    ///
    /// Fails as a whole only with [`Error::InvalidSetting`] when the client has no async sleep for
    /// retries. Keys that do not render, calls that fail, keys left unprocessed
    /// ([`Error::Unprocessed`]) and items that do not decode are reported in
    /// [`failed`](BatchGetReport::failed) instead.
    pub async fn send(self) -> Result<BatchGetReport<T>> {
        let reader = get_exec::Reader {
            schema: <T::Table as Table>::SCHEMA,
            entity: T::SINGLE_ENTITY.unwrap_or(std::any::type_name::<T>()),
            consistent: self.consistent,
            include_expired: self.include_expired,
            decode: decode_as::<T>,
        };
        get_exec::run(&self.db, self.keys, reader, self.settings).await
    }
}

/// One item as `T`: an entity (of that type), or a variant of an entity enum; an entity
/// type the enum does not know is an error.
fn decode_as<T: Decode>(item: Item) -> Result<T> {
    let schema = <T::Table as Table>::SCHEMA;
    let found = item
        .get(schema.entity_type)
        .and_then(|v| v.as_s().ok())
        .cloned();
    T::decode(item, UnknownEntity::Error)?.ok_or(Error::UnknownEntityType {
        target: std::any::type_name::<T>(),
        attribute: schema.entity_type,
        found,
    })
}

impl<T: Decode + Send + 'static> IntoFuture for BatchGet<T> {
    type Output = Result<BatchGetReport<T>>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<BatchGetReport<T>>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<T> fmt::Debug for BatchGet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchGet")
            .field("table", &self.db.table_name())
            .field("target", &std::any::type_name::<T>())
            .field("keys", &self.keys.len())
            .field("consistent", &self.consistent)
            .finish_non_exhaustive()
    }
}
