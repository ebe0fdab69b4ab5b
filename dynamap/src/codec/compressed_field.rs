//! Per-field encoding of `#[dynamap(compress)]` fields, called by generated code.

use aws_sdk_dynamodb::primitives::Blob;
use serde::Serialize;
use serde::de::DeserializeOwned;

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

/// Decodes the value of compressed attribute `attribute`.
pub fn decode_compressed<T: DeserializeOwned>(
    value: AttributeValue,
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
