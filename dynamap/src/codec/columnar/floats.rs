//! Float streams. When every value in the column is a decimal with at most nine fraction
//! digits (sensor readings such as `21.4`), the scaled integers, written as an integer
//! stream (see [`super::ints`]), or as their difference from an earlier decimal column when
//! that is cheaper (a reading's `max` from its `value`). Otherwise the XOR of each value with
//! the one `lag` places back, split into eight byte planes, so the sign, exponent and top
//! mantissa bits of slowly drifting values become runs of zeros.

use std::borrow::Cow;

use super::CodecError;
pub(crate) use super::earlier::missing_reference;
use super::earlier::{Earlier, NoEarlier};
use super::ints::{
    AGAINST, Forms, GroupColumn, IntForm, MAX_LAG, int_heads, read_int_body, read_lag, series_order,
};
use super::varint::{self, Reader};

const XOR_PLANES: u8 = 2;
const DECIMAL: u8 = 3;

/// Exact powers of ten for the decimal float form.
const POWERS_OF_TEN: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// Largest integer an `f64` holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

pub(crate) struct Floats<'a> {
    bits: &'a [u64],
    decimal: Option<(usize, Vec<u64>)>,
}

impl<'a> Floats<'a> {
    /// Finds the decimal scale, if any, and scales once for every use.
    pub(crate) fn new(bits: &'a [u64]) -> Self {
        let decimal = decimal(bits);
        Floats { bits, decimal }
    }

    /// A column that no later column can be stored against (not a float column).
    pub(crate) const NONE: Floats<'static> = Floats {
        bits: &[],
        decimal: None,
    };

    /// What a later column is stored against: the scaled integers, without the bits.
    pub(crate) fn into_reference(self) -> Floats<'static> {
        Floats {
            bits: &[],
            decimal: self.decimal,
        }
    }
}

/// Earlier columns already read, in order (the serde columnar format).
impl Earlier for [&[u64]] {
    fn scaled(
        &mut self,
        index: usize,
        scale: usize,
        count: usize,
    ) -> Result<Cow<'_, [u64]>, CodecError> {
        match self.get(index) {
            Some(column) if column.len() == count => Ok(Cow::Owned(scaled(column, scale))),
            _ => Err(missing_reference()),
        }
    }
}

/// Reads the scaled integers of a decimal float column of `count` values at `scale`,
/// stored against no other: the column another is stored against. Its integers may be
/// grouped by a column in `earlier` (version 3).
pub(crate) fn read_decimal_alone<E: Earlier + ?Sized>(
    reader: &mut Reader<'_>,
    scale: usize,
    count: usize,
    earlier: &mut E,
) -> Result<Vec<u64>, CodecError> {
    if reader.len()? != count
        || reader.byte()? != DECIMAL
        || usize::from(reader.byte()?) != scale
        || reader.len()? != 0
    {
        return Err(missing_reference());
    }
    read_int_body(reader, count, earlier)
}

/// Calls `mark` with each column a number column's head names, its bytes read both as an
/// integer stream and as a decimal float stream (form 3 is grouped for one and decimal for
/// the other): what a later column may be stored against or grouped by. For any other
/// column's bytes the columns are a guess, which only costs the reader a copy.
pub(crate) fn heads(column: &[u8], mark: &mut impl FnMut(usize)) {
    let mut reader = Reader::new(column);
    if reader.len().is_err() {
        return;
    }
    int_heads(reader, mark);
    if matches!(reader.byte(), Ok(DECIMAL))
        && reader.byte().is_ok()
        && let Ok(reference) = reader.len()
    {
        if let Some(index) = reference.checked_sub(1) {
            mark(index);
        }
        int_heads(reader, mark);
    }
}

/// The scale of a decimal float column's bytes (its count, then its stream) stored against
/// no other column and no other integer column: what [`read_decimal_alone`] reads.
pub(crate) fn decimal_alone(column: &Reader<'_>) -> Option<usize> {
    let mut reader = *column;
    reader.len().ok()?;
    if !matches!(reader.byte(), Ok(DECIMAL)) {
        return None;
    }
    let scale = usize::from(reader.byte().ok()?);
    if scale >= POWERS_OF_TEN.len() || reader.len().ok()? != 0 {
        return None;
    }
    (!matches!(reader.byte(), Ok(AGAINST))).then_some(scale)
}

/// Reads a float column stored against no other.
pub(crate) fn read_floats_alone(reader: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
    read_floats(reader, &mut NoEarlier)
}

/// Appends the floats to `out`, and returns the earlier column it is stored against, if
/// any. `earlier` holds the floats of the columns written before this one: a decimal column
/// may be stored as its difference from an earlier decimal column of the same length and
/// scale (a reading's `max` from its `value`). `forms` and `groups` as for
/// [`IntForm::choose`].
pub(crate) fn put_floats(
    out: &mut Vec<u8>,
    floats: &Floats<'_>,
    earlier: &[Floats<'_>],
    forms: Forms,
    groups: &[GroupColumn<'_>],
) -> Option<usize> {
    let values = floats.bits;
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return None;
    }
    if let Some((scale, scaled)) = &floats.decimal {
        let mut best = (IntForm::choose(scaled, forms, groups), None, None);
        for (index, column) in earlier.iter().enumerate() {
            let Some((theirs, base)) = &column.decimal else {
                continue;
            };
            if theirs != scale || base.len() != scaled.len() {
                continue;
            }
            let residuals: Vec<u64> = scaled
                .iter()
                .zip(base)
                .map(|(mine, theirs)| mine.wrapping_sub(*theirs))
                .collect();
            let form = IntForm::choose(&residuals, forms, groups);
            if form.sample_cost() < best.0.sample_cost() {
                best = (form, Some(index), Some(residuals));
            }
        }
        let (form, reference, residuals) = best;
        out.extend_from_slice(&[DECIMAL, *scale as u8]);
        varint::put(out, reference.map_or(0, |r| r as u64 + 1));
        form.write(out, residuals.as_deref().unwrap_or(scaled), groups);
        return reference;
    }
    // The lag whose XORs leave the fewest significant bytes.
    let lag = (1..=MAX_LAG.min(values.len()))
        .min_by_key(|&lag| {
            let xored: Vec<u64> = xors(values, lag).collect();
            let mut previous = None;
            series_order(values.len(), lag)
                .map(|i| {
                    let repeat = previous == Some(xored[i]);
                    previous = Some(xored[i]);
                    if repeat {
                        0
                    } else {
                        8 - xored[i].leading_zeros() as usize / 8
                    }
                })
                .sum::<usize>()
        })
        .unwrap_or(1);
    out.extend_from_slice(&[XOR_PLANES, lag as u8]);
    let xored: Vec<u64> = xors(values, lag).collect();
    let start = out.len();
    out.resize(start + values.len() * 8, 0);
    for (slot, i) in series_order(values.len(), lag).enumerate() {
        for (plane, byte) in xored[i].to_be_bytes().into_iter().enumerate() {
            out[start + plane * values.len() + slot] = byte;
        }
    }
    None
}

/// Each value times `10^scale`, as the integer it is exactly (see [`exact_at`]).
fn scaled(values: &[u64], scale: usize) -> Vec<u64> {
    let power = POWERS_OF_TEN[scale];
    values
        .iter()
        .map(|&bits| (f64::from_bits(bits) * power).round() as i64 as u64)
        .collect()
}

/// Each scaled integer divided by `power`, as `f64` bit patterns.
pub(crate) fn unscaled(scaled: &[u64], power: f64) -> Vec<u64> {
    scaled
        .iter()
        .map(|&n| unscale(n as i64, power).to_bits())
        .collect()
}

/// `10^scale`, for a scale a decimal stream may hold.
pub(crate) fn power_of_ten(scale: usize) -> Result<f64, CodecError> {
    POWERS_OF_TEN
        .get(scale)
        .copied()
        .ok_or(CodecError::Corrupt("decimal scale out of range"))
}

/// Each value XOR the value `lag` places back (0 before the start).
fn xors(values: &[u64], lag: usize) -> impl Iterator<Item = u64> + '_ {
    values
        .iter()
        .enumerate()
        .map(move |(i, &v)| v ^ i.checked_sub(lag).map_or(0, |j| values[j]))
}

/// Reads what [`put_floats`] wrote, as `f64` bit patterns; `earlier` as when writing.
pub(crate) fn read_floats<E: Earlier + ?Sized>(
    reader: &mut Reader<'_>,
    earlier: &mut E,
) -> Result<Vec<u64>, CodecError> {
    let count = reader.len()?;
    if count == 0 {
        return Ok(Vec::new());
    }
    match reader.byte()? {
        DECIMAL => {
            let scale = usize::from(reader.byte()?);
            let power = power_of_ten(scale)?;
            let reference = reader.len()?;
            let mut scaled = read_int_body(reader, count, earlier)?;
            if let Some(index) = reference.checked_sub(1) {
                let base = earlier.scaled(index, scale, count)?;
                for (value, base) in scaled.iter_mut().zip(base.iter()) {
                    *value = value.wrapping_add(*base);
                }
            }
            Ok(unscaled(&scaled, power))
        }
        XOR_PLANES => {
            let lag = read_lag(reader)?;
            let total = count
                .checked_mul(8)
                .ok_or(CodecError::Corrupt("float count overflows"))?;
            let planes = reader.take(total)?;
            let mut values = vec![0u64; count];
            for (slot, i) in series_order(count, lag).enumerate() {
                let mut bytes = [0u8; 8];
                for (plane, byte) in bytes.iter_mut().enumerate() {
                    *byte = planes[plane * count + slot];
                }
                values[i] = u64::from_be_bytes(bytes);
            }
            for i in lag..count {
                values[i] ^= values[i - lag];
            }
            Ok(values)
        }
        _ => Err(CodecError::Corrupt("unknown float stream form")),
    }
}

/// The smallest number of fraction digits that represents every value exactly, if any,
/// with every value scaled to it: one pass, the scale only growing with the digits the
/// values seen so far needed. When it grows, the values already scaled are multiplied by
/// ten: a value exact at a scale is exact, as that integer times ten, at the next (the
/// decoder divides the same rational number, so it rounds to the same float).
fn decimal(values: &[u64]) -> Option<(usize, Vec<u64>)> {
    let mut scale = 0;
    let mut scaled: Vec<u64> = Vec::with_capacity(values.len());
    for &bits in values {
        let integer = loop {
            if let Some(integer) = exact_at(bits, scale) {
                break integer;
            }
            scale += 1;
            if scale == POWERS_OF_TEN.len() {
                return None;
            }
            for earlier in &mut scaled {
                let times_ten = (*earlier as i64).checked_mul(10)?;
                if times_ten.unsigned_abs() > MAX_EXACT as u64 {
                    return None;
                }
                *earlier = times_ten as u64;
            }
        };
        scaled.push(integer as u64);
    }
    Some((scale, scaled))
}

/// `bits` times `10^scale` as an integer, when the value reads back bit for bit from it.
fn exact_at(bits: u64, scale: usize) -> Option<i64> {
    let power = POWERS_OF_TEN[scale];
    let scaled = nearest_integer(f64::from_bits(bits) * power);
    // Comparing bit patterns keeps -0.0, NaN and infinities on the exact path.
    (scaled.abs() <= MAX_EXACT && unscale(scaled as i64, power).to_bits() == bits)
        .then_some(scaled as i64)
}

/// The integer nearest `x` (either one at a tie: a value halfway between two integers is
/// never exact, whichever is picked). Adding and subtracting 1.5 x 2^52 rounds in the
/// floating-point unit itself, where `f64::round` is a library call; beyond 2^51 a float
/// has no fraction digits worth rounding to an exact integer, and `round` takes over.
fn nearest_integer(x: f64) -> f64 {
    const ROUNDER: f64 = 6_755_399_441_055_744.0;
    if x.abs() < 2_251_799_813_685_248.0 {
        (x + ROUNDER) - ROUNDER
    } else {
        x.round()
    }
}

/// The decoder's arithmetic; the encoder checks with the same function, so the result is
/// bit-for-bit what was stored.
fn unscale(scaled: i64, power: f64) -> f64 {
    scaled as f64 / power
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats_round_trip(values: &[f64]) -> usize {
        let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        let mut out = Vec::new();
        put_floats(&mut out, &Floats::new(&bits), &[], Forms::Version1, &[]);
        let mut reader = Reader::new(&out);
        assert_eq!(read_floats_alone(&mut reader).expect("reads"), bits);
        assert!(reader.is_empty());
        out.len()
    }

    #[test]
    fn a_column_can_be_stored_as_its_difference_from_an_earlier_one() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let value: Vec<u64> = (0..400)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (f64::from((state % 10_000) as u32) / 10.0).to_bits()
            })
            .collect();
        let max: Vec<u64> = value
            .iter()
            .map(|&v| (f64::from_bits(v) + 0.5).to_bits())
            .collect();
        let mut alone = Vec::new();
        put_floats(&mut alone, &Floats::new(&max), &[], Forms::Version1, &[]);
        let mut referenced = Vec::new();
        let reference = put_floats(
            &mut referenced,
            &Floats::new(&max),
            &[Floats::new(&value)],
            Forms::Version1,
            &[],
        );
        assert_eq!(reference, Some(0));
        // `max` is `value + 0.5`: the differences are one repeated number, which the
        // compressor afterwards removes.
        let compressed = |raw: &[u8]| {
            crate::codec::Codec::DEFAULT
                .compress(raw)
                .expect("zstd")
                .len()
        };
        let (alone, referenced_size) = (compressed(&alone), compressed(&referenced));
        assert!(referenced_size * 4 < alone, "{referenced_size} vs {alone}");
        let back =
            read_floats(&mut Reader::new(&referenced), &mut [value.as_slice()][..]).expect("reads");
        assert_eq!(back, max);
        // Without the column it refers to, the data is corrupt, not a panic.
        assert!(read_floats_alone(&mut Reader::new(&referenced)).is_err());
    }

    #[test]
    fn interleaved_series_of_floats_round_trip() {
        let readings: Vec<f64> = (0..300)
            .flat_map(|i| [20.0 + f64::from(i) / 10.0, 0.5, 900.25])
            .collect();
        floats_round_trip(&readings);
        let noisy: Vec<f64> = (0..300)
            .flat_map(|i| [f64::from(i).sqrt(), 1e-9 * f64::from(i)])
            .collect();
        floats_round_trip(&noisy);
    }

    #[test]
    fn decimals_are_stored_as_scaled_integers() {
        let readings: Vec<f64> = (0..1000).map(|i| 20.0 + f64::from(i % 7) * 0.1).collect();
        let size = floats_round_trip(&readings);
        assert!(size < 1000 * 2, "{size} bytes");
    }

    #[test]
    fn awkward_floats_round_trip_bit_for_bit() {
        floats_round_trip(&[0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
        floats_round_trip(&[f64::MIN_POSITIVE, f64::MAX, f64::MIN, 1e-300, 0.1 + 0.2]);
        floats_round_trip(&[f64::from_bits(0x7ff8_0000_dead_beef), 1.5]);
        floats_round_trip(&[9.007_199_254_740_993e15, 1.0]);
    }

    #[test]
    fn corrupt_streams_are_errors() {
        let mut out = Vec::new();
        put_floats(
            &mut out,
            &Floats::new(&[1.5f64.to_bits(); 3]),
            &[],
            Forms::Version1,
            &[],
        );
        assert!(read_floats_alone(&mut Reader::new(&out[..out.len() - 1])).is_err());
        assert!(read_floats_alone(&mut Reader::new(&[1, DECIMAL, 200, 0])).is_err());
        assert!(
            read_floats_alone(&mut Reader::new(&[1, XOR_PLANES, 9, 0])).is_err(),
            "lag 9"
        );
    }
}
