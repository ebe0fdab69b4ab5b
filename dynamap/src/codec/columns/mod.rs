//! Columns written by generated code: the second version of the columnar format, for lists
//! whose element type derives [`Columnar`].
//!
//! The serde columnar format (version 1) walks each value through its `Serialize`
//! implementation and tags every scalar, because serde does not say a value's shape ahead
//! of time. A type that derives `Columnar` does: its code writes a list of them as one
//! column per field (a struct of arrays), each in the form that suits its type, with no
//! per-value tags and no per-value names.
//!
//! ```text
//! list     count, then the element type's column for `count` values
//! struct   field count, then for each field: its name, and its column as a length-prefixed block
//! integer  the serde columnar format's integer stream: zigzag varints of the values, of
//!          differences within interleaved series, or of the values series by series
//! float    the serde columnar format's float stream: decimal (a scale, then value x 10^scale
//!          as an integer stream, alone or as differences from an earlier float column of the
//!          same struct), or each value's bits XOR an earlier value's, in byte planes
//! bool     one byte each
//! string   the column's distinct strings (count, then each length-prefixed), then a code each
//! enum     the variant names (count, then each length-prefixed), then a code each
//! option   one presence byte each, then the inner type's column for the present values
//! Vec, set each value's length (an integer stream), then one column of every element
//! map      each value's length, a column of every key, then a column of every value
//! ```
//!
//! A float column is decimal when every value is exactly `n / 10^scale` for a scale up to 9
//! (a sensor's readings with a fixed resolution, money): the scale is found in one pass and
//! the integers compress far better than the bits. A struct's decimal float column is
//! stored as its difference from an earlier one (by position in the struct's stored
//! columns) when that is cheaper: a reading's `max` from its `value`. Only a column stored
//! alone is referred to, so a reader decodes at most one other column for it, whatever
//! order the reading type declares its fields in. Fields are found by name and enum
//! variants by name, so a field added (an `Option` or `#[serde(default)]` one) or removed,
//! or variants reordered, still read. Every read is checked: corrupt data is an error, never
//! a panic, and no count is trusted before the bytes that must back it are there.

mod collections;
mod numbers;
mod record;
mod referred;
mod scalars;

pub use record::{
    FieldReader, FieldWriter, RecordReader, RecordWriter, decode_variants, encode_variants,
};

use super::CodecError;
use super::columnar::Reader;

/// A type whose values a compressed list stores column by column, by generated code.
///
/// Derive it on the element type of a `#[dynamap(compress)]` list, next to serde's derives:
/// a struct with named fields (each field's type must be `Columnar` too), or a fieldless
/// enum. It is implemented for the integers, `f32`, `f64`, `bool`, `String`, and `Option`,
/// `Vec`, sets and maps of `Columnar` types. Serde's derives are still needed: items written
/// before, in the serde formats, read through them.
///
/// The trait has no methods to call: [`compress_list`](crate::codec::compress_list) and
/// [`decompress_list`](crate::codec::decompress_list) (and every compressed field) use it.
/// Its methods are the derive's, hidden and not public API: implement it only with
/// `#[derive(Columnar)]`.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Columnar, Compression, Header, compress_list, decompress_list};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Columnar, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
/// #[serde(rename_all = "UPPERCASE")]
/// enum Kind { Motion, Noise }
///
/// #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
/// struct Event { kind: Kind, start_ms: i64, level: f64, note: Option<String> }
///
/// let night: Vec<Event> = (0..1440)
///     .map(|minute| Event {
///         kind: if minute % 2 == 0 { Kind::Motion } else { Kind::Noise },
///         start_ms: minute * 60_000,
///         level: f64::from(minute as i32 % 7) / 10.0,
///         note: None,
///     })
///     .collect();
/// let stored = compress_list(&night, &Compression::DEFAULT)?;
/// assert_eq!(Header::read(&stored)?.0.version, 3);
/// assert_eq!(decompress_list::<Event>(&stored)?, night);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no column form for `#[derive(Columnar)]`",
    label = "not `Columnar`",
    note = "columns exist for integers, floats, `bool`, `String`, types that derive `Columnar`, and `Option`, `Vec`, sets and maps of those; for other field types leave `#[derive(Columnar)]` off and the list is stored through serde"
)]
pub trait Columnar: Sized {
    /// Writes `values` as this type's column.
    #[doc(hidden)]
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a;

    /// Reads `count` values of this type's column.
    #[doc(hidden)]
    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError>;

    /// Writes `values` as the column of a struct's field. Float columns override it to be
    /// stored against the struct's earlier columns; every other type writes its column.
    #[doc(hidden)]
    fn encode_field<'a, I>(values: I, column: &mut FieldWriter<'_>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        Self::encode_column(values, column.out());
    }

    /// Reads `count` values of a struct's field written by [`Columnar::encode_field`].
    #[doc(hidden)]
    fn decode_field(
        column: &mut FieldReader<'_, '_>,
        count: usize,
    ) -> Result<Vec<Self>, CodecError> {
        Self::decode_column(column.input(), count)
    }
}

/// The version of the generated columnar format written now (the header's format version).
/// Version 3 added grouped number streams and integer columns stored against another; its
/// reader reads version 2 too.
pub(crate) const VERSION: u8 = 3;

/// Writes `values` in the generated columnar format (without the compressed-value header).
pub(crate) fn encode_list<T: Columnar>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    super::columnar::put_varint(&mut out, values.len() as u64);
    T::encode_column(values.iter(), &mut out);
    out
}

/// Reads a list written by [`encode_list`].
pub(crate) fn decode_list<T: Columnar>(raw: &[u8]) -> Result<Vec<T>, CodecError> {
    let mut input = Reader::new(raw);
    let count = input.len()?;
    let values = T::decode_column(&mut input, count)?;
    if !input.is_empty() {
        return Err(CodecError::Corrupt("bytes after the last column"));
    }
    Ok(values)
}

/// Refuses a count of values that the bytes left cannot hold, at `per_value` bytes each at
/// least, before anything is allocated for them.
fn check_count(input: &Reader<'_>, count: usize, per_value: usize) -> Result<(), CodecError> {
    if count.saturating_mul(per_value) > input.remaining() {
        return Err(CodecError::Corrupt("value count exceeds the column's data"));
    }
    Ok(())
}

/// Writes `values` as `T`'s column and reads them back whole; the column's bytes.
#[cfg(test)]
fn round_trip<T: Columnar + PartialEq + std::fmt::Debug>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    T::encode_column(values.iter(), &mut out);
    let mut input = Reader::new(&out);
    let back = T::decode_column(&mut input, values.len()).expect("decodes");
    assert!(input.is_empty());
    assert_eq!(back, values);
    out
}
