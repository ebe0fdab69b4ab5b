//! Per-field encoding and decoding, called by generated `to_item` / `from_item`.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{AttributeValue, Item};
use crate::{Error, Result};

/// Stores `value` as attribute `attribute` of `item`.
pub fn encode_field<T: Serialize + ?Sized>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    value: &T,
) -> Result<()> {
    let value = serde_dynamo::to_attribute_value(value).map_err(|source| Error::Encode {
        entity,
        attribute,
        source,
    })?;
    item.insert(attribute.to_owned(), value);
    Ok(())
}

/// Takes attribute `attribute` out of `item` and decodes it; a missing attribute is an error.
pub fn decode_field<T: DeserializeOwned>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    decode(take(item, entity, attribute)?, entity, attribute)
}

/// Takes attribute `attribute` out of `item` and decodes it; a missing attribute or a
/// `NULL` is `None`.
pub fn decode_optional_field<T: DeserializeOwned>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
) -> Result<Option<T>> {
    take_optional(item, attribute)
        .map(|value| decode(value, entity, attribute))
        .transpose()
}

/// Takes attribute `attribute` out of `item`; a missing attribute is an error.
pub(super) fn take(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
) -> Result<AttributeValue> {
    item.remove(attribute)
        .ok_or(Error::MissingAttribute { entity, attribute })
}

/// Takes attribute `attribute` out of `item`; a missing attribute or a `NULL` is `None`.
pub(super) fn take_optional(item: &mut Item, attribute: &str) -> Option<AttributeValue> {
    item.remove(attribute)
        .filter(|value| !matches!(value, AttributeValue::Null(_)))
}

fn decode<T: DeserializeOwned>(
    value: AttributeValue,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    serde_dynamo::from_attribute_value(value).map_err(|source| Error::InvalidAttribute {
        entity,
        attribute,
        source,
    })
}
