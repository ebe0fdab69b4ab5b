//! `bool`, `String` and `Option` columns.

use std::collections::HashMap;

use super::{Columnar, check_count};
use crate::codec::CodecError;
use crate::codec::columnar::Reader;
use crate::codec::columnar::varint::put;

impl Columnar for bool {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        out.extend(values.map(|v| u8::from(*v)));
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        input
            .take(count)?
            .iter()
            .map(|byte| match byte {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(CodecError::Corrupt("a bool is neither 0 nor 1")),
            })
            .collect()
    }
}

impl Columnar for String {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        let mut codes: HashMap<&str, u64> = HashMap::new();
        let mut distinct: Vec<&str> = Vec::new();
        let coded: Vec<u64> = values
            .map(|value| {
                *codes.entry(value.as_str()).or_insert_with(|| {
                    distinct.push(value);
                    distinct.len() as u64 - 1
                })
            })
            .collect();
        put(out, distinct.len() as u64);
        for text in distinct {
            put(out, text.len() as u64);
            out.extend_from_slice(text.as_bytes());
        }
        for code in coded {
            put(out, code);
        }
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        let distinct = input.len()?;
        check_count(input, distinct, 1)?;
        let mut strings = Vec::with_capacity(distinct);
        for _ in 0..distinct {
            let text = std::str::from_utf8(input.block()?)
                .map_err(|_| CodecError::Corrupt("a string is not UTF-8"))?;
            strings.push(text);
        }
        check_count(input, count, 1)?;
        let mut values = Vec::with_capacity(count);
        for _ in 0..count {
            let code = input.len()?;
            let text = strings
                .get(code)
                .ok_or(CodecError::Corrupt("string code out of range"))?;
            values.push((*text).to_owned());
        }
        Ok(values)
    }
}

impl<T: Columnar> Columnar for Option<T> {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        out.extend(values.clone().map(|v| u8::from(v.is_some())));
        T::encode_column(values.filter_map(Option::as_ref), out);
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        let present = bool::decode_column(input, count)?;
        let inner = T::decode_column(input, present.iter().filter(|p| **p).count())?;
        let mut inner = inner.into_iter();
        Ok(present
            .into_iter()
            .map(|present| if present { inner.next() } else { None })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::columns::round_trip;

    #[test]
    fn scalars_round_trip() {
        round_trip(&[true, false, true]);
        round_trip(&["MOTION", "NOISE", "MOTION", "", "é"].map(String::from));
        round_trip(&[Some(1.5), None, Some(-2.0)]);
        round_trip(&[None::<String>, None]);
        round_trip(&[Some(Some(1_u8)), Some(None), None]);
        round_trip::<String>(&[]);
    }

    #[test]
    fn corrupt_columns_are_errors() {
        assert!(bool::decode_column(&mut Reader::new(&[2]), 1).is_err());
        assert!(bool::decode_column(&mut Reader::new(&[1]), 2).is_err());
        // One distinct string, then a code past it.
        assert!(String::decode_column(&mut Reader::new(&[1, 1, b'a', 1]), 1).is_err());
        assert!(String::decode_column(&mut Reader::new(&[1, 1, 0xff, 0]), 1).is_err());
        assert!(String::decode_column(&mut Reader::new(&[200, 1]), 1).is_err());
        // Says present, but the inner column is missing.
        assert!(Option::<u8>::decode_column(&mut Reader::new(&[1]), 1).is_err());
    }
}
