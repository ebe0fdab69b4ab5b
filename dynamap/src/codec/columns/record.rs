//! The pieces generated code writes structs and enums with: named columns, and variant
//! names with a code for each value.

use super::numbers::counted;
use super::referred::{Memo, StoredBefore};
use super::{Columnar, check_count};
use crate::codec::CodecError;
use crate::codec::columnar::floats::{
    Floats, decimal_alone, power_of_ten, put_floats, read_decimal_alone, read_floats, unscaled,
};
use crate::codec::columnar::groups::{self, Groups};
use crate::codec::columnar::ints::{GroupColumn, put_ints_against, read_ints_with, stored_against};
use crate::codec::columnar::varint::put;
use crate::codec::columnar::{Forms, Reader};

fn put_text(out: &mut Vec<u8>, text: &str) {
    put(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

fn read_text<'a>(input: &mut Reader<'a>) -> Result<&'a str, CodecError> {
    std::str::from_utf8(input.block()?).map_err(|_| CodecError::Corrupt("a name is not UTF-8"))
}

/// What later columns of a record may be stored against, one entry per column written.
#[derive(Default)]
struct Offers {
    /// The decimal values of float columns stored alone (or grouped).
    floats: Vec<Floats<'static>>,
    /// The values of integer columns stored against no other.
    ints: Vec<Option<Vec<u64>>>,
    /// The groups of columns that partition the records into a few: dictionary columns
    /// (enums, strings), and integer columns stored alone and not grouped.
    groups: Vec<Option<(u8, Groups)>>,
}

impl Offers {
    fn group_columns(&self) -> Vec<GroupColumn<'_>> {
        self.groups
            .iter()
            .enumerate()
            .filter_map(|(column, offer)| {
                offer.as_ref().map(|(kind, groups)| GroupColumn {
                    kind: *kind,
                    column,
                    groups,
                })
            })
            .collect()
    }
}

/// Writes a struct's columns: the field count, then each field's name and column.
pub struct RecordWriter<'o> {
    out: &'o mut Vec<u8>,
    column: Vec<u8>,
    earlier: Offers,
}

impl<'o> RecordWriter<'o> {
    /// Starts a struct of `fields` columns.
    pub fn new(out: &'o mut Vec<u8>, fields: usize) -> Self {
        put(out, fields as u64);
        RecordWriter {
            out,
            column: Vec::new(),
            earlier: Offers::default(),
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
            floats: Floats::NONE,
            ints: None,
            groups: None,
            numeric: false,
        };
        write(&mut column);
        let FieldWriter {
            floats,
            ints,
            mut groups,
            numeric,
            ..
        } = column;
        if !numeric {
            // Any other column is offered as groups when its bytes read as a dictionary
            // column of a few codes: the reader reads the same bytes the same way, so the
            // groups agree whatever type wrote them (an enum or a string column, by design).
            groups = groups::dictionary_codes(&self.column)
                .ok()
                .and_then(|codes| Groups::new(codes.into_iter()))
                .map(|g| (groups::DICTIONARY, g));
        }
        put(self.out, self.column.len() as u64);
        self.out.extend_from_slice(&self.column);
        self.earlier.floats.push(floats);
        self.earlier.ints.push(ints);
        self.earlier.groups.push(groups);
    }
}

/// A struct's field column being written, with the struct's earlier columns.
pub struct FieldWriter<'w> {
    out: &'w mut Vec<u8>,
    earlier: &'w Offers,
    floats: Floats<'static>,
    ints: Option<Vec<u64>>,
    groups: Option<(u8, Groups)>,
    numeric: bool,
}

impl FieldWriter<'_> {
    /// Where the column's bytes go.
    pub(crate) fn out(&mut self) -> &mut Vec<u8> {
        self.out
    }

    /// Writes a float column from `f64` bit patterns, stored against an earlier column or
    /// grouped by one when that is cheaper. A column stored against no other may be stored
    /// against in turn.
    pub(crate) fn floats(&mut self, bits: &[u64]) {
        self.numeric = true;
        let floats = Floats::new(bits);
        let groups = self.earlier.group_columns();
        if put_floats(
            self.out,
            &floats,
            &self.earlier.floats,
            Forms::Version2,
            &groups,
        )
        .is_none()
        {
            self.floats = floats.into_reference();
        }
    }

    /// Writes an integer column (values sign-extended to 64 bits), stored against an
    /// earlier integer column (`end` against `start`) or grouped by an earlier column when
    /// that is cheaper.
    pub(crate) fn ints(&mut self, values: Vec<u64>) {
        self.numeric = true;
        let groups = self.earlier.group_columns();
        let bases: Vec<(usize, &[u64])> = self
            .earlier
            .ints
            .iter()
            .enumerate()
            .filter_map(|(column, base)| base.as_deref().map(|base| (column, base)))
            .collect();
        let (alone, grouped) = put_ints_against(self.out, &values, &bases, &groups);
        if alone {
            if !grouped {
                self.groups = Groups::new(values.iter().copied()).map(|g| (groups::INTEGERS, g));
            }
            self.ints = Some(values);
        }
    }
}

/// A struct's field column being read, with the struct's columns stored before it.
pub struct FieldReader<'r, 'a> {
    input: Reader<'a>,
    earlier: StoredBefore<'r, 'a>,
    /// The column's position among the record's, and whether its values are kept for
    /// later columns that refer to it.
    position: usize,
    kept: bool,
}

impl<'a> FieldReader<'_, 'a> {
    /// The column's bytes.
    pub(crate) fn input(&mut self) -> &mut Reader<'a> {
        &mut self.input
    }

    /// Reads a float column of `count` values written by [`FieldWriter::floats`], as `f64`
    /// bit patterns.
    pub(crate) fn floats(&mut self, count: usize) -> Result<Vec<u64>, CodecError> {
        if self.kept
            && let Some(scale) = decimal_alone(&self.input)
        {
            // Decoded as a later column reads it, and kept for that column.
            let scaled = read_decimal_alone(&mut self.input, scale, count, &mut self.earlier)?;
            if self.input.is_empty() {
                self.earlier.memo.keep_scaled(self.position, scale, &scaled);
            }
            return Ok(unscaled(&scaled, power_of_ten(scale)?));
        }
        counted(read_floats(&mut self.input, &mut self.earlier)?, count)
    }

    /// Reads an integer column of `count` values written by [`FieldWriter::ints`].
    pub(crate) fn ints(&mut self, count: usize) -> Result<Vec<u64>, CodecError> {
        let keep = self.kept && !stored_against(&self.input);
        let values = counted(read_ints_with(&mut self.input, &mut self.earlier)?, count)?;
        if keep && self.input.is_empty() {
            self.earlier.memo.keep_ints(self.position, &values);
        }
        Ok(values)
    }
}

/// A struct's stored columns, found by name.
pub struct RecordReader<'a> {
    columns: Vec<(&'a str, &'a [u8])>,
    memo: Memo,
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
        let memo = Memo::new(&columns);
        Ok(RecordReader { columns, memo })
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
            kept: self.memo.is_referred(position),
            earlier: StoredBefore {
                columns: &self.columns[..position],
                memo: &mut self.memo,
            },
            position,
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
        assert_eq!(
            read.column::<f64>("value", 300).expect("reads"),
            Some(value)
        );
        assert_eq!(read.column::<f64>("max", 300).expect("reads"), Some(max));
        assert_eq!(read.memo.held(), (0, 1, 0), "`value` kept as it was read");
        // A reference to a column that is not a decimal float column is an error.
        read.columns.swap(0, 1);
        read.memo = Memo::new(&read.columns);
        assert!(read.column::<f64>("max", 300).is_err());
        read.columns.swap(0, 1);
        read.columns.truncate(1);
        read.columns.push(("max", &out[out.len() - 10..]));
        read.memo = Memo::new(&read.columns);
        assert!(read.column::<f64>("max", 300).is_err());
    }

    #[test]
    fn irregular_series_are_grouped_and_integers_stored_against_earlier_ones() {
        // Two sensors at 20 s and 45 s, and each reading's end about 1 s before the next:
        // no fixed lag lines a sensor's readings up, the sensor column does.
        let (mut kinds, mut start, mut end, mut clocks) = (vec![], vec![], vec![], [0i64; 2]);
        for i in 0..400i64 {
            let kind = usize::from(i % 13 < 9);
            clocks[kind] += [45_000, 20_000][kind];
            kinds.push(["NOISE", "MOTION"][kind].to_string());
            start.push(clocks[kind]);
            end.push(clocks[kind] + [44_000, 19_000][kind] + i * 11 % 17);
        }
        let mut out = Vec::new();
        let mut record = RecordWriter::new(&mut out, 3);
        record.field("kind", |column| String::encode_field(kinds.iter(), column));
        record.field("start", |column| i64::encode_field(start.iter(), column));
        record.field("end", |column| i64::encode_field(end.iter(), column));
        let mut input = Reader::new(&out);
        let mut read =
            RecordReader::read(&mut input, 400, &["kind", "start", "end"]).expect("reads");
        // `start`: its count (400), grouped, differenced, by dictionary column 0.
        assert_eq!(&read.columns[1].1[..6], &[0x90, 0x03, 3, 1, 0, 0]);
        // `end`: its count, against integer column 1, then grouped by column 0.
        assert_eq!(&read.columns[2].1[..5], &[0x90, 0x03, 4, 1, 3]);
        // Read in order, `start` is kept as it is read and `kind`'s groups found once.
        assert_eq!(
            read.column::<i64>("start", 400).expect("reads"),
            Some(start.clone())
        );
        assert_eq!(read.memo.held(), (1, 0, 1));
        assert_eq!(
            read.column::<i64>("end", 400).expect("reads"),
            Some(end.clone())
        );
        assert_eq!(read.memo.held(), (1, 0, 1));
        // Out of order, a referred column is decoded from its bytes, once.
        read.memo = Memo::new(&read.columns);
        assert_eq!(
            read.column::<i64>("end", 400).expect("reads"),
            Some(end.clone())
        );
        assert_eq!(read.memo.held(), (1, 0, 1));
        assert_eq!(
            read.column::<i64>("start", 400).expect("reads"),
            Some(start)
        );
        // Without the columns referred to, the data is corrupt, not a panic.
        read.columns.swap(0, 1);
        read.memo = Memo::new(&read.columns);
        assert!(read.column::<i64>("end", 400).is_err());
        read.columns.remove(0);
        read.memo = Memo::new(&read.columns);
        assert!(read.column::<i64>("end", 400).is_err());
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
