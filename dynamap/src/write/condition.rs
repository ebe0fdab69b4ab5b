//! The conditions a write carries: existence for create and replace, the expected version,
//! and the caller's own; and the error a failed one means.

use aws_sdk_dynamodb::types::AttributeValue;

use super::PutMode;
use crate::expr::{Condition, NameMap, Placeholders, ValueMap};
use crate::table::Table;
use crate::{Entity, Error, Result};

/// A rendered condition expression with its placeholders.
#[derive(Debug, Default, Clone)]
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
        parts.push(version_condition(attribute, version, p));
    }
    if let Some(extra) = extra {
        parts.push(extra.render_into(p)?);
    }
    Ok(parts)
}

/// The condition that the stored version is `version`. Version 0 is also an item with no
/// version at all: one written before the entity had a version field, or by another writer
/// (reads decode a missing version as 0). Both can be saved, and the write stores 1.
pub(crate) fn version_condition(attribute: &str, version: u64, p: &mut Placeholders) -> String {
    let name = p.name(attribute);
    let value = p.value(AttributeValue::N(version.to_string()));
    if version == 0 {
        format!("(attribute_not_exists({name}) OR {name} = {value})")
    } else {
        format!("{name} = {value}")
    }
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
                .map(|c| {
                    if grouped(c) {
                        c.clone()
                    } else {
                        format!("({c})")
                    }
                })
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

/// Whether `condition` is one parenthesized group already (DynamoDB refuses redundant
/// parentheses). Placeholders hold no parentheses, so counting them is enough.
fn grouped(condition: &str) -> bool {
    if !condition.starts_with('(') {
        return false;
    }
    let mut depth = 0usize;
    for (at, c) in condition.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return at == condition.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
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

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn only_one_enclosing_group_counts_as_grouped() {
        assert!(grouped("(attribute_not_exists(#n0) OR #n0 = :v0)"));
        assert!(!grouped("(#a = :a) AND (#b = :b)"));
        assert!(!grouped("attribute_not_exists(#n0)"));
        assert!(!grouped("#a = :a"));
    }
}
