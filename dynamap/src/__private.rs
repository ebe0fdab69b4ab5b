//! Paths used by generated code. Not public API: anything here may change in any release.

pub use crate::codec::{AttributeValue, Item, decode_field, decode_optional_field, encode_field};
pub use crate::entity::Entity;
pub use crate::expr::Attr;
pub use crate::key::{
    Key, KeyArg, KeyError, KeyPart, KeyPartError, KeyReader, KeyWriter, PartitionKey,
};
pub use crate::key::{Segment, SortArgs};
pub use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
pub use crate::query::{Decode, UnknownEntity};
pub use crate::table::{IndexSchema, Projection, Table, TableSchema};
pub use crate::{Error, Result};
pub use serde;
pub use std::string::String;

/// Compile-time proof that a field type can fill a key template hole. The derive calls it
/// with the field type's span, so the error points at the field.
pub const fn assert_key_part<T: KeyPart>() {}

/// The entity-type check `from_item` starts with.
pub fn check_entity_type(
    item: &Item,
    attribute: &'static str,
    expected: &'static str,
) -> Result<()> {
    match item.get(attribute) {
        Some(AttributeValue::S(found)) if found == expected => Ok(()),
        other => Err(Error::WrongEntityType {
            expected,
            attribute,
            found: other.and_then(|v| v.as_s().ok()).cloned(),
        }),
    }
}

/// The entity type an item holds, if it holds one as a string.
pub fn entity_type_of<'a>(item: &'a Item, attribute: &str) -> Option<&'a str> {
    match item.get(attribute) {
        Some(AttributeValue::S(found)) => Some(found),
        _ => None,
    }
}

/// What a mixed query does with an item of an entity type its enum does not know.
pub fn unknown_entity<T>(
    policy: UnknownEntity,
    target: &'static str,
    attribute: &'static str,
    found: Option<&str>,
) -> Result<Option<T>> {
    match policy {
        UnknownEntity::Error => Err(Error::UnknownEntityType {
            target,
            attribute,
            found: found.map(str::to_owned),
        }),
        _ => {
            tracing::debug!(target: "dynamap", entity_type = ?found, decoder = target, "skipping an item of an unknown entity type");
            Ok(None)
        }
    }
}
