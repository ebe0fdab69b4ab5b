//! The filter every typed read sends: the entity type (so other entities sharing the
//! partition or table are left out), unexpired items, and the caller's condition.

use crate::decode::Decode;
use crate::expr::Condition;
use crate::table::Table;
use crate::{Error, Result};

/// The filter a read of `T` needs: its entity type, for a single entity (so other entities
/// sharing the partition or table are left out), and the caller's condition.
pub(super) fn read_filter<T: Decode>(
    filter: Option<&Condition<T>>,
    include_expired: bool,
    p: &mut crate::expr::Placeholders,
) -> Result<Option<String>> {
    let mut filters = Vec::new();
    if !include_expired {
        filters.extend(crate::expiry::unexpired_filter(
            &<T::Table as Table>::SCHEMA,
            p,
        ));
    }
    if let Some(entity) = T::SINGLE_ENTITY {
        filters.push(entity_filter(
            entity,
            T::ALIASES,
            <T::Table as Table>::SCHEMA.entity_type,
            p,
        ));
    }
    if let Some(filter) = filter {
        filters.push(filter.render_into(p).map_err(Error::in_filter)?);
    }
    Ok((!filters.is_empty()).then(|| filters.join(" AND ")))
}

/// `_type = :entity`, or `_type IN (:entity, :alias, ...)` for an entity with aliases.
fn entity_filter(
    entity: &'static str,
    aliases: &'static [&'static str],
    attribute: &'static str,
    p: &mut crate::expr::Placeholders,
) -> String {
    let name = p.name(attribute);
    let mut values = std::iter::once(entity)
        .chain(aliases.iter().copied())
        .map(|e| p.value(crate::codec::AttributeValue::S(e.to_owned())));
    if aliases.is_empty() {
        format!("{name} = {}", values.next().unwrap_or_default())
    } else {
        format!("{name} IN ({})", values.collect::<Vec<_>>().join(", "))
    }
}
