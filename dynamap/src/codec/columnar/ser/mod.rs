//! The writing side: a `serde::Serializer` that sends every value to the column of the
//! node it sits at.

use serde::ser::{self, Serialize};

mod compound;

use compound::{Map, Seq, Struct, Tuple};

use super::CodecError;
use super::column::ColumnWriter;
use super::shape::{Edge, Node, Shape};
use super::tags::Tag;

/// Struct field codes start at 1; 0 closes the struct.
pub(crate) const FIELD_CODE_OFFSET: u64 = 1;

/// Everything written so far.
#[derive(Debug)]
pub(crate) struct Encoder {
    shape: Shape,
    columns: Vec<ColumnWriter>,
}

impl Encoder {
    pub(crate) fn new(single_column: bool) -> Self {
        Self {
            shape: Shape::new(single_column),
            columns: vec![ColumnWriter::default()],
        }
    }

    pub(crate) fn columns(&self) -> &[ColumnWriter] {
        &self.columns
    }

    /// True when the root value is a sequence or map, whose elements line up in columns.
    pub(crate) fn root_is_collection(&self) -> bool {
        self.columns[Shape::ROOT].first_tag().is_some_and(|tag| {
            [Tag::Seq, Tag::OpenSeq, Tag::Map, Tag::OpenMap]
                .iter()
                .any(|t| *t as u8 == tag)
        })
    }

    fn column(&mut self, node: Node) -> &mut ColumnWriter {
        &mut self.columns[node]
    }

    /// Writes struct field name `key` in `parent`'s column and returns the field's node.
    fn field(&mut self, parent: Node, key: &'static str) -> Node {
        if self.shape.single_column() {
            self.columns[parent].string(key, FIELD_CODE_OFFSET);
            return Shape::ROOT;
        }
        if let Some((node, code)) = self.shape.field(parent, key) {
            self.columns[parent].code(code, FIELD_CODE_OFFSET);
            return node;
        }
        let code = self.columns[parent].string(key, FIELD_CODE_OFFSET);
        let node = self.shape.add_field(parent, key, code);
        self.columns.push(ColumnWriter::default());
        node
    }

    fn child(&mut self, parent: Node, edge: Edge, position: usize, name: &str) -> Node {
        let node = self.shape.child(parent, edge, position, name);
        if node == self.columns.len() {
            self.columns.push(ColumnWriter::default());
        }
        node
    }

    /// Serializes `value` at the root.
    pub(crate) fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        value.serialize(At {
            encoder: self,
            node: Shape::ROOT,
        })
    }
}

/// The serializer for the value at `node`.
pub(crate) struct At<'e> {
    encoder: &'e mut Encoder,
    node: Node,
}

impl<'e> At<'e> {
    fn new(encoder: &'e mut Encoder, node: Node) -> Self {
        Self { encoder, node }
    }

    fn column(&mut self) -> &mut ColumnWriter {
        self.encoder.column(self.node)
    }

    fn tagged(mut self, tag: Tag) -> Self {
        self.column().tag(tag);
        self
    }

    fn int(mut self, tag: Tag, bits: u64) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(tag);
        column.int(bits);
        Ok(())
    }

    /// Starts a variant: its tag and name here, its content at the variant's child node.
    fn variant(mut self, tag: Tag, variant: &'static str) -> (&'e mut Encoder, Node) {
        let column = self.column();
        column.tag(tag);
        column.string(variant, 0);
        let content = self.encoder.child(self.node, Edge::Variant, 0, variant);
        (self.encoder, content)
    }
}

impl<'e> ser::Serializer for At<'e> {
    type Ok = ();
    type Error = CodecError;
    type SerializeSeq = Seq<'e>;
    type SerializeTuple = Tuple<'e>;
    type SerializeTupleStruct = Tuple<'e>;
    type SerializeTupleVariant = Tuple<'e>;
    type SerializeMap = Map<'e>;
    type SerializeStruct = Struct<'e>;
    type SerializeStructVariant = Struct<'e>;

    fn is_human_readable(&self) -> bool {
        // Types with a compact form (timestamps as integers, addresses as bytes) use it.
        false
    }

    fn serialize_bool(self, v: bool) -> Result<(), CodecError> {
        self.tagged(if v { Tag::True } else { Tag::False });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), CodecError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), CodecError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), CodecError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<(), CodecError> {
        self.int(Tag::I64, v as u64)
    }

    fn serialize_u8(self, v: u8) -> Result<(), CodecError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), CodecError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), CodecError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<(), CodecError> {
        self.int(Tag::U64, v)
    }

    fn serialize_i128(mut self, v: i128) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::I128);
        column.raw(&v.to_le_bytes());
        Ok(())
    }

    fn serialize_u128(mut self, v: u128) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::U128);
        column.raw(&v.to_le_bytes());
        Ok(())
    }

    fn serialize_f32(mut self, v: f32) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::F32);
        // Widening is exact, so narrowing on the way back restores the same bits.
        column.float(f64::from(v).to_bits());
        Ok(())
    }

    fn serialize_f64(mut self, v: f64) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::F64);
        column.float(v.to_bits());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), CodecError> {
        self.int(Tag::Char, u64::from(u32::from(v)))
    }

    fn serialize_str(mut self, v: &str) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::Str);
        column.string(v, 0);
        Ok(())
    }

    fn serialize_bytes(mut self, v: &[u8]) -> Result<(), CodecError> {
        let column = self.column();
        column.tag(Tag::Bytes);
        column.raw(v);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), CodecError> {
        self.tagged(Tag::None);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), CodecError> {
        value.serialize(self.tagged(Tag::Some))
    }

    fn serialize_unit(self) -> Result<(), CodecError> {
        self.tagged(Tag::Unit);
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), CodecError> {
        self.tagged(Tag::UnitStruct);
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), CodecError> {
        self.variant(Tag::UnitVariant, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        value.serialize(self.tagged(Tag::NewtypeStruct))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        let (encoder, node) = self.variant(Tag::NewtypeVariant, variant);
        value.serialize(At { encoder, node })
    }

    fn serialize_seq(mut self, len: Option<usize>) -> Result<Seq<'e>, CodecError> {
        let column = self.column();
        match len {
            Some(len) => {
                column.tag(Tag::Seq);
                column.len(len);
            }
            None => column.tag(Tag::OpenSeq),
        }
        let elements = self.encoder.child(self.node, Edge::Elem, 0, "");
        Ok(Seq::new(self.encoder, elements, len))
    }

    fn serialize_tuple(mut self, len: usize) -> Result<Tuple<'e>, CodecError> {
        let column = self.column();
        column.tag(Tag::Tuple);
        column.len(len);
        Ok(Tuple::new(self.encoder, self.node, len))
    }

    fn serialize_tuple_struct(
        mut self,
        _name: &'static str,
        len: usize,
    ) -> Result<Tuple<'e>, CodecError> {
        let column = self.column();
        column.tag(Tag::TupleStruct);
        column.len(len);
        Ok(Tuple::new(self.encoder, self.node, len))
    }

    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tuple<'e>, CodecError> {
        self.column().tag(Tag::TupleVariant);
        self.column().string(variant, 0);
        self.column().len(len);
        let content = self.encoder.child(self.node, Edge::Variant, 0, variant);
        Ok(Tuple::new(self.encoder, content, len))
    }

    fn serialize_map(mut self, len: Option<usize>) -> Result<Map<'e>, CodecError> {
        let column = self.column();
        match len {
            Some(len) => {
                column.tag(Tag::Map);
                column.len(len);
            }
            None => column.tag(Tag::OpenMap),
        }
        let keys = self.encoder.child(self.node, Edge::Key, 0, "");
        let values = self.encoder.child(self.node, Edge::Value, 0, "");
        Ok(Map::new(self.encoder, keys, values, len))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Struct<'e>, CodecError> {
        let At { encoder, node } = self.tagged(Tag::Struct);
        Ok(Struct::new(encoder, node))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Struct<'e>, CodecError> {
        let (encoder, node) = self.variant(Tag::StructVariant, variant);
        Ok(Struct::new(encoder, node))
    }
}
