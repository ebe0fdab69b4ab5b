//! UpdateItem: change some attributes of an existing item.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, TransactWriteItem, Update as SdkUpdate,
};
use serde::Serialize;
use tracing::Instrument;

use super::{call_span, key_item, record_capacity};
use crate::codec::{AttributeValue, Item};
use crate::expr::update::{Change, encode, render};
use crate::expr::{Attr, Condition, NameMap, Placeholders, ValueMap};
use crate::key::Key;
use crate::limits::item_size;
use crate::table::Table;
use crate::transact::Action;
use crate::{Db, Entity, Error, Result};

/// A pending UpdateItem, sent when awaited (or by [`returning_new`](Update::returning_new)),
/// or added to a transaction with [`Transaction::update`](crate::transact::Transaction::update).
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
/// # struct Sensor { id: String, kind: String, alarms: u32, note: Option<String>, tags: Vec<String> }
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// let sensor: Sensor = db
///     .update(Sensor::key("S1"))
///     .set(Sensor::KIND, "gas")
///     .increment(Sensor::ALARMS, 1u32)
///     .append(Sensor::TAGS, ["calibrated".to_owned()])
///     .remove(Sensor::NOTE)
///     .condition(Sensor::ALARMS.lt(10u32))
///     .returning_new()
///     .await?;
/// # Ok(()) }
/// ```
///
/// Updates change existing items only (a missing item fails the condition); create items
/// with [`Db::put`]. What an update may not touch is refused before sending:
/// - key fields (they decide which item it is), and fields of `lookup(...)` items (their
///   lookups must move with them: use `put`);
/// - a value for a field an index template uses (its index key must be rendered from the
///   whole item: use `put`). *Removing* such an optional field is fine: the item then leaves
///   the index, as a put with `None` would do;
/// - removing a field that is not an `Option` (the item could no longer be read).
///
/// For a versioned entity, every update increments the version;
/// [`expect_version`](Update::expect_version) makes it conditional on the version read.
#[must_use = "an update does nothing until it is sent"]
pub struct Update<'a, E> {
    db: &'a Db,
    key: Key<E>,
    changes: Vec<Change>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    error: Option<String>,
}

impl Db {
    /// An update of the existing item `key` names.
    pub fn update<E: Entity>(&self, key: Key<E>) -> Update<'_, E> {
        Update {
            db: self,
            key,
            changes: Vec::new(),
            condition: None,
            expected_version: None,
            error: None,
        }
    }
}

/// A prepared update: the parts of the request.
struct Prepared {
    key: Item,
    expression: String,
    condition: String,
    names: Option<NameMap>,
    values: Option<ValueMap>,
}

impl<'a, E: Entity> Update<'a, E> {
    fn change(mut self, change: std::result::Result<Change, String>) -> Self {
        match change {
            Ok(change) => self.changes.push(change),
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
        self
    }

    /// `SET attribute = value`.
    pub fn set<T: Serialize>(self, attr: Attr<E, T>, value: impl Into<T>) -> Self {
        let change = attr.set_change(&value.into());
        self.change(change)
    }

    /// `SET attribute = value` unless the attribute already has a value.
    pub fn set_if_not_exists<T: Serialize>(self, attr: Attr<E, T>, value: impl Into<T>) -> Self {
        let change = attr.default_change(&value.into());
        self.change(change)
    }

    /// `SET attribute = attribute + by` (a missing attribute counts as 0). Use a negative
    /// `by` on a signed field to decrement.
    pub fn increment<T: Serialize>(self, attr: Attr<E, T>, by: impl Into<T>) -> Self {
        let change = encode(attr.name(), &by.into()).map(|v| Change::Increment(attr.name(), v));
        self.change(change)
    }

    /// `SET list = list_append(list, items)` (a missing list counts as empty).
    pub fn append<T: Serialize>(
        self,
        attr: Attr<E, Vec<T>>,
        items: impl IntoIterator<Item = T>,
    ) -> Self {
        let items: Vec<T> = items.into_iter().collect();
        let change = encode(attr.name(), &items).map(|v| Change::Append(attr.name(), v));
        self.change(change)
    }

    /// `REMOVE attribute`, for `Option` fields.
    pub fn remove<T>(self, attr: Attr<E, T>) -> Self {
        self.change(Ok(Change::Remove(attr.name())))
    }

    /// `ADD attribute value`: adds to a number, or adds elements to a set.
    pub fn add<T: Serialize>(self, attr: Attr<E, T>, value: impl Into<T>) -> Self {
        let change = encode(attr.name(), &value.into()).map(|v| Change::Add(attr.name(), v));
        self.change(change)
    }

    /// `DELETE attribute elements`: removes elements from a set.
    pub fn delete_elements<T: Serialize>(self, attr: Attr<E, T>, elements: impl Into<T>) -> Self {
        let change = encode(attr.name(), &elements.into()).map(|v| Change::Delete(attr.name(), v));
        self.change(change)
    }

    /// Updates only if the stored item matches `condition`.
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// Updates only if the stored version is `version` (versioned entities).
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    fn refuse(reason: String) -> Error {
        Error::InvalidRequest { reason }
    }

    /// Checks the changes against the entity's keys, indexes and lookups, and renders them.
    fn prepare(self) -> Result<(&'a Db, Prepared)> {
        if let Some(reason) = self.error {
            return Err(Error::InvalidExpression { reason });
        }
        if self.changes.is_empty() {
            return Err(Self::refuse(format!(
                "an update of `{}` needs at least one change",
                E::ENTITY_TYPE
            )));
        }
        let meta = E::WRITE;
        let schema = <E::Table as Table>::SCHEMA;
        let mut changes = self.changes;
        let mut index_removals = Vec::new();
        for change in &changes {
            let attribute = change.attribute();
            if meta.key_attributes.contains(&attribute) {
                return Err(Self::refuse(format!(
                    "`{attribute}` is part of the primary key of `{}`; an update cannot change it",
                    E::ENTITY_TYPE
                )));
            }
            if let Some((_, lookup)) = meta.lookup_attributes.iter().find(|(a, _)| *a == attribute)
            {
                return Err(Self::refuse(format!(
                    "`{attribute}` is kept in lookup `{lookup}`; write the whole `{}` with put",
                    E::ENTITY_TYPE
                )));
            }
            if !change.writes_value() && !meta.optional_attributes.contains(&attribute) {
                return Err(Self::refuse(format!(
                    "`{attribute}` is not optional in `{}`; removing it would make the item unreadable",
                    E::ENTITY_TYPE
                )));
            }
            for (_, index) in meta
                .indexed_attributes
                .iter()
                .filter(|(a, _)| *a == attribute)
            {
                if change.writes_value() {
                    return Err(Self::refuse(format!(
                        "`{attribute}` is part of index `{index}`'s key; write the whole `{}` with put",
                        E::ENTITY_TYPE
                    )));
                }
                if let Some(index) = schema.index(index) {
                    index_removals.extend(std::iter::once(index.pk).chain(index.sk));
                }
            }
        }
        index_removals.sort_unstable();
        index_removals.dedup();
        changes.extend(index_removals.into_iter().map(Change::Remove));
        if let Some(version) = meta.version {
            changes.push(Change::Increment(version, AttributeValue::N("1".into())));
        }

        let mut p = Placeholders::default();
        let expression = render(&changes, &mut p);
        let mut conditions = vec![format!("attribute_exists({})", p.name(schema.pk))];
        if let (Some(attribute), Some(version)) = (meta.version, self.expected_version) {
            conditions.push(format!(
                "{} = {}",
                p.name(attribute),
                p.value(AttributeValue::N(version.to_string()))
            ));
        }
        if let Some(condition) = &self.condition {
            conditions.push(format!("({})", condition.render_into(&mut p)?));
        }
        let (names, values) = p.into_parts();
        let prepared = Prepared {
            key: key_item(self.key)?,
            expression,
            condition: conditions.join(" AND "),
            names,
            values,
        };
        Ok((self.db, prepared))
    }

    fn failed(expected_version: Option<u64>) -> Error {
        match expected_version {
            Some(expected) if E::WRITE.version.is_some() => Error::VersionConflict {
                entity: E::ENTITY_TYPE,
                expected,
            },
            _ => Error::ConditionalCheckFailed {
                entity: E::ENTITY_TYPE,
                operation: "update",
            },
        }
    }

    async fn run(self, return_new: bool) -> Result<Option<Item>> {
        let expected_version = self.expected_version;
        let (db, prepared) = self.prepare()?;
        let span = call_span("UpdateItem", db.table_name(), E::ENTITY_TYPE);
        let result = db
            .client()
            .update_item()
            .table_name(db.table_name())
            .set_key(Some(prepared.key))
            .update_expression(prepared.expression)
            .condition_expression(prepared.condition)
            .set_expression_attribute_names(prepared.names)
            .set_expression_attribute_values(prepared.values)
            .set_return_values(return_new.then_some(ReturnValue::AllNew))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .instrument(span.clone())
            .await;
        match result {
            Ok(output) => {
                record_capacity(&span, output.consumed_capacity());
                Ok(output.attributes)
            }
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Err(Self::failed(expected_version))
            }
            Err(err) => Err(Error::service("UpdateItem", err)),
        }
    }

    /// Sends the update.
    pub async fn send(self) -> Result<()> {
        self.run(false).await.map(|_| ())
    }

    /// Sends the update and returns the item as it is afterwards.
    pub async fn returning_new(self) -> Result<E> {
        let item = self.run(true).await?;
        let item = item.ok_or(Error::MissingAttribute {
            entity: E::ENTITY_TYPE,
            attribute: "(the updated item)",
        })?;
        E::from_item(item)
    }

    /// The update as a transaction action.
    pub(crate) fn into_action(self) -> Result<Action> {
        let (db, prepared) = self.prepare()?;
        let size = item_size(&prepared.key);
        let update = SdkUpdate::builder()
            .table_name(db.table_name())
            .set_key(Some(prepared.key.clone()))
            .update_expression(prepared.expression)
            .condition_expression(prepared.condition)
            .set_expression_attribute_names(prepared.names)
            .set_expression_attribute_values(prepared.values)
            .build()
            .map_err(|err| Error::InvalidRequest {
                reason: err.to_string(),
            })?;
        Ok(Action {
            entity: E::ENTITY_TYPE,
            operation: "update",
            key: prepared.key,
            size,
            write: TransactWriteItem::builder().update(update).build(),
        })
    }
}

impl<'a, E: Entity + 'a> IntoFuture for Update<'a, E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
