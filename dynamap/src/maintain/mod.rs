//! Maintenance jobs: walk every item of one entity type across a table, with a parallel
//! scan, and bring each to what the entity renders now: keys re-rendered from the current
//! templates (a template changed, an index was added, an alias became the name), items of
//! older schema versions written in the current shape, or a change of your own.
//!
//! ```no_run
//! # use dynamap::{Entity, Table};
//! # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))] struct App;
//! # #[derive(Entity)] #[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER",
//! #     index(name = "GSI1", pk = "STATUS#{status}", sk = "ORDER#{id}"))]
//! # struct Order { id: String, status: String }
//! use dynamap::maintain::Budget;
//!
//! # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
//! // What would change, writing nothing.
//! let preview = db.maintain::<Order>("orders-gsi1").rekey().dry_run().send().await?;
//! println!("{} of {} orders would be re-keyed", preview.rekeyed, preview.scanned);
//!
//! // The job itself: 8 segments, this process runs 0..4, within 200 write units a second.
//! let report = db
//!     .maintain::<Order>("orders-gsi1")
//!     .rekey()
//!     .segments(8)
//!     .only_segments(0..4)
//!     .budget(Budget::UNLIMITED.writes(200.0))
//!     .send()
//!     .await?;
//! assert!(report.failed.is_empty(), "{:?}", report.failed);
//! # Ok(()) }
//! ```
//!
//! **Safe under live traffic:** every write is conditioned on the item being what was
//! scanned (its version, for a versioned entity; otherwise every attribute it held still
//! holding the same value); a lost race reads the item again and redoes it. Rewrites in
//! place set only the
//! attributes that differ and remove only key attributes the entity no longer renders, so
//! attributes another writer added survive. A new primary key moves the item: a put of the
//! new item (holding the old one's other attributes too) and a delete of the old one in one
//! transaction.
//!
//! **Lookup items move with their owner:** when an item's primary key or a lookup's key
//! changes (a template, or a field in [`map`](Maintain::map)), the same transaction puts
//! the lookup items at their keys, naming the owner's new key, and deletes the ones it no
//! longer holds; a deleted item takes its lookup items along. A lookup that another item
//! holds fails that item alone, as [`Error::LookupTaken`] in [`Report::failed`].
//!
//! **Resumable, and shared by processes:** each segment's progress is checkpointed in the
//! table after every page (every tenth in the
//! [offline mode](Maintain::offline_nothing_else_writes); see [`Maintain::send`]); a job
//! stopped at any point and started again skips finished segments and redoes at most one
//! page per segment (ten offline), whose items then read as unchanged. Processes running `only_segments` of the same `segments(N)` split
//! one job, or each its [`worker`](Maintain::worker) share, from the index a batch engine
//! gives it.

mod adoption;
mod apply;
mod audit;
mod audit_report;
mod budget;
pub(crate) mod checkpoint;
mod cost;
mod deprecated;
mod lookups;
mod meter;
mod offline;
mod plan;
mod report;
mod share;
mod walk;
mod write_back;

use std::future::{Future, IntoFuture};
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;

use futures_util::stream::{self, StreamExt, TryStreamExt};

pub use audit::Audit;
pub use audit_report::{AuditReport, Finding, FindingKind};
pub use budget::Budget;
pub use report::{FailedItem, Progress, Report, Sample};
pub(crate) use write_back::{write_back, write_back_decision};

use walk::Shared;

use crate::codec::{AttributeError, Item};
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// The most segments DynamoDB accepts in one parallel scan.
const MAX_SEGMENTS: u32 = 1_000_000;
/// Items of one page written at once, per segment.
const ITEMS_IN_FLIGHT: usize = 8;
/// How many times one item is redone after losing races before it is reported failed.
const MAX_REDOS: u32 = 10;
/// Pages per segment between the offline mode's checkpoints: each is a write on the
/// segment's path, and a rerun of an offline job only reads its redone items again.
const OFFLINE_PAGES_PER_CHECKPOINT: u32 = 10;

/// What a job's function decides for one item.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Change<E> {
    /// Leave it (other changes the job asks for still apply).
    Keep,
    /// Write this value instead.
    Write(E),
    /// Delete the item.
    Delete,
}

type MapFn<E> = Arc<dyn Fn(&E) -> Change<E> + Send + Sync>;
type SelectFn = Arc<dyn Fn(&Item) -> bool + Send + Sync>;
type BuildFn<E> = Arc<dyn Fn(Item) -> std::result::Result<E, AttributeError> + Send + Sync>;

/// Items another writer stored: which to take, and how to read each as the entity.
struct Adopt<E> {
    select: SelectFn,
    build: BuildFn<E>,
}

impl<E> Clone for Adopt<E> {
    fn clone(&self) -> Self {
        Adopt {
            select: Arc::clone(&self.select),
            build: Arc::clone(&self.build),
        }
    }
}
type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// A maintenance job over every item of entity `E`; made by [`Db::maintain`](crate::Db::maintain), run by
/// [`send`](Maintain::send) or by awaiting it.
#[must_use = "a job does nothing until it is sent or awaited"]
pub struct Maintain<E> {
    db: Handle,
    job: String,
    rekey: bool,
    upgrade: bool,
    map: Option<MapFn<E>>,
    adopt: Option<Adopt<E>>,
    finish: adoption::Finish,
    segments: u32,
    only: Option<Range<u32>>,
    worker: Option<share::Worker>,
    concurrency: usize,
    page_size: i32,
    budget: Budget,
    dry_run: bool,
    progress: Option<ProgressFn>,
    offline: bool,
}

impl<E> Clone for Maintain<E> {
    fn clone(&self) -> Self {
        Maintain {
            db: self.db.clone(),
            job: self.job.clone(),
            rekey: self.rekey,
            upgrade: self.upgrade,
            map: self.map.clone(),
            adopt: self.adopt.clone(),
            finish: self.finish.clone(),
            segments: self.segments,
            only: self.only.clone(),
            worker: self.worker,
            concurrency: self.concurrency,
            page_size: self.page_size,
            budget: self.budget,
            dry_run: self.dry_run,
            progress: self.progress.clone(),
            offline: self.offline,
        }
    }
}

impl<E: Entity> std::fmt::Debug for Maintain<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Maintain")
            .field("table", &self.db.table_name())
            .field("entity", &E::ENTITY_TYPE)
            .field("job", &self.job)
            .field("rekey", &self.rekey)
            .field("upgrade", &self.upgrade)
            .field("map", &self.map.is_some())
            .field("adopt", &self.adopt.is_some())
            .field("segments", &self.segments)
            .field("only", &self.only)
            .field("worker", &self.worker)
            .field("budget", &self.budget)
            .field("dry_run", &self.dry_run)
            .field("offline", &self.offline)
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// A maintenance job named `job` over every item of `E` (and its aliases). The name
    /// identifies its checkpoints: run the same name to resume it.
    pub fn maintain<E: Entity + crate::InLayout<L>>(&self, job: impl Into<String>) -> Maintain<E> {
        Maintain {
            db: self.handle().clone(),
            job: job.into(),
            rekey: false,
            upgrade: false,
            map: None,
            adopt: None,
            finish: adoption::Finish::default(),
            segments: 1,
            only: None,
            worker: None,
            concurrency: 16,
            page_size: 100,
            budget: Budget::UNLIMITED,
            dry_run: false,
            progress: None,
            offline: false,
        }
    }
}

impl<E: Entity + Send + Sync> Maintain<E> {
    /// Rewrites items whose stored keys (primary, index keys, entity type) differ from what
    /// the current templates render: a changed template, an index added to existing items,
    /// an alias that is now the entity's name.
    pub fn rekey(mut self) -> Self {
        self.rekey = true;
        self
    }

    /// Rewrites items stored at an older schema version in the current shape.
    pub fn upgrade(mut self) -> Self {
        self.upgrade = true;
        self
    }

    /// Decides for each item: keep it, write another value, or delete it.
    pub fn map(mut self, change: impl Fn(&E) -> Change<E> + Send + Sync + 'static) -> Self {
        self.map = Some(Arc::new(change));
        self
    }

    /// Adopts items another writer stored (another mapper, another service, a hand-written
    /// script), with its own key format and type attribute: the job reads every item of the
    /// table, takes those `select` accepts, reads each as the entity with `build`, and writes
    /// it in dynamap's form. A new primary key moves it (the old item deleted in the same
    /// transaction); the same key is rewritten in place, keeping attributes the entity does
    /// not know. An item `build` refuses is reported failed, with its key. Run again, the job
    /// finds adopted items already in form (or gone from their old keys) and writes nothing;
    /// with [`only_marked`](Self::only_marked) it does not even decode them, and
    /// [`dropping`](Self::dropping) leaves the other writer's attributes behind.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "PROFILE")]
    /// # struct User { id: String, name: String }
    /// use dynamap::codec::{AttributeError, AttributeValue, Item};
    ///
    /// // Users written by another mapper: `$app#user_<id>`, entity name in `__edb_e__`.
    /// fn user(item: Item) -> Result<User, AttributeError> {
    ///     let text = |name: &str| match item.get(name) {
    ///         Some(AttributeValue::S(v)) => Ok(v.clone()),
    ///         _ => Err(AttributeError::new(format!("no `{name}`"))),
    ///     };
    ///     Ok(User { id: text("id")?, name: text("name")? })
    /// }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let report = db
    ///     .maintain::<User>("adopt-users")
    ///     .adopt(|item| item.get("__edb_e__") == Some(&AttributeValue::S("user".into())), user)
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn adopt(
        mut self,
        select: impl Fn(&Item) -> bool + Send + Sync + 'static,
        build: impl Fn(Item) -> std::result::Result<E, AttributeError> + Send + Sync + 'static,
    ) -> Self {
        self.adopt = Some(Adopt {
            select: Arc::new(select),
            build: Arc::new(build),
        });
        self
    }

    /// Splits the table into `n` scan segments (1 to 1,000,000; 1 by default).
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n;
        self
    }

    /// Runs only segments `range` of [`segments`](Self::segments), so several processes
    /// share one job (`0..4` and `4..8` of 8). [`worker`](Self::worker) computes the range
    /// from a worker's index instead.
    pub fn only_segments(mut self, range: Range<u32>) -> Self {
        self.only = Some(range);
        self
    }

    /// Reads at most `n` segments at once (16 by default).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Items per scan page (100 by default): with the concurrency, what is in memory at once,
    /// and the work a restart may redo per segment.
    pub fn page_size(mut self, n: u32) -> Self {
        self.page_size = i32::try_from(n.max(1)).unwrap_or(i32::MAX);
        self
    }

    /// Read and write capacity units per second the job may consume.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// **Offline mode: only when nothing else writes the job's items while it runs** (a
    /// maintenance window, a copy of the table, a service stopped). Writes go as
    /// `BatchWriteItem` puts and deletes, 25 to a call, with **no condition**: a rewrite in
    /// place puts the item as scanned with the change made, a move puts it at its new key
    /// and deletes the old one (two writes of one call, not a transaction): the requests a
    /// hand-written batch migration sends. On DynamoDB Local it moved about 2.4 times as
    /// many items a second as the conditioned mode (`docs/performance/maintain.md`).
    /// Checkpoints, segments, the budget, dry runs and
    /// the report work as in the conditioned mode, except that a segment's checkpoint is
    /// saved after every tenth page (and its last) rather than after each: a stopped job
    /// redoes at most ten pages per segment (1,000 items at the default page size), whose
    /// items read as unchanged, and saves nine checkpoint writes in ten. A checkpoint is
    /// saved only once all the writes of the pages before it are done.
    ///
    /// **Unsafe** when another writer changes an item between the scan and the job's write
    /// (its change is overwritten, or an item it creates at a new key is replaced) or
    /// deletes one (the job puts it back); when the new key of one item can be the stored
    /// key of another not yet moved (a renumbering: the put replaces it); and between the
    /// put and the delete of a move, a reader can see the item at both keys. Then use the
    /// default, conditioned mode.
    ///
    /// Lookup items stay right: an item whose lookup items change, or two items of one
    /// page that name the same key, are written the conditioned way, in a transaction.
    /// An item whose call finally fails (after the batch retries) is in [`Report::failed`];
    /// run the job again to finish it (its old key is still there, or its new one already
    /// is).
    pub fn offline_nothing_else_writes(mut self) -> Self {
        self.offline = true;
        self
    }

    /// Reports what would change, and writes nothing (not even checkpoints).
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// Called after each page of each segment.
    pub fn on_progress(mut self, progress: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// Runs the job to the end of its segments.
    ///
    /// Checkpoints are items of the table itself (entity type `_dynamap.checkpoint`, key
    /// `_dynamap#job#<entity>#<job>#<segment>/<segments>`): every process of a job reaches the table,
    /// not one disk. A finished job leaves them, so running it again does nothing; delete
    /// them with [`clear_checkpoints`](Self::clear_checkpoints) to run it anew.
    ///
    /// # Errors
    ///
    /// Fails before reading with [`Error::InvalidSetting`] for segments out of range or an
    /// empty job name; with [`Error::Unsupported`] for an entity with encrypted fields
    /// (`#[dynamap(encrypt)]`) but no version, whose items a job cannot check are unchanged
    /// before writing them; with [`Error::Service`] when a scan or a checkpoint fails. An
    /// item that cannot be read or written does not stop the job: it is in [`Report::failed`]
    /// (a lookup another item holds is an [`Error::LookupTaken`] there).
    #[doc(alias = "run")]
    pub async fn send(self) -> Result<Report> {
        let range = self.check()?;
        if E::WRITE.version.is_none() && !E::WRITE.encrypted_attributes.is_empty() {
            return Err(plan::unverifiable::<E>());
        }
        let segments = range.end - range.start;
        let (expected, bytes_each) = self.items_expected(segments).await.unzip();
        let bytes_each = bytes_each.flatten();
        let shared = Arc::new(Shared::new(self.budget, segments, expected, bytes_each));
        let job = &self;
        stream::iter(range)
            .map(|segment| job.segment(segment, Arc::clone(&shared)))
            .buffer_unordered(self.concurrency)
            .try_fold(Report::default(), |mut total, report| async move {
                total.add(report);
                Ok(total)
            })
            .await
    }

    /// The items `segments` of the job's segments hold, from the table's item count (an
    /// estimate, for the progress's ETA only: `None` when DynamoDB does not say), and the
    /// table's average item size in bytes (for the first scan page's expected units).
    async fn items_expected(&self, segments: u32) -> Option<(u64, Option<f64>)> {
        let out = self
            .db
            .client()
            .describe_table()
            .table_name(self.db.table_name())
            .send()
            .await
            .ok()?;
        let table = out.table()?;
        let count = u64::try_from(table.item_count()?).ok()?;
        let bytes_each = table
            .table_size_bytes()
            .filter(|_| count > 0)
            .map(|bytes| bytes as f64 / count as f64);
        Some((
            count * u64::from(segments) / u64::from(self.segments.max(1)),
            bytes_each,
        ))
    }

    /// Deletes the job's checkpoints, so that it runs anew.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`] when a delete fails.
    pub async fn clear_checkpoints(&self) -> Result<()> {
        self.check()?;
        checkpoint::clear(
            &self.db,
            &<E::Table as Table>::SCHEMA,
            self.checkpoint_job(),
            self.segments,
        )
        .await
    }

    /// What the job's checkpoints are kept under.
    fn checkpoint_job(&self) -> checkpoint::Job<'_> {
        checkpoint::Job {
            entity: E::ENTITY_TYPE,
            name: &self.job,
        }
    }

    /// Pages after which a segment's checkpoint is saved (and always after its last): each
    /// page, but every [`OFFLINE_PAGES_PER_CHECKPOINT`] in the offline mode.
    fn pages_per_checkpoint(&self) -> u32 {
        if self.offline {
            OFFLINE_PAGES_PER_CHECKPOINT
        } else {
            1
        }
    }

    /// The segments this run reads, once the settings are known to be valid.
    fn check(&self) -> Result<Range<u32>> {
        if self.job.is_empty() {
            return Err(Error::InvalidSetting {
                setting: "job",
                reason: "a job needs a name: its checkpoints are kept under it".to_owned(),
            });
        }
        if self.segments == 0 || self.segments > MAX_SEGMENTS {
            return Err(Error::InvalidSetting {
                setting: "segments",
                reason: format!(
                    "a job takes 1 to {MAX_SEGMENTS} segments, not {}",
                    self.segments
                ),
            });
        }
        self.finish.check(self.adopt.is_some())?;
        let range = self.share()?;
        if range.start >= range.end || range.end > self.segments {
            return Err(Error::InvalidSetting {
                setting: "only_segments",
                reason: format!(
                    "segments {range:?} are not a non-empty part of 0..{}",
                    self.segments
                ),
            });
        }
        Ok(range)
    }
}

impl<E: Entity + Send + Sync + 'static> IntoFuture for Maintain<E> {
    type Output = Result<Report>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<Report>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
