//! The conditions a write carries: existence for create and replace, the expected version,
//! and the caller's own; and the error a failed one means.

use aws_sdk_dynamodb::types::AttributeValue;

use super::PutMode;
use crate::expr::{Condition, NameMap, Placeholders, ValueMap};
use crate::table::Table;
use crate::{Entity, Error, Result};

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
        PutMode::Overwrite => {}
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
