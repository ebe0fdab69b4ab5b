//! A serde serializer straight to the SDK's `AttributeValue`: the fallback for field types
//! without an [`Attribute`](super::Attribute) implementation.
//!
//! It writes what `serde_dynamo::to_attribute_value` writes, value for value (strings as
//! `S`, numbers as `N`, bytes as `B`, unit and `None` as `NULL`, sequences and tuples as
//! `L`, maps and structs as `M`, enums externally tagged, `serde_dynamo`'s set wrappers as
//! `SS`/`NS`/`BS`), but builds the SDK's values directly: `serde_dynamo` builds a tree of
//! its own type first and converts it, which rebuilds every map. One difference: NaN and
//! the infinities are refused here, as by the direct conversions, where `serde_dynamo`
//! writes them and DynamoDB refuses the request.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use serde::ser::{self, Error as _, Serialize};

mod key;

use key::KeySerializer;

use super::attribute::finite;
use super::{AttributeError, AttributeValue, number_text};

/// `value` as an attribute value, through its `Serialize` implementation.
pub(crate) fn to_attribute_value<T: Serialize + ?Sized>(
    value: &T,
) -> Result<AttributeValue, AttributeError> {
    value.serialize(Serializer)
}

/// The newtype names `serde_dynamo`'s `string_set`, `number_set` and `binary_set` modules
/// serialize through, asking for a set instead of a list.
const STRING_SET: &str = "\u{037E}STRINGSET\u{037E}";
const NUMBER_SET: &str = "\u{037E}NUMBERSET\u{037E}";
const BINARY_SET: &str = "\u{037E}BYTESSET\u{037E}";

/// A list serialized under one of the set names, as that set.
fn into_set(name: &str, value: AttributeValue) -> Result<AttributeValue, AttributeError> {
    let AttributeValue::L(elements) = value else {
        return Err(AttributeError::custom("Not a set-like sequence"));
    };
    Ok(match name {
        STRING_SET => AttributeValue::Ss(members(elements, "String", |e| e.as_s().ok().cloned())?),
        NUMBER_SET => AttributeValue::Ns(members(elements, "Number", |e| e.as_n().ok().cloned())?),
        _ => AttributeValue::Bs(members(elements, "Binary", |e| e.as_b().ok().cloned())?),
    })
}

/// The elements of a set of `kind`, each taken by `member`; an element of another type is an
/// error.
fn members<T>(
    elements: Vec<AttributeValue>,
    kind: &str,
    member: impl Fn(&AttributeValue) -> Option<T>,
) -> Result<Vec<T>, AttributeError> {
    elements
        .iter()
        .map(|e| {
            member(e).ok_or_else(|| {
                AttributeError::custom(format!("{kind} set contains a value of another type"))
            })
        })
        .collect()
}

fn tagged(variant: &str, value: AttributeValue) -> AttributeValue {
    AttributeValue::M(HashMap::from([(variant.to_owned(), value)]))
}

/// Integers are written as their decimal text, as `serde_dynamo` writes them. (Not 128-bit
/// ones, which serde_dynamo refuses too: they can have more digits than DynamoDB keeps.)
macro_rules! integers {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Result<AttributeValue, AttributeError> {
            Ok(AttributeValue::N(number_text::integer(v)))
        }
    )*};
}

struct Serializer;

impl ser::Serializer for Serializer {
    type Ok = AttributeValue;
    type Error = AttributeError;
    type SerializeSeq = List;
    type SerializeTuple = List;
    type SerializeTupleStruct = List;
    type SerializeTupleVariant = Tagged<List>;
    type SerializeMap = Map;
    type SerializeStruct = Map;
    type SerializeStructVariant = Tagged<Map>;

    integers!(
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64
    );

    fn serialize_bool(self, v: bool) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::Bool(v))
    }
    fn serialize_f32(self, v: f32) -> Result<AttributeValue, AttributeError> {
        finite(v)?;
        Ok(AttributeValue::N(number_text::float(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<AttributeValue, AttributeError> {
        finite(v)?;
        Ok(AttributeValue::N(number_text::float(v)))
    }
    fn serialize_char(self, v: char) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::B(Blob::new(v)))
    }
    fn serialize_none(self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::Null(true))
    }
    fn serialize_some<T: Serialize + ?Sized>(
        self,
        value: &T,
    ) -> Result<AttributeValue, AttributeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::Null(true))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::Null(true))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<AttributeValue, AttributeError> {
        let value = value.serialize(self)?;
        match name {
            STRING_SET | NUMBER_SET | BINARY_SET => into_set(name, value),
            _ => Ok(value),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<AttributeValue, AttributeError> {
        Ok(tagged(variant, value.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<List, AttributeError> {
        Ok(List(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<List, AttributeError> {
        Ok(List(Vec::with_capacity(len)))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<List, AttributeError> {
        Ok(List(Vec::with_capacity(len)))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tagged<List>, AttributeError> {
        Ok(Tagged(variant, List(Vec::with_capacity(len))))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Map, AttributeError> {
        Ok(Map::new(len.unwrap_or(0)))
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Map, AttributeError> {
        Ok(Map::new(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tagged<Map>, AttributeError> {
        Ok(Tagged(variant, Map::new(len)))
    }
}

/// The elements of an `L` being serialized.
struct List(Vec<AttributeValue>);

impl List {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), AttributeError> {
        self.0.push(value.serialize(Serializer)?);
        Ok(())
    }
}

/// `List` is the serializer of sequences, tuples and tuple structs alike.
macro_rules! list {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for List {
            type Ok = AttributeValue;
            type Error = AttributeError;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), AttributeError> {
                self.push(v)
            }
            fn end(self) -> Result<AttributeValue, AttributeError> {
                Ok(AttributeValue::L(self.0))
            }
        }
    )*};
}

list!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

/// The entries of an `M` being serialized, and a key waiting for its value.
struct Map {
    entries: HashMap<String, AttributeValue>,
    key: Option<String>,
}

impl Map {
    fn new(len: usize) -> Self {
        Map {
            entries: HashMap::with_capacity(len),
            key: None,
        }
    }
}

impl ser::SerializeMap for Map {
    type Ok = AttributeValue;
    type Error = AttributeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), AttributeError> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), AttributeError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| AttributeError::custom("a map value came before its key"))?;
        self.entries.insert(key, v.serialize(Serializer)?);
        Ok(())
    }
    fn end(self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::M(self.entries))
    }
}

impl ser::SerializeStruct for Map {
    type Ok = AttributeValue;
    type Error = AttributeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), AttributeError> {
        self.entries
            .insert(name.to_owned(), v.serialize(Serializer)?);
        Ok(())
    }
    fn end(self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::M(self.entries))
    }
}

/// A tuple or struct variant: its content, under the variant's name.
struct Tagged<T>(&'static str, T);

impl ser::SerializeTupleVariant for Tagged<List> {
    type Ok = AttributeValue;
    type Error = AttributeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), AttributeError> {
        self.1.push(v)
    }
    fn end(self) -> Result<AttributeValue, AttributeError> {
        Ok(tagged(self.0, AttributeValue::L(self.1.0)))
    }
}

impl ser::SerializeStructVariant for Tagged<Map> {
    type Ok = AttributeValue;
    type Error = AttributeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), AttributeError> {
        ser::SerializeStruct::serialize_field(&mut self.1, name, v)
    }
    fn end(self) -> Result<AttributeValue, AttributeError> {
        Ok(tagged(self.0, AttributeValue::M(self.1.entries)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashSet};

    use serde::Serialize;

    use super::*;
    use crate::codec::serde_shapes::{Shape, everything};

    fn same_as_serde_dynamo<T: Serialize>(value: &T) {
        let direct = to_attribute_value(value).expect("serializes directly");
        let serde: AttributeValue = serde_dynamo::to_attribute_value(value).expect("serde_dynamo");
        assert_eq!(direct, serde);
    }

    #[test]
    fn every_shape_is_stored_as_serde_dynamo_stores_it() {
        same_as_serde_dynamo(&everything());
        same_as_serde_dynamo(&HashSet::from([1_u8, 2]));
        same_as_serde_dynamo(&Shape::Dot);
        same_as_serde_dynamo(&Vec::<String>::new());
    }

    /// Any JSON document: maps, lists, strings, integers, finite floats, bools, nulls.
    fn json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            (-1e12..1e12_f64).prop_map(serde_json::Value::from),
            ".{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::from),
                proptest::collection::btree_map(".{0,6}", inner, 0..8)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn any_json_document_is_stored_as_serde_dynamo_stores_it(value in json()) {
            same_as_serde_dynamo(&value);
        }
    }

    #[test]
    fn what_cannot_be_stored_is_an_error() {
        assert!(to_attribute_value(&f64::NAN).is_err());
        assert!(to_attribute_value(&vec![1.0, f64::INFINITY]).is_err());
        assert!(to_attribute_value(&BTreeMap::from([(1.5_f64.to_bits(), 1)])).is_ok());
        assert!(to_attribute_value(&BTreeMap::from([((1, 2), 1)])).is_err());
        assert!(to_attribute_value(&1_i128).is_err());
    }
}
