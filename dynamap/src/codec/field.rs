//! Per-field encoding and decoding, called by generated `to_item` / `from_item`.
//!
//! Generated code converts a field of type `T` with `(&Via::<T>::NEW).encode(..)` and
//! `.decode(..)`: when `T` implements [`Attribute`] method resolution finds [`ViaDirect`] at
//! the first step and the value is converted by direct code; otherwise it takes one more
//! autoref and finds [`ViaSerde`], which goes through the type's serde implementation. The
//! choice is made at compile time for each field, with no cost at run time.
//!
//! `from_item` makes one pass over the item it owns, moving each attribute into its field's
//! slot, then decodes the slots: [`required`] and [`present`] read a slot, [`decoded`] names
//! a failure.

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::attribute::{Attribute, AttributeError};
use super::{AttributeValue, Item};
use crate::{Error, Result};

/// Selects the conversion of a field of type `T`; see the module documentation.
pub struct Via<T: ?Sized>(PhantomData<fn(&T)>);

impl<T: ?Sized> Via<T> {
    /// The selector (a constant, so the call costs nothing).
    pub const NEW: Self = Via(PhantomData);
}

/// The direct conversion, for types with an [`Attribute`] implementation.
pub trait ViaDirect<T> {
    /// `value` as an attribute value.
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>;
    /// An attribute value as a `T`.
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>;
}

impl<T: Attribute> ViaDirect<T> for Via<T> {
    #[inline]
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError> {
        value.to_attribute()
    }

    #[inline]
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError> {
        T::from_attribute(value)
    }
}

/// The serde conversion, for every other type. Its methods' bounds make a type that is
/// neither an [`Attribute`] nor serde's report the missing serde trait at the field.
pub trait ViaSerde<T: ?Sized> {
    /// `value` as an attribute value, through `serde_dynamo`.
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>
    where
        T: Serialize;
    /// An attribute value as a `T`, through `serde_dynamo`.
    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>
    where
        T: DeserializeOwned;
}

impl<T: ?Sized> ViaSerde<T> for &Via<T> {
    fn encode(&self, value: &T) -> Result<AttributeValue, AttributeError>
    where
        T: Serialize,
    {
        serialized(value)
    }

    fn decode(&self, value: AttributeValue) -> Result<T, AttributeError>
    where
        T: DeserializeOwned,
    {
        deserialized(value)
    }
}

/// `value` as an attribute value, through its serde implementation.
pub fn serialized<T: Serialize + ?Sized>(value: &T) -> Result<AttributeValue, AttributeError> {
    serde_dynamo::to_attribute_value(value)
}

/// An attribute value as a `T`, through its serde implementation.
pub fn deserialized<T: DeserializeOwned>(value: AttributeValue) -> Result<T, AttributeError> {
    serde_dynamo::from_attribute_value(value)
}

/// Stores an encoded field value as attribute `attribute`, or names the failure.
#[inline]
pub fn encoded(
    item: &mut Item,
    entity: &'static str,
    attribute: &'static str,
    value: Result<AttributeValue, AttributeError>,
) -> Result<()> {
    let value = value.map_err(|source| Error::Encode {
        entity,
        attribute,
        source,
    })?;
    item.insert(attribute.to_owned(), value);
    Ok(())
}

/// The value of a slot whose attribute must be present.
#[inline]
pub fn required(
    slot: Option<AttributeValue>,
    entity: &'static str,
    attribute: &'static str,
) -> Result<AttributeValue> {
    slot.ok_or(Error::MissingAttribute { entity, attribute })
}

/// The value of a slot, where a missing attribute and a `NULL` both mean `None`.
#[inline]
pub fn present(slot: Option<AttributeValue>) -> Option<AttributeValue> {
    slot.filter(|value| !matches!(value, AttributeValue::Null(_)))
}

/// A decoded field value, or the failure named with its attribute.
#[inline]
pub fn decoded<T>(
    value: Result<T, AttributeError>,
    entity: &'static str,
    attribute: &'static str,
) -> Result<T> {
    value.map_err(|source| Error::InvalidAttribute {
        entity,
        attribute,
        source,
    })
}
