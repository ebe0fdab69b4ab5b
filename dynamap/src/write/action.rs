//! The actions of a write transaction, built from typed entities, keys and conditions, or
//! from raw SDK writes.

use aws_sdk_dynamodb::types::{ConditionCheck, Delete, Put, TransactWriteItem};

use super::PutMode;
use super::condition::{RenderedCondition, finish, put_condition};
use super::item::{PreparedPut, key_item};
use crate::codec::Item;
use crate::expr::{Condition, Placeholders};
use crate::key::Key;
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// One action, with what is needed to check the transaction and explain a failure.
#[derive(Clone)]
pub(crate) struct Action {
    pub(crate) entity: &'static str,
    pub(crate) operation: &'static str,
    pub(crate) key: Item,
    pub(crate) write: TransactWriteItem,
    /// The action's only condition is the entity's version: when it fails, the item was
    /// written since it was read (a conflict, cured by reading again), not a rule broken.
    pub(crate) version_only: bool,
    /// The paths an update action reaches inside another attribute, to name them when
    /// the item lacks what holds them (see `nested.rs`).
    pub(crate) nested: Vec<super::Nested>,
}

/// The SDK's refusal to build a transaction action.
pub(super) fn build_error(err: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::RequestBuild {
        operation: "TransactWriteItems",
        message: err.to_string(),
    }
}

pub(crate) fn put_action<E: Entity>(
    db: &Handle,
    put: PreparedPut,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<Action> {
    let version_only = E::WRITE.version.is_some()
        && put.expected_version.is_some()
        && mode == PutMode::Overwrite
        && condition.is_none();
    let mut p = Placeholders::default();
    let parts = put_condition::<E>(mode, put.expected_version, condition, &mut p)?;
    let action = raw_put(
        db,
        E::ENTITY_TYPE,
        mode.operation(),
        put.key,
        put.item,
        finish(parts, p),
    )?;
    Ok(Action {
        version_only,
        nested: Vec::new(),
        ..action
    })
}

/// A delete of the item `key` names, only if it exists (`must_exist`) and matches
/// `condition`.
pub(crate) fn delete_action<E: Entity>(
    db: &Handle,
    key: Item,
    must_exist: bool,
    condition: Option<&Condition<E>>,
) -> Result<Action> {
    let mut p = Placeholders::default();
    let parts = delete_condition(must_exist, condition, &mut p)?;
    raw_delete(db, E::ENTITY_TYPE, key, finish(parts, p))
}

/// The parts of a delete's condition: the item exists (`must_exist`), and `condition`.
pub(crate) fn delete_condition<E: Entity>(
    must_exist: bool,
    condition: Option<&Condition<E>>,
    p: &mut Placeholders,
) -> Result<Vec<String>> {
    let mut parts = Vec::new();
    if must_exist {
        let pk = p.name(<E::Table as Table>::SCHEMA.pk);
        parts.push(format!("attribute_exists({pk})"));
    }
    if let Some(condition) = condition {
        parts.push(condition.render_into(p)?);
    }
    Ok(parts)
}

/// A put of a ready item, for the typed builders and for lookup syncing.
pub(crate) fn raw_put(
    db: &Handle,
    entity: &'static str,
    operation: &'static str,
    key: Item,
    item: Item,
    condition: RenderedCondition,
) -> Result<Action> {
    let put = Put::builder()
        .table_name(db.table_name())
        .set_item(Some(item))
        .set_condition_expression(condition.expression)
        .set_expression_attribute_names(condition.names)
        .set_expression_attribute_values(condition.values)
        .build()
        .map_err(build_error)?;
    Ok(Action {
        entity,
        operation,
        key,
        write: TransactWriteItem::builder().put(put).build(),
        version_only: false,
        nested: Vec::new(),
    })
}

/// A delete by key, for the typed builders and for lookup syncing.
pub(crate) fn raw_delete(
    db: &Handle,
    entity: &'static str,
    key: Item,
    condition: RenderedCondition,
) -> Result<Action> {
    let delete = Delete::builder()
        .table_name(db.table_name())
        .set_key(Some(key.clone()))
        .set_condition_expression(condition.expression)
        .set_expression_attribute_names(condition.names)
        .set_expression_attribute_values(condition.values)
        .build()
        .map_err(build_error)?;
    Ok(Action {
        entity,
        operation: "delete",
        key,
        write: TransactWriteItem::builder().delete(delete).build(),
        version_only: false,
        nested: Vec::new(),
    })
}

pub(crate) fn check_action<E: Entity>(
    db: &Handle,
    key: Key<E>,
    condition: &Condition<E>,
) -> Result<Action> {
    let key = key_item(key)?;
    let mut p = Placeholders::default();
    let expression = condition.render_into(&mut p)?;
    let (names, values) = p.into_parts();
    let check = ConditionCheck::builder()
        .table_name(db.table_name())
        .set_key(Some(key.clone()))
        .condition_expression(expression)
        .set_expression_attribute_names(names)
        .set_expression_attribute_values(values)
        .build()
        .map_err(build_error)?;
    Ok(Action {
        entity: E::ENTITY_TYPE,
        operation: "check",
        key,
        write: TransactWriteItem::builder().condition_check(check).build(),
        version_only: false,
        nested: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_the_sdk_cannot_build_is_a_request_build_error() {
        let refused = Put::builder().build().expect_err("no item");
        let err = build_error(refused);
        assert!(
            matches!(&err, Error::RequestBuild { operation: "TransactWriteItems", message } if message.contains("item was not specified")),
            "{err:?}"
        );
        assert!(!err.is_retryable());
    }
}
