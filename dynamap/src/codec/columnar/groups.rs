//! Numbers stored per group (columnar version 3, generated columns only).
//!
//! A fixed lag lines a value up with the previous value of its own series only when the
//! series take turns with a fixed period. Sensors at different intervals, with readings
//! dropped, never do: the previous motion reading is sometimes 2 places back, sometimes 5.
//! When an earlier column of the same record partitions the records into a few groups (an
//! enum such as the sensor kind, a low-cardinality string, a small integer), a number column
//! may instead be written group by group: every value of the first group to appear, in
//! record order, then the next group's, each as differences within its group (or as the
//! values themselves), each group divided by its common factor. The reader takes the groups
//! from that earlier column's bytes, so nothing about them is stored twice.
//!
//! ```text
//! GROUPED  differenced (0 or 1)  kind (0 dictionary, 1 integers)  column  divisor per group  values
//! ```

use super::CodecError;
use super::cost::cost;
use super::divisors::{ExactDivisor, series_divisor};
use super::varint::{self, Reader};

/// The group column is a dictionary column (an enum's variants, or a string column's
/// distinct strings): the names, then a code per value.
pub(crate) const DICTIONARY: u8 = 0;
/// The group column is an integer column stored alone: its values are the groups.
pub(crate) const INTEGERS: u8 = 1;

/// The most groups a column is partitioned into. Beyond a few, groups stop being sensor
/// kinds and become identifiers, and each group's first value costs a full varint.
pub(crate) const MAX_GROUPS: usize = 16;

/// Each record's group, numbered by first appearance, so writer and reader number alike.
#[derive(Debug, Clone)]
pub(crate) struct Groups {
    /// The records of each group, in record order, group after group.
    order: Vec<u32>,
    /// Where each group's records start in `order`, and the end.
    bounds: Vec<usize>,
}

impl Groups {
    /// The groups of `codes`, or `None` when they are more than [`MAX_GROUPS`], fewer than
    /// two, or more than `u32` positions.
    pub(crate) fn new(codes: impl Iterator<Item = u64>) -> Option<Groups> {
        // A small code finds its group in a table, without a branch that depends on the
        // data (group columns interleave: a kind column sorted by time changes every few
        // records); a large one searches the groups seen.
        const SMALL: usize = 64;
        let mut small = [u8::MAX; SMALL];
        let mut seen: Vec<u64> = Vec::new();
        let mut counts = [0usize; MAX_GROUPS];
        let mut of: Vec<u8> = Vec::with_capacity(codes.size_hint().0);
        for code in codes {
            let slot = usize::try_from(code).ok().filter(|&c| c < SMALL);
            let group = match slot.map(|c| small[c]).filter(|&g| g != u8::MAX) {
                Some(g) => usize::from(g),
                None => match seen.iter().position(|&s| s == code) {
                    Some(g) => g,
                    None if seen.len() < MAX_GROUPS => {
                        seen.push(code);
                        if let Some(c) = slot {
                            small[c] = (seen.len() - 1) as u8;
                        }
                        seen.len() - 1
                    }
                    None => return None,
                },
            };
            counts[group] += 1;
            of.push(group as u8);
        }
        if seen.len() < 2 || u32::try_from(of.len()).is_err() {
            return None;
        }
        let mut bounds = Vec::with_capacity(seen.len() + 1);
        bounds.push(0);
        for (g, count) in counts[..seen.len()].iter().enumerate() {
            bounds.push(bounds[g] + count);
        }
        let mut next = counts;
        next[..seen.len()].copy_from_slice(&bounds[..seen.len()]);
        let mut order = vec![0u32; of.len()];
        for (i, &g) in of.iter().enumerate() {
            let at = &mut next[usize::from(g)];
            order[*at] = i as u32;
            *at += 1;
        }
        Some(Groups { order, bounds })
    }

    /// How many records.
    pub(crate) fn records(&self) -> usize {
        self.order.len()
    }

    fn count(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The records of group `g`.
    fn members(&self, g: usize) -> &[u32] {
        &self.order[self.bounds[g]..self.bounds[g + 1]]
    }
}

/// One group's values, as they are or, when `differenced`, minus the previous value of the
/// group (0 before its first), wrapping.
fn group_series<'a>(
    values: &'a [u64],
    members: &'a [u32],
    differenced: bool,
) -> impl Iterator<Item = i64> + 'a {
    members.iter().scan(0u64, move |back, &i| {
        let value = values[i as usize];
        let previous = std::mem::replace(back, value);
        Some(if differenced {
            value.wrapping_sub(previous)
        } else {
            value
        } as i64)
    })
}

/// A grouped form costed on the records of `sample` (the first ones): the [`cost`] of its
/// varints with each group divided by its common factor, and those factors.
pub(crate) fn trial(sample: &[u64], groups: &Groups, differenced: bool) -> (usize, Vec<u64>) {
    let limit = sample.len() as u32;
    let mut divisors = Vec::with_capacity(groups.count());
    let mut stream = Vec::with_capacity(sample.len());
    for g in 0..groups.count() {
        let members = groups.members(g);
        // Members are in record order, so the sample's are a prefix.
        let members = &members[..members.partition_point(|&i| i < limit)];
        let divisor = series_divisor(group_series(sample, members, differenced), 0);
        let exact = ExactDivisor::new(divisor);
        stream.extend(
            group_series(sample, members, differenced).map(|d| varint::zigzag(exact.divide(d))),
        );
        divisors.push(divisor);
    }
    (cost(stream.into_iter()), divisors)
}

/// Writes `values` grouped by `groups` (found in column `column`, of `kind`), after the
/// form byte; `known` are the divisors found on the sample.
pub(crate) fn write(
    out: &mut Vec<u8>,
    values: &[u64],
    groups: &Groups,
    (kind, column): (u8, usize),
    differenced: bool,
    known: &[u64],
) {
    out.extend_from_slice(&[u8::from(differenced), kind]);
    varint::put(out, column as u64);
    let divisors: Vec<u64> = (0..groups.count())
        .map(|g| {
            let known = known.get(g).copied().unwrap_or(0);
            series_divisor(group_series(values, groups.members(g), differenced), known)
        })
        .collect();
    for &divisor in &divisors {
        varint::put(out, divisor);
    }
    for (g, &divisor) in divisors.iter().enumerate() {
        let exact = ExactDivisor::new(divisor);
        for d in group_series(values, groups.members(g), differenced) {
            varint::put(out, varint::zigzag(exact.divide(d)));
        }
    }
}

/// The header of a grouped stream, after the form byte: differenced or not, and where the
/// groups are.
pub(crate) fn read_head(reader: &mut Reader<'_>) -> Result<(bool, u8, usize), CodecError> {
    let differenced = match reader.byte()? {
        0 => false,
        1 => true,
        _ => return Err(CodecError::Corrupt("unknown grouped stream flag")),
    };
    let kind = reader.byte()?;
    if kind != DICTIONARY && kind != INTEGERS {
        return Err(CodecError::Corrupt("unknown group column kind"));
    }
    Ok((differenced, kind, reader.len()?))
}

/// Reads the values of a grouped stream of `groups.records()` values, after its head.
pub(crate) fn read_values(
    reader: &mut Reader<'_>,
    groups: &Groups,
    differenced: bool,
) -> Result<Vec<u64>, CodecError> {
    let divisors = (0..groups.count())
        .map(|_| reader.varint())
        .collect::<Result<Vec<u64>, _>>()?;
    let count = groups.records();
    // A byte a value at least: a forged count fails before anything is reserved (the
    // groups' count is backed by their own column already).
    if count > reader.remaining() {
        return Err(CodecError::Truncated("integer"));
    }
    let mut values = vec![0u64; count];
    for (g, &divisor) in divisors.iter().enumerate() {
        let mut previous = 0u64;
        for &i in groups.members(g) {
            let quotient = varint::unzigzag(reader.varint()?) as u64;
            // Wrapping, as the writer's differences: corrupt input cannot overflow.
            let mut value = quotient.wrapping_mul(divisor);
            if differenced {
                value = value.wrapping_add(previous);
                previous = value;
            }
            values[i as usize] = value;
        }
    }
    Ok(values)
}

/// The codes of a dictionary column (a count of names, each length-prefixed, then a code
/// per value to the end of the column), when `column` reads as one with codes below the
/// count of names. Reading exactly the bytes it was written from, a writer and a reader
/// find the same codes, whatever type wrote them.
pub(crate) fn dictionary_codes(column: &[u8]) -> Result<Vec<u64>, CodecError> {
    let mut reader = Reader::new(column);
    let names = reader.len()?;
    if names > MAX_GROUPS {
        return Err(CodecError::Corrupt("a group column has too many groups"));
    }
    for _ in 0..names {
        reader.block()?;
    }
    let mut codes = Vec::with_capacity(reader.remaining());
    while !reader.is_empty() {
        let code = reader.varint()?;
        if code >= names as u64 {
            return Err(CodecError::Corrupt("variant code out of range"));
        }
        codes.push(code);
    }
    Ok(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_numbered_by_first_appearance() {
        let groups = Groups::new([7, 3, 7, 7, 5, 3].into_iter()).expect("three groups");
        assert_eq!(groups.count(), 3);
        assert_eq!(groups.members(0), [0, 2, 3]);
        assert_eq!(groups.members(1), [1, 5]);
        assert_eq!(groups.members(2), [4]);
        assert!(Groups::new([1, 1, 1].into_iter()).is_none(), "one group");
        assert!(Groups::new(0..17).is_none(), "too many");
    }

    proptest::proptest! {
        /// Small codes are found in a table, large ones by search: both number groups by
        /// first appearance and list their records in order.
        #[test]
        fn groups_of_small_and_large_codes_are_numbered_by_first_appearance(
            codes in proptest::collection::vec(
                proptest::prop_oneof![0..70u64, proptest::num::u64::ANY],
                0..200,
            )
        ) {
            let mut seen: Vec<u64> = Vec::new();
            for &code in &codes {
                if !seen.contains(&code) {
                    seen.push(code);
                }
            }
            let groups = Groups::new(codes.iter().copied());
            if seen.len() < 2 || seen.len() > MAX_GROUPS {
                proptest::prop_assert!(groups.is_none());
            } else {
                let groups = groups.expect("a few groups");
                proptest::prop_assert_eq!(groups.count(), seen.len());
                for (g, code) in seen.iter().enumerate() {
                    let members: Vec<u32> = (0..codes.len() as u32)
                        .filter(|&i| codes[i as usize] == *code)
                        .collect();
                    proptest::prop_assert_eq!(groups.members(g), &members[..]);
                }
            }
        }
    }

    #[test]
    fn grouped_values_round_trip() {
        let codes: Vec<u64> = (0..500u64).map(|i| (i * i + i / 7) % 3).collect();
        let groups = Groups::new(codes.iter().copied()).expect("groups");
        let values: Vec<u64> = (0..500u64)
            .map(|i| codes[i as usize] * 1_000_000 + i * 30_000)
            .collect();
        for differenced in [true, false] {
            let (_, known) = trial(&values[..256], &groups, differenced);
            let mut out = Vec::new();
            write(
                &mut out,
                &values,
                &groups,
                (DICTIONARY, 0),
                differenced,
                &known,
            );
            let mut reader = Reader::new(&out);
            assert_eq!(
                read_head(&mut reader).expect("head"),
                (differenced, DICTIONARY, 0)
            );
            assert_eq!(
                read_values(&mut reader, &groups, differenced).expect("reads"),
                values
            );
            assert!(reader.is_empty());
        }
        assert!(read_head(&mut Reader::new(&[2, 0, 0])).is_err());
        assert!(read_head(&mut Reader::new(&[1, 9, 0])).is_err());
        assert!(read_values(&mut Reader::new(&[1, 1, 1]), &groups, true).is_err());
    }

    #[test]
    fn dictionary_columns_give_their_codes() {
        assert_eq!(
            dictionary_codes(&[2, 1, b'A', 1, b'B', 0, 1, 1]).expect("reads"),
            [0, 1, 1]
        );
        assert!(
            dictionary_codes(&[1, 1, b'A', 1]).is_err(),
            "code out of range"
        );
        assert!(dictionary_codes(&[3, 1, b'A']).is_err(), "truncated");
        assert!(dictionary_codes(&[17]).is_err(), "too many names");
    }
}
