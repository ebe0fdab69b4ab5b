//! Reading rows back: the events at one timestamp, and a time range as a stream.
//!
//! Both are one `Query` on the partition with `BETWEEN` on the sort key. The upper bound of
//! a timestamp is the sort key of its last possible overflow row (`<sk>#9999`), not the
//! timestamp's own sort key, which would leave its overflow rows out.

use std::collections::VecDeque;

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::stream::{self, Stream};

use super::layout::{MAX_ROWS, ROW, decode_row, row_sk};
use crate::codec::Item;
use crate::span::Call;
use crate::span::send_in;
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// One partition's rows with sort keys in `low..=high`, of one entity.
pub(crate) struct RowQuery {
    pub(crate) pk: String,
    pub(crate) low: String,
    pub(crate) high: String,
    pub(crate) consistent: bool,
}

/// The sort key at or below which every row of the timestamp with sort key `sk` lies.
pub(crate) fn last_row_sk(sk: &str) -> String {
    row_sk(sk, MAX_ROWS - 1)
}

impl RowQuery {
    /// One page of rows, and where the next page starts.
    async fn fetch<E: Entity>(
        &self,
        db: &Handle,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>)> {
        let schema = <E::Table as Table>::SCHEMA;
        let Some(sk) = schema.sk else {
            return Err(Error::Unsupported {
                operation: "EventRows",
                reason: "event rows need a table with a sort key".to_owned(),
            });
        };
        let call = Call::new(db, "Query", E::ENTITY_TYPE, None);
        let request = db
            .client()
            .query()
            .table_name(db.table_name())
            .key_condition_expression("#pk = :pk AND #sk BETWEEN :low AND :high")
            .filter_expression("#type = :type")
            .expression_attribute_names("#pk", schema.pk)
            .expression_attribute_names("#sk", sk)
            .expression_attribute_names("#type", schema.entity_type)
            .expression_attribute_values(":pk", AttributeValue::S(self.pk.clone()))
            .expression_attribute_values(":low", AttributeValue::S(self.low.clone()))
            .expression_attribute_values(":high", AttributeValue::S(self.high.clone()))
            .expression_attribute_values(":type", AttributeValue::S(E::ENTITY_TYPE.to_owned()))
            .consistent_read(self.consistent)
            .set_exclusive_start_key(start);
        let result = send_in!(call, request);
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| Error::service("Query", e))?;
        Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
    }

    /// Every row, all pages.
    pub(crate) async fn all<E: Entity>(&self, db: &Handle) -> Result<Vec<Item>> {
        let mut rows = Vec::new();
        let mut start = None;
        loop {
            let (page, next) = self.fetch::<E>(db, start).await?;
            rows.extend(page);
            match next {
                Some(next) => start = Some(next),
                None => return Ok(rows),
            }
        }
    }

    /// The events of every row, in sort key order, reading a page when the last one is
    /// used up.
    pub(crate) fn stream<E: Entity>(self, db: Handle) -> impl Stream<Item = Result<E>> {
        let state = StreamState {
            query: self,
            db,
            start: None,
            more: true,
            buffer: VecDeque::new(),
        };
        stream::try_unfold(state, StreamState::next)
    }
}

struct StreamState<E> {
    query: RowQuery,
    db: Handle,
    start: Option<Item>,
    more: bool,
    buffer: VecDeque<E>,
}

impl<E: Entity> StreamState<E> {
    async fn next(mut self) -> Result<Option<(E, Self)>> {
        loop {
            if let Some(event) = self.buffer.pop_front() {
                return Ok(Some((event, self)));
            }
            if !self.more {
                return Ok(None);
            }
            let (page, next) = self.query.fetch::<E>(&self.db, self.start.take()).await?;
            self.more = next.is_some();
            self.start = next;
            for row in page {
                self.buffer.extend(decode_row::<E>(row)?);
            }
        }
    }
}

/// True when `row` is one of the rows of the timestamp whose first row has sort key `sk`
/// (and not the row of another timestamp that sorts among them).
pub(crate) fn is_row_of<E: Entity>(row: &Item, sk: &str) -> bool {
    let Some(sk_attribute) = <E::Table as Table>::SCHEMA.sk else {
        return false;
    };
    let index = match row.get(ROW) {
        Some(AttributeValue::N(n)) => n.parse::<u32>().ok(),
        Some(_) => None,
        None => Some(0),
    };
    match (row.get(sk_attribute), index) {
        (Some(AttributeValue::S(stored)), Some(index)) => *stored == row_sk(sk, index),
        _ => false,
    }
}
