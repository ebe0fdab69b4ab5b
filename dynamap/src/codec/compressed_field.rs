//! Per-field encoding of `#[dynamap(compress)]` fields, called by generated code.

use aws_sdk_dynamodb::primitives::Blob;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::field::{take, take_optional};
use super::{AttributeValue, CodecError, Compression, Item, compress, decompress};
use crate::{Error, Result};

/// Compresses `value` into binary attribute `attribute`, refusing it over the budget.
pub fn encode_compressed<T: Serialize + ?Sized>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    value: &T,
    settings: &Compression,
) -> Result<()> {
    let stored = compress(value, settings).map_err(|source| Error::Compressed {
        entity,
        attribute,
        source,
    })?;
    if stored.len() > settings.budget {
        return Err(Error::CompressedTooLarge {
            entity,
            attribute,
            size: stored.len(),
            budget: settings.budget,
        });
    }
    item.insert(attribute.to_owned(), AttributeValue::B(Blob::new(stored)));
    Ok(())
}

/// Takes compressed attribute `attribute` out of `item` and decodes it; missing is an error.
pub fn decode_compressed<T: DeserializeOwned>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    decode(&take(item, entity, attribute)?, entity, attribute)
}

/// Takes compressed attribute `attribute` out of `item` and decodes it; a missing attribute
/// or a `NULL` is `None`.
pub fn decode_optional_compressed<T: DeserializeOwned>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
) -> Result<Option<T>> {
    take_optional(item, attribute)
        .map(|value| decode(&value, entity, attribute))
        .transpose()
}

fn decode<T: DeserializeOwned>(
    value: &AttributeValue,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    let fail = |source| Error::Compressed {
        entity,
        attribute,
        source,
    };
    let AttributeValue::B(blob) = value else {
        return Err(fail(CodecError::Corrupt(
            "a compressed attribute must be binary (B)",
        )));
    };
    decompress(blob.as_ref()).map_err(fail)
}
