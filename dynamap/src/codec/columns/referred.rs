//! The columns a record's later columns refer to (columnar version 3), each decoded once.
//!
//! A column may be stored against an earlier one (`end` against `start`, `max` against
//! `value`) and grouped by an earlier one (a sensor kind). A reader that decoded each
//! referred column again from its bytes for every column referring to it would read `kind`
//! once for itself and once more for every grouped column, and `start` twice. The record's
//! reader keeps instead what it decoded: the groups of a group column, found the first time
//! a column asks, and the values of a number column a later column's head names, kept as
//! that column is read for itself.

use std::borrow::Cow;

use crate::codec::CodecError;
use crate::codec::columnar::Reader;
use crate::codec::columnar::earlier::{Earlier, NoEarlier, missing_reference};
use crate::codec::columnar::floats::{heads, read_decimal_alone};
use crate::codec::columnar::groups::{self, Groups};
use crate::codec::columnar::ints::read_ints_with;

use super::numbers::counted;

/// What a record's reader decoded of the columns later columns refer to.
#[derive(Default)]
pub(super) struct Memo {
    /// Whether a later column's head may name each column (a guess from the heads' bytes:
    /// a wrong guess costs a copy, or a decode from the bytes, never a wrong value).
    referred: Vec<bool>,
    /// The values of integer columns, by position.
    ints: Vec<(usize, Vec<u64>)>,
    /// The scaled integers of decimal float columns, by position and scale.
    scaled: Vec<(usize, usize, Vec<u64>)>,
    /// The groups of group columns, by position and kind.
    groups: Vec<(usize, u8, Groups)>,
}

impl Memo {
    /// A memo for `columns`, with the columns their heads name.
    pub(super) fn new(columns: &[(&str, &[u8])]) -> Memo {
        let mut referred = vec![false; columns.len()];
        for &(_, bytes) in columns {
            heads(bytes, &mut |index| {
                if let Some(flag) = referred.get_mut(index) {
                    *flag = true;
                }
            });
        }
        Memo {
            referred,
            ..Memo::default()
        }
    }

    /// Whether a later column may refer to column `position`, so that its values are worth
    /// keeping as it is read.
    pub(super) fn is_referred(&self, position: usize) -> bool {
        self.referred.get(position).copied().unwrap_or(false)
    }

    /// How many integer columns, decimal columns and group columns it holds.
    #[cfg(test)]
    pub(super) fn held(&self) -> (usize, usize, usize) {
        (self.ints.len(), self.scaled.len(), self.groups.len())
    }

    /// Keeps integer column `position`'s values, read for itself from all of its bytes, in
    /// a form that refers to no integer column (what [`Earlier::ints`] decodes).
    pub(super) fn keep_ints(&mut self, position: usize, values: &[u64]) {
        if !self.ints.iter().any(|(i, _)| *i == position) {
            self.ints.push((position, values.to_vec()));
        }
    }

    /// Keeps decimal float column `position`'s scaled integers, read for itself from all of
    /// its bytes, stored against no other (what [`Earlier::scaled`] decodes).
    pub(super) fn keep_scaled(&mut self, position: usize, scale: usize, values: &[u64]) {
        if !self
            .scaled
            .iter()
            .any(|(i, s, _)| *i == position && *s == scale)
        {
            self.scaled.push((position, scale, values.to_vec()));
        }
    }
}

/// The columns stored before the one being read, and what was decoded of them. A column
/// referred to may refer only to groups in turn (the writer refers to no other kind).
pub(super) struct StoredBefore<'r, 'a> {
    pub(super) columns: &'r [(&'a str, &'a [u8])],
    pub(super) memo: &'r mut Memo,
}

impl<'a> StoredBefore<'_, 'a> {
    /// The bytes of column `index`, and the columns before it, for what it refers to.
    fn column(&mut self, index: usize) -> Result<(Reader<'a>, GroupsOnly<'_, 'a>), CodecError> {
        let &(_, bytes) = self.columns.get(index).ok_or_else(missing_reference)?;
        let before = GroupsOnly(StoredBefore {
            columns: &self.columns[..index],
            memo: &mut *self.memo,
        });
        Ok((Reader::new(bytes), before))
    }
}

pub(super) fn exhausted(input: &Reader<'_>) -> Result<(), CodecError> {
    if input.is_empty() {
        Ok(())
    } else {
        Err(CodecError::Corrupt("bytes after a column's values"))
    }
}

/// `values`, when they are `count`.
fn holding(values: &[u64], count: usize) -> Result<&[u64], CodecError> {
    if values.len() == count {
        Ok(values)
    } else {
        Err(missing_reference())
    }
}

impl Earlier for StoredBefore<'_, '_> {
    fn scaled(
        &mut self,
        index: usize,
        scale: usize,
        count: usize,
    ) -> Result<Cow<'_, [u64]>, CodecError> {
        let found = self
            .memo
            .scaled
            .iter()
            .position(|(i, s, _)| *i == index && *s == scale);
        let at = match found {
            Some(at) => at,
            None => {
                let (mut input, mut before) = self.column(index)?;
                let scaled = read_decimal_alone(&mut input, scale, count, &mut before)?;
                exhausted(&input)?;
                self.memo.scaled.push((index, scale, scaled));
                self.memo.scaled.len() - 1
            }
        };
        holding(&self.memo.scaled[at].2, count).map(Cow::Borrowed)
    }

    fn ints(&mut self, index: usize, count: usize) -> Result<&[u64], CodecError> {
        let at = match self.memo.ints.iter().position(|(i, _)| *i == index) {
            Some(at) => at,
            None => {
                let (mut input, mut before) = self.column(index)?;
                let values = counted(read_ints_with(&mut input, &mut before)?, count)
                    .map_err(|_| missing_reference())?;
                exhausted(&input)?;
                self.memo.ints.push((index, values));
                self.memo.ints.len() - 1
            }
        };
        holding(&self.memo.ints[at].1, count)
    }

    fn groups(&mut self, index: usize, kind: u8, count: usize) -> Result<&Groups, CodecError> {
        let found = self
            .memo
            .groups
            .iter()
            .position(|(i, k, _)| *i == index && *k == kind);
        let at = match found {
            Some(at) => at,
            None => {
                let &(_, bytes) = self.columns.get(index).ok_or_else(missing_reference)?;
                let codes = if kind == groups::DICTIONARY {
                    groups::dictionary_codes(bytes)?
                } else {
                    let mut input = Reader::new(bytes);
                    let values = read_ints_with(&mut input, &mut NoEarlier)?;
                    exhausted(&input)?;
                    values
                };
                if codes.len() != count {
                    return Err(missing_reference());
                }
                let groups = Groups::new(codes.into_iter()).ok_or(CodecError::Corrupt(
                    "a group column does not hold a few groups",
                ))?;
                self.memo.groups.push((index, kind, groups));
                self.memo.groups.len() - 1
            }
        };
        let groups = &self.memo.groups[at].2;
        if groups.records() != count {
            return Err(missing_reference());
        }
        Ok(groups)
    }
}

/// The columns before a column referred to: it may be grouped by one of them, nothing more.
struct GroupsOnly<'r, 'a>(StoredBefore<'r, 'a>);

impl Earlier for GroupsOnly<'_, '_> {
    fn groups(&mut self, index: usize, kind: u8, count: usize) -> Result<&Groups, CodecError> {
        self.0.groups(index, kind, count)
    }
}
