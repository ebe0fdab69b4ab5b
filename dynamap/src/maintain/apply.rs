//! The writes of a job, each on condition that the item is still what was scanned: a lost
//! race is a conflict the job redoes from a fresh read, never an overwrite.

use aws_sdk_dynamodb::types::{
    ConsumedCapacity, Delete, Put, ReturnConsumedCapacity, TransactWriteItem,
};

use super::plan::Decision;
use crate::codec::Item;
use crate::expr::Placeholders;
use crate::table::TableSchema;
use crate::write::finish;
use crate::{Db, Error, Result};

/// How a write went.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Applied {
    Done,
    /// The item changed (or went) since it was scanned.
    Conflict,
}

/// The condition that the item is what was scanned: every attribute it held still holds
/// the same value. (Not only a version attribute: writers that do not know it, another
/// service's or raw ones, change items too.) Attributes added since are not checked; a
/// rewrite in place leaves them, and a move carries them only if it wins the race.
fn unchanged(stored: &Item, p: &mut Placeholders) -> Vec<String> {
    let mut names: Vec<&String> = stored.keys().collect();
    names.sort();
    names
        .into_iter()
        .map(|name| format!("{} = {}", p.name(name), p.value(stored[name].clone())))
        .collect()
}

/// The stored item's primary key.
pub(super) fn primary_key(schema: &TableSchema, item: &Item) -> Item {
    [Some(schema.pk), schema.sk]
        .into_iter()
        .flatten()
        .filter_map(|name| Some((name.to_owned(), item.get(name)?.clone())))
        .collect()
}

/// Sends `decision` for `stored`; returns the write units it consumed.
pub(super) async fn apply(
    db: &Db,
    schema: &TableSchema,
    stored: &Item,
    decision: Decision,
) -> Result<(Applied, f64)> {
    let key = primary_key(schema, stored);
    let mut p = Placeholders::default();
    let condition = finish(unchanged(stored, &mut p), p);
    let units =
        |c: Option<&ConsumedCapacity>| c.and_then(ConsumedCapacity::capacity_units).unwrap_or(0.0);
    match decision {
        Decision::Keep => Ok((Applied::Done, 0.0)),
        Decision::Rewrite { set, remove } => {
            let mut p = Placeholders::default();
            let mut parts = unchanged(stored, &mut p);
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
            let condition = finish(std::mem::take(&mut parts), p);
            let result = db
                .client()
                .update_item()
                .table_name(db.table_name())
                .set_key(Some(key))
                .update_expression(expression.trim())
                .set_condition_expression(condition.expression)
                .set_expression_attribute_names(condition.names)
                .set_expression_attribute_values(condition.values)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match result {
                Ok(out) => Ok((Applied::Done, units(out.consumed_capacity()))),
                Err(err) => conflict_or(Error::service("UpdateItem", err)),
            }
        }
        Decision::Delete => {
            let result = db
                .client()
                .delete_item()
                .table_name(db.table_name())
                .set_key(Some(key))
                .set_condition_expression(condition.expression)
                .set_expression_attribute_names(condition.names)
                .set_expression_attribute_values(condition.values)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match result {
                Ok(out) => Ok((Applied::Done, units(out.consumed_capacity()))),
                Err(err) => conflict_or(Error::service("DeleteItem", err)),
            }
        }
        Decision::Move { item } => {
            let put = Put::builder()
                .table_name(db.table_name())
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(#pk)")
                .expression_attribute_names("#pk", schema.pk)
                .build()
                .map_err(build_error)?;
            let delete = Delete::builder()
                .table_name(db.table_name())
                .set_key(Some(key))
                .set_condition_expression(condition.expression)
                .set_expression_attribute_names(condition.names)
                .set_expression_attribute_values(condition.values)
                .build()
                .map_err(build_error)?;
            let result = db
                .client()
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().put(put).build())
                .transact_items(TransactWriteItem::builder().delete(delete).build())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match result {
                Ok(out) => {
                    let consumed = out.consumed_capacity().iter().map(|c| units(Some(c))).sum();
                    Ok((Applied::Done, consumed))
                }
                Err(err) => conflict_or(Error::service("TransactWriteItems", err)),
            }
        }
    }
}

fn build_error(err: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::RequestBuild {
        operation: "TransactWriteItems",
        message: err.to_string(),
    }
}

/// A failed condition is a conflict to redo; anything else is the item's error.
fn conflict_or(err: Error) -> Result<(Applied, f64)> {
    if err.is_conditional_check_failed() || err.is_conflict() {
        Ok((Applied::Conflict, 0.0))
    } else {
        Err(err)
    }
}
