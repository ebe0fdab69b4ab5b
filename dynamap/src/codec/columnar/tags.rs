//! The one-byte tag that starts every value, so the stream describes itself and
//! `deserialize_any` (untagged enums, `#[serde(flatten)]`, `serde_json::Value`) works.

use super::CodecError;

/// What kind of value follows in a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Tag {
    Unit = 0,
    None = 1,
    Some = 2,
    False = 3,
    True = 4,
    I64 = 5,
    U64 = 6,
    I128 = 7,
    U128 = 8,
    F32 = 9,
    F64 = 10,
    Char = 11,
    Str = 12,
    Bytes = 13,
    /// A sequence whose length is in the lens stream.
    Seq = 14,
    /// A sequence of unknown length, closed by an `End` tag in the element column.
    OpenSeq = 15,
    /// A map whose length is in the lens stream.
    Map = 16,
    /// A map of unknown length, closed by an `End` tag in the key column.
    OpenMap = 17,
    /// Field keys follow in the lens stream, closed by a zero.
    Struct = 18,
    Tuple = 19,
    TupleStruct = 20,
    UnitStruct = 21,
    NewtypeStruct = 22,
    UnitVariant = 23,
    NewtypeVariant = 24,
    TupleVariant = 25,
    StructVariant = 26,
    End = 27,
}

impl TryFrom<u8> for Tag {
    type Error = CodecError;

    fn try_from(byte: u8) -> Result<Self, CodecError> {
        const TAGS: [Tag; 28] = [
            Tag::Unit,
            Tag::None,
            Tag::Some,
            Tag::False,
            Tag::True,
            Tag::I64,
            Tag::U64,
            Tag::I128,
            Tag::U128,
            Tag::F32,
            Tag::F64,
            Tag::Char,
            Tag::Str,
            Tag::Bytes,
            Tag::Seq,
            Tag::OpenSeq,
            Tag::Map,
            Tag::OpenMap,
            Tag::Struct,
            Tag::Tuple,
            Tag::TupleStruct,
            Tag::UnitStruct,
            Tag::NewtypeStruct,
            Tag::UnitVariant,
            Tag::NewtypeVariant,
            Tag::TupleVariant,
            Tag::StructVariant,
            Tag::End,
        ];
        TAGS.get(usize::from(byte))
            .copied()
            .ok_or(CodecError::Corrupt("unknown value tag"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_reads_back_as_itself() {
        for byte in 0..=u8::MAX {
            if let Ok(tag) = Tag::try_from(byte) {
                assert_eq!(tag as u8, byte);
            } else {
                assert!(byte > Tag::End as u8);
            }
        }
    }
}
