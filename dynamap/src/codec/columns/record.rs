//! The pieces generated code writes structs and enums with: named columns, and variant
//! names with a code for each value.

use super::{Columnar, check_count};
use crate::codec::CodecError;
use crate::codec::columnar::Reader;
use crate::codec::columnar::varint::put;

fn put_text(out: &mut Vec<u8>, text: &str) {
    put(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

fn read_text<'a>(input: &mut Reader<'a>) -> Result<&'a str, CodecError> {
    std::str::from_utf8(input.block()?).map_err(|_| CodecError::Corrupt("a name is not UTF-8"))
}

/// Writes a struct's columns: the field count, then each field's name and column.
pub struct RecordWriter<'o> {
    out: &'o mut Vec<u8>,
    column: Vec<u8>,
}

impl<'o> RecordWriter<'o> {
    /// Starts a struct of `fields` columns.
    pub fn new(out: &'o mut Vec<u8>, fields: usize) -> Self {
        put(out, fields as u64);
        RecordWriter {
            out,
            column: Vec::new(),
        }
    }

    /// Writes the column of field `name`, as `write` makes it.
    pub fn column(&mut self, name: &str, write: impl FnOnce(&mut Vec<u8>)) {
        put_text(self.out, name);
        self.column.clear();
        write(&mut self.column);
        put(self.out, self.column.len() as u64);
        self.out.extend_from_slice(&self.column);
    }
}

/// A struct's stored columns, found by name.
pub struct RecordReader<'a> {
    columns: Vec<(&'a str, &'a [u8])>,
}

impl<'a> RecordReader<'a> {
    /// Reads the columns of `count` values of a struct whose fields are named `known`.
    /// Refuses a record that holds none of them, and a count that the first one's bytes
    /// cannot back: every column takes at least a byte for each value.
    pub fn read(input: &mut Reader<'a>, count: usize, known: &[&str]) -> Result<Self, CodecError> {
        let fields = input.len()?;
        // A column takes at least two bytes (its name's length and its own).
        check_count(input, fields, 2)?;
        let mut columns = Vec::with_capacity(fields);
        for _ in 0..fields {
            let name = read_text(input)?;
            columns.push((name, input.block()?));
        }
        let first_known = columns
            .iter()
            .find(|(name, _)| known.contains(name))
            .ok_or_else(|| {
                CodecError::Deserialize("the stored columns are none of the type's fields".into())
            })?;
        if first_known.1.len() < count {
            return Err(CodecError::Corrupt("value count exceeds the column's data"));
        }
        Ok(RecordReader { columns })
    }

    /// The `count` values of field `name`'s column, or `None` when the record has no such
    /// column (written before the field was added).
    pub fn column<T: Columnar>(
        &mut self,
        name: &str,
        count: usize,
    ) -> Result<Option<Vec<T>>, CodecError> {
        let Some(&(_, bytes)) = self.columns.iter().find(|(stored, _)| *stored == name) else {
            return Ok(None);
        };
        let mut input = Reader::new(bytes);
        let values = T::decode_column(&mut input, count)?;
        if !input.is_empty() {
            return Err(CodecError::Corrupt("bytes after a column's values"));
        }
        Ok(Some(values))
    }

    /// The error for a column with fewer values than the record.
    #[cold]
    pub fn short() -> CodecError {
        CodecError::Corrupt("a column holds fewer values than the record")
    }

    /// The error for a field that must be stored and is not.
    #[cold]
    pub fn missing(name: &str) -> CodecError {
        CodecError::Deserialize(format!("missing field `{name}`"))
    }
}

/// Writes a fieldless enum's column: the variant names, then each value's variant code.
pub fn encode_variants(names: &[&str], codes: impl Iterator<Item = usize>, out: &mut Vec<u8>) {
    put(out, names.len() as u64);
    for name in names {
        put_text(out, name);
    }
    for code in codes {
        put(out, code as u64);
    }
}

/// Reads `count` values of a fieldless enum's column as indexes into `names`, the
/// variants the reading type knows. Variants are matched by name, so reordered ones read;
/// a value of a variant the type does not know is an error.
pub fn decode_variants(
    input: &mut Reader<'_>,
    count: usize,
    names: &[&str],
) -> Result<Vec<usize>, CodecError> {
    let stored = input.len()?;
    check_count(input, stored, 1)?;
    let mut known = Vec::with_capacity(stored);
    for _ in 0..stored {
        let name = read_text(input)?;
        known.push(names.iter().position(|n| *n == name).ok_or(name));
    }
    check_count(input, count, 1)?;
    let mut codes = Vec::with_capacity(count);
    for _ in 0..count {
        let code = input.len()?;
        match known.get(code) {
            Some(Ok(index)) => codes.push(*index),
            Some(Err(name)) => {
                return Err(CodecError::Deserialize(format!("unknown variant `{name}`")));
            }
            None => return Err(CodecError::Corrupt("variant code out of range")),
        }
    }
    Ok(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_matched_by_name() {
        let mut out = Vec::new();
        encode_variants(&["A", "B", "C"], [2, 0, 1].into_iter(), &mut out);
        let read = decode_variants(&mut Reader::new(&out), 3, &["C", "A", "B"]);
        assert_eq!(read.expect("reads"), [0, 1, 2]);
        // A variant the reader lacks is an error only where a value uses it.
        let read = decode_variants(&mut Reader::new(&out), 3, &["A", "B"]);
        assert!(
            read.expect_err("C is used")
                .to_string()
                .contains("unknown variant `C`")
        );
        let mut unused = Vec::new();
        encode_variants(&["A", "Z"], [0, 0].into_iter(), &mut unused);
        assert_eq!(
            decode_variants(&mut Reader::new(&unused), 2, &["A"]).expect("reads"),
            [0, 0]
        );
    }

    #[test]
    fn records_find_columns_by_name() {
        let mut out = Vec::new();
        let mut record = RecordWriter::new(&mut out, 2);
        record.column("a", |out| i64::encode_column([1, 2].iter(), out));
        record.column("b", |out| bool::encode_column([true, false].iter(), out));
        let mut input = Reader::new(&out);
        let mut read = RecordReader::read(&mut input, 2, &["b", "c"]).expect("reads");
        assert!(input.is_empty());
        assert_eq!(
            read.column::<bool>("b", 2).expect("reads"),
            Some(vec![true, false])
        );
        assert_eq!(read.column::<u8>("c", 2).expect("reads"), None);
        assert!(RecordReader::read(&mut Reader::new(&out), 2, &["x"]).is_err());
        // Column `b` holds 2 bytes: not 3 values.
        assert!(RecordReader::read(&mut Reader::new(&out), 3, &["b"]).is_err());
    }
}
