//! Running a batch get: unique keys in chunks of 100, retried, decoded back into key order.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::future::Future;
use std::sync::Arc;

use futures_util::StreamExt;
use futures_util::stream;

use super::call::{Ctx, Settings};
use super::driver::{Chunk, drive};
use super::get_call::{self, Answer, OPERATION, Target, call, key_of};
use super::pending::has_key;
use super::{BatchGetReport, FailedGet, ItemKey, MAX_GET_CHUNK};
use crate::codec::Item;
use crate::expiry;
use crate::key::KeyError;
use crate::preview::{Preview, Request as PreviewRequest, input_of};
use crate::retry::SplitMix64;
use crate::table::TableSchema;
use crate::{Error, Handle, Result};

/// What a batch get reads and how it decodes what it finds: one entity type
/// (`Entity::from_item`) or an entity enum (by each item's entity type).
pub(super) struct Reader<D> {
    pub(super) schema: TableSchema,
    /// The entity type, or the enum's name, for spans and messages.
    pub(super) entity: &'static str,
    pub(super) consistent: bool,
    pub(super) include_expired: bool,
    pub(super) decode: fn(Item) -> Result<D>,
}

/// Reads every distinct key once, then hands each item to every position that asked.
pub(super) async fn run<D>(
    db: &Handle,
    keys: Vec<Result<ItemKey, KeyError>>,
    reader: Reader<D>,
    settings: Settings,
) -> Result<BatchGetReport<D>> {
    let ctx = Ctx::new(db, settings)?;
    let Reader {
        schema,
        entity,
        consistent,
        include_expired,
        decode,
    } = reader;
    let target = Target {
        names: (schema.pk, schema.sk),
        entity,
        consistent,
    };
    let names = target.names;
    let positions = keys.len();
    let (unique, slot, failed) = distinct(keys);
    let mut report = BatchGetReport {
        items: (0..positions).map(|_| None).collect(),
        failed,
        consumed_capacity: None,
    };

    let mut seeds = SplitMix64::from_entropy();
    // Owned copies of the keys: futures borrowing them would not be provably `Send`.
    let chunks: Vec<(Vec<ItemKey>, u64)> = unique
        .chunks(MAX_GET_CHUNK)
        .map(|chunk| {
            let keys = chunk.iter().map(|(key, _)| key.clone()).collect();
            (keys, seeds.next_u64())
        })
        .collect();
    let ctx = &ctx;
    let mut outcomes = stream::iter(chunks)
        .map(|(keys, seed)| get_chunk(ctx, keys, target, seed))
        .buffer_unordered(settings.concurrency);
    let mut found: Vec<Option<Item>> = vec![None; unique.len()];
    let mut capacity = 0.0;
    while let Some(outcome) = outcomes.next().await {
        capacity += outcome.capacity;
        let now = expiry::now_epoch_seconds();
        for item in outcome.items {
            if !include_expired && expiry::is_expired(&schema, &item, now) {
                continue;
            }
            if let Some(&at) = key_of(&item, names).and_then(|key| slot.get(&key)) {
                found[at] = Some(item);
            }
        }
        for (key, error) in outcome.failed {
            let positions = slot.get(&key).map(|&at| &unique[at].1);
            for &index in positions.into_iter().flatten() {
                report.failed.push(FailedGet {
                    index,
                    key: Some(key.clone()),
                    error: Arc::clone(&error),
                });
            }
        }
    }
    drop(outcomes);
    report.consumed_capacity = settings.capacity.then_some(capacity);

    for ((key, positions), item) in unique.iter().zip(found) {
        let (Some(item), Some((&last, rest))) = (item, positions.split_last()) else {
            continue;
        };
        // Every position but the last decodes a copy; the last takes the item itself.
        for &index in rest {
            decode_into(&mut report, decode, index, key, item.clone());
        }
        decode_into(&mut report, decode, last, key, item);
    }
    Ok(report)
}

/// Each distinct key once, in first-seen order, with every position that asked for it;
/// its index among them; and the keys that did not render.
type Distinct = (
    Vec<(ItemKey, Vec<usize>)>,
    HashMap<ItemKey, usize>,
    Vec<FailedGet>,
);

/// The keys as [`Distinct`]: DynamoDB rejects a call that names a key twice.
fn distinct(keys: Vec<Result<ItemKey, KeyError>>) -> Distinct {
    let mut unique: Vec<(ItemKey, Vec<usize>)> = Vec::new();
    let mut slot: HashMap<ItemKey, usize> = HashMap::new();
    let mut failed = Vec::new();
    for (index, key) in keys.into_iter().enumerate() {
        match key {
            Err(err) => failed.push(FailedGet {
                index,
                key: None,
                error: Arc::new(err.into()),
            }),
            Ok(key) => match slot.entry(key) {
                Entry::Occupied(entry) => unique[*entry.get()].1.push(index),
                Entry::Vacant(entry) => {
                    unique.push((entry.key().clone(), vec![index]));
                    entry.insert(unique.len() - 1);
                }
            },
        }
    }
    (unique, slot, failed)
}

/// The calls [`run`] would make first, not sent: one per 100 distinct keys; the error of
/// the first key that does not render (it would be in the report).
pub(super) fn preview(
    db: &Handle,
    keys: Vec<Result<ItemKey, KeyError>>,
    target: Target,
    settings: Settings,
) -> Result<Preview> {
    Ctx::new(db, settings)?;
    let (unique, _, failed) = distinct(keys);
    if let Some(first) = failed.first() {
        return Err(Error::clone(&first.error));
    }
    unique
        .chunks(MAX_GET_CHUNK)
        .map(|chunk| {
            let keys: Vec<ItemKey> = chunk.iter().map(|(key, _)| key.clone()).collect();
            let request = get_call::request(db, &keys, target)?;
            Ok(PreviewRequest::BatchGetItem(input_of!(
                request,
                "BatchGetItem"
            )?))
        })
        .collect::<Result<Vec<_>>>()
        .map(Preview::new)
}

fn decode_into<D>(
    report: &mut BatchGetReport<D>,
    decode: fn(Item) -> Result<D>,
    index: usize,
    key: &ItemKey,
    item: Item,
) {
    match decode(item) {
        Ok(entity) => report.items[index] = Some(entity),
        Err(err) => report.failed.push(FailedGet {
            index,
            key: Some(key.clone()),
            error: Arc::new(err),
        }),
    }
}

/// What became of one chunk's keys: the items found, and the keys given up.
struct ChunkOutcome {
    items: Vec<Item>,
    failed: Vec<(ItemKey, Arc<Error>)>,
    capacity: f64,
}

/// One chunk's keys on their way: those still pending, and what was found so far.
struct GetChunk {
    pending: Vec<ItemKey>,
    target: Target,
    outcome: ChunkOutcome,
}

impl Chunk for GetChunk {
    type Answer = Answer;
    const OPERATION: &'static str = OPERATION;

    fn pending(&self) -> usize {
        self.pending.len()
    }

    fn call<'c>(
        &'c mut self,
        ctx: &'c Ctx<'c>,
    ) -> impl Future<Output = Result<Answer, (Error, bool)>> + Send + 'c {
        call(ctx, &self.pending, self.target)
    }

    fn absorb(&mut self, answer: Answer) {
        self.outcome.items.extend(answer.found);
        self.outcome.capacity += answer.capacity;
        let (unprocessed, names) = (answer.unprocessed, self.target.names);
        self.pending
            .retain(|key| unprocessed.iter().any(|u| has_key(u, names, key)));
    }

    fn fail_pending(&mut self, error: Arc<Error>) {
        let failed = self.pending.drain(..).map(|key| (key, Arc::clone(&error)));
        self.outcome.failed.extend(failed);
    }
}

/// Reads one chunk until every key is answered, or until the policy gives up on it.
async fn get_chunk(
    ctx: &Ctx<'_>,
    pending: Vec<ItemKey>,
    target: Target,
    seed: u64,
) -> ChunkOutcome {
    let outcome = ChunkOutcome {
        items: Vec::with_capacity(pending.len()),
        failed: Vec::new(),
        capacity: 0.0,
    };
    let mut chunk = GetChunk {
        pending,
        target,
        outcome,
    };
    drive(ctx, &mut chunk, seed).await;
    chunk.outcome
}
