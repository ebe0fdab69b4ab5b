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
//! # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
//! // What would change, writing nothing.
//! let preview = db.maintain::<Order>("orders-gsi1").rekey().dry_run().run().await?;
//! println!("{} of {} orders would be re-keyed", preview.rekeyed, preview.scanned);
//!
//! // The job itself: 8 segments, this process runs 0..4, within 200 write units a second.
//! let report = db
//!     .maintain::<Order>("orders-gsi1")
//!     .rekey()
//!     .segments(8)
//!     .only_segments(0..4)
//!     .budget(Budget::UNLIMITED.writes(200.0))
//!     .run()
//!     .await?;
//! assert!(report.failed.is_empty(), "{:?}", report.failed);
//! # Ok(()) }
//! ```
//!
//! **Safe under live traffic:** every write is conditioned on the item being what was
//! scanned (every attribute it held still holds the same value); a lost race reads the item
//! again and redoes it. Rewrites in place set only the
//! attributes that differ and remove only key attributes the entity no longer renders, so
//! attributes another writer added survive. A new primary key moves the item: a put of the
//! new item (holding the old one's other attributes too) and a delete of the old one in one
//! transaction.
//!
//! **Resumable, and shared by processes:** each segment's progress is checkpointed in the
//! table after every page (see [`Maintain::run`]); a job stopped at any point and started
//! again skips finished segments and redoes at most one page per segment, whose items then
//! read as unchanged. Processes running `only_segments` of the same `segments(N)` split
//! one job.

mod apply;
mod audit;
mod budget;
mod checkpoint;
mod plan;
mod report;

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use futures_util::stream::{self, StreamExt, TryStreamExt};

pub use audit::{Audit, AuditReport, Finding, FindingKind};
pub use budget::Budget;
pub use report::{FailedItem, Progress, Report, Sample};

use apply::{Applied, apply, primary_key};
use budget::Bucket;
use checkpoint::Saved;
use plan::{Decision, Reason, decide, reason, text};

use crate::batch::ItemKey;
use crate::codec::{AttributeError, AttributeValue, Item};
use crate::expr::Placeholders;
use crate::retry::sleep_for;
use crate::table::{Table, TableSchema};
use crate::{Db, Entity, Error, Result};

/// The most segments DynamoDB accepts in one parallel scan.
const MAX_SEGMENTS: u32 = 1_000_000;
/// Items of one page written at once, per segment.
const ITEMS_IN_FLIGHT: usize = 8;
/// How many times one item is redone after losing races before it is reported failed.
const MAX_REDOS: u32 = 10;

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

/// A maintenance job over every item of entity `E`; made by [`Db::maintain`], sent by
/// [`run`](Maintain::run).
#[must_use = "a job does nothing until it is run"]
pub struct Maintain<E> {
    db: Db,
    job: String,
    rekey: bool,
    upgrade: bool,
    map: Option<MapFn<E>>,
    adopt: Option<Adopt<E>>,
    segments: u32,
    only: Option<Range<u32>>,
    concurrency: usize,
    page_size: i32,
    budget: Budget,
    dry_run: bool,
    progress: Option<ProgressFn>,
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
            segments: self.segments,
            only: self.only.clone(),
            concurrency: self.concurrency,
            page_size: self.page_size,
            budget: self.budget,
            dry_run: self.dry_run,
            progress: self.progress.clone(),
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
            .field("budget", &self.budget)
            .field("dry_run", &self.dry_run)
            .finish_non_exhaustive()
    }
}

impl Db {
    /// A maintenance job named `job` over every item of `E` (and its aliases). The name
    /// identifies its checkpoints: run the same name to resume it.
    pub fn maintain<E: Entity>(&self, job: impl Into<String>) -> Maintain<E> {
        Maintain {
            db: self.clone(),
            job: job.into(),
            rekey: false,
            upgrade: false,
            map: None,
            adopt: None,
            segments: 1,
            only: None,
            concurrency: 16,
            page_size: 100,
            budget: Budget::UNLIMITED,
            dry_run: false,
            progress: None,
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
    /// finds adopted items already in form (or gone from their old keys) and writes nothing.
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
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// let report = db
    ///     .maintain::<User>("adopt-users")
    ///     .adopt(|item| item.get("__edb_e__") == Some(&AttributeValue::S("user".into())), user)
    ///     .run()
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
    /// share one job (`0..4` and `4..8` of 8).
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
    /// empty job name, and [`Error::Unsupported`] for an entity with lookup items (not yet
    /// supported); with [`Error::Service`] when a scan or a checkpoint fails. An item that
    /// cannot be read or written does not stop the job: it is in [`Report::failed`].
    pub async fn run(self) -> Result<Report> {
        let range = self.check()?;
        let segments = range.end - range.start;
        let shared = Arc::new(Shared {
            reads: Bucket::new(self.budget.read_units),
            writes: Bucket::new(self.budget.write_units),
            scanned: AtomicU64::new(0),
            changed: AtomicU64::new(0),
            segments_done: AtomicU32::new(0),
            segments,
            started: Instant::now(),
        });
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
        let range = self.only.clone().unwrap_or(0..self.segments);
        if range.start >= range.end || range.end > self.segments {
            return Err(Error::InvalidSetting {
                setting: "only_segments",
                reason: format!(
                    "segments {range:?} are not a non-empty part of 0..{}",
                    self.segments
                ),
            });
        }
        if !E::WRITE.lookups.is_empty() {
            return Err(Error::Unsupported {
                operation: "Maintain",
                reason: format!(
                    "entity `{}` has lookup items, which a maintenance job does not move yet",
                    E::ENTITY_TYPE
                ),
            });
        }
        Ok(range)
    }

    /// One segment, from its checkpoint to its end.
    async fn segment(&self, segment: u32, shared: Arc<Shared>) -> Result<Report> {
        let schema = <E::Table as Table>::SCHEMA;
        let mut report = Report::default();
        let mut start = if self.dry_run {
            None
        } else {
            let saved = checkpoint::load(
                &self.db,
                &schema,
                self.checkpoint_job(),
                segment,
                self.segments,
            )
            .await?;
            if saved.done {
                report.segments_skipped = 1;
                shared.segments_done.fetch_add(1, Ordering::Relaxed);
                return Ok(report);
            }
            saved.start
        };
        loop {
            ready(&self.db, &shared.reads).await;
            let (items, next, units) = self.page(&schema, segment, start.take()).await?;
            shared.reads.settle(units);
            report.read_units += units;
            // The page's items overlap, a few at a time; the checkpoint comes after all.
            let shared_ref = &*shared;
            let items = items.into_iter().filter(|item| self.selects(&schema, item));
            let pages: Vec<Report> = stream::iter(items)
                .map(|raw| async move {
                    let mut one = Report {
                        scanned: 1,
                        ..Report::default()
                    };
                    self.item(&schema, raw, shared_ref, &mut one).await;
                    shared_ref.scanned.fetch_add(1, Ordering::Relaxed);
                    shared_ref
                        .changed
                        .fetch_add(one.changed(), Ordering::Relaxed);
                    one
                })
                .buffer_unordered(ITEMS_IN_FLIGHT)
                .collect()
                .await;
            for one in pages {
                report.add(one);
            }
            let done = next.is_none();
            if !self.dry_run {
                let saved = Saved {
                    done,
                    start: next.clone(),
                };
                checkpoint::save(
                    &self.db,
                    &schema,
                    self.checkpoint_job(),
                    (segment, self.segments),
                    &saved,
                )
                .await?;
            }
            if done {
                report.segments_done = 1;
                shared.segments_done.fetch_add(1, Ordering::Relaxed);
            }
            if let Some(progress) = &self.progress {
                progress(shared.progress());
            }
            match next {
                Some(next) => start = Some(next),
                None => return Ok(report),
            }
        }
    }

    /// One scan page of the segment: the entity's items, the key to go on from, and the
    /// read units consumed.
    async fn page(
        &self,
        schema: &TableSchema,
        segment: u32,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>, f64)> {
        // Adopting, the job reads every item and `select` picks; otherwise the entity's.
        let mut p = Placeholders::default();
        let filter = self.adopt.is_none().then(|| {
            let attribute = p.name(schema.entity_type);
            let types: Vec<String> = std::iter::once(E::ENTITY_TYPE)
                .chain(E::ALIASES.iter().copied())
                .map(|t| p.value(AttributeValue::S(t.to_owned())))
                .collect();
            format!("{attribute} IN ({})", types.join(", "))
        });
        let (names, values) = p.into_parts();
        let parallel = self.segments > 1;
        let out = self
            .db
            .client()
            .scan()
            .table_name(self.db.table_name())
            .set_filter_expression(filter)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .limit(self.page_size)
            .set_segment(parallel.then_some(segment as i32))
            .set_total_segments(parallel.then_some(self.segments as i32))
            .set_exclusive_start_key(start)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .map_err(|e| Error::service("Scan", e))?;
        let units = out
            .consumed_capacity()
            .and_then(ConsumedCapacity::capacity_units)
            .unwrap_or(0.0);
        Ok((out.items.unwrap_or_default(), out.last_evaluated_key, units))
    }

    /// One item: decided, written on condition, redone after a lost race.
    async fn item(&self, schema: &TableSchema, raw: Item, shared: &Shared, report: &mut Report) {
        let key = item_key(schema, &raw);
        let mut current = raw;
        let mut redos = 0;
        loop {
            let (decision, why) = match self.decide(schema, &current) {
                Ok(decided) => decided,
                Err(error) => return fail(report, key, error),
            };
            if decision == Decision::Keep {
                report.unchanged += 1;
                return;
            }
            if self.dry_run {
                return count(report, &decision, why, Some((schema, &key)));
            }
            ready(&self.db, &shared.writes).await;
            let applied = apply(&self.db, schema, &current, decision.clone()).await;
            // Every reservation is settled, with what DynamoDB reported (none on failure).
            shared
                .writes
                .settle(applied.as_ref().map_or(0.0, |(_, units)| *units));
            match applied {
                Ok((Applied::Done, units)) => {
                    report.write_units += units;
                    return count(report, &decision, why, None);
                }
                Ok((Applied::Conflict, _)) => {
                    report.conflicts_redone += 1;
                    redos += 1;
                    if redos > MAX_REDOS {
                        let error = Error::Contention {
                            entity: E::ENTITY_TYPE,
                            rounds: redos,
                        };
                        return fail(report, key, error);
                    }
                    match self.db.consistent_item(primary_key(schema, &current)).await {
                        Ok(Some(fresh)) if self.selects(schema, &fresh) => current = fresh,
                        // Gone, or now another entity's: nothing left to do.
                        Ok(_) => {
                            report.unchanged += 1;
                            return;
                        }
                        Err(error) => return fail(report, key, error),
                    }
                }
                Err(error) if error.is_retryable() => {
                    sleep_for(&self.db, Duration::from_millis(100 << redos.min(5))).await;
                    redos += 1;
                    if redos > MAX_REDOS {
                        return fail(report, key, error);
                    }
                }
                Err(error) => return fail(report, key, error),
            }
        }
    }

    /// True for an item the job works on: its entity's, or one `adopt` selects.
    fn selects(&self, schema: &TableSchema, item: &Item) -> bool {
        match &self.adopt {
            Some(adopt) => (adopt.select)(item),
            None => is_entity::<E>(schema, item),
        }
    }

    /// What to do with one stored item, and why.
    fn decide(&self, schema: &TableSchema, stored: &Item) -> Result<(Decision, Reason)> {
        let (entity, adopted) = match &self.adopt {
            Some(adopt) => {
                let entity = (adopt.build)(stored.clone()).map_err(|source| Error::Adopt {
                    entity: E::ENTITY_TYPE,
                    source,
                })?;
                (entity, true)
            }
            None => (E::from_item(stored.clone())?, false),
        };
        let mapped = match &self.map {
            Some(map) => map(&entity),
            None => Change::Keep,
        };
        let (entity, mapped) = match mapped {
            Change::Delete => return Ok((Decision::Delete, Reason::Mapped)),
            Change::Write(changed) => (changed, true),
            Change::Keep => (entity, false),
        };
        let rendered = rendered(&entity)?;
        let mut decision = decide(schema, stored, &rendered, E::WRITE.version);
        let why = reason(schema, stored, &rendered);
        let wanted = mapped
            || adopted
            || match why {
                Reason::Keys => self.rekey,
                Reason::Upgrade => self.upgrade,
                Reason::Mapped => false,
            };
        if !wanted {
            decision = Decision::Keep;
        }
        bump_version::<E>(&mut decision, &rendered);
        Ok((decision, if mapped { Reason::Mapped } else { why }))
    }
}

/// What writes `entity`, read from `stored`, back in the current shape when `stored` is at
/// an older schema version (`None`: it is not). What
/// [`Get::write_back`](crate::ops::Get::write_back) sends with [`write_back`].
pub(crate) fn write_back_decision<E: Entity>(
    stored: &Item,
    entity: &E,
) -> Result<Option<Decision>> {
    let schema = <E::Table as Table>::SCHEMA;
    let Some(current) = E::WRITE.schema_version else {
        return Ok(None);
    };
    if crate::schema_version::stored_version(stored, E::ENTITY_TYPE, current, &schema)? >= current {
        return Ok(None);
    }
    let rendered = rendered(entity)?;
    let mut decision = decide(&schema, stored, &rendered, E::WRITE.version);
    bump_version::<E>(&mut decision, &rendered);
    Ok(Some(decision))
}

/// Sends a write-back: what differs, on condition that the item is as read (a lost race
/// leaves it to a later read).
pub(crate) async fn write_back(
    db: &Db,
    schema: &TableSchema,
    stored: &Item,
    decision: Decision,
) -> Result<()> {
    apply(db, schema, stored, decision).await.map(drop)
}

/// What `entity` stores now, its version (if versioned) one past the one it was read with.
fn rendered<E: Entity>(entity: &E) -> Result<Item> {
    let mut rendered = entity.to_item()?;
    if let Some(version) = E::WRITE.version {
        let next = entity.version().saturating_add(1);
        rendered.insert(version.to_owned(), AttributeValue::N(next.to_string()));
    }
    Ok(rendered)
}

/// A rewrite in place of a versioned entity also writes its next version.
fn bump_version<E: Entity>(decision: &mut Decision, rendered: &Item) {
    if let (Decision::Rewrite { set, .. }, Some(version)) = (decision, E::WRITE.version)
        && let Some(value) = rendered.get(version)
    {
        set.insert(version.to_owned(), value.clone());
    }
}

/// Waits until `bucket` allows another request, and reserves its expected units.
async fn ready(db: &Db, bucket: &Bucket) {
    while let Some(wait) = bucket.reserve() {
        sleep_for(db, wait).await;
    }
}

/// What every segment of a run shares.
struct Shared {
    reads: Bucket,
    writes: Bucket,
    scanned: AtomicU64,
    changed: AtomicU64,
    segments_done: AtomicU32,
    segments: u32,
    started: Instant,
}

impl Shared {
    fn progress(&self) -> Progress {
        Progress {
            scanned: self.scanned.load(Ordering::Relaxed),
            changed: self.changed.load(Ordering::Relaxed),
            segments_done: self.segments_done.load(Ordering::Relaxed),
            segments: self.segments,
            elapsed: self.started.elapsed(),
        }
    }
}

/// The item's stored key, as text.
fn item_key(schema: &TableSchema, item: &Item) -> ItemKey {
    ItemKey {
        pk: text(item.get(schema.pk)).unwrap_or_default(),
        sk: schema.sk.and_then(|sk| text(item.get(sk))),
    }
}

fn is_entity<E: Entity>(schema: &TableSchema, item: &Item) -> bool {
    crate::__private::is_entity(
        crate::__private::entity_type_of(item, schema.entity_type),
        E::ENTITY_TYPE,
        E::ALIASES,
    )
}

fn fail(report: &mut Report, key: ItemKey, error: Error) {
    report.failed_count += 1;
    if report.failed.len() < report::MAX_FAILED {
        report.failed.push(FailedItem { key, error });
    }
}

/// Counts a change; in a dry run, `sample` keeps it as an example.
fn count(
    report: &mut Report,
    decision: &Decision,
    why: Reason,
    sample: Option<(&TableSchema, &ItemKey)>,
) {
    let (change, after) = match decision {
        Decision::Keep => return,
        Decision::Delete => {
            report.deleted += 1;
            ("delete", None)
        }
        Decision::Move { item } => {
            report.moved += 1;
            ("move", sample.map(|(schema, _)| item_key(schema, item)))
        }
        Decision::Rewrite { .. } => match why {
            Reason::Keys => {
                report.rekeyed += 1;
                ("rekey", sample.map(|(_, key)| key.clone()))
            }
            Reason::Upgrade => {
                report.upgraded += 1;
                ("upgrade", sample.map(|(_, key)| key.clone()))
            }
            Reason::Mapped => {
                report.mapped += 1;
                ("map", sample.map(|(_, key)| key.clone()))
            }
        },
    };
    if let Some((_, before)) = sample
        && report.samples.len() < report::MAX_SAMPLES
    {
        report.samples.push(Sample {
            before: before.clone(),
            after,
            change,
        });
    }
}
