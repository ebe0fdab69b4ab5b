//! The parts of a write that conditions and versions add: shared by single puts and
//! transactions.

use aws_sdk_dynamodb::types::AttributeValue;

use super::item_for_write;
use crate::codec::Item;
use crate::expr::{Condition, NameMap, Placeholders, ValueMap};
use crate::limits::{MAX_ITEM_BYTES, item_size};
use crate::ops::PutMode;
use crate::table::Table;
use crate::{Entity, Error, Result};

/// An item ready to write: the version bumped, with the version it expects to replace.
pub(crate) struct VersionedItem {
    pub(crate) item: Item,
    /// The version the write conditions on, for versioned entities.
    pub(crate) expected_version: Option<u64>,
}

/// The item for `entity`, its version attribute set one past the version it was read with.
pub(crate) fn versioned_item<E: Entity>(entity: &E) -> Result<VersionedItem> {
    let mut item = item_for_write(entity)?;
    let expected_version = E::WRITE.version.map(|attribute| {
        let version = entity.version();
        item.insert(
            attribute.to_owned(),
            AttributeValue::N(version.saturating_add(1).to_string()),
        );
        version
    });
    let size = item_size(&item);
    if size > MAX_ITEM_BYTES {
        return Err(Error::ItemTooLarge {
            entity: E::ENTITY_TYPE,
            size,
            limit: MAX_ITEM_BYTES,
        });
    }
    Ok(VersionedItem {
        item,
        expected_version,
    })
}

/// A rendered condition expression with its placeholders.
#[derive(Debug, Default)]
pub(crate) struct RenderedCondition {
    pub(crate) expression: Option<String>,
    pub(crate) names: Option<NameMap>,
    pub(crate) values: Option<ValueMap>,
}

/// The condition a put in `mode` needs: existence for create and replace, the expected
/// version for versioned entities, and the caller's own condition.
pub(crate) fn put_condition<E: Entity>(
    mode: PutMode,
    expected_version: Option<u64>,
    extra: Option<&Condition<E>>,
    p: &mut Placeholders,
) -> Result<Vec<String>> {
    let schema = <E::Table as Table>::SCHEMA;
    let mut parts = Vec::new();
    match mode {
        PutMode::Create => parts.push(format!("attribute_not_exists({})", p.name(schema.pk))),
        PutMode::Replace => parts.push(format!("attribute_exists({})", p.name(schema.pk))),
        PutMode::Upsert => {}
    }
    if let (Some(attribute), Some(version), false) =
        (E::WRITE.version, expected_version, mode == PutMode::Create)
    {
        let name = p.name(attribute);
        parts.push(if version == 0 {
            format!("attribute_not_exists({name})")
        } else {
            format!(
                "{name} = {}",
                p.value(AttributeValue::N(version.to_string()))
            )
        });
    }
    if let Some(extra) = extra {
        parts.push(extra.render_into(p)?);
    }
    Ok(parts)
}

/// Joins condition parts with `AND` and takes the placeholders.
pub(crate) fn finish(parts: Vec<String>, p: Placeholders) -> RenderedCondition {
    let (names, values) = p.into_parts();
    let expression = (!parts.is_empty()).then(|| {
        if parts.len() == 1 {
            parts.concat()
        } else {
            parts
                .iter()
                .map(|c| format!("({c})"))
                .collect::<Vec<_>>()
                .join(" AND ")
        }
    });
    RenderedCondition {
        expression,
        names,
        values,
    }
}

/// The error for a failed put condition: a version conflict when the version decided it.
pub(crate) fn put_failed<E: Entity>(mode: PutMode, expected_version: Option<u64>) -> Error {
    match expected_version {
        Some(expected) if mode != PutMode::Create => Error::VersionConflict {
            entity: E::ENTITY_TYPE,
            expected,
        },
        _ => Error::ConditionalCheckFailed {
            entity: E::ENTITY_TYPE,
            operation: mode.operation(),
        },
    }
}
