//! Sending queries: pages, every item, streams and counts.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::Select;
use futures_util::stream::{self, Stream, StreamExt, TryStreamExt};

use super::cursor::{self, Binding};
use super::page_fill::{Offered, PageFill};
use super::sort_condition::SortCondition;
use super::{Decode, Page, Query, UnknownEntity};
use crate::codec::{AttributeValue, Item};
use crate::expr::Placeholders;
use crate::key::Segment;
use crate::span::send_in;
use crate::span::{Call, Read};
use crate::table::Table;
use crate::{Error, Handle, Result};

/// Everything about a query's requests that does not change from page to page.
#[derive(Clone)]
pub(super) struct Prepared {
    entity: &'static str,
    /// The entity types the items decode from (an enum's several), for metrics.
    entity_types: &'static [&'static str],
    index: Option<&'static str>,
    pub(super) partition: String,
    key_condition: String,
    filter: Option<String>,
    projection: Option<String>,
    names: Option<HashMap<String, String>>,
    values: Option<HashMap<String, AttributeValue>>,
    /// The attributes that make up a cursor: the table's keys and the index's.
    key_attributes: Vec<&'static str>,
    descending: bool,
    consistent: bool,
    /// The placeholders of the partition key values in `values`, in key order.
    pk_placeholders: Vec<String>,
    /// What a cursor is bound to beyond table, index and partition: see
    /// [`cursor::query_digest`].
    pub(super) digest: String,
}

/// The digest of everything that decides a query's items and their order beyond the
/// partition: the sort condition, the caller's filter, the projection, the entity types
/// read, whether expired items are, and the direction. (Not the time-dependent expiry
/// filter's value, nor the page size.)
pub(super) fn digest(
    sort: Option<&SortCondition>,
    filter: Option<crate::expr::Rendered>,
    projection: &[&'static str],
    entity: (Option<&'static str>, &[&'static str]),
    include_expired: bool,
    descending: bool,
) -> String {
    let sorted = |pairs: Vec<String>| {
        let mut pairs = pairs;
        pairs.sort();
        pairs.join("\n")
    };
    let (expression, names, values) = match filter {
        Some(f) => (
            f.expression,
            sorted(f.names.iter().map(|(k, v)| format!("{k}={v}")).collect()),
            sorted(f.values.iter().map(|(k, v)| format!("{k}={v:?}")).collect()),
        ),
        None => Default::default(),
    };
    cursor::query_digest(&[
        &format!("{sort:?}"),
        &expression,
        &names,
        &values,
        &projection.join(","),
        &format!("{entity:?}"),
        if include_expired {
            "expired too"
        } else {
            "unexpired"
        },
        if descending {
            "descending"
        } else {
            "ascending"
        },
    ])
}

/// The sort condition a single-entity query uses when none is given: the template's leading
/// literal, so `READ#{at}` reads only readings.
fn leading_literal(template: &[Segment]) -> Option<SortCondition> {
    match template.first() {
        Some(Segment::Literal(text)) if !text.is_empty() => Some(SortCondition::BeginsWith(
            AttributeValue::S((*text).to_owned()),
        )),
        _ => None,
    }
}

/// A partition key value as text, for binding cursors: a string as itself, a number or a
/// binary (attribute keys) tagged with its type.
pub(super) fn binding_text(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) => text.clone(),
        AttributeValue::N(number) => format!("N:{number}"),
        other => format!("{other:?}"),
    }
}

impl<T: Decode, S> Query<T, S> {
    pub(super) fn prepare(&self) -> Result<Prepared> {
        self.validate()?;
        self.prepare_for(self.partition.clone()?)
    }

    /// The requests of this query on the partition with key values `partition_values`
    /// (validated already).
    pub(super) fn prepare_for(&self, partition_values: Vec<AttributeValue>) -> Result<Prepared> {
        let schema = <T::Table as Table>::SCHEMA;
        let index = self.index();
        let pk_attributes: Vec<&'static str> = match index {
            Some(index) => index.pk_attributes().map(|(name, _)| name).collect(),
            None => vec![schema.pk],
        };
        if partition_values.len() != pk_attributes.len() {
            return Err(crate::Error::Unsupported {
                operation: "Query",
                reason: format!(
                    "the partition key has {} attributes ({}), but this partition gives {} values",
                    pk_attributes.len(),
                    pk_attributes.join(", "),
                    partition_values.len()
                ),
            });
        }
        let partition = partition_values
            .iter()
            .map(binding_text)
            .collect::<Vec<_>>()
            .join("\n");
        let mut p = Placeholders::default();
        let mut pk_placeholders = Vec::with_capacity(pk_attributes.len());
        let mut key_condition = pk_attributes
            .iter()
            .zip(partition_values)
            .map(|(attribute, value)| {
                let placeholder = p.value(value);
                let condition = format!("{} = {placeholder}", p.name(attribute));
                pk_placeholders.push(placeholder);
                condition
            })
            .collect::<Vec<_>>()
            .join(" AND ");
        let sort = match &self.sort {
            Some(sort) => Some(sort.clone()?),
            None if T::SINGLE_ENTITY.is_some() => leading_literal(self.sort_template),
            None => None,
        };
        let filter_rendered = self
            .filter
            .as_ref()
            .map(|f| f.render())
            .transpose()
            .map_err(Error::in_filter)?;
        let digest = digest(
            sort.as_ref(),
            filter_rendered,
            &self.projection,
            (T::SINGLE_ENTITY, T::ALIASES),
            self.include_expired,
            self.reads_descending(),
        );
        let sk_attributes = self.sort_attributes();
        if let Some(sort) = sort.filter(|_| !sk_attributes.is_empty()) {
            // Only the attributes the condition compares: DynamoDB refuses unused names.
            let used = sort.attributes_used();
            let sk: Vec<String> = sk_attributes.iter().take(used).map(|a| p.name(a)).collect();
            let condition = sort.expression(&sk, |v| p.value(v.clone()));
            if !condition.is_empty() {
                key_condition = format!("{key_condition} AND {condition}");
            }
        }

        let filter =
            super::filter::read_filter::<T>(self.filter.as_ref(), self.include_expired, &mut p)?;

        let mut key_attributes = vec![schema.pk];
        key_attributes.extend(schema.sk);
        if let Some(index) = index {
            key_attributes.extend(index.pk_attributes().map(|(name, _)| name));
            key_attributes.extend(index.sk_attributes().map(|(name, _)| name));
        }
        // Through the encryption interceptor, whole items: it verifies every signed one.
        let projection = (!self.projection.is_empty() && !self.db.reads_whole_items()).then(|| {
            let always = key_attributes
                .iter()
                .copied()
                .chain([schema.entity_type, crate::table::SCHEMA_VERSION_ATTRIBUTE]);
            let mut names: Vec<String> = always
                .chain(self.projection.iter().copied())
                .map(|a| p.name(a))
                .collect();
            names.dedup();
            names.join(", ")
        });
        let (names, values) = p.into_parts();
        Ok(Prepared {
            digest,
            pk_placeholders,
            entity: self.entity,
            entity_types: T::ENTITY_TYPES,
            index: self.index_name,
            partition,
            key_condition,
            filter,
            projection,
            names,
            values,
            key_attributes,
            descending: self.reads_descending(),
            consistent: self.consistent,
        })
    }

    /// One page: up to [`limit`](Query::limit) items (without a limit, the matches of the
    /// first DynamoDB response that has any, up to 1 MB read), and a cursor for
    /// [`after`](Query::after) exactly when more matching items follow. A page that ends the
    /// results has no cursor: once a page is full, the query reads on until it finds one more
    /// match (not returned; the next page starts with it) or the end, also when a filter
    /// drops the items in between.
    ///
    /// # Errors
    ///
    /// Fails before sending when a key part does not render ([`Error::Key`]) or
    /// the query, its filter or its [`after`](Query::after) cursor is not valid
    /// ([`ErrorKind::InvalidRequest`](crate::ErrorKind::InvalidRequest)): among them a filter
    /// naming a key attribute the query reads
    /// ([`Error::InvalidExpression`]) and `limit` combined with
    /// `first` or `last` ([`Error::Unsupported`]); with
    /// [`Error::Service`] when DynamoDB refuses the request or cannot be
    /// reached; and with a decode error ([`ErrorKind::Decode`](crate::ErrorKind::Decode)) when an
    /// item does not decode.
    pub async fn send(self) -> Result<Page<T>> {
        if let Some(groups) = self.groups.clone() {
            return self.send_merged(groups).await;
        }
        let prepared = self.prepare()?;
        let mut fill = PageFill::new(self.page_limit());
        let db = self.db;
        let mut start = prepared.start_key(&db, self.after.as_ref())?;
        loop {
            let (page, next) = prepared
                .fetch(&db, start.take(), fill.request_limit(), false)
                .await?;
            for raw in page {
                let position = fill.wants_position().then(|| prepared.keys_of(&raw));
                let Some(item) = T::decode(raw, self.unknown)? else {
                    fill.skip();
                    continue;
                };
                if let Offered::Beyond = fill.offer(item, position) {
                    return Ok(fill.into_page(true, |keys| prepared.cursor(&db, &keys)));
                }
            }
            fill.end_response();
            match next {
                Some(next) => start = Some(next),
                None => return Ok(fill.into_page(false, |keys| prepared.cursor(&db, &keys))),
            }
        }
    }

    /// Every item (up to [`limit`](Query::limit)), reading page after page.
    ///
    /// # Errors
    ///
    /// As [`send`](Query::send), for any page.
    pub async fn all(self) -> Result<Vec<T>> {
        if let Some(groups) = self.groups.clone() {
            return self.all_merged(groups).await;
        }
        // Page by page rather than through `stream`: a whole page is decoded in one loop.
        let prepared = self.prepare()?;
        let limit = self.page_limit();
        let db = self.db;
        let mut start = prepared.start_key(&db, self.after.as_ref())?;
        let mut items = Vec::new();
        loop {
            let remaining = limit.map(|n| n - items.len());
            let (page, next) = prepared.fetch(&db, start.take(), remaining, false).await?;
            items.reserve(remaining.map_or(page.len(), |n| n.min(page.len())));
            for raw in page {
                if Some(items.len()) == limit {
                    return Ok(items);
                }
                // No cursor to make here, so the key attributes stay (decoding ignores them).
                items.extend(T::decode(raw, self.unknown)?);
            }
            match next {
                Some(next) if Some(items.len()) != limit => start = Some(next),
                _ => return Ok(items),
            }
        }
    }

    /// Every item (up to [`limit`](Query::limit)) as a stream that reads the next page
    /// when the current one is used up, so only one page is in memory at a time.
    pub fn stream<'s>(self) -> impl Stream<Item = Result<T>> + 's
    where
        Self: 's,
        T: 's,
    {
        if let Some(groups) = self.groups.clone() {
            return self.stream_merged(groups).left_stream();
        }
        let db = self.db.clone();
        let ready = self.prepare().and_then(|prepared| {
            let start = prepared.start_key(&db, self.after.as_ref())?;
            Ok((prepared, start))
        });
        match ready {
            Err(err) => stream::once(async move { Err(err) }).left_stream(),
            Ok((prepared, start)) => {
                let state = StreamState {
                    db,
                    prepared,
                    start,
                    buffer: Vec::new().into_iter(),
                    more: true,
                    remaining: self.page_limit(),
                    unknown: self.unknown,
                };
                stream::try_unfold(state, StreamState::next)
                    .try_filter_map(|item| async move { Ok(item) })
                    .right_stream()
            }
        }
        .right_stream()
    }

    /// How many items match, counted by DynamoDB across every page (filters apply; no
    /// items are transferred).
    ///
    /// A count covers every matching item, so it refuses a query with a
    /// [`limit`](Query::limit), [`first`](Query::first) or [`last`](Query::last) (before
    /// sending) rather than count something other than what those return.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Unsupported`] when the query has a
    /// limit; otherwise as [`send`](Query::send), apart from decoding (no items are read).
    pub async fn count(self) -> Result<usize> {
        if let Some(n) = self.page_limit() {
            return Err(crate::Error::Unsupported {
                operation: "Query",
                reason: format!(
                    "count() counts every matching item, but this query stops at {n}: drop limit/first/last, or count the items a page returns"
                ),
            });
        }
        if let Some(groups) = self.groups.clone() {
            return self.count_merged(groups).await;
        }
        let prepared = self.prepare()?;
        prepared
            .count_from(&self.db, prepared.start_key(&self.db, self.after.as_ref())?)
            .await
    }
}

struct StreamState {
    db: Handle,
    prepared: Prepared,
    start: Option<Item>,
    buffer: std::vec::IntoIter<Item>,
    more: bool,
    remaining: Option<usize>,
    unknown: UnknownEntity,
}

impl StreamState {
    /// The next decoded item (`None` for a skipped one), or the end.
    async fn next<T: Decode>(mut self) -> Result<Option<(Option<T>, Self)>> {
        loop {
            if self.remaining == Some(0) {
                return Ok(None);
            }
            if let Some(raw) = self.buffer.next() {
                // No cursor to make here, so the key attributes stay (decoding ignores them).
                let item = T::decode(raw, self.unknown)?;
                if item.is_some() {
                    self.remaining = self.remaining.map(|n| n - 1);
                }
                return Ok(Some((item, self)));
            }
            if !self.more {
                return Ok(None);
            }
            let (page, next) = self
                .prepared
                .fetch(&self.db, self.start.take(), self.remaining, false)
                .await?;
            self.more = next.is_some();
            self.start = next;
            self.buffer = page.into_iter();
        }
    }
}

impl Prepared {
    /// The same requests on another partition of the same table or index, whose key values
    /// are `partition` (as many as this one's: see [`Prepared::partition_width`]).
    pub(super) fn for_partition(&self, partition: &[AttributeValue]) -> Prepared {
        let mut other = self.clone();
        if let Some(values) = &mut other.values {
            for (placeholder, value) in self.pk_placeholders.iter().zip(partition) {
                values.insert(placeholder.clone(), value.clone());
            }
        }
        other.partition = partition
            .iter()
            .map(binding_text)
            .collect::<Vec<_>>()
            .join("\n");
        other
    }

    /// How many values a partition key of this query has.
    pub(super) fn partition_width(&self) -> usize {
        self.pk_placeholders.len()
    }

    /// How many items match from `start` on, counted by DynamoDB page by page.
    pub(super) async fn count_from(&self, db: &Handle, mut start: Option<Item>) -> Result<usize> {
        let mut total = 0;
        loop {
            let call = self.call(db);
            let request = self.request(db, start.take(), None, true);
            call.read(Read::query(request.as_input()));
            let result = send_in!(call, request);
            if let Ok(output) = &result {
                call.counted(output.count(), output.scanned_count());
            }
            let output = call
                .end(result, |o| o.consumed_capacity())
                .map_err(|e| crate::Error::service("Query", e))?;
            total += usize::try_from(output.count()).unwrap_or(0);
            match output.last_evaluated_key {
                Some(next) => start = Some(next),
                None => return Ok(total),
            }
        }
    }

    fn binding<'a>(&'a self, db: &'a Handle) -> Binding<'a> {
        Binding {
            table: db.table_name(),
            index: self.index.unwrap_or(""),
            partition: &self.partition,
            query: &self.digest,
        }
    }

    pub(super) fn start_key(
        &self,
        db: &Handle,
        after: Option<&cursor::Cursor>,
    ) -> Result<Option<Item>> {
        let Some(after) = after else { return Ok(None) };
        cursor::decode(after, &self.binding(db), db.cursor_key()).map(Some)
    }

    fn cursor(&self, db: &Handle, keys: &[(&'static str, AttributeValue)]) -> cursor::Cursor {
        cursor::encode(&self.binding(db), keys, db.cursor_key())
    }

    /// The key attributes of an item or a `LastEvaluatedKey`, with their types.
    pub(super) fn keys_of(&self, key: &Item) -> Vec<(&'static str, AttributeValue)> {
        self.key_attributes
            .iter()
            .filter_map(|name| Some((*name, key.get(*name)?.clone())))
            .collect()
    }

    pub(super) fn request(
        &self,
        db: &Handle,
        start: Option<Item>,
        limit: Option<usize>,
        count: bool,
    ) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
        db.client()
            .query()
            .table_name(db.table_name())
            .set_index_name(self.index.map(str::to_owned))
            .key_condition_expression(&self.key_condition)
            .set_filter_expression(self.filter.clone())
            .set_projection_expression(if count { None } else { self.projection.clone() })
            .set_expression_attribute_names(self.names.clone())
            .set_expression_attribute_values(self.values.clone())
            .scan_index_forward(!self.descending)
            .consistent_read(self.consistent)
            .set_exclusive_start_key(start)
            .set_limit(limit.map(|n| i32::try_from(n).unwrap_or(i32::MAX)))
            .set_select(count.then_some(Select::Count))
    }

    /// One Query call of this query, observed.
    fn call(&self, db: &Handle) -> Call {
        let types = self.entity_types.iter().copied();
        Call::several(db, "Query", self.entity, types, self.index)
    }

    /// One DynamoDB request: its items and its `LastEvaluatedKey`.
    pub(super) async fn fetch(
        &self,
        db: &Handle,
        start: Option<Item>,
        limit: Option<usize>,
        count: bool,
    ) -> Result<(Vec<Item>, Option<Item>)> {
        let call = self.call(db);
        let request = self.request(db, start, limit, count);
        call.read(Read::query(request.as_input()));
        let result = send_in!(call, request);
        if let Ok(output) = &result {
            call.counted(output.count(), output.scanned_count());
        }
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| crate::Error::service("Query", e))?;
        Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
    }
}

/// `query.await` is [`query.send()`](Query::send): one page.
impl<T: Decode + Send + 'static, S: 'static> std::future::IntoFuture for Query<T, S> {
    type Output = Result<Page<T>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Self::Output> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
