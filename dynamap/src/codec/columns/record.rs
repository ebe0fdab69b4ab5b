//! The pieces generated code writes structs and enums with: named columns, and variant
//! names with a code for each value.

use super::numbers::counted;
use super::{Columnar, check_count};
use crate::codec::CodecError;
use crate::codec::columnar::floats::{
    EarlierFloats, Floats, missing_reference, put_floats, read_decimal_alone, read_floats,
};
use crate::codec::columnar::varint::put;
use crate::codec::columnar::{Forms, Reader};

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
    /// For each column written so far, what a later float column may be stored against.
    earlier: Vec<Floats<'static>>,
}

impl<'o> RecordWriter<'o> {
    /// Starts a struct of `fields` columns.
    pub fn new(out: &'o mut Vec<u8>, fields: usize) -> Self {
        put(out, fields as u64);
        RecordWriter {
            out,
            column: Vec::new(),
            earlier: Vec::with_capacity(fields),
        }
    }

    /// Writes the column of field `name`, as `write` makes it (with
    /// [`Columnar::encode_field`]).
    pub fn field(&mut self, name: &str, write: impl FnOnce(&mut FieldWriter<'_>)) {
        put_text(self.out, name);
        self.column.clear();
        let mut column = FieldWriter {
            out: &mut self.column,
            earlier: &self.earlier,
            offer: Floats::NONE,
        };
        write(&mut column);
        let offer = column.offer;
        put(self.out, self.column.len() as u64);
        self.out.extend_from_slice(&self.column);
        self.earlier.push(offer);
    }
}

/// A struct's field column being written, with the struct's earlier columns.
pub struct FieldWriter<'w> {
    out: &'w mut Vec<u8>,
    earlier: &'w [Floats<'static>],
    offer: Floats<'static>,
}

impl FieldWriter<'_> {
    /// Where the column's bytes go.
    pub(crate) fn out(&mut self) -> &mut Vec<u8> {
        self.out
    }

    /// Writes a float column from `f64` bit patterns, stored against an earlier column when
    /// that is cheaper. A column stored alone may be stored against in turn.
    pub(crate) fn floats(&mut self, bits: &[u64]) {
        let floats = Floats::new(bits);
        if put_floats(self.out, &floats, self.earlier, Forms::Version2).is_none() {
            self.offer = floats.into_reference();
        }
    }
}

/// A struct's field column being read, with the struct's columns stored before it.
pub struct FieldReader<'r, 'a> {
    input: Reader<'a>,
    earlier: StoredBefore<'r, 'a>,
}

impl<'a> FieldReader<'_, 'a> {
    /// The column's bytes.
    pub(crate) fn input(&mut self) -> &mut Reader<'a> {
        &mut self.input
    }

    /// Reads a float column of `count` values written by [`FieldWriter::floats`], as `f64`
    /// bit patterns.
    pub(crate) fn floats(&mut self, count: usize) -> Result<Vec<u64>, CodecError> {
        counted(read_floats(&mut self.input, &mut self.earlier)?, count)
    }
}

/// The columns stored before the one being read. A column it is stored against is read
/// from its own bytes, as the scaled integers of a decimal column stored alone: the writer
/// refers to no other kind, so a reader decodes at most one other column for it.
struct StoredBefore<'r, 'a> {
    columns: &'r [(&'a str, &'a [u8])],
}

impl EarlierFloats for StoredBefore<'_, '_> {
    fn scaled(&mut self, index: usize, scale: usize, count: usize) -> Result<Vec<u64>, CodecError> {
        let &(_, bytes) = self.columns.get(index).ok_or_else(missing_reference)?;
        let mut input = Reader::new(bytes);
        let scaled = read_decimal_alone(&mut input, scale, count)?;
        if !input.is_empty() {
            return Err(CodecError::Corrupt("bytes after a column's values"));
        }
        Ok(scaled)
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
    ///
    /// # Errors
    ///
    /// Fails with a [`CodecError`] when the record is truncated or corrupt, holds none of `known`,
    /// or its first known column is too short for `count` values.
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
    ///
    /// # Errors
    ///
    /// Fails with a [`CodecError`] when the column does not decode as `count` values of `T`, or has
    /// bytes left over.
    pub fn column<T: Columnar>(
        &mut self,
        name: &str,
        count: usize,
    ) -> Result<Option<Vec<T>>, CodecError> {
        let Some(position) = self.columns.iter().position(|(stored, _)| *stored == name) else {
            return Ok(None);
        };
        let mut column = FieldReader {
            input: Reader::new(self.columns[position].1),
            earlier: StoredBefore {
                columns: &self.columns[..position],
            },
        };
        let values = T::decode_field(&mut column, count)?;
        if !column.input.is_empty() {
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
///
/// # Errors
///
/// Fails with a [`CodecError`] when the column is truncated or corrupt, or a value is of a variant
/// not in `names`.
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
    fn a_float_column_is_stored_against_an_earlier_one_by_position() {
        let value: Vec<f64> = (0..300).map(|i| f64::from(i * 7 % 90) / 10.0).collect();
        let max: Vec<f64> = value.iter().map(|v| v + 0.5).collect();
        let mut out = Vec::new();
        let mut record = RecordWriter::new(&mut out, 3);
        record.field("n", |column| i64::encode_field([1; 300].iter(), column));
        record.field("value", |column| f64::encode_field(value.iter(), column));
        record.field("max", |column| f64::encode_field(max.iter(), column));
        let mut input = Reader::new(&out);
        let mut read = RecordReader::read(&mut input, 300, &["max"]).expect("reads");
        // `max`: its count, the decimal form, scale 1, and a reference to column 1 (+ 1).
        assert_eq!(&read.columns[2].1[..5], &[0xac, 0x02, 3, 1, 2]);
        assert_eq!(read.column::<f64>("max", 300).expect("reads"), Some(max));
        // A reference to a column that is not a decimal float column is an error.
        read.columns.swap(0, 1);
        assert!(read.column::<f64>("max", 300).is_err());
        read.columns.swap(0, 1);
        read.columns.truncate(1);
        read.columns.push(("max", &out[out.len() - 10..]));
        assert!(read.column::<f64>("max", 300).is_err());
    }

    #[test]
    fn records_find_columns_by_name() {
        let mut out = Vec::new();
        let mut record = RecordWriter::new(&mut out, 2);
        record.field("a", |column| i64::encode_field([1, 2].iter(), column));
        record.field("b", |column| {
            bool::encode_field([true, false].iter(), column)
        });
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
