//! A [`TableSchema`] in CreateTable's terms: attribute types, key schemas, projections.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::KeyType;

use crate::table::{IndexSchema, Projection, ScalarType, TableSchema};
use crate::{Error, Result};

/// Every key attribute of the table and its indexes, with its type, each once. Refuses a
/// layout that gives one attribute two types.
pub(super) fn key_attribute_types(
    schema: &TableSchema,
) -> Result<BTreeMap<&'static str, ScalarType>> {
    let mut types = BTreeMap::new();
    types.insert(schema.pk, schema.pk_type);
    if let Some(sk) = schema.sk {
        types.insert(sk, schema.sk_type);
    }
    for index in schema.indexes {
        for (name, kind) in index.pk_attributes().chain(index.sk_attributes()) {
            if let Some(declared) = types.insert(name, kind)
                && declared != kind
            {
                return Err(Error::InvalidSetting {
                    setting: "index",
                    reason: format!(
                        "attribute `{name}` is a key of type {} and of type {} in layout `{}`",
                        declared.code(),
                        kind.code(),
                        schema.type_name
                    ),
                });
            }
        }
    }
    Ok(types)
}

/// The table's key: partition key (`HASH`), then sort key (`RANGE`).
pub(super) fn table_key(schema: &TableSchema) -> Vec<(&'static str, KeyType)> {
    key_of([schema.pk], schema.sk)
}

/// An index's key: every partition key attribute (`HASH`), then every sort key attribute
/// (`RANGE`), in key order.
pub(super) fn index_key(index: &IndexSchema) -> Vec<(&'static str, KeyType)> {
    key_of(
        index.pk_attributes().map(|(name, _)| name),
        index.sk_attributes().map(|(name, _)| name),
    )
}

fn key_of(
    pk: impl IntoIterator<Item = &'static str>,
    sk: impl IntoIterator<Item = &'static str>,
) -> Vec<(&'static str, KeyType)> {
    let pk = pk.into_iter().map(|name| (name, KeyType::Hash));
    let sk = sk.into_iter().map(|name| (name, KeyType::Range));
    pk.chain(sk).collect()
}

/// The non-key attributes an index holds: `None` for all of them.
pub(super) fn included(schema: &TableSchema, projection: Projection) -> Option<Vec<&'static str>> {
    let listed: &[&str] = match projection {
        Projection::All => return None,
        Projection::KeysOnly => &[],
        Projection::Include(attributes) => attributes,
    };
    let mut attributes = vec![schema.entity_type];
    attributes.extend(listed.iter().filter(|a| **a != schema.entity_type));
    Some(attributes)
}

pub(super) fn build_error(
    operation: &'static str,
    err: aws_sdk_dynamodb::error::BuildError,
) -> Error {
    Error::RequestBuild {
        operation,
        message: err.to_string(),
    }
}
