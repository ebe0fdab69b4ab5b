//! dynamap's binary value format, in two layouts.
//!
//! A value is walked through its `serde` implementation, and every scalar goes to the
//! *column* of the place it sits at in the value's shape: for a `Vec` of events, all the
//! `start` fields together, all the `kind` fields together, and so on. Each column keeps
//! separate streams for tags, lengths, integers, floats and text; integers are stored as
//! differences within each interleaved series of the column, strings through a per-column
//! dictionary, floats as scaled decimals or XOR byte planes (see `ints` and `floats`). A
//! general-purpose compressor then finds long runs in every stream.
//!
//! - **Columnar** gives every place its own column: a list of records is stored column by
//!   column.
//! - **Row** puts everything in one column, in the order it was visited: the same format
//!   without the transposition, for values that are not lists.
//!
//! Both layouts round-trip every shape `serde` can describe (nested structs, options,
//! enums of every kind, maps, tuples, 128-bit integers, `flatten`, untagged enums), because
//! every value carries a one-byte tag. Decoding checks every read and never panics.

mod column;
mod cost;
mod de;
mod divisors;
pub(crate) mod earlier;
pub(crate) mod floats;
pub(crate) mod groups;
pub(crate) mod ints;
mod ser;
mod shape;
mod tags;
pub(crate) mod varint;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub(crate) use super::CodecError;
use column::ColumnReader;
use floats::Floats;
pub(crate) use ints::Forms;
pub use varint::Reader;

/// How values are laid out in columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One column per place in the shape.
    Columnar,
    /// One column for everything.
    Row,
}

/// What [`encode`] produced, with whether the value was a list or map (worth transposing).
pub(crate) struct Encoded {
    pub(crate) bytes: Vec<u8>,
    pub(crate) is_collection: bool,
}

/// Writes `value` in `layout`.
pub(crate) fn encode<T: Serialize + ?Sized>(
    value: &T,
    layout: Layout,
) -> Result<Encoded, CodecError> {
    let mut encoder = ser::Encoder::new(layout == Layout::Row);
    encoder.write(value)?;
    let columns = encoder.columns();
    let mut bytes = Vec::new();
    varint::put(&mut bytes, columns.len() as u64);
    let floats: Vec<Floats<'_>> = columns.iter().map(|c| Floats::new(c.floats())).collect();
    for (i, column) in columns.iter().enumerate() {
        column.finish(&mut bytes, &floats[i], &floats[..i]);
    }
    Ok(Encoded {
        bytes,
        is_collection: encoder.root_is_collection(),
    })
}

/// Reads a value written by [`encode`] in `layout`.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8], layout: Layout) -> Result<T, CodecError> {
    let mut input = Reader::new(bytes);
    let count = input.len()?;
    // Every column takes at least five bytes: a forged count fails here, before allocating.
    if count > input.remaining() / 5 + 1 {
        return Err(CodecError::Corrupt("column count exceeds the data"));
    }
    let mut columns = Vec::with_capacity(count);
    for _ in 0..count {
        let column = ColumnReader::read(&mut input, &columns)?;
        columns.push(column);
    }
    if !input.is_empty() {
        return Err(CodecError::Corrupt("bytes after the last column"));
    }
    let mut decoder = de::Decoder::new(columns, layout == Layout::Row);
    let value = decoder.read()?;
    if !decoder.is_exhausted() {
        return Err(CodecError::Corrupt(
            "values left over: the data was written for another type",
        ));
    }
    Ok(value)
}

/// Appends a LEB128 varint (used by the compressed-value header).
pub(crate) fn put_varint(out: &mut Vec<u8>, value: u64) {
    varint::put(out, value);
}
