//! Several physical partitions read as one query ([`PartitionKey::across`], sharded
//! partitions): logical partitions one after the other, the shards of each merged in sort
//! order, one cursor for the whole read.
//!
//! [`PartitionKey::across`]: crate::key::PartitionKey::across

mod cursor;
mod merger;
mod order;

use futures_util::stream::{self, Stream, StreamExt, TryStreamExt};

use super::cursor::{Binding, Cursor};
use super::page_fill::{Offered, PageFill};
use super::{Decode, Page, Query};
use crate::key::{Groups, KeyError};
use crate::{Error, Result};
use cursor::Position;
use merger::{Merger, Step};

/// Requests a merged read sends at once, unless [`Query::fan_out`] says otherwise: every
/// shard of a partition of up to 32, as hand-written code sends them (a lower bound cost
/// 0.72x of its speed at 16 shards, docs/performance/sharded.md).
pub(super) const DEFAULT_FAN_OUT: usize = 32;

/// The physical partitions of `groups` as one text, for binding cursors.
fn binding_partition(groups: &Groups) -> String {
    let mut text = String::from("merged");
    for group in groups.iter() {
        text.push_str("\n\n");
        for (i, values) in group.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            let shard: Vec<String> = values.iter().map(super::exec::binding_text).collect();
            let shard = shard.join("\t");
            text.push_str(&format!("{}:{shard}", shard.len()));
        }
    }
    text
}

impl<T: Decode, S> Query<T, S> {
    /// At most `n` DynamoDB requests at once when the query reads several partitions
    /// ([`PartitionKey::across`](crate::key::PartitionKey::across), sharded partitions):
    /// the shards whose next items are needed are read together, `n` at a time. The
    /// default is 32, so a partition of up to 32 shards is read all at once; a lower `n` spares
    /// a throttled table. A query of one partition sends one request at a time whatever `n`.
    /// `fan_out(0)` fails when sent, with
    /// [`Error::InvalidSetting`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// # #[derive(Entity, Debug)]
    /// # #[dynamap(table = App, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
    /// #           index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}#{id}"))]
    /// # struct Deal { id: String, day: String, shard: u8, created_at: i64 }
    /// use dynamap::key::PartitionKey;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let today = PartitionKey::across((0..16u8).map(|s| Deal::gsi1("2026-11-26", s))).merged();
    /// let page = db.query(today).descending().limit(25).fan_out(4).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn fan_out(mut self, n: usize) -> Self {
        self.fan_out = n;
        self
    }

    /// The merge this query starts with, checked, resuming at its cursor.
    fn merger(&self, groups: Result<Groups, KeyError>) -> Result<(Merger, String)> {
        self.validate()?;
        let groups = groups?;
        let first = groups
            .first()
            .and_then(|group| group.first())
            .ok_or_else(|| Error::Unsupported {
                operation: "Query",
                reason: "no partition was given to read".to_owned(),
            })?;
        let template = self.prepare_for(first.clone())?;
        let width = template.partition_width();
        if groups
            .iter()
            .any(|group| group.is_empty() || group.iter().any(|p| p.len() != width))
        {
            return Err(Error::Unsupported {
                operation: "Query",
                reason: format!(
                    "every partition read as one must give {width} partition key values, and every logical partition at least one shard"
                ),
            });
        }
        let descending = self.reads_descending();
        let partition = binding_partition(&groups);
        let position = match &self.after {
            None => None,
            Some(after) => {
                let counts = Merger::shard_counts(&groups, descending);
                Some(cursor::decode(
                    after,
                    &self.merged_binding(&partition, &template.digest),
                    self.db.cursor_key(),
                    |group| counts.get(group).copied(),
                )?)
            }
        };
        let merger = Merger::new(
            self.db.clone(),
            template,
            &groups,
            self.sort_attributes(),
            descending,
            self.fan_out,
            position,
        );
        Ok((merger, partition))
    }

    fn merged_binding<'a>(&'a self, partition: &'a str, digest: &'a str) -> Binding<'a> {
        Binding {
            table: self.db.table_name(),
            index: self.index_name.unwrap_or(""),
            partition,
            query: digest,
        }
    }

    fn merged_cursor(&self, partition: &str, digest: &str, position: &Position) -> Cursor {
        cursor::encode(
            &self.merged_binding(partition, digest),
            position,
            self.db.cursor_key(),
        )
    }

    /// [`send`](Query::send) of a merged read.
    pub(super) async fn send_merged(self, groups: Result<Groups, KeyError>) -> Result<Page<T>> {
        let (mut merger, partition) = self.merger(groups)?;
        let digest = merger.digest().to_owned();
        let mut fill = PageFill::new(self.page_limit());
        let more = loop {
            match merger.step() {
                Step::Item(raw) => {
                    let position = fill.wants_position().then(|| merger.position());
                    let Some(item) = T::decode(raw, self.unknown)? else {
                        fill.skip();
                        continue;
                    };
                    if let Offered::Beyond = fill.offer(item, position) {
                        break true;
                    }
                }
                Step::Fetch => {
                    // A full page only needs to know that a match follows: one waiting in a
                    // buffer is one, unless decoding might skip it (an enum's unknown types,
                    // an item of another model version).
                    if fill.is_full()
                        && T::SINGLE_ENTITY.is_some()
                        && !self.unknown.skips_mismatched()
                        && merger.any_buffered()
                    {
                        break true;
                    }
                    fill.end_response();
                    merger.fetch(merger.shard_limit(&fill)).await?;
                }
                Step::End => break false,
            }
        };
        Ok(fill.into_page(more, |position| {
            self.merged_cursor(&partition, &digest, &position)
        }))
    }

    /// [`preview`](Query::preview) of a merged read: the first requests
    /// [`send`](Query::send) makes, one per shard of the first partition it reads.
    pub(super) fn preview_merged(
        &self,
        groups: Result<Groups, KeyError>,
    ) -> Result<crate::preview::Preview> {
        use crate::preview::{Preview, Request, input_of};
        let (mut merger, _) = self.merger(groups)?;
        if !matches!(merger.step(), Step::Fetch) {
            return Ok(Preview::new(Vec::new()));
        }
        let fill = PageFill::<T, Position>::new(self.page_limit());
        merger
            .fetch_requests(merger.shard_limit(&fill))
            .into_iter()
            .map(|request| Ok(Request::Query(input_of!(request, "Query")?)))
            .collect::<Result<_>>()
            .map(Preview::new)
    }

    /// [`all`](Query::all) of a merged read.
    pub(super) async fn all_merged(self, groups: Result<Groups, KeyError>) -> Result<Vec<T>> {
        let (mut merger, _) = self.merger(groups)?;
        let limit = self.page_limit();
        let mut items = Vec::new();
        loop {
            if Some(items.len()) == limit {
                return Ok(items);
            }
            match merger.step() {
                Step::Item(raw) => items.extend(T::decode(raw, self.unknown)?),
                Step::Fetch => merger.fetch(limit.map(|n| n - items.len())).await?,
                Step::End => return Ok(items),
            }
        }
    }

    /// [`stream`](Query::stream) of a merged read: at most about one page per shard in
    /// memory.
    pub(super) fn stream_merged<'s>(
        self,
        groups: Result<Groups, KeyError>,
    ) -> impl Stream<Item = Result<T>> + 's
    where
        T: 's,
    {
        let unknown = self.unknown;
        match self.merger(groups) {
            Err(err) => stream::once(async move { Err(err) }).left_stream(),
            Ok((merger, _)) => {
                let state = (merger, self.page_limit());
                stream::try_unfold(state, move |(mut merger, mut remaining)| async move {
                    loop {
                        if remaining == Some(0) {
                            return Ok(None);
                        }
                        match merger.step() {
                            Step::Item(raw) => {
                                if let Some(item) = T::decode(raw, unknown)? {
                                    remaining = remaining.map(|n| n - 1);
                                    return Ok(Some((item, (merger, remaining))));
                                }
                            }
                            Step::Fetch => merger.fetch(remaining).await?,
                            Step::End => return Ok(None),
                        }
                    }
                })
                .into_stream()
                .right_stream()
            }
        }
    }

    /// [`count`](Query::count) of a merged read: the sum over every physical partition.
    pub(super) async fn count_merged(self, groups: Result<Groups, KeyError>) -> Result<usize> {
        let (merger, _) = self.merger(groups)?;
        merger.count().await
    }
}
