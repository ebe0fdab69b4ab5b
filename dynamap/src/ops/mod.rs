//! Single-item operations: put, get, delete, update.

pub(crate) mod condition;
mod delete;
pub(crate) mod expiry;
mod get;
mod modify;
mod put;
pub mod sync;
pub(crate) mod sync_tx;
pub mod update;
mod upsert;

pub use delete::Delete;
pub use get::Get;
pub use put::{Put, PutMode};
pub use update::Update;
pub use upsert::Upsert;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::key::Key;
use crate::limits::{MAX_ITEM_BYTES, item_size};
use crate::table::Table;
use crate::{Entity, Error, Result};

/// The item to write for `entity`, with its automatic timestamps, checked against
/// DynamoDB's item size limit. Every put path (put, create, replace, save, batches,
/// transactions) goes through here.
pub(crate) fn item_for_write<E: Entity>(entity: &E) -> Result<Item> {
    let mut item = entity.to_item()?;
    crate::derived::Timestamps::now::<E>()?.stamp(&mut item);
    let size = item_size(&item);
    if size > MAX_ITEM_BYTES {
        return Err(Error::ItemTooLarge {
            entity: E::ENTITY_TYPE,
            size,
            limit: MAX_ITEM_BYTES,
        });
    }
    Ok(item)
}

/// The key attributes that address the item `key` names.
pub(crate) fn key_item<E: Entity>(key: Key<E>) -> Result<Item> {
    let schema = <E::Table as Table>::SCHEMA;
    let (pk, sk) = key.into_values()?;
    let mut item = Item::with_capacity(2);
    item.insert(schema.pk.to_owned(), AttributeValue::S(pk));
    if let (Some(name), Some(sk)) = (schema.sk, sk) {
        item.insert(name.to_owned(), AttributeValue::S(sk));
    }
    Ok(item)
}

/// A span for one DynamoDB call.
pub(crate) fn call_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
) -> tracing::Span {
    tracing::debug_span!("dynamodb", operation, table, entity)
}

/// What to ask DynamoDB about consumed capacity: the total when the debug event that
/// reports it ([`record_capacity`]) is enabled, nothing otherwise. Computing it is not free
/// (DynamoDB Local spends a few percent of a query's time on it), so a call asks only when
/// something listens.
pub(crate) fn capacity_wanted() -> Option<aws_sdk_dynamodb::types::ReturnConsumedCapacity> {
    tracing::enabled!(tracing::Level::DEBUG)
        .then_some(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
}

/// Reports the capacity a call consumed, as an event in its span.
pub(crate) fn record_capacity(
    span: &tracing::Span,
    consumed: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>,
) {
    let units = consumed.and_then(|c| c.capacity_units()).unwrap_or(0.0);
    span.in_scope(|| tracing::debug!(consumed_capacity = units, "dynamodb call done"));
}
