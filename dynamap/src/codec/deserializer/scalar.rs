//! The text of a number, a binary value and a map key, each deserialized as
//! `serde_dynamo` deserializes it.

use serde::de::{self, Error as _, Visitor};
use serde::forward_to_deserialize_any;

use super::{AttributeError, AttributeValue, Deserializer, Result};

/// `serde_dynamo`'s error for a value of the wrong type: "Expected {what}".
#[cold]
pub(super) fn expected(what: &str) -> AttributeError {
    AttributeError::custom(format_args!("Expected {what}"))
}

#[cold]
fn not_an_integer(text: &str, error: std::num::ParseIntError) -> AttributeError {
    AttributeError::custom(format_args!(
        "Failed to parse '{text}' as an integer: {error}"
    ))
}

#[cold]
fn not_a_float(text: &str, error: std::num::ParseFloatError) -> AttributeError {
    AttributeError::custom(format_args!("Failed to parse '{text}' as a float: {error}"))
}

/// The text of an `N` value (or an `NS` member).
pub(super) struct Number(pub(super) String);

/// Each width parses the text as that type.
macro_rules! parsed {
    ($($method:ident => $visit:ident: $ty:ty, $error:ident);* $(;)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0.parse::<$ty>() {
                Ok(value) => visitor.$visit(value),
                Err(error) => Err($error(&self.0, error)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Number {
    type Error = AttributeError;

    /// The first of `i64`, `u64` and `f64` the text parses as.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Ok(value) = self.0.parse::<i64>() {
            return visitor.visit_i64(value);
        }
        if let Ok(value) = self.0.parse::<u64>() {
            return visitor.visit_u64(value);
        }
        match self.0.parse::<f64>() {
            Ok(value) => visitor.visit_f64(value),
            Err(error) => Err(not_a_float(&self.0, error)),
        }
    }

    parsed!(
        deserialize_i8 => visit_i8: i8, not_an_integer;
        deserialize_i16 => visit_i16: i16, not_an_integer;
        deserialize_i32 => visit_i32: i32, not_an_integer;
        deserialize_i64 => visit_i64: i64, not_an_integer;
        deserialize_u8 => visit_u8: u8, not_an_integer;
        deserialize_u16 => visit_u16: u16, not_an_integer;
        deserialize_u32 => visit_u32: u32, not_an_integer;
        deserialize_u64 => visit_u64: u64, not_an_integer;
        deserialize_f32 => visit_f32: f32, not_a_float;
        deserialize_f64 => visit_f64: f64, not_a_float;
    );

    forward_to_deserialize_any! {
        str string seq map bool char unit enum bytes tuple option struct byte_buf identifier
        unit_struct tuple_struct newtype_struct ignored_any
    }
}

/// The bytes of a `B` value (or a `BS` member): bytes whatever is asked for.
pub(super) struct Bytes(pub(super) Vec<u8>);

impl<'de> de::Deserializer<'de> for Bytes {
    type Error = AttributeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_byte_buf(self.0)
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 str string seq map bool char unit enum bytes
        byte_buf tuple option struct identifier unit_struct tuple_struct newtype_struct
        ignored_any
    }
}

/// A map key: a string, read as an integer, a bool or a unit variant when one is asked for.
pub(super) struct Key(pub(super) String);

/// Integer keys parse from the key text.
macro_rules! integer_keys {
    ($($method:ident => $visit:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0.parse() {
                Ok(value) => visitor.$visit(value),
                Err(_) => Err(expected("num")),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Key {
    type Error = AttributeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_string(self.0)
    }

    integer_keys!(
        deserialize_i8 => visit_i8, deserialize_i16 => visit_i16, deserialize_i32 => visit_i32,
        deserialize_i64 => visit_i64, deserialize_i128 => visit_i128,
        deserialize_u8 => visit_u8, deserialize_u16 => visit_u16, deserialize_u32 => visit_u32,
        deserialize_u64 => visit_u64, deserialize_u128 => visit_u128
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.as_str() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(expected("string")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        Deserializer(AttributeValue::S(self.0)).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf option unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}
