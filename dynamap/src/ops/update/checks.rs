//! What an update refuses before sending, and the attribute names its checks work with.

use crate::derived::DerivedChange;
use crate::expr::DocPath;
use crate::expr::update::Change;
use crate::key::KeyError;
use crate::{Entity, Error, Result};

/// An update dynamap refuses to send, as `operation`.
pub(super) fn refuse(operation: &'static str, reason: String) -> Error {
    Error::Unsupported { operation, reason }
}

/// The `&'static str` the entity knows an index or lookup field's attribute by; `None` for
/// attributes no key is rendered from.
pub(super) fn attribute_of<E: Entity>(path: &DocPath) -> Option<&'static str> {
    let meta = E::WRITE;
    meta.indexed_attributes
        .iter()
        .map(|(a, _)| *a)
        .chain(meta.lookup_attributes.iter().map(|(a, _)| *a))
        .find(|a| *a == path.root())
}

pub(super) fn derived_attribute(change: &DerivedChange) -> &'static str {
    match change {
        DerivedChange::Set(attribute, _) | DerivedChange::Remove(attribute) => attribute,
    }
}

/// Refuses what an update cannot do safely: see [`Update`].
pub(super) fn check_changes<E: Entity>(changes: &[Change]) -> Result<()> {
    let meta = E::WRITE;
    for change in changes {
        let attribute = change.attribute();
        let whole = change.path().is_attribute();
        if meta.key_attributes.contains(&attribute) {
            return Err(refuse(
                "UpdateItem",
                format!(
                    "`{attribute}` is part of the primary key of `{}`; an update cannot change it",
                    E::ENTITY_TYPE
                ),
            ));
        }
        let kept_in = meta
            .lookup_attributes
            .iter()
            .map(|(a, lookup)| (a, format!("lookup `{lookup}`")))
            .chain(
                meta.indexed_attributes
                    .iter()
                    .map(|(a, index)| (a, format!("index `{index}`'s key"))),
            )
            .find(|(a, _)| **a == attribute);
        if let Some((_, key)) = kept_in
            && !(whole && matches!(change, Change::Set(..) | Change::Remove(_)))
        {
            return Err(refuse(
                "UpdateItem",
                format!(
                    "`{attribute}` is rendered into {key} of `{}`; an update can only set it to a value (or remove it, if optional), so the key can be rendered",
                    E::ENTITY_TYPE
                ),
            ));
        }
        if whole && !change.writes_value() && !meta.optional_attributes.contains(&attribute) {
            return Err(refuse(
                "UpdateItem",
                format!(
                    "`{attribute}` is not optional in `{}`; removing it would make the item unreadable",
                    E::ENTITY_TYPE
                ),
            ));
        }
        if let (true, Some((_, limit)), Change::Set(_, value) | Change::SetIfNotExists(_, value)) = (
            whole,
            meta.attribute_keys.iter().find(|(a, _)| *a == attribute),
            change,
        ) {
            crate::key::check_key_value(value.clone(), *limit).map_err(|err| {
                let attribute = attribute_static::<E>(attribute);
                Error::Key(KeyError::of_part(E::ENTITY_TYPE, attribute, attribute, err))
            })?;
        }
    }
    Ok(())
}

/// The static name of an attribute-key attribute, for errors.
fn attribute_static<E: Entity>(attribute: &str) -> &'static str {
    E::WRITE
        .attribute_keys
        .iter()
        .map(|(a, _)| *a)
        .find(|a| *a == attribute)
        .unwrap_or("")
}
