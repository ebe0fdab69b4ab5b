//! The batch write builder.

use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use super::call::Settings;
use super::chunk::Input;
use super::pending::{prepare_delete, prepare_put};
use super::write_report::ProgressFn;
use super::{BatchWriteReport, Progress, write_exec};
use crate::key::Key;
use crate::retry::RetryPolicy;
use crate::table::Table;
use crate::{AsEntity, Entity, Handle, InLayout, Result};

/// A pending batch of puts and deletes, sent when awaited. Made by [`Db::batch_write`](crate::Db::batch_write) and
/// [`Db::put_all`](crate::Db::put_all); see the [module docs](super) for chunking, retries, duplicates and
/// failure reporting.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
/// # struct Sensor { id: String }
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{id}", sk = "READ#{seq}")]
/// # struct Reading { id: String, seq: u32 }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let report = db
///     .batch_write()
///     .put(&Sensor { id: "S1".into() })
///     .put_all((0..1000).map(|seq| Reading { id: "S1".into(), seq }))
///     .delete(Sensor::key("S0"))
///     .concurrency(16)
///     .on_progress(|p| println!("{} of {:?}", p.done(), p.total))
///     .await?;
/// assert!(report.is_complete(), "{report}");
/// # Ok(()) }
/// ```
///
/// Not `Clone`: it reads its input lazily, once, and may hold a progress callback.
#[must_use = "a batch write does nothing until it is awaited"]
pub struct BatchWrite<'a, L> {
    db: Handle,
    layout: PhantomData<fn() -> L>,
    input: Input<'a>,
    settings: Settings,
    progress: Option<ProgressFn<'a>>,
}

impl<L: crate::table::Table> crate::Db<L> {
    /// An empty batch of writes; add puts and deletes, then await it. The batch owns a
    /// handle on the table; its lifetime is that of the inputs and callback it is given, so
    /// a batch of owned entities can be spawned.
    pub fn batch_write<'a>(&self) -> BatchWrite<'a, L> {
        BatchWrite {
            db: self.handle().clone(),
            layout: PhantomData,
            input: Input::default(),
            settings: Settings::default(),
            progress: None,
        }
    }

    /// Writes every entity `entities` yields: a shortcut for
    /// `db.batch_write().put_all(entities)`.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "USER#{user}")]
    /// # struct Score { game: String, user: String, score: i64 }
    /// # async fn example(db: dynamap::Db<App>, scores: Vec<Score>) -> dynamap::Result<()> {
    /// let report = db.put_all(scores).await?;
    /// for failed in &report.failed {
    ///     eprintln!("input #{} not stored: {}", failed.index, failed.error);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn put_all<'a, I>(&self, entities: I) -> BatchWrite<'a, L>
    where
        I: IntoIterator,
        I::Item: AsEntity,
        <I::Item as AsEntity>::Entity: InLayout<L>,
        I::IntoIter: Send + 'a,
    {
        self.batch_write().put_all(entities)
    }
}

impl<'a, L: Table> BatchWrite<'a, L> {
    /// Adds a put of `entity`, converted and checked now.
    pub fn put<E: Entity + InLayout<L>>(mut self, entity: &E) -> Self {
        self.input.push_ready(prepare_put(entity));
        self
    }

    /// Adds a put of every entity `entities` yields, owned or borrowed (`orders` or
    /// `orders.iter()`). The iterator is read lazily, a chunk at a time, so it may generate
    /// the entities as it goes.
    pub fn put_all<I>(mut self, entities: I) -> Self
    where
        I: IntoIterator,
        I::Item: AsEntity,
        <I::Item as AsEntity>::Entity: InLayout<L>,
        I::IntoIter: Send + 'a,
    {
        self.input.push_lazy(
            entities
                .into_iter()
                .map(|entity| prepare_put(entity.as_entity())),
        );
        self
    }

    /// Adds a delete of the item `key` names; deleting an item that is not there succeeds.
    pub fn delete<E: Entity + InLayout<L>>(mut self, key: Key<E>) -> Self {
        self.input.push_ready(prepare_delete(key));
        self
    }

    /// Adds a delete of every key `keys` yields, read lazily.
    pub fn delete_all<E, I>(mut self, keys: I) -> Self
    where
        E: Entity + InLayout<L> + 'a,
        I: IntoIterator<Item = Key<E>>,
        I::IntoIter: Send + 'a,
    {
        self.input.push_lazy(keys.into_iter().map(prepare_delete));
        self
    }

    /// How many `BatchWriteItem` calls may be in flight at once (default
    /// [`DEFAULT_CONCURRENCY`](super::DEFAULT_CONCURRENCY); `0` is taken as `1`).
    pub fn concurrency(mut self, calls: usize) -> Self {
        self.settings.concurrency = calls.max(1);
        self
    }

    /// Asks DynamoDB for the write capacity each call consumed: recorded on each call's
    /// span and summed into [`BatchWriteReport::consumed_capacity`]. Off by default,
    /// because it is not free everywhere: DynamoDB Local loses about a fifth of its batch
    /// write throughput computing it.
    pub fn track_capacity(mut self) -> Self {
        self.settings.capacity = true;
        self
    }

    /// How unprocessed items and failed calls are retried (default
    /// [`RetryPolicy::default`]).
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.settings.retry = policy;
        self
    }

    /// Calls `callback` after each call's items are settled (written or given up), and once
    /// more at the end if items failed validation after the last call. It runs on the task
    /// awaiting the batch, between calls, so it should be quick: update a counter, log.
    pub fn on_progress(mut self, callback: impl FnMut(Progress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(callback));
        self
    }

    /// The calls [`send`](BatchWrite::send) would make, not sent (see [`crate::preview`]):
    /// one `BatchWriteItem` per chunk of up to 25 writes, in order, as first sent (retries
    /// resend what DynamoDB left unprocessed). It reads the input, so it takes the batch:
    /// build it again to send it.
    ///
    /// # Errors
    ///
    /// The error of the first input item that `send` would report as failed before
    /// sending (an item that does not build, a duplicate key), and
    /// [`Error::InvalidSetting`](crate::Error::InvalidSetting) as `send`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let sensors = (0..60).map(|i| Sensor { id: i.to_string() });
    /// let preview = db.put_all(sensors).preview()?;
    /// assert_eq!(preview.requests().len(), 3); // 25 + 25 + 10
    /// # Ok(()) }
    /// ```
    pub fn preview(self) -> Result<crate::preview::Preview> {
        write_exec::preview(&self.db, self.input, self.settings)
    }

    /// Sends the batch. Fails as a whole only when the batch cannot run at all (no async
    /// sleep is available for retries); everything that goes wrong with items is in the
    /// report.
    ///
    /// # Errors
    ///
    /// Fails as a whole only with [`Error::InvalidSetting`](crate::Error::InvalidSetting) when the
    /// client has no async sleep for retries. Items that do not build, duplicates
    /// ([`Error::DuplicateKey`](crate::Error::DuplicateKey)), failed calls and items left
    /// unprocessed ([`Error::Unprocessed`](crate::Error::Unprocessed)) are reported in
    /// [`failed`](BatchWriteReport::failed) instead.
    pub async fn send(self) -> Result<BatchWriteReport> {
        write_exec::run(&self.db, self.input, self.settings, self.progress).await
    }
}

impl<'a, L: Table> IntoFuture for BatchWrite<'a, L> {
    type Output = Result<BatchWriteReport>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<BatchWriteReport>> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<L> std::fmt::Debug for BatchWrite<'_, L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchWrite")
            .field("table", &self.db.table_name())
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}
