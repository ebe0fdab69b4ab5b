//! A serde deserializer straight from the SDK's `AttributeValue`: the fallback for field
//! types without an [`Attribute`](super::Attribute) implementation.
//!
//! It reads what `serde_dynamo::from_attribute_value` reads, value for value, with the same
//! error messages: numbers from `N` (in `deserialize_any` the first of `i64`, `u64` and
//! `f64` that parses), strings from `S`, bytes from `B`, unit and `None` from `NULL`,
//! sequences from `L`, `SS`, `NS` and `BS`, structs from `M` or `L`, enums from `S` (unit
//! variants) or a single-key `M`. It reads the SDK's values in place, where `serde_dynamo`
//! first converts the whole value to a tree of its own type, rebuilding every map. One
//! difference: a value of a type this SDK version does not know is an error here, where
//! `serde_dynamo` panics.

use aws_sdk_dynamodb::primitives::Blob;
use serde::de::value::StringDeserializer;
use serde::de::{self, DeserializeOwned, Error as _, IntoDeserializer, Visitor};

mod access;
mod scalar;

use access::{Entries, Tagged, Values};
use scalar::{Bytes, Number, expected};

use super::{AttributeError, AttributeValue};

/// An attribute value as a `T`, through its `Deserialize` implementation.
pub(crate) fn from_attribute_value<T: DeserializeOwned>(
    value: AttributeValue,
) -> Result<T, AttributeError> {
    T::deserialize(Deserializer(value))
}

type Result<T, E = AttributeError> = std::result::Result<T, E>;

/// Deserializes one attribute value, which it owns.
pub(super) struct Deserializer(AttributeValue);

/// Numbers of every width parse from the `N` text.
macro_rules! numbers {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0 {
                AttributeValue::N(text) => Number(text).$method(visitor),
                _ => Err(expected("num")),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Deserializer {
    type Error = AttributeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::N(text) => Number(text).deserialize_any(visitor),
            AttributeValue::S(text) => visitor.visit_string(text),
            AttributeValue::Bool(value) => visitor.visit_bool(value),
            AttributeValue::B(bytes) => Bytes(bytes.into_inner()).deserialize_any(visitor),
            value @ AttributeValue::Null(_) => Deserializer(value).deserialize_unit(visitor),
            value @ AttributeValue::M(_) => Deserializer(value).deserialize_map(visitor),
            value @ (AttributeValue::L(_)
            | AttributeValue::Ss(_)
            | AttributeValue::Ns(_)
            | AttributeValue::Bs(_)) => Deserializer(value).deserialize_seq(visitor),
            _ => Err(unknown_type()),
        }
    }

    numbers!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Bool(value) => visitor.visit_bool(value),
            _ => Err(expected("bool")),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let AttributeValue::S(text) = self.0 else {
            return Err(expected("char"));
        };
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(only), None) => visitor.visit_char(only),
            // serde_dynamo visits the first character before it looks for a second one.
            (Some(first), Some(_)) => visitor.visit_char(first).and(Err(expected("char"))),
            (None, _) => Err(expected("char")),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::S(text) => visitor.visit_string(text),
            _ => Err(expected("string")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::B(bytes) => Bytes(bytes.into_inner()).deserialize_any(visitor),
            _ => Err(expected("binary data")),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Null(true) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.null(visitor, "unit")
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.null(visitor, "unit struct")
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::L(values) => visitor.visit_seq(Values::new(values, Deserializer)),
            AttributeValue::Ss(strings) => {
                visitor.visit_seq(Values::new(strings, StringDeserializer::new))
            }
            AttributeValue::Ns(numbers) => visitor.visit_seq(Values::new(numbers, Number)),
            AttributeValue::Bs(blobs) => {
                visitor.visit_seq(Values::new(blobs, |blob: Blob| Bytes(blob.into_inner())))
            }
            _ => Err(expected("seq")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::M(entries) => visitor.visit_map(Entries::new(entries)),
            _ => Err(expected("map")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            AttributeValue::L(_) => self.deserialize_seq(visitor),
            _ => self.deserialize_map(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            AttributeValue::S(variant) => {
                let variant: StringDeserializer<AttributeError> = variant.into_deserializer();
                visitor.visit_enum(variant)
            }
            AttributeValue::M(entries) => visitor.visit_enum(Tagged::new(entries)?),
            _ => Err(expected("enum")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
}

impl Deserializer {
    /// A `NULL` as the unit, or "Expected {what}".
    fn null<'de, V: Visitor<'de>>(self, visitor: V, what: &str) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Null(true) => visitor.visit_unit(),
            _ => Err(expected(what)),
        }
    }
}

#[cold]
fn unknown_type() -> AttributeError {
    AttributeError::custom("attribute value of a type this SDK version does not know")
}

#[cfg(test)]
mod tests;
