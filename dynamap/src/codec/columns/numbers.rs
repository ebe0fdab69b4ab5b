//! Integer and float columns.

use super::{Columnar, FieldReader, FieldWriter};
use crate::codec::CodecError;
use crate::codec::columnar::{Forms, Reader, floats, ints};

// The number streams are the serde columnar format's (`columnar::ints`, `columnar::floats`):
// the same forms, chosen the same way, without a tag or a name per value around them.

/// Reads an integer stream of exactly `count` values.
pub(super) fn read_counted(input: &mut Reader<'_>, count: usize) -> Result<Vec<u64>, CodecError> {
    let values = ints::read_ints(input)?;
    if values.len() != count {
        return Err(CodecError::Corrupt(
            "a column holds another number of values",
        ));
    }
    Ok(values)
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl Columnar for $ty {
            fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
            where
                I: Iterator<Item = &'a Self> + Clone,
                Self: 'a,
            {
                // Sign-extended to 64 bits, as serde's columns store them.
                let values: Vec<u64> = values.map(|v| *v as i64 as u64).collect();
                ints::put_ints(out, &values, Forms::Version2);
            }

            fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
                narrow(read_counted(input, count)?)
            }

            fn encode_field<'a, I>(values: I, column: &mut FieldWriter<'_>)
            where
                I: Iterator<Item = &'a Self> + Clone,
                Self: 'a,
            {
                column.ints(values.map(|v| *v as i64 as u64).collect());
            }

            fn decode_field(
                column: &mut FieldReader<'_, '_>,
                count: usize,
            ) -> Result<Vec<Self>, CodecError> {
                narrow(column.ints(count)?)
            }
        }
    )*};
}

/// Sign-extended 64-bit values back to a narrower type, refusing those out of its range.
fn narrow<T: TryFrom<i64>>(values: Vec<u64>) -> Result<Vec<T>, CodecError> {
    values
        .into_iter()
        .map(|v| T::try_from(v as i64).map_err(|_| CodecError::Corrupt("integer out of range")))
        .collect()
}

integers!(i8, i16, i32, i64, isize, u8, u16, u32, usize);

impl Columnar for u64 {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        let values: Vec<u64> = values.copied().collect();
        ints::put_ints(out, &values, Forms::Version2);
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        read_counted(input, count)
    }

    fn encode_field<'a, I>(values: I, column: &mut FieldWriter<'_>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        column.ints(values.copied().collect());
    }

    fn decode_field(
        column: &mut FieldReader<'_, '_>,
        count: usize,
    ) -> Result<Vec<Self>, CodecError> {
        column.ints(count)
    }
}

/// Writes a float column from the values' `f64` bit patterns.
fn encode_floats(bits: &[u64], out: &mut Vec<u8>) {
    floats::put_floats(out, &floats::Floats::new(bits), &[], Forms::Version2, &[]);
}

/// Reads a float column of exactly `count` values, as `f64` bit patterns.
fn decode_floats(input: &mut Reader<'_>, count: usize) -> Result<Vec<u64>, CodecError> {
    counted(floats::read_floats_alone(input)?, count)
}

/// `bits`, when they are `count` values.
pub(super) fn counted(bits: Vec<u64>, count: usize) -> Result<Vec<u64>, CodecError> {
    if bits.len() != count {
        return Err(CodecError::Corrupt(
            "a column holds another number of values",
        ));
    }
    Ok(bits)
}

// A struct's float fields may be stored against its earlier float columns (a reading's
// `max` as its difference from `value`).

impl Columnar for f64 {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        let bits: Vec<u64> = values.map(|v| v.to_bits()).collect();
        encode_floats(&bits, out);
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        Ok(decode_floats(input, count)?
            .into_iter()
            .map(f64::from_bits)
            .collect())
    }

    fn encode_field<'a, I>(values: I, column: &mut FieldWriter<'_>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        let bits: Vec<u64> = values.map(|v| v.to_bits()).collect();
        column.floats(&bits);
    }

    fn decode_field(
        column: &mut FieldReader<'_, '_>,
        count: usize,
    ) -> Result<Vec<Self>, CodecError> {
        Ok(column
            .floats(count)?
            .into_iter()
            .map(f64::from_bits)
            .collect())
    }
}

impl Columnar for f32 {
    fn encode_column<'a, I>(values: I, out: &mut Vec<u8>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        // Widening is exact, so the decimal form sees the value the `f32` holds.
        let bits: Vec<u64> = values.map(|v| f64::from(*v).to_bits()).collect();
        encode_floats(&bits, out);
    }

    fn decode_column(input: &mut Reader<'_>, count: usize) -> Result<Vec<Self>, CodecError> {
        let bits = decode_floats(input, count)?;
        Ok(bits.into_iter().map(|b| f64::from_bits(b) as f32).collect())
    }

    fn encode_field<'a, I>(values: I, column: &mut FieldWriter<'_>)
    where
        I: Iterator<Item = &'a Self> + Clone,
        Self: 'a,
    {
        let bits: Vec<u64> = values.map(|v| f64::from(*v).to_bits()).collect();
        column.floats(&bits);
    }

    fn decode_field(
        column: &mut FieldReader<'_, '_>,
        count: usize,
    ) -> Result<Vec<Self>, CodecError> {
        let bits = column.floats(count)?;
        Ok(bits.into_iter().map(|b| f64::from_bits(b) as f32).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::columns::round_trip;

    fn same_bits(values: &[f64]) {
        let mut out = Vec::new();
        f64::encode_column(values.iter(), &mut out);
        let back = f64::decode_column(&mut Reader::new(&out), values.len()).expect("decodes");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(values));
    }

    #[test]
    fn integers_round_trip_at_their_extremes() {
        round_trip(&[i64::MIN, i64::MAX, 0, -1, i64::MIN]);
        round_trip(&[u64::MAX, 0, u64::MAX / 2 + 1]);
        round_trip(&[i8::MIN, i8::MAX]);
        round_trip(&[u32::MAX, 0]);
        let regular: Vec<i64> = (0..1000)
            .map(|i| 1_795_219_200_000 + i / 3 * 60_000)
            .collect();
        let stored = round_trip(&regular);
        // Steps of 0 take a byte, steps of 60000 three: 5 bytes for every 3 values.
        assert!(stored.len() < 1_700, "{}", stored.len());
    }

    #[test]
    fn floats_keep_their_bits() {
        round_trip(&[1.5_f32, -0.25, 3.0]);
        let readings: Vec<f64> = (0..500).map(|i| f64::from(i % 97) / 100.0 + 30.0).collect();
        round_trip(&readings);
        same_bits(&[
            0.1 + 0.2,
            f64::NAN,
            f64::INFINITY,
            -0.0,
            5e-324,
            f64::MAX,
            1e300,
        ]);
        same_bits(&[-0.0]);
        same_bits(&[1e17, 2.5]);
        same_bits(&[]);
    }

    #[test]
    fn a_column_of_another_length_is_an_error() {
        let mut out = Vec::new();
        i64::encode_column([1, 2, 3].iter(), &mut out);
        assert!(i64::decode_column(&mut Reader::new(&out), 2).is_err());
        assert!(i64::decode_column(&mut Reader::new(&out), 4).is_err());
        let mut out = Vec::new();
        f64::encode_column([1.5].iter(), &mut out);
        assert!(f64::decode_column(&mut Reader::new(&out), 2).is_err());
        let mut out = Vec::new();
        i64::encode_column([300].iter(), &mut out);
        assert!(u8::decode_column(&mut Reader::new(&out), 1).is_err());
    }
}
