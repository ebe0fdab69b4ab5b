//! A batch get of several entity types, decoded through an entity enum.

use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use super::call::Settings;
use super::get::BatchGetReport;
use super::{ItemKey, get_exec};
use crate::codec::Item;
use crate::key::{Key, KeyError};
use crate::query::{Decode, UnknownEntity};
use crate::retry::RetryPolicy;
use crate::table::Table;
use crate::{Db, Entity, Error, Result};

/// A pending read of many items of several entity types, decoded into `U`, an enum deriving
/// `EntityEnum`, by each item's entity type. Made by [`Db::batch_get_as`].
///
/// Keys of any variant's entity are added with [`keys`](Self::keys) and [`key`](Self::key);
/// the report has one entry per key in the order they were added. Everything else is as for
/// [`BatchGet`](super::BatchGet): 100 keys a call, retries, a key given twice read once. An
/// item whose entity type `U` does not know is reported in
/// [`failed`](BatchGetReport::failed) as an [`Error::UnknownEntityType`].
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
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// let report = db
///     .batch_get_as::<Item>()
///     .key(User::key("alice"))
///     .keys(["dynamap", "serde"].map(|name| Repo::key("alice", name)))
///     .await?;
/// for item in report.found() {
///     match item {
///         Item::User(user) => println!("user {}", user.name),
///         Item::Repo(repo) => println!("repo {}", repo.name),
///     }
/// }
/// # Ok(()) }
/// ```
#[must_use = "a batch get does nothing until it is awaited"]
pub struct BatchGetAs<'a, U> {
    db: &'a Db,
    keys: Vec<Result<ItemKey, KeyError>>,
    consistent: bool,
    include_expired: bool,
    settings: Settings,
    target: PhantomData<fn() -> U>,
}

impl Db {
    /// Reads items of several entity types, decoded into the entity enum `U`; see
    /// [`BatchGetAs`].
    pub fn batch_get_as<U: Decode>(&self) -> BatchGetAs<'_, U> {
        BatchGetAs {
            db: self,
            keys: Vec::new(),
            consistent: false,
            include_expired: self.includes_expired(),
            settings: Settings::default(),
            target: PhantomData,
        }
    }
}

impl<'a, U: Decode> BatchGetAs<'a, U> {
    /// Adds the item `key` names; its entry in the report comes after those added before.
    pub fn key<E: Entity<Table = U::Table>>(mut self, key: Key<E>) -> Self {
        self.keys
            .push(key.into_values().map(|(pk, sk)| ItemKey { pk, sk }));
        self
    }

    /// Adds the items `keys` name, all of one entity type, in order.
    pub fn keys<E: Entity<Table = U::Table>>(self, keys: impl IntoIterator<Item = Key<E>>) -> Self {
        keys.into_iter().fold(self, Self::key)
    }

    /// Reads with strong consistency. Costs twice the read capacity.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet.
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// How many `BatchGetItem` calls may be in flight at once.
    pub fn concurrency(mut self, calls: usize) -> Self {
        self.settings.concurrency = calls.max(1);
        self
    }

    /// Sums the read capacity the calls consumed into the report.
    pub fn track_capacity(mut self) -> Self {
        self.settings.capacity = true;
        self
    }

    /// How unprocessed keys and failed calls are retried.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.settings.retry = policy;
        self
    }

    /// Sends the calls. Fails as a whole only when the batch cannot run at all.
    pub async fn send(self) -> Result<BatchGetReport<U>> {
        let reader = get_exec::Reader {
            schema: <U::Table as Table>::SCHEMA,
            entity: std::any::type_name::<U>(),
            consistent: self.consistent,
            include_expired: self.include_expired,
            decode: decode_variant::<U>,
        };
        get_exec::run(self.db, self.keys, reader, self.settings).await
    }
}

/// One item as a variant of `U`; an entity type `U` does not know is an error.
fn decode_variant<U: Decode>(item: Item) -> Result<U> {
    let schema = <U::Table as Table>::SCHEMA;
    let found = item
        .get(schema.entity_type)
        .and_then(|v| v.as_s().ok())
        .cloned();
    U::decode(item, UnknownEntity::Error)?.ok_or(Error::UnknownEntityType {
        target: std::any::type_name::<U>(),
        attribute: schema.entity_type,
        found,
    })
}

impl<'a, U: Decode + Send + 'a> IntoFuture for BatchGetAs<'a, U> {
    type Output = Result<BatchGetReport<U>>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<BatchGetReport<U>>> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<U> fmt::Debug for BatchGetAs<'_, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchGetAs")
            .field("target", &std::any::type_name::<U>())
            .field("keys", &self.keys.len())
            .field("consistent", &self.consistent)
            .finish_non_exhaustive()
    }
}
