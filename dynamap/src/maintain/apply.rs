//! The writes of a job, each on condition that the item is still what was scanned: a lost
//! race is a conflict the job redoes from a fresh read, never an overwrite.

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{ConsumedCapacity, TransactWriteItem, Update};

use super::plan::{Decision, Unchanged, Write};
use crate::codec::Item;
use crate::expr::Placeholders;
use crate::span::Call;
use crate::table::{Table, TableSchema};
use crate::write::{RenderedCondition, finish, raw_delete, raw_put};
use crate::{Entity, Error, Handle, Result};

/// How a write went.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Applied {
    Done,
    /// The item changed (or went) since it was scanned.
    Conflict,
}

/// DynamoDB's longest expression string: 4 KB.
const MAX_EXPRESSION_BYTES: usize = 4_096;

/// Refuses a condition longer than DynamoDB takes: an item of hundreds of attributes
/// cannot be checked attribute by attribute, only by a version.
fn within_limit(condition: RenderedCondition, stored: &Item) -> Result<RenderedCondition> {
    let length = condition.expression.as_ref().map_or(0, String::len);
    if length <= MAX_EXPRESSION_BYTES {
        return Ok(condition);
    }
    Err(Error::Unsupported {
        operation: "Maintain",
        reason: format!(
            "the condition that this item of {} attributes is unchanged takes {length} bytes, \
             over DynamoDB's {MAX_EXPRESSION_BYTES}-byte expression limit; give the entity a \
             `#[dynamap(version)]` field, which the job checks instead",
            stored.len()
        ),
    })
}

/// The condition that the item is what was scanned.
fn unchanged(stored: &Item, check: Unchanged, p: &mut Placeholders) -> Vec<String> {
    if let Unchanged::Version(attribute) = check
        && let Some(version) = stored.get(attribute)
    {
        return vec![format!(
            "{} = {}",
            p.name(attribute),
            p.value(version.clone())
        )];
    }
    let mut names: Vec<&String> = stored.keys().collect();
    names.sort();
    names
        .into_iter()
        .map(|name| format!("{} = {}", p.name(name), p.value(stored[name].clone())))
        .collect()
}

/// The condition alone that the item is what was scanned, within DynamoDB's limit.
fn checked(stored: &Item, check: Unchanged) -> Result<RenderedCondition> {
    let mut p = Placeholders::default();
    within_limit(finish(unchanged(stored, check, &mut p), p), stored)
}

/// The stored item's primary key.
pub(super) fn primary_key(schema: &TableSchema, item: &Item) -> Item {
    [Some(schema.pk), schema.sk]
        .into_iter()
        .flatten()
        .filter_map(|name| Some((name.to_owned(), item.get(name)?.clone())))
        .collect()
}

/// An update expression setting `set` and removing `remove`, with the item's condition.
fn rewrite(
    stored: &Item,
    check: Unchanged,
    set: Item,
    remove: &[String],
) -> Result<(String, RenderedCondition)> {
    let mut p = Placeholders::default();
    let parts = unchanged(stored, check, &mut p);
    let sets: Vec<String> = set
        .into_iter()
        .map(|(name, value)| format!("{} = {}", p.name(&name), p.value(value)))
        .collect();
    let removes: Vec<String> = remove.iter().map(|name| p.name(name)).collect();
    let mut expression = String::new();
    if !sets.is_empty() {
        expression.push_str(&format!("SET {}", sets.join(", ")));
    }
    if !removes.is_empty() {
        expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
    }
    let condition = within_limit(finish(parts, p), stored)?;
    Ok((expression.trim().to_owned(), condition))
}

fn units(consumed: Option<&ConsumedCapacity>) -> f64 {
    consumed
        .and_then(ConsumedCapacity::capacity_units)
        .unwrap_or(0.0)
}

/// Sends one write of entity `E` (an `UpdateItem`, `PutItem` or `DeleteItem` request
/// without its table) on `condition`, the item being unchanged: a failed condition is a
/// conflict to redo. A macro because the SDK's three request builders share method names,
/// not a trait.
macro_rules! send_checked {
    ($db:expr, $operation:literal, $request:expr, $condition:expr, $counted:expr) => {{
        let condition: RenderedCondition = $condition;
        let call = Call::new($db, $operation, E::ENTITY_TYPE, None);
        let result = $request
            .table_name($db.table_name())
            .set_condition_expression(condition.expression)
            .set_expression_attribute_names(condition.names)
            .set_expression_attribute_values(condition.values)
            .set_return_consumed_capacity(call.capacity_if($counted))
            .send()
            .await;
        match call.end(result, |o| o.consumed_capacity()) {
            Ok(out) => Ok((Applied::Done, units(out.consumed_capacity()))),
            Err(err) => conflict_or(Error::service($operation, err)),
        }
    }};
}

/// Sends `write` for `stored`; returns the write units it consumed when `counted` (DynamoDB
/// is asked only then: asking costs time), 0 otherwise.
pub(super) async fn apply<E: Entity>(
    db: &Handle,
    stored: &Item,
    write: Write,
    counted: bool,
) -> Result<(Applied, f64)> {
    let schema = <E::Table as Table>::SCHEMA;
    if !write.lookups.is_empty() {
        return transact::<E>(db, &schema, stored, write, counted).await;
    }
    let key = primary_key(&schema, stored);
    match write.decision {
        Decision::Keep => Ok((Applied::Done, 0.0)),
        Decision::Rewrite { set, remove } => {
            let (expression, condition) = rewrite(stored, write.unchanged, set, &remove)?;
            let request = db.client().update_item().set_key(Some(key));
            let request = request.update_expression(expression);
            send_checked!(db, "UpdateItem", request, condition, counted)
        }
        Decision::Replace { item } => {
            let request = db.client().put_item().set_item(Some(item));
            let condition = checked(stored, write.unchanged)?;
            send_checked!(db, "PutItem", request, condition, counted)
        }
        Decision::Delete => {
            let request = db.client().delete_item().set_key(Some(key));
            let condition = checked(stored, write.unchanged)?;
            send_checked!(db, "DeleteItem", request, condition, counted)
        }
        Decision::Move { .. } => transact::<E>(db, &schema, stored, write, counted).await,
    }
}

/// The owner's writes in a transaction, followed by its lookups' puts and deletes.
async fn transact<E: Entity>(
    db: &Handle,
    schema: &TableSchema,
    stored: &Item,
    write: Write,
    counted: bool,
) -> Result<(Applied, f64)> {
    let old = primary_key(schema, stored);
    let mut new = old.clone();
    let owner = owner_actions::<E>(db, schema, stored, &write, &mut new)?;
    let first_lookup = owner.len();
    let mut actions = owner;
    actions.extend(write.lookups.actions::<E>(db, &old, &new)?);
    // Lookup items count as their owner's entity type.
    let call = Call::new(db, "TransactWriteItems", E::ENTITY_TYPE, None);
    let result = db
        .client()
        .transact_write_items()
        .set_transact_items(Some(actions))
        .set_return_consumed_capacity(call.capacity_if(counted))
        .send()
        .await;
    let err = match call.end_each(result, |o| o.consumed_capacity()) {
        Ok(out) => {
            let consumed = out.consumed_capacity().iter().map(|c| units(Some(c))).sum();
            return Ok((Applied::Done, consumed));
        }
        Err(err) => err,
    };
    // Which action failed: the owner's (changed since scanned: redo), or a lookup put's
    // (another owner holds it: the item's error).
    if let SdkError::ServiceError(service) = &err
        && let TransactWriteItemsError::TransactionCanceledException(canceled) = service.err()
    {
        let failed: Vec<usize> = canceled
            .cancellation_reasons()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.code() == Some("ConditionalCheckFailed"))
            .map(|(i, _)| i)
            .collect();
        if failed.iter().any(|&i| i < first_lookup) {
            return Ok((Applied::Conflict, 0.0));
        }
        if let Some(lookup) = failed
            .iter()
            .find_map(|&i| write.lookups.put_at(i, first_lookup))
        {
            return Err(Error::LookupTaken {
                entity: E::ENTITY_TYPE,
                lookup,
            });
        }
    }
    conflict_or(Error::service("TransactWriteItems", err))
}

/// The owner's part of a transaction; `new` becomes its primary key after the write.
fn owner_actions<E: Entity>(
    db: &Handle,
    schema: &TableSchema,
    stored: &Item,
    write: &Write,
    new: &mut Item,
) -> Result<Vec<TransactWriteItem>> {
    let old = new.clone();
    let unchanged = || checked(stored, write.unchanged);
    let delete = || raw_delete(db, E::ENTITY_TYPE, old.clone(), unchanged()?).map(|a| a.write);
    Ok(match write.decision.clone() {
        Decision::Keep => Vec::new(),
        Decision::Delete => vec![delete()?],
        Decision::Rewrite { set, remove } => {
            let (expression, condition) = rewrite(stored, write.unchanged, set, &remove)?;
            let update = Update::builder()
                .table_name(db.table_name())
                .set_key(Some(old.clone()))
                .update_expression(expression)
                .set_condition_expression(condition.expression)
                .set_expression_attribute_names(condition.names)
                .set_expression_attribute_values(condition.values)
                .build()
                .map_err(|err| Error::RequestBuild {
                    operation: "TransactWriteItems",
                    message: err.to_string(),
                })?;
            vec![TransactWriteItem::builder().update(update).build()]
        }
        Decision::Replace { item } => {
            vec![raw_put(db, E::ENTITY_TYPE, "put", old.clone(), item, unchanged()?)?.write]
        }
        Decision::Move { item } => {
            *new = primary_key(schema, &item);
            let mut p = Placeholders::default();
            let free = finish(
                vec![format!("attribute_not_exists({})", p.name(schema.pk))],
                p,
            );
            let put = raw_put(db, E::ENTITY_TYPE, "put", new.clone(), item, free)?;
            vec![put.write, delete()?]
        }
    })
}

/// A failed condition is a conflict to redo; anything else is the item's error.
fn conflict_or(err: Error) -> Result<(Applied, f64)> {
    if err.is_conditional_check_failed() || err.is_conflict() {
        Ok((Applied::Conflict, 0.0))
    } else {
        Err(err)
    }
}
