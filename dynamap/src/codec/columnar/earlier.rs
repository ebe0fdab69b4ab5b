//! What a number stream may be stored against: columns of its record stored before it.
//!
//! Only generated columns (version 2 and 3) refer to other columns, by position among the
//! record's stored columns; the serde format (version 1) refers to earlier float columns
//! already read. The writer refers only to columns that refer to little in turn (a group
//! column to nothing, a base column at most to its groups), so a column needs at most two
//! others, and a record's reader decodes each of them once (`columns/referred.rs`).

use std::borrow::Cow;

use super::CodecError;
use super::groups::Groups;

/// The columns read before the one being read. Each method fails unless the column exists,
/// is of the kind asked for, and holds `count` values. A record's reader decodes each
/// column referred to once and lends it to every column that refers to it.
pub(crate) trait Earlier {
    /// The values of decimal float column `index` times `10^scale`, as integers.
    fn scaled(
        &mut self,
        index: usize,
        scale: usize,
        count: usize,
    ) -> Result<Cow<'_, [u64]>, CodecError> {
        let _ = (index, scale, count);
        Err(missing_reference())
    }

    /// The values of integer column `index` (version 3).
    fn ints(&mut self, index: usize, count: usize) -> Result<&[u64], CodecError> {
        let _ = (index, count);
        Err(missing_reference())
    }

    /// The groups column `index` (of `kind`, see [`super::groups`]) partitions the records
    /// into (version 3).
    fn groups(&mut self, index: usize, kind: u8, count: usize) -> Result<&Groups, CodecError> {
        let _ = (index, kind, count);
        Err(missing_reference())
    }
}

/// No column before: a column read alone, which may refer to none.
pub(crate) struct NoEarlier;

impl Earlier for NoEarlier {}

#[cold]
pub(crate) fn missing_reference() -> CodecError {
    CodecError::Corrupt("a column refers to a missing column")
}
