//! Lookup items as stored: the owner's attributes recording their keys, the items
//! themselves, and the condition that one is free or an owner's. Shared by the write paths
//! that keep lookups in sync (`ops::sync`, transactions) and by maintenance jobs.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::Entity;
use crate::codec::Item;
use crate::entity::{LookupKey, OWNER_PK, OWNER_SK};
use crate::expr::Placeholders;
use crate::table::Table;

/// The owner's attribute recording the key of its lookup `name`.
pub fn recorded(name: &str, part: &str) -> String {
    format!("_lookup_{name}_{part}")
}

/// The condition that a lookup item is absent or owned by one of `owners` (primary keys).
pub(crate) fn free_or_owned_by<E: Entity>(owners: &[&Item], p: &mut Placeholders) -> String {
    let schema = <E::Table as Table>::SCHEMA;
    let mut alternatives = vec![format!("attribute_not_exists({})", p.name(schema.pk))];
    for owner in owners {
        let mut mine = Vec::new();
        for (attribute, key) in [(OWNER_PK, Some(schema.pk)), (OWNER_SK, schema.sk)] {
            if let Some(value) = key.and_then(|k| owner.get(k)) {
                mine.push(format!(
                    "{} = {}",
                    p.name(attribute),
                    p.value(value.clone())
                ));
            }
        }
        alternatives.push(format!("({})", mine.join(" AND ")));
    }
    alternatives.join(" OR ")
}

/// The primary key of the lookup item `pk`/`sk`.
pub(crate) fn lookup_key<E: Entity>(pk: &str, sk: Option<&str>) -> Item {
    let schema = <E::Table as Table>::SCHEMA;
    let mut key = Item::new();
    key.insert(schema.pk.to_owned(), AttributeValue::S(pk.to_owned()));
    if let (Some(attribute), Some(sk)) = (schema.sk, sk) {
        key.insert(attribute.to_owned(), AttributeValue::S(sk.to_owned()));
    }
    key
}

/// The lookup item `lookup` of the owner whose primary key is `owner`.
pub(crate) fn lookup_item<E: Entity>(owner: &Item, lookup: &LookupKey) -> Item {
    let schema = <E::Table as Table>::SCHEMA;
    let mut item = lookup_key::<E>(&lookup.pk, lookup.sk.as_deref());
    item.insert(
        schema.entity_type.to_owned(),
        AttributeValue::S(format!("{}.{}", E::ENTITY_TYPE, lookup.name)),
    );
    for (attribute, key) in [(OWNER_PK, Some(schema.pk)), (OWNER_SK, schema.sk)] {
        if let Some(value) = key.and_then(|k| owner.get(k)) {
            item.insert(attribute.to_owned(), value.clone());
        }
    }
    item
}

/// Adds to an owner's `item` the attributes recording the keys of its `lookups`.
pub(crate) fn record(item: &mut Item, lookups: &[LookupKey]) {
    for lookup in lookups {
        item.insert(
            recorded(lookup.name, "pk"),
            AttributeValue::S(lookup.pk.clone()),
        );
        if let Some(sk) = &lookup.sk {
            item.insert(recorded(lookup.name, "sk"), AttributeValue::S(sk.clone()));
        }
    }
}
