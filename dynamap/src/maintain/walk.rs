//! How a job walks its segments: pages scanned from the checkpoint on, each item decided
//! and written on condition, redone after a lost race.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::ConsumedCapacity;
use futures_util::stream::{self, StreamExt};

use super::apply::{Applied, apply, primary_key};
use super::checkpoint::{self, Saved};
use super::cost;
use super::meter::Meter;
use super::plan::{Decision, Reason, Unchanged, Write, item_key, plan};
use super::report::{self, FailedItem, Progress, Report, Sample};
use super::{Change, ITEMS_IN_FLIGHT, MAX_REDOS, Maintain};
use crate::batch::ItemKey;
use crate::codec::{AttributeValue, Item};
use crate::expr::Placeholders;
use crate::retry::sleep_for;
use crate::table::{Table, TableSchema};
use crate::{Entity, Error, Result};

impl<E: Entity + Send + Sync> Maintain<E> {
    /// One segment, from its checkpoint to its end.
    pub(super) async fn segment(&self, segment: u32, shared: Arc<Shared>) -> Result<Report> {
        let schema = <E::Table as Table>::SCHEMA;
        let mut report = Report::default();
        let start = if self.dry_run {
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
        let mut page = self.read_page(&schema, segment, start, &shared).await?;
        let mut unsaved_pages = 0;
        loop {
            report.read_units += page.units;
            let next = page.next.take();
            // The next page is read while this one's items are written: the scan's round
            // trip costs no time. (Two pages per segment are held at the most.)
            let written = self.write_page(&schema, std::mem::take(&mut page.items), &shared);
            let (written, following) = match &next {
                Some(key) => {
                    let read = self.read_page(&schema, segment, Some(key.clone()), &shared);
                    let (written, following) = futures_util::future::join(written, read).await;
                    (written, Some(following))
                }
                None => (written.await, None),
            };
            let written_met_again = written.met_again;
            report.add(written);
            // Counted once its items are: the ETA compares items done with time spent.
            shared.items_read.fetch_add(page.read, Ordering::Relaxed);
            shared
                .met_again
                .fetch_add(written_met_again, Ordering::Relaxed);
            let done = next.is_none();
            unsaved_pages += 1;
            if !self.dry_run && (done || unsaved_pages >= self.pages_per_checkpoint()) {
                unsaved_pages = 0;
                let saved = Saved { done, start: next };
                report.write_units += self
                    .save_checkpoint(&schema, segment, &saved, &shared)
                    .await?;
            }
            if done {
                report.segments_done = 1;
                shared.segments_done.fetch_add(1, Ordering::Relaxed);
            }
            if let Some(progress) = &self.progress {
                progress(shared.progress());
            }
            // A failed read of the next page ends the segment after this page's checkpoint.
            match following.transpose()? {
                Some(following) => page = following,
                None => return Ok(report),
            }
        }
    }

    /// Reads one scan page within the read budget, and counts it.
    async fn read_page(
        &self,
        schema: &TableSchema,
        segment: u32,
        start: Option<Item>,
        shared: &Shared,
    ) -> Result<Page> {
        let bytes_each = shared.bytes_each();
        let computed = cost::scan(u64::try_from(self.page_size).unwrap_or(0), bytes_each);
        let ticket = shared.reads.ready(&self.db, computed).await;
        let page = self.page(schema, segment, start, ticket.asks).await;
        let mut page = page.inspect_err(|_| {
            shared.reads.settle(ticket, None);
        })?;
        // What the page read, now known, is what it is counted by when it did not ask.
        let returned: usize = page.items.iter().map(crate::limits::item_size).sum();
        if !page.items.is_empty() {
            shared.learn_bytes_each(returned as f64 / page.items.len() as f64);
        }
        let ticket = ticket.computed(cost::scan(page.read, shared.bytes_each()));
        page.units = shared.reads.settle(ticket, Some(page.units));
        Ok(page)
    }

    /// Decides and writes a page's items, a few at a time.
    async fn write_page(&self, schema: &TableSchema, items: Vec<Item>, shared: &Shared) -> Report {
        let items = items.into_iter().filter(|item| self.selects(schema, item));
        if self.offline && !self.dry_run {
            return self
                .write_page_offline(schema, items.collect(), shared)
                .await;
        }
        stream::iter(items)
            .map(|raw| async move {
                let mut one = Report {
                    scanned: 1,
                    ..Report::default()
                };
                self.item(schema, raw, shared, &mut one).await;
                shared.scanned.fetch_add(one.scanned, Ordering::Relaxed);
                shared.changed.fetch_add(one.changed(), Ordering::Relaxed);
                one
            })
            .buffer_unordered(ITEMS_IN_FLIGHT)
            .fold(Report::default(), |mut total, one| async move {
                total.add(one);
                total
            })
            .await
    }

    /// Saves the segment's checkpoint: a write like the others, within the budget and
    /// counted. Returns the units it consumed.
    async fn save_checkpoint(
        &self,
        schema: &TableSchema,
        segment: u32,
        saved: &Saved,
        shared: &Shared,
    ) -> Result<f64> {
        // A checkpoint is a small item in no index: one unit.
        let ticket = shared.writes.ready(&self.db, 1.0).await;
        let units = checkpoint::save(
            &self.db,
            schema,
            self.checkpoint_job(),
            (segment, self.segments),
            saved,
            ticket.asks,
        )
        .await;
        let units = units.inspect_err(|_| {
            shared.writes.settle(ticket, None);
        })?;
        Ok(shared.writes.settle(ticket, Some(units)))
    }

    /// One scan page of the segment, with the units it consumed when `counted`.
    async fn page(
        &self,
        schema: &TableSchema,
        segment: u32,
        start: Option<Item>,
        counted: bool,
    ) -> Result<Page> {
        // Adopting, the job reads every item (or those still marked) and `select` picks;
        // otherwise the entity's. Checkpoint items come back too: the scan's count includes
        // them, and they are taken out of it (and out of the items) by their type.
        let mut p = Placeholders::default();
        let entity_filter = self.adopt.is_none().then(|| {
            let attribute = p.name(schema.entity_type);
            let types: Vec<String> = std::iter::once(E::ENTITY_TYPE)
                .chain(E::ALIASES.iter().copied())
                .chain([checkpoint::CHECKPOINT_TYPE])
                .map(|t| p.value(AttributeValue::S(t.to_owned())))
                .collect();
            format!("{attribute} IN ({})", types.join(", "))
        });
        let filter = entity_filter.or_else(|| {
            let marked = self.finish.filter(&mut p)?;
            let checkpoint = p.value(AttributeValue::S(checkpoint::CHECKPOINT_TYPE.to_owned()));
            Some(format!(
                "({marked}) OR {} = {checkpoint}",
                p.name(schema.entity_type)
            ))
        });
        let (names, values) = p.into_parts();
        let parallel = self.segments > 1;
        let call = crate::span::Call::new(&self.db, "Scan", E::ENTITY_TYPE, None);
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
            .set_return_consumed_capacity(call.capacity_if(counted))
            .send()
            .await;
        let out = call
            .end(out, |o| o.consumed_capacity())
            .map_err(|e| Error::service("Scan", e))?;
        let units = out
            .consumed_capacity()
            .and_then(ConsumedCapacity::capacity_units)
            .unwrap_or(0.0);
        let mut items = out.items.unwrap_or_default();
        let before = items.len();
        items.retain(|item| !checkpoint::is_checkpoint(schema, item));
        let checkpoints = (before - items.len()) as u64;
        Ok(Page {
            read: u64::try_from(out.scanned_count)
                .unwrap_or(0)
                .saturating_sub(checkpoints),
            items,
            next: out.last_evaluated_key,
            units,
        })
    }

    /// One item: decided, written on condition, redone after a lost race.
    pub(super) async fn item(
        &self,
        schema: &TableSchema,
        raw: Item,
        shared: &Shared,
        report: &mut Report,
    ) {
        let key = item_key(schema, &raw);
        let mut current = raw;
        let mut redos = 0;
        loop {
            let (write, why) = match self.decide(&current) {
                Ok(decided) => decided,
                Err(error) => return fail(report, key, error),
            };
            if write.decision == Decision::Keep {
                return self.count_kept(schema, &current, shared, report);
            }
            if self.dry_run {
                return count(report, &write.decision, why, Some((schema, &key)));
            }
            let decision = write.decision.clone();
            let ticket = shared
                .writes
                .ready(&self.db, cost::write(schema, &current, &write))
                .await;
            // Remembered before the write: another segment may meet the item at its new key
            // before this one hears back.
            let moved_to = match &decision {
                Decision::Move { item } => Some(primary_key(schema, item)),
                _ => None,
            };
            if let Some(key) = &moved_to {
                shared.moved_to(key);
            }
            let applied = apply::<E>(&self.db, &current, write, ticket.asks).await;
            if let (Some(key), false) = (&moved_to, matches!(applied, Ok((Applied::Done, _)))) {
                shared.not_moved_to(key);
            }
            // Every reservation is settled, with what DynamoDB reported (none on failure or
            // a lost race).
            let reported = match &applied {
                Ok((Applied::Done, units)) => Some(*units),
                _ => None,
            };
            let units = shared.writes.settle(ticket, reported);
            match applied {
                Ok((Applied::Done, _)) => {
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
                    match self
                        .db
                        .consistent_item_of(primary_key(schema, &current), E::ENTITY_TYPE)
                        .await
                    {
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

    /// Counts an item the job leaves: met again at the key this run moved it to, or
    /// unchanged.
    pub(super) fn count_kept(
        &self,
        schema: &TableSchema,
        item: &Item,
        shared: &Shared,
        report: &mut Report,
    ) {
        if shared.was_moved_to(&primary_key(schema, item)) {
            report.met_again += 1;
            report.scanned = report.scanned.saturating_sub(1);
        } else {
            report.unchanged += 1;
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
    pub(super) fn decide(&self, original: &Item) -> Result<(Write, Reason)> {
        // Adopting, compared without the attributes it drops (none otherwise).
        let stripped = self.finish.strip(original);
        let stored: &Item = &stripped;
        let (entity, adopted) = match &self.adopt {
            Some(adopt) => {
                let entity = (adopt.build)(original.clone()).map_err(|source| Error::Adopt {
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
        let (mut write, why) = match mapped {
            Change::Delete => (Write::delete::<E>(stored), Reason::Mapped),
            Change::Write(changed) => (plan(stored, &changed)?.0, Reason::Mapped),
            Change::Keep => {
                let (write, why) = plan(stored, &entity)?;
                let wanted = adopted
                    || match why {
                        Reason::Keys => self.rekey,
                        Reason::Upgrade => self.upgrade,
                        Reason::Mapped => false,
                    };
                (if wanted { write } else { Write::keep() }, why)
            }
        };
        // An item another writer stored: its attribute named like the version need not
        // follow dynamap's rules, so every attribute is checked.
        if adopted {
            write.unchanged = Unchanged::EveryAttribute;
            self.finish.finish(&mut write, original);
        }
        Ok((write, why))
    }
}

/// One scan page of a segment.
struct Page {
    /// The items the filter kept: the entity's (or, adopting, every item).
    items: Vec<Item>,
    /// Every item the page read, kept or not, but for checkpoint items.
    read: u64,
    /// Where the segment goes on from; `None` at its end.
    next: Option<Item>,
    /// Read units consumed.
    units: f64,
}

/// What every segment of a run shares.
pub(super) struct Shared {
    pub(super) reads: Meter,
    pub(super) writes: Meter,
    /// The average size of the items scans read, in bytes (an estimate, in thousandths).
    bytes_each: AtomicU64,
    pub(super) scanned: AtomicU64,
    pub(super) changed: AtomicU64,
    /// Fingerprints of the keys this run moved items to (up to [`MAX_MOVED`]).
    moved: Mutex<HashSet<u64>>,
    met_again: AtomicU64,
    items_read: AtomicU64,
    items_expected: Option<u64>,
    segments_done: AtomicU32,
    segments: u32,
    started: Instant,
    /// When the first page was done, and the table's items done then: the ETA's rate is
    /// measured from there, once the segments' pipelines are full.
    first_done: OnceLock<(Instant, u64)>,
}

impl Shared {
    /// `bytes_each`: the table's average item size, when DynamoDB said it.
    pub(super) fn new(
        budget: super::Budget,
        segments: u32,
        items_expected: Option<u64>,
        bytes_each: Option<f64>,
    ) -> Self {
        let bytes_each = bytes_each
            .filter(|b| b.is_finite() && *b > 0.0)
            .unwrap_or(1024.0);
        Shared {
            reads: Meter::new(budget.read_units),
            writes: Meter::new(budget.write_units),
            bytes_each: AtomicU64::new((bytes_each * 1000.0) as u64),
            scanned: AtomicU64::new(0),
            changed: AtomicU64::new(0),
            moved: Mutex::new(HashSet::new()),
            met_again: AtomicU64::new(0),
            items_read: AtomicU64::new(0),
            items_expected,
            segments_done: AtomicU32::new(0),
            segments,
            started: Instant::now(),
            first_done: OnceLock::new(),
        }
    }

    /// Remembers that this run moved an item to `key`.
    pub(super) fn moved_to(&self, key: &Item) {
        let mut moved = self.moved.lock().unwrap_or_else(|e| e.into_inner());
        if moved.len() < MAX_MOVED {
            moved.insert(fingerprint(key));
        }
    }

    /// Forgets `key`: the move there failed.
    pub(super) fn not_moved_to(&self, key: &Item) {
        let mut moved = self.moved.lock().unwrap_or_else(|e| e.into_inner());
        moved.remove(&fingerprint(key));
    }

    /// True when this run moved an item to `key`: meeting it there, the scan reads it a
    /// second time.
    fn was_moved_to(&self, key: &Item) -> bool {
        let moved = self.moved.lock().unwrap_or_else(|e| e.into_inner());
        !moved.is_empty() && moved.contains(&fingerprint(key))
    }

    /// The average size of the items scans read, in bytes.
    fn bytes_each(&self) -> f64 {
        self.bytes_each.load(Ordering::Relaxed) as f64 / 1000.0
    }

    /// Moves the average size toward `bytes` (a page's average).
    fn learn_bytes_each(&self, bytes: f64) {
        let next = 0.7 * self.bytes_each() + 0.3 * bytes;
        self.bytes_each
            .store((next * 1000.0) as u64, Ordering::Relaxed);
    }

    fn progress(&self) -> Progress {
        let items_read = self.items_read.load(Ordering::Relaxed);
        let met_again = self.met_again.load(Ordering::Relaxed);
        self.first_done
            .get_or_init(|| (Instant::now(), items_read - met_again));
        Progress {
            scanned: self.scanned.load(Ordering::Relaxed),
            changed: self.changed.load(Ordering::Relaxed),
            items_read,
            met_again,
            items_expected: self.items_expected,
            read_units: self.reads.total(),
            write_units: self.writes.total(),
            segments_done: self.segments_done.load(Ordering::Relaxed),
            segments: self.segments,
            elapsed: self.started.elapsed(),
            rate: self
                .first_done
                .get()
                .map_or((Duration::ZERO, 0), |(at, done)| {
                    (at.elapsed(), (items_read - met_again).saturating_sub(*done))
                }),
        }
    }
}

/// The most moved keys a run remembers (8 bytes each, and the set's overhead: under 50 MB);
/// past them, items met again at their new key count as unchanged.
const MAX_MOVED: usize = 2_000_000;

/// A 64-bit fingerprint of a primary key (its attribute values in name order).
fn fingerprint(key: &Item) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    let mut names: Vec<&String> = key.keys().collect();
    names.sort();
    for name in names {
        name.hash(&mut hasher);
        format!("{:?}", key[name]).hash(&mut hasher);
    }
    hasher.finish()
}

/// True when `item` is stored as `E` or under one of its aliases.
fn is_entity<E: Entity>(schema: &TableSchema, item: &Item) -> bool {
    matches!(
        item.get(schema.entity_type),
        Some(AttributeValue::S(found)) if found == E::ENTITY_TYPE || E::ALIASES.contains(&found.as_str())
    )
}

pub(super) fn fail(report: &mut Report, key: ItemKey, error: Error) {
    report.failed_count += 1;
    if report.failed.len() < report::MAX_FAILED {
        report.failed.push(FailedItem { key, error });
    }
}

/// Counts a change; in a dry run, `sample` keeps it as an example.
pub(super) fn count(
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
        Decision::Rewrite { .. } | Decision::Replace { .. } => match why {
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
