//! How a job walks its segments: pages scanned from the checkpoint on, each item decided
//! and written on condition, redone after a lost race.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::ConsumedCapacity;
use futures_util::stream::{self, StreamExt};

use super::apply::{Applied, apply, primary_key};
use super::budget::Bucket;
use super::checkpoint::{self, Saved};
use super::plan::{Decision, Reason, Unchanged, Write, item_key, plan};
use super::report::{self, FailedItem, Progress, Report, Sample};
use super::{Change, ITEMS_IN_FLIGHT, MAX_REDOS, Maintain};
use crate::batch::ItemKey;
use crate::codec::{AttributeValue, Item};
use crate::expr::Placeholders;
use crate::retry::sleep_for;
use crate::table::{Table, TableSchema};
use crate::{Entity, Error, Handle, Result};

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
            report.add(written);
            let done = next.is_none();
            if !self.dry_run {
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
        ready(&self.db, &shared.reads).await;
        let page = self
            .page(schema, segment, start, shared.reads.limited())
            .await;
        let page = page.inspect_err(|_| shared.reads.settle(0.0))?;
        shared.reads.settle(page.units);
        shared.read_units.add(page.units);
        shared.items_read.fetch_add(page.read, Ordering::Relaxed);
        Ok(page)
    }

    /// Decides and writes a page's items, a few at a time.
    async fn write_page(&self, schema: &TableSchema, items: Vec<Item>, shared: &Shared) -> Report {
        let items = items.into_iter().filter(|item| self.selects(schema, item));
        stream::iter(items)
            .map(|raw| async move {
                let mut one = Report {
                    scanned: 1,
                    ..Report::default()
                };
                self.item(schema, raw, shared, &mut one).await;
                shared.scanned.fetch_add(1, Ordering::Relaxed);
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
        ready(&self.db, &shared.writes).await;
        let units = checkpoint::save(
            &self.db,
            schema,
            self.checkpoint_job(),
            (segment, self.segments),
            saved,
            shared.writes.limited(),
        )
        .await;
        let units = units.inspect_err(|_| shared.writes.settle(0.0))?;
        shared.writes.settle(units);
        shared.write_units.add(units);
        Ok(units)
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
        // otherwise the entity's.
        let mut p = Placeholders::default();
        let entity_filter = self.adopt.is_none().then(|| {
            let attribute = p.name(schema.entity_type);
            let types: Vec<String> = std::iter::once(E::ENTITY_TYPE)
                .chain(E::ALIASES.iter().copied())
                .map(|t| p.value(AttributeValue::S(t.to_owned())))
                .collect();
            format!("{attribute} IN ({})", types.join(", "))
        });
        let filter = entity_filter.or_else(|| self.finish.filter(&mut p));
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
        Ok(Page {
            read: u64::try_from(out.scanned_count).unwrap_or(0),
            items: out.items.unwrap_or_default(),
            next: out.last_evaluated_key,
            units,
        })
    }

    /// One item: decided, written on condition, redone after a lost race.
    async fn item(&self, schema: &TableSchema, raw: Item, shared: &Shared, report: &mut Report) {
        let key = item_key(schema, &raw);
        let mut current = raw;
        let mut redos = 0;
        loop {
            let (write, why) = match self.decide(&current) {
                Ok(decided) => decided,
                Err(error) => return fail(report, key, error),
            };
            if write.decision == Decision::Keep {
                report.unchanged += 1;
                return;
            }
            if self.dry_run {
                return count(report, &write.decision, why, Some((schema, &key)));
            }
            ready(&self.db, &shared.writes).await;
            let decision = write.decision.clone();
            let counted = shared.writes.limited();
            let applied = apply::<E>(&self.db, &current, write, counted).await;
            // Every reservation is settled, with what DynamoDB reported (none on failure).
            shared
                .writes
                .settle(applied.as_ref().map_or(0.0, |(_, units)| *units));
            match applied {
                Ok((Applied::Done, units)) => {
                    shared.write_units.add(units);
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

    /// True for an item the job works on: its entity's, or one `adopt` selects.
    fn selects(&self, schema: &TableSchema, item: &Item) -> bool {
        match &self.adopt {
            Some(adopt) => (adopt.select)(item),
            None => is_entity::<E>(schema, item),
        }
    }

    /// What to do with one stored item, and why.
    fn decide(&self, original: &Item) -> Result<(Write, Reason)> {
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

/// Waits until `bucket` allows another request, and reserves its expected units.
async fn ready(db: &Handle, bucket: &Bucket) {
    while let Some(wait) = bucket.reserve() {
        sleep_for(db, wait).await;
    }
}

/// One scan page of a segment.
struct Page {
    /// The items the filter kept: the entity's (or, adopting, every item).
    items: Vec<Item>,
    /// Every item the page read, kept or not.
    read: u64,
    /// Where the segment goes on from; `None` at its end.
    next: Option<Item>,
    /// Read units consumed.
    units: f64,
}

/// What every segment of a run shares.
pub(super) struct Shared {
    reads: Bucket,
    writes: Bucket,
    scanned: AtomicU64,
    changed: AtomicU64,
    items_read: AtomicU64,
    items_expected: Option<u64>,
    read_units: Units,
    write_units: Units,
    segments_done: AtomicU32,
    segments: u32,
    started: Instant,
}

impl Shared {
    pub(super) fn new(budget: super::Budget, segments: u32, items_expected: Option<u64>) -> Self {
        Shared {
            reads: Bucket::new(budget.read_units),
            writes: Bucket::new(budget.write_units),
            scanned: AtomicU64::new(0),
            changed: AtomicU64::new(0),
            items_read: AtomicU64::new(0),
            items_expected,
            read_units: Units::default(),
            write_units: Units::default(),
            segments_done: AtomicU32::new(0),
            segments,
            started: Instant::now(),
        }
    }

    fn progress(&self) -> Progress {
        Progress {
            scanned: self.scanned.load(Ordering::Relaxed),
            changed: self.changed.load(Ordering::Relaxed),
            items_read: self.items_read.load(Ordering::Relaxed),
            items_expected: self.items_expected,
            read_units: self.read_units.get(),
            write_units: self.write_units.get(),
            segments_done: self.segments_done.load(Ordering::Relaxed),
            segments: self.segments,
            elapsed: self.started.elapsed(),
        }
    }
}

/// Capacity units added up by concurrent segments (kept in thousandths of a unit).
#[derive(Default)]
struct Units(AtomicU64);

impl Units {
    fn add(&self, units: f64) {
        self.0
            .fetch_add((units.max(0.0) * 1000.0).round() as u64, Ordering::Relaxed);
    }

    fn get(&self) -> f64 {
        self.0.load(Ordering::Relaxed) as f64 / 1000.0
    }
}

/// True when `item` is stored as `E` or under one of its aliases.
fn is_entity<E: Entity>(schema: &TableSchema, item: &Item) -> bool {
    matches!(
        item.get(schema.entity_type),
        Some(AttributeValue::S(found)) if found == E::ENTITY_TYPE || E::ALIASES.contains(&found.as_str())
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
