//! The actions of a write transaction, built from typed entities, keys and conditions, or
//! from raw SDK writes.

use aws_sdk_dynamodb::types::{ConditionCheck, Delete, Put, TransactWriteItem};

use super::PutMode;
use super::condition::{RenderedCondition, finish, put_condition};
use super::item::{key_item, versioned_item};
use crate::codec::Item;
use crate::expr::{Condition, Placeholders};
use crate::key::Key;
use crate::{Db, Entity, Error, Result};

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
}

/// The SDK's refusal to build a transaction action.
pub(super) fn build_error(err: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::RequestBuild {
        operation: "TransactWriteItems",
        message: err.to_string(),
    }
}

pub(crate) fn put_action<E: Entity>(
    db: &Db,
    entity: &E,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<Action> {
    let versioned = versioned_item(entity)?;
    let version_only = E::WRITE.version.is_some()
        && versioned.expected_version.is_some()
        && mode == PutMode::Overwrite
        && condition.is_none();
    let mut p = Placeholders::default();
    let parts = put_condition::<E>(mode, versioned.expected_version, condition, &mut p)?;
    let key = key_item(entity.primary_key())?;
    let action = raw_put(
        db,
        E::ENTITY_TYPE,
        mode.operation(),
        key,
        versioned.item,
        finish(parts, p),
    )?;
    Ok(Action {
        version_only,
        ..action
    })
}

pub(crate) fn delete_action<E: Entity>(
    db: &Db,
    key: Key<E>,
    condition: Option<&Condition<E>>,
) -> Result<Action> {
    let key = key_item(key)?;
    let mut p = Placeholders::default();
    let parts = match condition {
        Some(c) => vec![c.render_into(&mut p)?],
        None => Vec::new(),
    };
    raw_delete(db, E::ENTITY_TYPE, key, finish(parts, p))
}

/// A put of a ready item, for the typed builders and for lookup syncing.
pub(crate) fn raw_put(
    db: &Db,
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
    })
}

/// A delete by key, for the typed builders and for lookup syncing.
pub(crate) fn raw_delete(
    db: &Db,
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
    })
}

pub(crate) fn check_action<E: Entity>(
    db: &Db,
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
