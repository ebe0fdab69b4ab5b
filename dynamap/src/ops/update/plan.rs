//! An update ready to send: its changes with what they imply (versions, timestamps), its
//! conditions, and the lookups it moves; rendered as one UpdateItem or transaction action.

use aws_sdk_dynamodb::operation::update_item::UpdateItemOutput;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::{ReturnValue, TransactWriteItem, Update as SdkUpdate};
use tracing::Instrument;

use crate::clone_builder::clone_builder;
use crate::codec::{AttributeValue, Item};
use crate::derived::Timestamps;
use crate::entity::LookupKey;
use crate::expr::update::{Change, render};
use crate::expr::{Condition, DocPath, NameMap, Placeholders, ValueMap};
use crate::preview::{Preview, Request, input_of};
use crate::span::Call;
use crate::table::Table;
use crate::write::{
    Action, AfterLoss, conditional_answer, missing_parent, nested_paths, one_attempt, send_exactly,
};
use crate::{Entity, Error, ErrorKind, Handle, Result};

/// An update ready to render: its changes, conditions and the lookups it moves.
pub(crate) struct Plan<E> {
    pub(crate) key: Item,
    pub(crate) changes: Vec<Change>,
    pub(crate) condition: Option<Condition<E>>,
    pub(crate) expected_version: Option<u64>,
    /// `update`: the item must exist. `upsert`, or an update that creates: it may be created.
    pub(crate) must_exist: bool,
    /// The changes set some fields only (an update), so an item stored in an older shape
    /// must be upgraded first; `false` for an upsert, which writes the whole entity.
    pub(crate) partial: bool,
    /// The new keys of the lookup items the update moves.
    pub(crate) lookups: Vec<LookupKey>,
}

clone_builder!(Plan<E> { key, changes, condition, expected_version, must_exist, partial, lookups });

/// The parts of an UpdateItem request.
struct Rendered {
    pub(crate) key: Item,
    pub(crate) expression: String,
    pub(crate) condition: Option<String>,
    pub(crate) names: Option<NameMap>,
    pub(crate) values: Option<ValueMap>,
}

impl<E: Entity> Plan<E> {
    /// Adds the version increment and the automatic timestamps, unless the caller changes
    /// those attributes itself.
    pub(crate) fn with_version_and_timestamps(mut self) -> Result<Self> {
        let touched = |changes: &[Change], attribute: &str| {
            changes.iter().any(|c| c.attribute() == attribute)
        };
        if let Some(version) = E::WRITE.version
            && !touched(&self.changes, version)
        {
            self.changes.push(Change::Increment(
                DocPath::attribute(version),
                AttributeValue::N("1".into()),
            ));
        }
        let stamps = Timestamps::now::<E>()?;
        if let Some((attribute, value)) = stamps.updated_at
            && !touched(&self.changes, attribute)
        {
            self.changes
                .push(Change::Set(DocPath::attribute(attribute), value));
        }
        if let Some((attribute, value)) = stamps.created_at
            && !touched(&self.changes, attribute)
        {
            self.changes
                .push(Change::SetIfNotExists(DocPath::attribute(attribute), value));
        }
        Ok(self)
    }

    /// Renders the request, with `extra` changes and `guard` conditions (lookup
    /// bookkeeping) added.
    fn render(
        &self,
        extra: Vec<Change>,
        guard: impl FnOnce(&mut Placeholders) -> Vec<String>,
    ) -> Result<Rendered> {
        let schema = <E::Table as Table>::SCHEMA;
        let mut p = Placeholders::default();
        let mut changes = self.changes.clone();
        changes.extend(extra);
        let expression = render(&changes, &mut p);
        let mut conditions = Vec::new();
        if self.must_exist {
            conditions.push(format!("attribute_exists({})", p.name(schema.pk)));
        }
        // A partial update sets fields of the current shape: an item stored in an older one
        // must be upgraded (read and written whole) first, or it would mix shapes. A missing
        // item is created in the current shape.
        if let Some(version) = E::WRITE.schema_version.filter(|_| self.partial) {
            let name = p.name(crate::table::SCHEMA_VERSION_ATTRIBUTE);
            let value = p.value(AttributeValue::N(version.to_string()));
            let current = if version == 1 {
                format!("(attribute_not_exists({name}) OR {name} = {value})")
            } else {
                format!("{name} = {value}")
            };
            conditions.push(if self.must_exist {
                current
            } else {
                format!("(attribute_not_exists({}) OR {current})", p.name(schema.pk))
            });
        }
        if let (Some(attribute), Some(version)) = (E::WRITE.version, self.expected_version) {
            conditions.push(crate::write::version_condition(attribute, version, &mut p));
        }
        if let Some(condition) = &self.condition {
            // A rendered condition is one comparison or a parenthesized group already.
            conditions.push(condition.render_into(&mut p)?);
        }
        conditions.extend(guard(&mut p));
        let (names, values) = p.into_parts();
        Ok(Rendered {
            key: self.key.clone(),
            expression,
            condition: (!conditions.is_empty()).then(|| conditions.join(" AND ")),
            names,
            values,
        })
    }

    pub(crate) fn failed(&self) -> Error {
        match self.expected_version {
            Some(expected) if E::WRITE.version.is_some() => Error::VersionConflict {
                entity: E::ENTITY_TYPE,
                expected,
            },
            _ => Error::ConditionalCheckFailed {
                entity: E::ENTITY_TYPE,
                operation: if self.must_exist { "update" } else { "upsert" },
            },
        }
    }

    /// Sends the update: one UpdateItem, or a transaction when it moves lookups.
    pub(crate) async fn send(self, db: &Handle, return_new: bool) -> Result<Option<Item>> {
        if !self.lookups.is_empty() {
            crate::ops::sync::update_with_lookups(db, &self).await?;
            return if return_new {
                db.consistent_item_of(self.key.clone(), E::ENTITY_TYPE)
                    .await
            } else {
                Ok(None)
            };
        }
        let rendered = self.render(Vec::new(), |_| Vec::new())?;
        let operation = if self.must_exist { "update" } else { "upsert" };
        let this = &self;
        let attempt = |_lost| {
            let call = Call::new(db, "UpdateItem", E::ENTITY_TYPE, None);
            let request = request(db, &rendered, return_new)
                .set_return_consumed_capacity(call.capacity())
                .customize()
                .config_override(one_attempt());
            async move {
                let result = request.send().instrument(call.span()).await;
                conditional_answer(
                    call,
                    "UpdateItem",
                    result,
                    UpdateItemOutput::consumed_capacity,
                    || this.failed(),
                )
            }
        };
        let output = send_exactly(db, E::ENTITY_TYPE, operation, self.after_loss(), attempt).await;
        match output {
            Ok(output) => Ok(output.attributes),
            Err(err) if matches!(err.kind(), ErrorKind::Condition | ErrorKind::Conflict) => {
                Err(self.older_schema(db).await?.unwrap_or(err))
            }
            Err(err) => Err(missing_parent(
                E::ENTITY_TYPE,
                &nested_paths(&self.changes),
                err,
            )),
        }
    }

    /// The UpdateItem [`send`](Plan::send) would make, not sent.
    pub(crate) fn preview(&self, db: &Handle, return_new: bool) -> Result<Preview> {
        if !self.lookups.is_empty() {
            let owner = crate::ops::sync::Owner {
                key: self.key.clone(),
            };
            return Ok(Preview::lookup_reads(vec![owner.read_preview::<E>(db)?]));
        }
        let rendered = self.render(Vec::new(), |_| Vec::new())?;
        let request = request(db, &rendered, return_new);
        Ok(Preview::one(Request::UpdateItem(input_of!(
            request,
            "UpdateItem"
        )?)))
    }

    /// How the update may be sent again after a lost answer: as a new request (its failed
    /// condition then proving nothing), unless it adds to a number or appends to a list
    /// without a version to stop a second application.
    fn after_loss(&self) -> AfterLoss {
        let version = E::WRITE.version.filter(|_| self.expected_version.is_some());
        let adds = self.changes.iter().any(|change| match change {
            Change::Increment(path, _) => Some(path.root()) != version,
            Change::Append(..) | Change::Add(_, AttributeValue::N(_)) => true,
            _ => false,
        });
        if adds && version.is_none() {
            AfterLoss::Never
        } else {
            AfterLoss::Recheck
        }
    }

    /// After a failed condition: the error for an item stored in an older shape, if that is
    /// why (an update's schema-version condition), read consistently.
    async fn older_schema(&self, db: &Handle) -> Result<Option<Error>> {
        let Some(current) = E::WRITE.schema_version.filter(|_| self.partial) else {
            return Ok(None);
        };
        let Some(item) = db
            .consistent_item_of(self.key.clone(), E::ENTITY_TYPE)
            .await?
        else {
            return Ok(None);
        };
        let schema = <E::Table as Table>::SCHEMA;
        let found =
            crate::schema_version::stored_version(&item, E::ENTITY_TYPE, u32::MAX, &schema)?;
        if found >= current {
            return Ok(None);
        }
        let text = |attribute: Option<&str>| match attribute.and_then(|a| item.get(a)) {
            Some(AttributeValue::S(s)) => Some(s.clone()),
            Some(AttributeValue::N(n)) => Some(n.clone()),
            _ => None,
        };
        Ok(Some(Error::OlderSchemaVersion {
            entity: E::ENTITY_TYPE,
            pk: text(Some(schema.pk)).unwrap_or_default(),
            sk: text(schema.sk),
            found,
            current,
        }))
    }

    /// The update as a transaction action, with `extra` changes and `guard` conditions.
    pub(crate) fn action(
        &self,
        db: &Handle,
        extra: Vec<Change>,
        guard: impl FnOnce(&mut Placeholders) -> Vec<String>,
    ) -> Result<Action> {
        let rendered = self.render(extra, guard)?;
        let update = SdkUpdate::builder()
            .table_name(db.table_name())
            .set_key(Some(rendered.key.clone()))
            .update_expression(rendered.expression)
            .set_condition_expression(rendered.condition)
            .set_expression_attribute_names(rendered.names)
            .set_expression_attribute_values(rendered.values)
            .build()
            .map_err(|err| Error::RequestBuild {
                operation: "TransactWriteItems",
                message: err.to_string(),
            })?;
        Ok(Action {
            entity: E::ENTITY_TYPE,
            operation: if self.must_exist { "update" } else { "upsert" },
            key: rendered.key,
            write: TransactWriteItem::builder().update(update).build(),
            version_only: false,
            nested: nested_paths(&self.changes),
        })
    }
}

/// The UpdateItem of `rendered`, as sent and previewed.
fn request(db: &Handle, rendered: &Rendered, return_new: bool) -> UpdateItemFluentBuilder {
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(Some(rendered.key.clone()))
        .update_expression(rendered.expression.clone())
        .set_condition_expression(rendered.condition.clone())
        .set_expression_attribute_names(rendered.names.clone())
        .set_expression_attribute_values(rendered.values.clone())
        .set_return_values(return_new.then_some(ReturnValue::AllNew))
}
