//! The serializers of compound values: sequences, tuples, maps and structs, each sending
//! its parts to the child nodes they sit at.

use serde::ser::{self, Serialize};

use super::{At, Encoder};
use crate::codec::CodecError;
use crate::codec::columnar::shape::{Edge, Node};
use crate::codec::columnar::tags::Tag;

/// A sequence: every element at the same child node, so element `i`'s fields line up with
/// element `i + 1`'s.
pub(crate) struct Seq<'e> {
    encoder: &'e mut Encoder,
    elements: Node,
    expected: Option<usize>,
    written: usize,
}

impl<'e> Seq<'e> {
    pub(super) fn new(encoder: &'e mut Encoder, elements: Node, expected: Option<usize>) -> Self {
        Self {
            encoder,
            elements,
            expected,
            written: 0,
        }
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = CodecError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        self.written += 1;
        value.serialize(At::new(self.encoder, self.elements))
    }

    fn end(self) -> Result<(), CodecError> {
        close(self.encoder, self.elements, self.expected, self.written)
    }
}

/// Ends a sequence or map: an end marker in the column of its elements (or keys) when its
/// length was not announced, or a check that the announced length was written.
fn close(
    encoder: &mut Encoder,
    elements: Node,
    expected: Option<usize>,
    written: usize,
) -> Result<(), CodecError> {
    match expected {
        None => encoder.column(elements).tag(Tag::End),
        Some(expected) if expected != written => {
            return Err(CodecError::LengthMismatch { expected, written });
        }
        Some(_) => {}
    }
    Ok(())
}

/// A tuple (or tuple struct, or tuple variant's content): element `i` at child `i`.
pub(crate) struct Tuple<'e> {
    encoder: &'e mut Encoder,
    node: Node,
    expected: usize,
    written: usize,
}

impl<'e> Tuple<'e> {
    pub(super) fn new(encoder: &'e mut Encoder, node: Node, expected: usize) -> Self {
        Self {
            encoder,
            node,
            expected,
            written: 0,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        let node = self.encoder.child(self.node, Edge::Index, self.written, "");
        self.written += 1;
        value.serialize(At::new(self.encoder, node))
    }

    fn finish(self) -> Result<(), CodecError> {
        if self.written == self.expected {
            Ok(())
        } else {
            Err(CodecError::LengthMismatch {
                expected: self.expected,
                written: self.written,
            })
        }
    }
}

/// The element-writing traits of tuples, tuple structs and tuple variants all do the same.
macro_rules! tuple_like {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Tuple<'_> {
            type Ok = ();
            type Error = CodecError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
                self.element(value)
            }

            fn end(self) -> Result<(), CodecError> {
                self.finish()
            }
        }
    )*};
}

tuple_like!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// A map: keys at one child node, values at another.
pub(crate) struct Map<'e> {
    encoder: &'e mut Encoder,
    keys: Node,
    values: Node,
    expected: Option<usize>,
    written: usize,
}

impl<'e> Map<'e> {
    pub(super) fn new(
        encoder: &'e mut Encoder,
        keys: Node,
        values: Node,
        expected: Option<usize>,
    ) -> Self {
        Self {
            encoder,
            keys,
            values,
            expected,
            written: 0,
        }
    }
}

impl ser::SerializeMap for Map<'_> {
    type Ok = ();
    type Error = CodecError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CodecError> {
        self.written += 1;
        key.serialize(At::new(self.encoder, self.keys))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        value.serialize(At::new(self.encoder, self.values))
    }

    fn end(self) -> Result<(), CodecError> {
        close(self.encoder, self.keys, self.expected, self.written)
    }
}

/// A struct (or struct variant's content): the field names as dictionary codes in the
/// struct's own column, closed by a zero; each field's value at the field's child node.
/// Recording the names keeps `skip_serializing_if` and `flatten` exact.
pub(crate) struct Struct<'e> {
    encoder: &'e mut Encoder,
    node: Node,
}

impl<'e> Struct<'e> {
    pub(super) fn new(encoder: &'e mut Encoder, node: Node) -> Self {
        Self { encoder, node }
    }

    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        let node = self.encoder.field(self.node, key);
        value.serialize(At::new(self.encoder, node))
    }

    fn finish(self) -> Result<(), CodecError> {
        self.encoder.column(self.node).len(0);
        Ok(())
    }
}

/// Structs and struct variants write their fields alike.
macro_rules! struct_like {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Struct<'_> {
            type Ok = ();
            type Error = CodecError;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), CodecError> {
                self.field(key, value)
            }

            fn end(self) -> Result<(), CodecError> {
                self.finish()
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);
