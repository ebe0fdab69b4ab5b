//! The offline mode ([`Maintain::offline_nothing_else_writes`]): a page's writes as
//! `BatchWriteItem` puts and deletes, with no condition, up to 25 in a call. Only right when
//! nothing else writes the job's items while it runs; see the method's documentation.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, WriteRequest};
use futures_util::stream::{self, StreamExt};

use super::apply::primary_key;
use super::cost;
use super::plan::{Decision, Reason, item_key};
use super::report::Report;
use super::walk::{Shared, count, fail};
use super::{ITEMS_IN_FLIGHT, Maintain};
use crate::batch::{ItemKey, MAX_WRITE_CHUNK, RawWrite, write_raw};
use crate::codec::Item;
use crate::table::TableSchema;
use crate::{Entity, Error, Result};

/// One item's writes in a batch: what it was, why, and the puts and deletes that do it.
struct Batched {
    key: ItemKey,
    /// The decision as counted: its kind, a move's item reduced to its new primary key
    /// (the items themselves went into `writes`).
    decision: Decision,
    why: Reason,
    writes: Vec<RawWrite>,
    units: f64,
}

impl<E: Entity + Send + Sync> Maintain<E> {
    /// Decides a page's items and writes them in batches; an item whose lookup items change,
    /// or whose keys another item of the page writes too, is written the conditioned way
    /// (a batch can neither keep lookups nor name a key twice).
    pub(super) async fn write_page_offline(
        &self,
        schema: &TableSchema,
        items: Vec<Item>,
        shared: &Shared,
    ) -> Report {
        let mut report = Report::default();
        let mut batched = Vec::new();
        let mut conditioned = Vec::new();
        let mut keys = HashSet::new();
        for raw in items {
            report.scanned += 1;
            let key = item_key(schema, &raw);
            let (write, why) = match self.decide(&raw) {
                Ok(decided) => decided,
                Err(error) => {
                    fail(&mut report, key, error);
                    continue;
                }
            };
            if write.decision == Decision::Keep {
                self.count_kept(schema, &raw, shared, &mut report);
                continue;
            }
            if !write.lookups.is_empty() {
                conditioned.push(raw);
                continue;
            }
            let (writes, units, decision) = match requests::<E>(schema, &raw, write.decision) {
                Ok(made) => made,
                Err(error) => {
                    fail(&mut report, key, error);
                    continue;
                }
            };
            if writes.iter().any(|w| keys.contains(&w.key)) {
                conditioned.push(raw);
                continue;
            }
            keys.extend(writes.iter().map(|w| w.key.clone()));
            batched.push(Batched {
                key,
                decision,
                why,
                writes,
                units,
            });
        }
        shared.scanned.fetch_add(report.scanned, Ordering::Relaxed);
        let largest = shared.writes.largest_request().unwrap_or(f64::INFINITY);
        let chunks = chunks(batched, largest);
        let sent = stream::iter(chunks)
            .map(|chunk| self.send_chunk(schema, chunk, shared))
            .buffer_unordered(ITEMS_IN_FLIGHT);
        let redone = stream::iter(conditioned)
            .map(|raw| async move {
                let mut one = Report::default();
                self.item(schema, raw, shared, &mut one).await;
                one
            })
            .buffer_unordered(ITEMS_IN_FLIGHT);
        let mut all = std::pin::pin!(stream::select(sent, redone));
        while let Some(one) = all.next().await {
            shared.changed.fetch_add(one.changed(), Ordering::Relaxed);
            report.add(one);
        }
        report
    }

    /// One `BatchWriteItem` call's items, within the write budget: an item counts as done
    /// once all its writes are, and fails with the first error of any.
    async fn send_chunk(
        &self,
        schema: &TableSchema,
        chunk: Vec<Batched>,
        shared: &Shared,
    ) -> Report {
        let mut report = Report::default();
        let computed = chunk.iter().map(|b| b.units).sum();
        let ticket = shared.writes.ready(&self.db, computed).await;
        let mut owners = Vec::new();
        let mut writes = Vec::new();
        let mut items = Vec::new();
        for (owner, mut item) in chunk.into_iter().enumerate() {
            // Remembered before the write: another segment may meet the item at its new
            // key before this call returns.
            if let Decision::Move { item: moved } = &item.decision {
                shared.moved_to(moved);
            }
            owners.extend(std::iter::repeat_n(owner, item.writes.len()));
            writes.append(&mut item.writes);
            items.push(item);
        }
        let result = write_raw(&self.db, (schema.pk, schema.sk), writes, ticket.asks).await;
        let (failed, reported) = match result {
            Ok(outcome) => (outcome.failed, Some(outcome.units)),
            Err(error) => {
                let error = Arc::new(error);
                let all = (0..owners.len()).map(|i| (i, Arc::clone(&error)));
                (all.collect(), None)
            }
        };
        report.write_units += shared.writes.settle(ticket, reported);
        let mut errors: Vec<Option<Arc<Error>>> = vec![None; items.len()];
        for (write, error) in failed {
            if let Some(owner) = owners.get(write) {
                errors[*owner].get_or_insert(error);
            }
        }
        for (item, error) in items.into_iter().zip(errors) {
            match error {
                Some(error) => {
                    if let Decision::Move { item: moved } = &item.decision {
                        shared.not_moved_to(moved);
                    }
                    fail(&mut report, item.key, Error::clone(&error));
                }
                None => count(&mut report, &item.decision, item.why, None),
            }
        }
        report
    }
}

/// Packs items into calls of at most 25 writes and (under a budget) `largest` units, one
/// item's writes in one call; an item alone over `largest` goes in a call of its own.
fn chunks(items: Vec<Batched>, largest: f64) -> Vec<Vec<Batched>> {
    let mut chunks: Vec<Vec<Batched>> = Vec::new();
    let (mut writes, mut units) = (0, 0.0);
    for item in items {
        let fits = writes + item.writes.len() <= MAX_WRITE_CHUNK && units + item.units <= largest;
        if chunks.is_empty() || !fits {
            chunks.push(Vec::new());
            (writes, units) = (0, 0.0);
        }
        writes += item.writes.len();
        units += item.units;
        if let Some(last) = chunks.last_mut() {
            last.push(item);
        }
    }
    chunks
}

/// The puts and deletes that make `decision` for `stored`, what they cost, and the decision
/// as counted. A rewrite in place is a put of the stored item with the change made
/// (nothing else writes it, so nothing is lost), a move a put at the new key and a delete of
/// the old one. Each item is built once and moved into its request: this runs per item.
fn requests<E: Entity>(
    schema: &TableSchema,
    stored: &Item,
    decision: Decision,
) -> Result<(Vec<RawWrite>, f64, Decision)> {
    let put = |item: Item| -> Result<RawWrite> {
        crate::limits::check_item_size(E::ENTITY_TYPE, &item)?;
        let key = item_key(schema, &item);
        let request = PutRequest::builder()
            .set_item(Some(item))
            .build()
            .map_err(build_error)?;
        Ok(RawWrite {
            entity: E::ENTITY_TYPE,
            key,
            request: WriteRequest::builder().put_request(request).build(),
        })
    };
    let delete = || -> Result<RawWrite> {
        let request = DeleteRequest::builder()
            .set_key(Some(primary_key(schema, stored)))
            .build()
            .map_err(build_error)?;
        Ok(RawWrite {
            entity: E::ENTITY_TYPE,
            key: item_key(schema, stored),
            request: WriteRequest::builder().delete_request(request).build(),
        })
    };
    Ok(match decision {
        Decision::Keep => (Vec::new(), 0.0, Decision::Keep),
        Decision::Delete => (
            vec![delete()?],
            cost::whole(schema, stored),
            Decision::Delete,
        ),
        Decision::Rewrite { set, remove } => {
            let after = cost::rewritten(stored, &set, &remove);
            let units = cost::overwrite(schema, stored, &after);
            (vec![put(after)?], units, Decision::Rewrite { set, remove })
        }
        Decision::Replace { item } => {
            let units = cost::overwrite(schema, stored, &item);
            let counted = Decision::Replace { item: Item::new() };
            (vec![put(item)?], units, counted)
        }
        Decision::Move { item } => {
            let units = cost::whole(schema, &item) + cost::whole(schema, stored);
            let counted = Decision::Move {
                item: primary_key(schema, &item),
            };
            (vec![put(item)?, delete()?], units, counted)
        }
    })
}

fn build_error(err: impl std::fmt::Display) -> Error {
    Error::RequestBuild {
        operation: "BatchWriteItem",
        message: err.to_string(),
    }
}
