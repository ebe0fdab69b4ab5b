//! The reading side: a `serde::Deserializer` that takes each value from the column of the
//! node it sits at, walking the shape exactly as the writer did.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::CodecError;
use super::column::ColumnReader;
use super::ser::FIELD_CODE_OFFSET;
use super::shape::{Edge, Node, Shape};
use super::tags::Tag;

/// Nesting deeper than this is refused, so hostile input cannot overflow the stack through
/// a recursive type such as `serde_json::Value`.
const MAX_DEPTH: usize = 128;

/// Everything being read.
pub(crate) struct Decoder<'de> {
    shape: Shape,
    columns: Vec<ColumnReader<'de>>,
    depth: usize,
}

impl<'de> Decoder<'de> {
    pub(crate) fn new(columns: Vec<ColumnReader<'de>>, single_column: bool) -> Self {
        Self {
            shape: Shape::new(single_column),
            columns,
            depth: 0,
        }
    }

    /// Reads the value at the root.
    pub(crate) fn read<T: de::DeserializeOwned>(&mut self) -> Result<T, CodecError> {
        T::deserialize(At {
            decoder: self,
            node: Shape::ROOT,
        })
    }

    /// True when every column was read to its end: anything left means the data was not
    /// written for this type.
    pub(crate) fn is_exhausted(&self) -> bool {
        self.columns.iter().all(ColumnReader::is_exhausted)
    }

    fn column(&mut self, node: Node) -> Result<&mut ColumnReader<'de>, CodecError> {
        self.columns
            .get_mut(node)
            .ok_or(CodecError::Corrupt("value refers to a missing column"))
    }

    fn child(&mut self, parent: Node, edge: Edge, position: usize, name: &str) -> Node {
        self.shape.child(parent, edge, position, name)
    }

    fn enter(&mut self) -> Result<(), CodecError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(CodecError::TooDeep(MAX_DEPTH));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }
}

/// The deserializer for the value at `node`.
pub(crate) struct At<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    node: Node,
}

impl<'d, 'de> At<'d, 'de> {
    fn column(&mut self) -> Result<&mut ColumnReader<'de>, CodecError> {
        self.decoder.column(self.node)
    }

    fn int(&mut self) -> Result<u64, CodecError> {
        self.column()?.int()
    }

    fn wide(&mut self) -> Result<[u8; 16], CodecError> {
        self.column()?
            .raw()?
            .try_into()
            .map_err(|_| CodecError::Corrupt("128-bit integer is not 16 bytes"))
    }

    fn string(&mut self) -> Result<&'de str, CodecError> {
        self.column()?
            .string(0)?
            .ok_or(CodecError::Corrupt("missing string"))
    }

    /// Runs `body` one level deeper.
    fn nested<R>(
        self,
        body: impl FnOnce(&mut Decoder<'de>, Node) -> Result<R, CodecError>,
    ) -> Result<R, CodecError> {
        self.decoder.enter()?;
        let result = body(self.decoder, self.node);
        self.decoder.leave();
        result
    }

    /// The rest of a value whose tag was already read.
    fn value<V: Visitor<'de>>(mut self, tag: Tag, visitor: V) -> Result<V::Value, CodecError> {
        match tag {
            Tag::Unit | Tag::UnitStruct => visitor.visit_unit(),
            Tag::None => visitor.visit_none(),
            Tag::Some => self.nested(|decoder, node| visitor.visit_some(At { decoder, node })),
            Tag::NewtypeStruct => {
                self.nested(|decoder, node| visitor.visit_newtype_struct(At { decoder, node }))
            }
            Tag::False => visitor.visit_bool(false),
            Tag::True => visitor.visit_bool(true),
            Tag::I64 => visitor.visit_i64(self.int()? as i64),
            Tag::U64 => visitor.visit_u64(self.int()?),
            Tag::I128 => visitor.visit_i128(i128::from_le_bytes(self.wide()?)),
            Tag::U128 => visitor.visit_u128(u128::from_le_bytes(self.wide()?)),
            Tag::F32 => visitor.visit_f32(f64::from_bits(self.column()?.float()?) as f32),
            Tag::F64 => visitor.visit_f64(f64::from_bits(self.column()?.float()?)),
            Tag::Char => {
                let code = u32::try_from(self.int()?).ok().and_then(char::from_u32);
                visitor.visit_char(code.ok_or(CodecError::Corrupt("invalid char"))?)
            }
            Tag::Str => visitor.visit_str(self.string()?),
            Tag::Bytes => visitor.visit_bytes(self.column()?.raw()?),
            Tag::Seq | Tag::OpenSeq => {
                let len = if tag == Tag::Seq {
                    Some(self.column()?.len()?)
                } else {
                    None
                };
                self.nested(|decoder, node| {
                    let elements = decoder.child(node, Edge::Elem, 0, "");
                    visitor.visit_seq(Elements::new(decoder, elements, len))
                })
            }
            Tag::Tuple | Tag::TupleStruct => {
                let len = self.column()?.len()?;
                self.nested(|decoder, node| visitor.visit_seq(Positions::new(decoder, node, len)))
            }
            Tag::Map | Tag::OpenMap => {
                let len = if tag == Tag::Map {
                    Some(self.column()?.len()?)
                } else {
                    None
                };
                self.nested(|decoder, node| visitor.visit_map(Entries::new(decoder, node, len)))
            }
            Tag::Struct => {
                self.nested(|decoder, node| visitor.visit_map(Fields::new(decoder, node)))
            }
            Tag::UnitVariant | Tag::NewtypeVariant | Tag::TupleVariant | Tag::StructVariant => {
                let variant = self.string()?;
                let len = if tag == Tag::TupleVariant {
                    self.column()?.len()?
                } else {
                    0
                };
                self.nested(|decoder, node| {
                    let content = decoder.child(node, Edge::Variant, 0, variant);
                    visitor.visit_enum(Variant {
                        decoder,
                        content,
                        tag,
                        variant,
                        len,
                    })
                })
            }
            Tag::End => Err(CodecError::Corrupt("unexpected end marker")),
        }
    }
}

impl<'de> de::Deserializer<'de> for At<'_, 'de> {
    type Error = CodecError;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, CodecError> {
        let tag = self.column()?.tag()?;
        self.value(tag, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The elements of a sequence, all at one node.
struct Elements<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    node: Node,
    /// `None` for a sequence closed by an end marker.
    remaining: Option<usize>,
}

impl<'d, 'de> Elements<'d, 'de> {
    fn new(decoder: &'d mut Decoder<'de>, node: Node, remaining: Option<usize>) -> Self {
        Self {
            decoder,
            node,
            remaining,
        }
    }

    /// Whether another element follows, consuming the end marker if not.
    fn has_next(
        decoder: &mut Decoder<'de>,
        node: Node,
        remaining: &mut Option<usize>,
    ) -> Result<bool, CodecError> {
        match remaining {
            Some(0) => Ok(false),
            Some(n) => {
                *n -= 1;
                Ok(true)
            }
            None => {
                let column = decoder.column(node)?;
                if column.peek_tag()? == Tag::End {
                    column.tag()?;
                    Ok(false)
                } else {
                    Ok(true)
                }
            }
        }
    }
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = CodecError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, CodecError> {
        if !Elements::has_next(self.decoder, self.node, &mut self.remaining)? {
            return Ok(None);
        }
        seed.deserialize(At {
            decoder: self.decoder,
            node: self.node,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        self.remaining
    }
}

/// The elements of a tuple, element `i` at child `i`.
struct Positions<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    node: Node,
    next: usize,
    len: usize,
}

impl<'d, 'de> Positions<'d, 'de> {
    fn new(decoder: &'d mut Decoder<'de>, node: Node, len: usize) -> Self {
        Self {
            decoder,
            node,
            next: 0,
            len,
        }
    }
}

impl<'de> de::SeqAccess<'de> for Positions<'_, 'de> {
    type Error = CodecError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, CodecError> {
        if self.next == self.len {
            return Ok(None);
        }
        let node = self.decoder.child(self.node, Edge::Index, self.next, "");
        self.next += 1;
        seed.deserialize(At {
            decoder: self.decoder,
            node,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.next)
    }
}

/// The entries of a map: keys at one child node, values at another.
struct Entries<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    keys: Node,
    values: Node,
    remaining: Option<usize>,
}

impl<'d, 'de> Entries<'d, 'de> {
    fn new(decoder: &'d mut Decoder<'de>, node: Node, remaining: Option<usize>) -> Self {
        let keys = decoder.child(node, Edge::Key, 0, "");
        let values = decoder.child(node, Edge::Value, 0, "");
        Self {
            decoder,
            keys,
            values,
            remaining,
        }
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = CodecError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, CodecError> {
        if !Elements::has_next(self.decoder, self.keys, &mut self.remaining)? {
            return Ok(None);
        }
        seed.deserialize(At {
            decoder: self.decoder,
            node: self.keys,
        })
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, CodecError> {
        seed.deserialize(At {
            decoder: self.decoder,
            node: self.values,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.remaining
    }
}

/// The fields of a struct: names from the struct's column, values at each field's node.
struct Fields<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    node: Node,
    /// The node of the field whose name was just read.
    pending: Option<Node>,
}

impl<'d, 'de> Fields<'d, 'de> {
    fn new(decoder: &'d mut Decoder<'de>, node: Node) -> Self {
        Self {
            decoder,
            node,
            pending: None,
        }
    }
}

impl<'de> de::MapAccess<'de> for Fields<'_, 'de> {
    type Error = CodecError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, CodecError> {
        let Some(name) = self.decoder.column(self.node)?.string(FIELD_CODE_OFFSET)? else {
            return Ok(None);
        };
        let field = self.decoder.child(self.node, Edge::Field, 0, name);
        self.pending = Some(field);
        seed.deserialize(name.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, CodecError> {
        let node = self
            .pending
            .take()
            .ok_or(CodecError::Corrupt("struct value without a field name"))?;
        seed.deserialize(At {
            decoder: self.decoder,
            node,
        })
    }
}

/// An enum value whose tag and variant name were read.
struct Variant<'d, 'de> {
    decoder: &'d mut Decoder<'de>,
    content: Node,
    tag: Tag,
    variant: &'de str,
    len: usize,
}

impl<'d, 'de> de::EnumAccess<'de> for Variant<'d, 'de> {
    type Error = CodecError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self), CodecError> {
        let name: de::value::BorrowedStrDeserializer<'de, CodecError> =
            de::value::BorrowedStrDeserializer::new(self.variant);
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = CodecError;

    fn unit_variant(self) -> Result<(), CodecError> {
        match self.tag {
            Tag::UnitVariant => Ok(()),
            _ => Err(CodecError::Corrupt("expected a unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, CodecError> {
        match self.tag {
            Tag::NewtypeVariant => seed.deserialize(At {
                decoder: self.decoder,
                node: self.content,
            }),
            // `IgnoredAny` asks for a newtype whatever the variant holds: hand it the
            // content in whatever form it has.
            _ => seed.deserialize(self),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

/// A variant's content as a value of its own.
impl<'de> de::Deserializer<'de> for Variant<'_, 'de> {
    type Error = CodecError;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        match self.tag {
            Tag::UnitVariant => visitor.visit_unit(),
            Tag::NewtypeVariant => de::Deserializer::deserialize_any(
                At {
                    decoder: self.decoder,
                    node: self.content,
                },
                visitor,
            ),
            Tag::TupleVariant => {
                visitor.visit_seq(Positions::new(self.decoder, self.content, self.len))
            }
            _ => visitor.visit_map(Fields::new(self.decoder, self.content)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
