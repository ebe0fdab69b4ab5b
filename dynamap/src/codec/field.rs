//! Per-field encoding and decoding, called by generated `to_item` / `from_item`.
//!
//! Generated code converts a field of type `T` with `(&Via::<T>::NEW).insert(..)` (into
//! the item), `.encode(..)` (a value for an update or condition) and `.decode(..)`: when `T`
//! implements [`Attribute`] method resolution finds [`ViaDirect`] at the first step and the
//! value is converted by direct code; otherwise it takes one more autoref and finds
//! [`ViaSerde`], which goes through the type's serde implementation. The choice is made at
//! compile time for each field, with no cost at run time. Compressed fields choose the same
//! way between [`ViaColumns`](super::ViaColumns) and serde, with `.compress_into(..)` and
//! `.decompress_from(..)`.
//!
//! `from_item` makes one pass over the item it owns, moving each attribute into its field's
//! slot, then decodes the slots: [`present`] reads an optional one, [`missing_attribute`]
//! and [`decoded`] name a failure.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::attribute::{Attribute, AttributeError};
use super::compressed_field::{decode_compressed, encode_compressed};
use super::via::Via;
use super::{AttributeValue, Compression, Item};
use crate::{Error, Result};

/// The direct conversion, for types with an [`Attribute`] implementation.
pub trait ViaDirect<T> {
    /// `value` as an attribute value.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when the value cannot be stored (see
    /// [`Attribute::to_attribute`]).
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>;
    /// An attribute value as a `T`.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when `value` is of the wrong type or shape for `T`.
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>;
    /// Inserts `value` into `item` as attribute `name`.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when the value cannot be stored (see
    /// [`Attribute::to_attribute`]).
    fn insert(&self, item: &mut Item, name: String, value: &T) -> Result<(), AttributeError>;
    /// What a missing attribute reads as, if not an error: an empty set for a set.
    fn when_missing(&self) -> Option<T>;
}

impl<T: Attribute> ViaDirect<T> for Via<T> {
    #[inline]
    fn when_missing(&self) -> Option<T> {
        T::when_missing()
    }

    #[inline]
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError> {
        value.to_attribute()
    }

    #[inline]
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError> {
        T::from_attribute(value)
    }

    #[inline]
    fn insert(&self, item: &mut Item, name: String, value: &T) -> Result<(), AttributeError> {
        value.insert_into(item, name)
    }
}

/// `Serialize`, under a name whose error says what a field's type needs: a type that is
/// neither an [`Attribute`] nor serde's is reported at the field with this message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as an attribute: it implements neither `dynamap::Attribute` nor serde's `Serialize`",
    label = "not storable",
    note = "add `#[derive(dynamap::Attribute)]` (a struct with named fields, or an enum without data) or serde's `Serialize` and `Deserialize` to the type"
)]
pub trait SerializeField: Serialize {}

impl<T: Serialize + ?Sized> SerializeField for T {}

/// `DeserializeOwned`, under a name whose error says what a field's type needs (see
/// [`SerializeField`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from an attribute: it implements neither `dynamap::Attribute` nor serde's `Deserialize`",
    label = "not readable",
    note = "add `#[derive(dynamap::Attribute)]` (a struct with named fields, or an enum without data) or serde's `Serialize` and `Deserialize` to the type"
)]
pub trait DeserializeField: DeserializeOwned {}

impl<T: DeserializeOwned> DeserializeField for T {}

/// The serde conversion, for every other type. Its methods' bounds make a type that is
/// neither an [`Attribute`] nor serde's report so at the field.
pub trait ViaSerde<T: ?Sized> {
    /// `value` as an attribute value, through its serde implementation.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when the type's `Serialize` implementation fails or
    /// produces what no attribute can hold.
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>
    where
        T: SerializeField;
    /// An attribute value as a `T`, through its serde implementation.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when `value` does not fit `T`'s `Deserialize`
    /// implementation.
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>
    where
        T: DeserializeField;
    /// Inserts `value` into `item` as attribute `name`, through its serde implementation.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when the type's `Serialize` implementation fails or
    /// produces what no attribute can hold.
    fn insert(&self, item: &mut Item, name: String, value: &T) -> Result<(), AttributeError>
    where
        T: SerializeField;
    /// What a missing attribute reads as: nothing, it is an error.
    fn when_missing(&self) -> Option<T>
    where
        T: Sized,
    {
        None
    }
    /// Compresses `value` through serde into binary attribute `attribute`.
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
    ) -> Result<()>
    where
        T: Serialize;
    /// Decodes the value of compressed attribute `attribute` through serde.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Compressed`] when `value` is not binary or does not decompress as `T`.
    fn decompress_from(
        &self,
        value: AttributeValue,
        entity: &'static str,
        attribute: &'static str,
    ) -> Result<T>
    where
        T: DeserializeOwned + Sized;
}

impl<T: ?Sized> ViaSerde<T> for &Via<T> {
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>
    where
        T: SerializeField,
    {
        serialized(value)
    }

    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>
    where
        T: DeserializeField,
    {
        deserialized(value)
    }

    fn insert(&self, item: &mut Item, name: String, value: &T) -> Result<(), AttributeError>
    where
        T: SerializeField,
    {
        item.insert(name, serialized(value)?);
        Ok(())
    }

    fn compress_into(
        &self,
        item: &mut Item,
        entity: &'static str,
        attribute: &'static str,
        value: &T,
        settings: &Compression,
    ) -> Result<()>
    where
        T: Serialize,
    {
        encode_compressed(item, entity, attribute, value, settings)
    }

    fn decompress_from(
        &self,
        value: AttributeValue,
        entity: &'static str,
        attribute: &'static str,
    ) -> Result<T>
    where
        T: DeserializeOwned + Sized,
    {
        decode_compressed(value, entity, attribute)
    }
}

/// `value` as an attribute value, through its serde implementation (straight to the
/// SDK's type, in `serde_dynamo`'s form).
///
/// # Errors
///
/// Fails with an [`AttributeError`] when the type's `Serialize` implementation fails or produces
/// what no attribute can hold.
pub fn serialized<T: Serialize + ?Sized>(value: &T) -> Result<AttributeValue, AttributeError> {
    super::serializer::to_attribute_value(value)
}

/// An attribute value as a `T`, through its serde implementation (straight from the
/// SDK's type, reading what `serde_dynamo` reads).
///
/// # Errors
///
/// Fails with an [`AttributeError`] when `value` does not fit `T`'s `Deserialize` implementation.
pub fn deserialized<T: DeserializeOwned>(value: AttributeValue) -> Result<T, AttributeError> {
    super::deserializer::from_attribute_value(value)
}

/// Stores an encoded field value under `name` (attribute `attribute`), or names the failure.
/// The generated code allocates `name` before it encodes the value: allocating in the order
/// a hand-written `insert(name, value)` does keeps the item's memory as compact.
///
/// # Errors
///
/// Fails with [`Error::Encode`], naming `entity` and `attribute`, when `value` is an error.
#[inline(always)]
pub fn encoded(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    name: String,
    value: Result<AttributeValue, AttributeError>,
) -> Result<()> {
    match value {
        Ok(value) => {
            item.insert(name, value);
            Ok(())
        }
        Err(source) => Err(encode_error(entity, attribute, source)),
    }
}

#[cold]
fn encode_error(entity: &'static str, attribute: &'static str, source: AttributeError) -> Error {
    Error::Encode {
        entity,
        attribute,
        source,
    }
}

/// The outcome of inserting a field, with a failure named.
///
/// # Errors
///
/// Fails with [`Error::Encode`], naming `entity` and `attribute`, when `outcome` is an error.
#[inline(always)]
pub fn inserted(
    entity: &'static str,
    attribute: &'static str,
    outcome: Result<(), AttributeError>,
) -> Result<()> {
    match outcome {
        Ok(()) => Ok(()),
        Err(source) => Err(encode_error(entity, attribute, source)),
    }
}

/// The error for a field whose attribute is missing.
#[cold]
pub fn missing_attribute(entity: &'static str, attribute: &'static str) -> Error {
    Error::MissingAttribute {
        entity,
        attribute,
        item: None,
    }
}

/// The value of a slot, where a missing attribute and a `NULL` both mean `None`.
#[inline]
pub fn present(slot: Option<AttributeValue>) -> Option<AttributeValue> {
    slot.filter(|value| !matches!(value, AttributeValue::Null(_)))
}

/// A decoded field value, or the failure named with its attribute.
///
/// # Errors
///
/// Fails with [`Error::InvalidAttribute`], naming `entity` and `attribute`, when `value` is an
/// error.
#[inline(always)]
pub fn decoded<T>(
    value: Result<T, AttributeError>,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    match value {
        Ok(value) => Ok(value),
        Err(source) => Err(decode_error(entity, attribute, source)),
    }
}

#[cold]
fn decode_error(entity: &'static str, attribute: &'static str, source: AttributeError) -> Error {
    Error::InvalidAttribute {
        entity,
        attribute,
        source,
        item: None,
    }
}
