//! Per-field encoding of `#[dynamap(compress)]` fields, called by generated code.
//!
//! A field of type `T` is compressed with `(&Via::<T>::NEW).compress_into(..)` and read with
//! `.decompress_from(..)`: a `Vec` of a type that derives [`Columnar`] finds [`ViaColumns`]
//! (column by column, by the generated code); every other type takes one more autoref and
//! finds [`ViaSerde`](super::ViaSerde) (through serde).

use aws_sdk_dynamodb::primitives::Blob;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::via::Via;
use super::{
    AttributeValue, CodecError, Columnar, Compression, Item, compress, compress_list, decompress,
    decompress_list,
};
use crate::{Error, Result};

/// The generated columnar path, for lists of a type that derives [`Columnar`].
pub trait ViaColumns<T> {
    /// Compresses `value` into binary attribute `attribute`, refusing it over the budget.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Compressed`] when the value does not compress, and
    /// [`Error::CompressedTooLarge`] when it is over `settings`' budget.
    fn compress_into(
        &self,
        item: &mut Item,
        entity: &'static str,
        attribute: &'static str,
        value: &T,
        settings: &Compression,
    ) -> Result<()>;

    /// Decodes the value of compressed attribute `attribute`.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Compressed`] when `value` is not binary or does not decompress as `T`.
    fn decompress_from(
        &self,
        value: AttributeValue,
        entity: &'static str,
        attribute: &'static str,
    ) -> Result<T>;
}

impl<E: Columnar + Serialize + DeserializeOwned> ViaColumns<Vec<E>> for Via<Vec<E>> {
    fn compress_into(
        &self,
        item: &mut Item,
        entity: &'static str,
        attribute: &'static str,
        value: &Vec<E>,
        settings: &Compression,
    ) -> Result<()> {
        store(
            item,
            entity,
            attribute,
            compress_list(value, settings),
            settings,
        )
    }

    fn decompress_from(
        &self,
        value: AttributeValue,
        entity: &'static str,
        attribute: &'static str,
    ) -> Result<Vec<E>> {
        read(value, entity, attribute, decompress_list)
    }
}

/// Compresses `value` through serde into binary attribute `attribute`, refusing it over the
/// budget.
///
/// # Errors
///
/// Fails with [`Error::Compressed`] when the value does not compress, and
/// [`Error::CompressedTooLarge`] when it is over `settings`' budget.
pub fn encode_compressed<T: Serialize + ?Sized>(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    value: &T,
    settings: &Compression,
) -> Result<()> {
    store(item, entity, attribute, compress(value, settings), settings)
}

/// Decodes the value of compressed attribute `attribute` through serde.
///
/// # Errors
///
/// Fails with [`Error::Compressed`] when `value` is not binary or does not decompress as `T`.
pub fn decode_compressed<T: DeserializeOwned>(
    value: AttributeValue,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    read(value, entity, attribute, decompress)
}

fn store(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    stored: Result<Vec<u8>, CodecError>,
    settings: &Compression,
) -> Result<()> {
    let stored = stored.map_err(|source| Error::Compressed {
        entity,
        attribute,
        source,
        item: None,
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

fn read<T>(
    value: AttributeValue,
    entity: &'static str,
    attribute: &'static str,
    decode: impl FnOnce(&[u8]) -> Result<T, CodecError>,
) -> Result<T> {
    let fail = |source| Error::Compressed {
        entity,
        attribute,
        source,
        item: None,
    };
    let AttributeValue::B(blob) = value else {
        return Err(fail(CodecError::Corrupt(
            "a compressed attribute must be binary (B)",
        )));
    };
    decode(blob.as_ref()).map_err(fail)
}
