//! The batch get builder and its report.

use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use super::call::Settings;
use super::{ItemKey, get_exec};
use crate::key::{Key, KeyError};
use crate::retry::RetryPolicy;
use crate::table::Table;
use crate::{Db, Entity, Error, Result};

/// The most keys one `BatchGetItem` call may hold.
pub const MAX_GET_CHUNK: usize = 100;

/// A pending read of many items of one entity type, sent when awaited. Made by
/// [`Db::batch_get`].
///
/// Keys are sent 100 to a `BatchGetItem` call, up to
/// [`concurrency`](Self::concurrency) calls at once; `UnprocessedKeys` (throttling, or
/// DynamoDB's 16 MB response limit) and throttled or failed calls are retried as for
/// [batch writes](super#retries). A key given more than once is read once, and its item is
/// returned at every position that asked for it.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
/// # struct Sensor { id: String }
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
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
pub struct BatchGet<'a, E> {
    db: &'a Db,
    keys: Vec<Result<ItemKey, KeyError>>,
    consistent: bool,
    include_expired: bool,
    settings: Settings,
    entity: PhantomData<fn() -> E>,
}

impl Db {
    /// Reads the items `keys` name, all of entity `E`; see [`BatchGet`].
    pub fn batch_get<E: Entity>(&self, keys: impl IntoIterator<Item = Key<E>>) -> BatchGet<'_, E> {
        let keys = keys
            .into_iter()
            .map(|key| key.into_values().map(|(pk, sk)| ItemKey { pk, sk }))
            .collect();
        BatchGet {
            db: self,
            keys,
            consistent: false,
            include_expired: self.includes_expired(),
            settings: Settings::default(),
            entity: PhantomData,
        }
    }
}

impl<'a, E: Entity> BatchGet<'a, E> {
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

    /// Sends the calls. Fails as a whole only when the batch cannot run at all; a key that
    /// could not be read is in [`BatchGetReport::failed`].
    pub async fn send(self) -> Result<BatchGetReport<E>> {
        let reader = get_exec::Reader {
            schema: <E::Table as Table>::SCHEMA,
            entity: E::ENTITY_TYPE,
            consistent: self.consistent,
            include_expired: self.include_expired,
            decode: E::from_item,
        };
        get_exec::run(self.db, self.keys, reader, self.settings).await
    }
}

impl<'a, E: Entity + Send + 'a> IntoFuture for BatchGet<'a, E> {
    type Output = Result<BatchGetReport<E>>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<BatchGetReport<E>>> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<E> fmt::Debug for BatchGet<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchGet")
            .field("entity", &std::any::type_name::<E>())
            .field("keys", &self.keys.len())
            .field("consistent", &self.consistent)
            .finish_non_exhaustive()
    }
}

/// What a batch get found: one entry per key given, in the same order.
#[derive(Debug)]
#[non_exhaustive]
pub struct BatchGetReport<E> {
    /// `items[i]` is the item the `i`-th key names: `None` when there is no such item, or
    /// when reading it failed (then `failed` says so).
    pub items: Vec<Option<E>>,
    /// Every key that could not be read or decoded, by position.
    pub failed: Vec<FailedGet>,
    /// The read capacity units the calls consumed, when asked for with
    /// [`track_capacity`](BatchGet::track_capacity).
    pub consumed_capacity: Option<f64>,
}

impl<E> BatchGetReport<E> {
    /// True when every key was read: each `None` in [`items`](Self::items) means "no item".
    pub fn is_complete(&self) -> bool {
        self.failed.is_empty()
    }

    /// The items found, in key order, without the gaps.
    pub fn found(self) -> impl Iterator<Item = E> {
        self.items.into_iter().flatten()
    }
}

/// One key of a batch get that could not be read or decoded.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FailedGet {
    /// The key's position in the input.
    pub index: usize,
    /// The key; `None` when it could not be rendered.
    pub key: Option<ItemKey>,
    /// Why: the key's own error, the last error of the call it was in,
    /// [`Error::Unprocessed`], or the error decoding the item.
    pub error: Arc<Error>,
}

impl fmt::Display for FailedGet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "key #{}", self.index)?;
        if let Some(key) = &self.key {
            write!(f, " {key}")?;
        }
        write!(f, ": {}", self.error)
    }
}
