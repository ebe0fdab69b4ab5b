//! The item a put writes, and the key a write addresses.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::entity::LookupKey;
use crate::key::Key;
use crate::limits::check_item_size;
use crate::table::Table;
use crate::{Entity, Result};

/// The item to write for `entity`, with its automatic timestamps, checked against
/// DynamoDB's item size limit. Every put path (put, create, replace, save, batches,
/// transactions) goes through here.
pub(crate) fn item_for_write<E: Entity>(entity: &E) -> Result<Item> {
    let item = stamped_item(entity)?;
    check_item_size(E::ENTITY_TYPE, &item)?;
    Ok(item)
}

/// The entity's item with its automatic timestamps, not yet checked for size.
fn stamped_item<E: Entity>(entity: &E) -> Result<Item> {
    let mut item = entity.to_item()?;
    crate::derived::Timestamps::now::<E>()?.stamp(&mut item);
    Ok(item)
}

/// The key attributes that address the item `key` names.
pub(crate) fn key_item<E: Entity>(key: Key<E>) -> Result<Item> {
    let schema = <E::Table as Table>::SCHEMA;
    let (pk, sk) = key.into_attribute_values()?;
    let mut item = Item::with_capacity(2);
    item.insert(schema.pk.to_owned(), pk);
    if let (Some(name), Some(sk)) = (schema.sk, sk) {
        item.insert(name.to_owned(), sk);
    }
    Ok(item)
}

/// An item ready to write: the version bumped, with the version it expects to replace.
pub(crate) struct VersionedItem {
    pub(crate) item: Item,
    /// The version the write conditions on, for versioned entities.
    pub(crate) expected_version: Option<u64>,
}

/// The item for `entity`, its version attribute set one past the version it was read with,
/// checked for size once, version included.
pub(crate) fn versioned_item<E: Entity>(entity: &E) -> Result<VersionedItem> {
    let mut item = stamped_item(entity)?;
    let expected_version = E::WRITE.version.map(|attribute| {
        let version = entity.version();
        item.insert(
            attribute.to_owned(),
            AttributeValue::N(version.saturating_add(1).to_string()),
        );
        version
    });
    check_item_size(E::ENTITY_TYPE, &item)?;
    Ok(VersionedItem {
        item,
        expected_version,
    })
}

/// What a put computes from the value up front, so the value need not outlive the request:
/// the same for a single put and for a transaction's.
#[derive(Debug, Clone)]
pub(crate) struct PreparedPut {
    /// The item, version bumped, checked for size.
    pub(crate) item: Item,
    /// The key attributes that address it.
    pub(crate) key: Item,
    /// The version the write conditions on, for versioned entities.
    pub(crate) expected_version: Option<u64>,
    /// The keys of the entity's lookup items.
    pub(crate) lookups: Vec<LookupKey>,
}

/// Prepares the put of `entity`.
pub(crate) fn prepare_put<E: Entity>(entity: &E) -> Result<PreparedPut> {
    let versioned = versioned_item(entity)?;
    Ok(PreparedPut {
        item: versioned.item,
        key: key_item(entity.primary_key())?,
        expected_version: versioned.expected_version,
        lookups: entity.lookup_keys()?,
    })
}
