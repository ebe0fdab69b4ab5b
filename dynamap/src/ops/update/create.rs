//! An update that creates its item when it is missing ([`Update::create_if_missing`]
//! (super::Update::create_if_missing)): the item it creates must read back as the entity,
//! so the update must set every field that is not optional, defaulted, automatic or in the
//! key, and it writes what a put would besides: the entity type, its constant attributes,
//! the schema version, the
//! primary key's fields and the index keys made of them alone, each only where the item
//! has none.

use crate::codec::AttributeValue;
use crate::entity::Entity;
use crate::expr::DocPath;
use crate::expr::update::Change;
use crate::table::{SCHEMA_VERSION_ATTRIBUTE, Table};
use crate::{Error, Result};

/// The changes an update that may create its item adds to `changes`, for the item with
/// primary key `key`; an error naming the fields it leaves unset.
pub(super) fn creation_changes<E: Entity>(
    changes: &[Change],
    key: (&str, Option<&str>),
) -> Result<Vec<Change>> {
    let sets = |attribute: &str| {
        changes.iter().any(|change| {
            change.path().is_attribute()
                && change.attribute() == attribute
                && !matches!(change, Change::Remove(_) | Change::Delete(..))
        })
    };
    let unset: Vec<&str> = E::WRITE
        .required_attributes
        .iter()
        .copied()
        .filter(|attribute| !sets(attribute))
        .collect();
    if !unset.is_empty() {
        return Err(Error::Unsupported {
            operation: "UpdateItem",
            reason: format!(
                "an update that creates a missing `{}` must set every field that is not optional, defaulted or in the key, so the item it creates can be read: `{}` {} not set",
                E::ENTITY_TYPE,
                unset.join("`, `"),
                if unset.len() == 1 { "is" } else { "are" }
            ),
        });
    }
    let schema = <E::Table as Table>::SCHEMA;
    let mut created = vec![Change::SetIfNotExists(
        DocPath::attribute(schema.entity_type),
        AttributeValue::S(E::ENTITY_TYPE.to_owned()),
    )];
    created.extend(E::WRITE.constants.iter().map(|(attribute, value)| {
        Change::SetIfNotExists(
            DocPath::attribute(attribute),
            AttributeValue::S((*value).to_owned()),
        )
    }));
    if let Some(version) = E::WRITE.schema_version {
        created.push(Change::SetIfNotExists(
            DocPath::attribute(SCHEMA_VERSION_ATTRIBUTE),
            AttributeValue::N(version.to_string()),
        ));
    }
    let mut from_key: Vec<_> = E::created_attributes(key.0, key.1)?.into_iter().collect();
    // In a stable order, so equal updates render equal requests.
    from_key.sort_by(|a, b| a.0.cmp(&b.0));
    created.extend(
        from_key
            .into_iter()
            .map(|(attribute, value)| Change::SetIfNotExists(DocPath::owned(attribute), value)),
    );
    Ok(created)
}
