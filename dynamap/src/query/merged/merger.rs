//! The merge itself: one lazily refilled buffer per shard of the logical partition being
//! read, the next item the least (or, descending, the greatest) head, ties to the shard
//! given first (descending, last), refills sent together, `fan_out` at a time.

use std::collections::VecDeque;

use futures_util::stream::{self, StreamExt};

use super::cursor::{Pos, Position};
use super::order::compare_items;
use crate::codec::{AttributeValue, Item};
use crate::key::Groups;
use crate::query::exec::Prepared;
use crate::query::page_fill::PageFill;
use crate::{Handle, Result};

/// Where a shard's next request starts.
enum Next {
    /// At the start of the partition.
    Start,
    /// After this key (a cursor's, or a `LastEvaluatedKey`).
    From(Item),
    /// Nowhere: the shard is used up.
    Done,
}

struct Shard {
    prepared: Prepared,
    /// Matches fetched and not yet consumed, in DynamoDB's order.
    buffer: VecDeque<Item>,
    next: Next,
    /// Where a cursor made now resumes this shard.
    pos: Pos,
}

impl Shard {
    fn resume(prepared: Prepared, pos: Pos) -> Self {
        let next = match &pos {
            Pos::NotStarted => Next::Start,
            Pos::After(key) => Next::From(key.clone()),
            Pos::Exhausted => Next::Done,
        };
        Self {
            prepared,
            buffer: VecDeque::new(),
            next,
            pos,
        }
    }

    fn needs_fetch(&self) -> bool {
        self.buffer.is_empty() && !matches!(self.next, Next::Done)
    }

    fn start_key(&self) -> Option<Item> {
        match &self.next {
            Next::From(key) => Some(key.clone()),
            Next::Start | Next::Done => None,
        }
    }

    /// With the buffer empty, the shard stands where its next request starts.
    fn pos_of_next(&self) -> Pos {
        match &self.next {
            Next::Start => Pos::NotStarted,
            Next::From(key) => Pos::After(key.clone()),
            Next::Done => Pos::Exhausted,
        }
    }

    fn filled(&mut self, items: Vec<Item>, last_evaluated: Option<Item>) {
        self.buffer = items.into();
        self.next = last_evaluated.map_or(Next::Done, Next::From);
        if self.buffer.is_empty() {
            self.pos = self.pos_of_next();
        }
    }

    fn pop(&mut self) -> Option<Item> {
        let raw = self.buffer.pop_front()?;
        self.pos = if self.buffer.is_empty() {
            self.pos_of_next()
        } else {
            let keys = self.prepared.keys_of(&raw);
            Pos::After(keys.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
        };
        Some(raw)
    }
}

/// What the merge can do next.
pub(super) enum Step {
    /// The next item in merged order.
    Item(Item),
    /// Some shard's head is unknown: [`Merger::fetch`] before going on.
    Fetch,
    /// Every partition is used up.
    End,
}

pub(super) struct Merger {
    db: Handle,
    /// The requests of the first physical partition; the others swap in their key values.
    template: Prepared,
    /// Logical partitions in reading order (reversed for a descending read).
    groups: Vec<Vec<Vec<AttributeValue>>>,
    sort_attributes: Vec<&'static str>,
    descending: bool,
    fan_out: usize,
    group: usize,
    shards: Vec<Shard>,
}

impl Merger {
    /// A merge of `groups` (in ascending order) resuming at `position`.
    #[allow(clippy::too_many_arguments)] // one constructor, called from one place
    pub(super) fn new(
        db: Handle,
        template: Prepared,
        groups: &Groups,
        sort_attributes: Vec<&'static str>,
        descending: bool,
        fan_out: usize,
        position: Option<Position>,
    ) -> Self {
        let mut groups: Vec<_> = groups.to_vec();
        if descending {
            groups.reverse();
        }
        let mut merger = Self {
            db,
            template,
            groups,
            sort_attributes,
            descending,
            fan_out,
            group: 0,
            shards: Vec::new(),
        };
        let position = position.unwrap_or_else(|| Position {
            group: 0,
            shards: merger.not_started(0),
        });
        merger.enter(position);
        merger
    }

    /// The logical partitions in reading order, for checking a cursor's shape.
    pub(super) fn shard_counts(groups: &Groups, descending: bool) -> Vec<usize> {
        let mut counts: Vec<usize> = groups.iter().map(Vec::len).collect();
        if descending {
            counts.reverse();
        }
        counts
    }

    fn not_started(&self, group: usize) -> Vec<Pos> {
        let n = self.groups.get(group).map_or(0, Vec::len);
        vec![Pos::NotStarted; n]
    }

    fn enter(&mut self, position: Position) {
        self.group = position.group;
        let partitions = self.groups.get(position.group).cloned().unwrap_or_default();
        self.shards = partitions
            .iter()
            .zip(position.shards)
            .map(|(values, pos)| Shard::resume(self.template.for_partition(values), pos))
            .collect();
    }

    /// True when some shard holds a fetched match not consumed yet.
    pub(super) fn any_buffered(&self) -> bool {
        self.shards.iter().any(|shard| !shard.buffer.is_empty())
    }

    /// The digest of the query, which its cursors are bound to.
    pub(super) fn digest(&self) -> &str {
        &self.template.digest
    }

    /// Where a cursor made now resumes.
    pub(super) fn position(&self) -> Position {
        Position {
            group: self.group,
            shards: self.shards.iter().map(|s| s.pos.clone()).collect(),
        }
    }

    /// The next item, or what must happen first.
    pub(super) fn step(&mut self) -> Step {
        loop {
            if self.shards.iter().any(Shard::needs_fetch) {
                return Step::Fetch;
            }
            let mut best: Option<(usize, &Item)> = None;
            for (i, shard) in self.shards.iter().enumerate() {
                let Some(head) = shard.buffer.front() else {
                    continue;
                };
                let better = match best {
                    None => true,
                    Some((_, current)) => {
                        let order = compare_items(head, current, &self.sort_attributes);
                        // Ties go to the earlier shard ascending, the later one descending,
                        // so descending is the ascending order reversed.
                        if self.descending {
                            order.is_ge()
                        } else {
                            order.is_lt()
                        }
                    }
                };
                if better {
                    best = Some((i, head));
                }
            }
            if let Some(raw) = best.map(|(i, _)| i).and_then(|i| self.shards[i].pop()) {
                return Step::Item(raw);
            }
            if self.group + 1 >= self.groups.len() {
                return Step::End;
            }
            let next = self.group + 1;
            let shards = self.not_started(next);
            self.enter(Position {
                group: next,
                shards,
            });
        }
    }

    /// The `Limit` of each shard's next request while `fill` fills. A page read from one
    /// partition asks for one item more than it still wants, to learn in the same response
    /// whether more follow; over several shards that item is left out, since what the
    /// other shards return beyond the page tells the same (only when every buffer runs
    /// out exactly at the page's end is one look-ahead round sent), and it would be read
    /// in every shard.
    pub(super) fn shard_limit<T, P>(&self, fill: &PageFill<T, P>) -> Option<usize> {
        let limit = fill.request_limit();
        if self.shards.len() > 1 && !fill.is_full() {
            limit.map(|n| n.saturating_sub(1).max(1))
        } else {
            limit
        }
    }

    /// Fetches every shard whose head is unknown, `fan_out` requests at a time, each for
    /// `limit` items (read before the filter). Any failure fails the read.
    pub(super) async fn fetch(&mut self, limit: Option<usize>) -> Result<()> {
        let db = &self.db;
        let requests = self
            .shards
            .iter()
            .enumerate()
            .filter(|(_, shard)| shard.needs_fetch())
            .map(|(i, shard)| {
                let start = shard.start_key();
                async move { (i, shard.prepared.fetch(db, start, limit, false).await) }
            })
            // Collected first: a lazy adapter chain here makes the future not `Send`
            // (rust-lang/rust#102211).
            .collect::<Vec<_>>();
        let answers: Vec<_> = stream::iter(requests)
            .buffer_unordered(self.fan_out)
            .collect()
            .await;
        for (i, answer) in answers {
            let (items, last_evaluated) = answer?;
            if let Some(shard) = self.shards.get_mut(i) {
                shard.filled(items, last_evaluated);
            }
        }
        Ok(())
    }

    /// The requests the next [`fetch`](Self::fetch) sends, not sent: one per shard whose
    /// head is unknown. At the start (every buffer empty) [`step`](Self::step) has already
    /// moved on to the first logical partition with a shard left.
    pub(super) fn fetch_requests(
        &self,
        limit: Option<usize>,
    ) -> Vec<aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder> {
        self.shards
            .iter()
            .filter(|shard| shard.needs_fetch())
            .map(|shard| {
                shard
                    .prepared
                    .request(&self.db, shard.start_key(), limit, false)
            })
            .collect()
    }

    /// How many items match from here on, counted by DynamoDB in every shard left.
    pub(super) async fn count(mut self) -> Result<usize> {
        let mut total = 0;
        loop {
            let db = &self.db;
            let counts = self
                .shards
                .iter()
                .filter(|shard| !matches!(shard.next, Next::Done))
                .map(|shard| shard.prepared.count_from(db, shard.start_key()))
                .collect::<Vec<_>>();
            let counts: Vec<Result<usize>> = stream::iter(counts)
                .buffer_unordered(self.fan_out)
                .collect()
                .await;
            for count in counts {
                total += count?;
            }
            if self.group + 1 >= self.groups.len() {
                return Ok(total);
            }
            let next = self.group + 1;
            let shards = self.not_started(next);
            self.enter(Position {
                group: next,
                shards,
            });
        }
    }
}
