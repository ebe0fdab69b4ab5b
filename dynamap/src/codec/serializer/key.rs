//! Map keys: a map is stored as `M`, whose keys are strings.

use serde::ser::{self, Error as _, Impossible, Serialize};

use crate::codec::{AttributeError, number_text};

/// Integer keys are written as their decimal text, as `serde_dynamo` writes them.
macro_rules! integer_keys {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Result<String, AttributeError> {
            Ok(number_text::integer(v))
        }
    )*};
}

/// Map keys: strings, and what `serde_dynamo` spells as one (integers, bools, chars, unit
/// variants, newtypes of those).
pub(super) struct KeySerializer;

fn not_a_string_key() -> AttributeError {
    AttributeError::custom("Key must be a string")
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = AttributeError;
    type SerializeSeq = Impossible<String, AttributeError>;
    type SerializeTuple = Impossible<String, AttributeError>;
    type SerializeTupleStruct = Impossible<String, AttributeError>;
    type SerializeTupleVariant = Impossible<String, AttributeError>;
    type SerializeMap = Impossible<String, AttributeError>;
    type SerializeStruct = Impossible<String, AttributeError>;
    type SerializeStructVariant = Impossible<String, AttributeError>;

    integer_keys!(
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128
    );

    fn serialize_bool(self, v: bool) -> Result<String, AttributeError> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_f64(self, _: f64) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_char(self, v: char) -> Result<String, AttributeError> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, AttributeError> {
        Ok(v.to_owned())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_none(self) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_unit(self) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, AttributeError> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, AttributeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, AttributeError> {
        Err(not_a_string_key())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, AttributeError> {
        Err(not_a_string_key())
    }
}
