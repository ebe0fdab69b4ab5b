//! `Vec`, set and map columns: each value's length, then one column of every element (or
//! every key and every value) of the whole list, so the elements of all the records share
//! a column as the records' fields do.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use super::numbers::read_counted;
use super::{Columnar, check_count};
use crate::codec::CodecError;
use crate::codec::columnar::{Forms, Reader, ints};

/// Writes each value's length as an integer stream.
fn encode_lengths(lengths: impl Iterator<Item = usize>, out: &mut Vec<u8>) {
    let lengths: Vec<u64> = lengths.map(|len| len as u64).collect();
    ints::put_ints(out, &lengths, Forms::Version2);
}

/// Reads `count` lengths, and their total: the number of elements in the column after them.
fn decode_lengths(input: &mut Reader<'_>, count: usize) -> Result<(Vec<usize>, usize), CodecError> {
    let overflow = || CodecError::Corrupt("collection lengths overflow");
    // The stream holds `count` lengths in at least as many bytes before this allocates.
    let stored = read_counted(input, count)?;
    let mut total = 0usize;
    let mut lengths = Vec::with_capacity(stored.len());
    for len in stored {
        let len = usize::try_from(len).map_err(|_| overflow())?;
        total = total.checked_add(len).ok_or_else(overflow)?;
        lengths.push(len);
    }
    // Every element takes at least a byte of its column: a forged total fails here, before
    // anything is reserved for the elements.
    check_count(input, total, 1)?;
    Ok((lengths, total))
}

/// Splits `elements` into consecutive runs of `lengths`, each collected as `C`.
fn split<T, C: FromIterator<T>>(elements: Vec<T>, lengths: &[usize]) -> Vec<C> {
    let mut elements = elements.into_iter();
    lengths
        .iter()
        .map(|&len| elements.by_ref().take(len).collect())
        .collect()
}

/// Lists and sets are their lengths, then a column of every element.
macro_rules! lists {
    ($($list:ident<T $(, $hasher:ident)?> $(where T: $($bound:path),+)?;)*) => {$(
        impl<T $(, $hasher)?> Columnar for $list<T $(, $hasher)?>
        where
            T: Columnar $($(+ $bound)+)?,
            $($hasher: BuildHasher + Default,)?
        {
            fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
            where
                I: Iterator<Item = &'a Self> + Clone,
                Self: 'a,
            {
                encode_lengths(values.clone().map(|list| list.len()), out);
                T::encode_column(values.flatten(), out);
            }

            fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
                let (lengths, total) = decode_lengths(input, count)?;
                Ok(split(T::decode_column(input, total)?, &lengths))
            }
        }
    )*};
}

lists! {
    Vec<T>;
    HashSet<T, S> where T: Eq, Hash;
    BTreeSet<T> where T: Ord;
}

/// Maps are their lengths, a column of every key, then a column of every value.
macro_rules! maps {
    ($($map:ident<K, V $(, $hasher:ident)?> where K: $($bound:path),+;)*) => {$(
        impl<K, V $(, $hasher)?> Columnar for $map<K, V $(, $hasher)?>
        where
            K: Columnar $(+ $bound)+,
            V: Columnar,
            $($hasher: BuildHasher + Default,)?
        {
            fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
            where
                I: Iterator<Item = &'a Self> + Clone,
                Self: 'a,
            {
                encode_lengths(values.clone().map(|map| map.len()), out);
                K::encode_column(values.clone().flat_map(|map| map.keys()), out);
                V::encode_column(values.flat_map(|map| map.values()), out);
            }

            fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
                let (lengths, total) = decode_lengths(input, count)?;
                let keys = K::decode_column(input, total)?;
                let values = V::decode_column(input, total)?;
                Ok(split(keys.into_iter().zip(values).collect(), &lengths))
            }
        }
    )*};
}

maps! {
    HashMap<K, V, S> where K: Eq, Hash;
    BTreeMap<K, V> where K: Ord;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::columns::round_trip;

    #[test]
    fn lists_and_maps_round_trip() {
        round_trip(&[vec![1_i64, 2, 3], vec![], vec![-4]]);
        round_trip(&[
            vec![vec!["a".to_owned()], vec![]],
            vec![],
            vec![vec!["b".into(), "a".into()]],
        ]);
        round_trip(&[Some(vec![1.5_f64]), None, Some(vec![])]);
        round_trip(&[
            BTreeMap::from([("x".to_owned(), 1_u32), ("y".into(), 2)]),
            BTreeMap::new(),
        ]);
        round_trip(&[HashMap::from([(7_u8, vec![true, false])]), HashMap::new()]);
        round_trip(&[HashSet::from([3_i32, 4]), HashSet::new()]);
        round_trip(&[BTreeSet::from(["b".to_owned(), "a".into()])]);
        round_trip::<Vec<u8>>(&[]);
    }

    #[test]
    fn forged_lengths_are_errors() {
        let mut out = Vec::new();
        Vec::<u8>::encode_column([vec![1, 2], vec![3]].iter(), &mut out);
        // Fewer values than the lengths claim.
        assert!(Vec::<u8>::decode_column(&mut Reader::new(&out[..out.len() - 1]), 2).is_err());
        // A forged count of lists: refused before anything is reserved for them.
        assert!(Vec::<u8>::decode_column(&mut Reader::new(&out), 1 << 40).is_err());
        // A length far beyond the bytes: refused before anything is reserved.
        let mut out = Vec::new();
        ints::put_ints(&mut out, &[u64::MAX / 2, u64::MAX / 2, 3], Forms::Version2);
        assert!(Vec::<u8>::decode_column(&mut Reader::new(&out), 3).is_err());
        let mut out = Vec::new();
        ints::put_ints(&mut out, &[1 << 40], Forms::Version2);
        out.push(0);
        assert!(Vec::<u8>::decode_column(&mut Reader::new(&out), 1).is_err());
    }
}
