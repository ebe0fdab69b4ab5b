//! Integer and float streams: each column's numbers are encoded together, in whichever of
//! a few forms is smallest, so that the general-purpose compressor afterwards sees runs.
//!
//! - Integers: zigzag varints of the values, or of the differences from the value `lag`
//!   places back (timestamps one minute apart become a run of the same small number). The
//!   lag is chosen per column, from 1 to [`MAX_LAG`]: records that interleave several series
//!   (motion, noise and light events in turn) line each value up with the previous value of
//!   its own series. The differences are then written series by series (every `lag`-th
//!   one, starting at each offset in turn), so each series' run sits together.
//! - Floats: when every value in the column is a decimal with at most nine fraction digits
//!   (sensor readings such as `21.4`), the scaled integers, as integers above; otherwise the
//!   XOR of each value with the one `lag` places back, split into eight byte planes, so the
//!   sign, exponent and top mantissa bits of slowly drifting values become runs of zeros.

use super::CodecError;
use super::varint::{self, Reader};

const PLAIN: u8 = 0;
const DELTA: u8 = 1;
const XOR_PLANES: u8 = 2;
const DECIMAL: u8 = 3;

/// The furthest back a difference or XOR may reach.
const MAX_LAG: usize = 8;

/// How many values the choice of lag looks at.
const SAMPLE: usize = 512;

/// Exact powers of ten for the decimal float form.
const POWERS_OF_TEN: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// Largest integer an `f64` holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// Appends the integers (as 64-bit patterns) to `out`.
pub(crate) fn put_ints(out: &mut Vec<u8>, values: &[u64]) {
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return;
    }
    IntForm::choose(values).write(out, values);
}

/// How a column of integers is written: as they are (`lag` 0), or as differences from the
/// value `lag` places back, each series (every `lag`-th value) divided by the greatest
/// common divisor of its differences (a noise level stored in tenths but read in hundredths
/// steps by ten).
struct IntForm {
    lag: usize,
    divisors: Vec<u64>,
    cost: usize,
}

impl IntForm {
    /// The form with the lowest [`cost`] on the first [`SAMPLE`] values: interleaving and
    /// drift show within a few records, and trying every form on every value would cost
    /// more than the rest of the encoding. The chosen form's divisors and cost are then
    /// taken over every value.
    fn choose(values: &[u64]) -> IntForm {
        let sample = &values[..values.len().min(SAMPLE)];
        let plain = cost(sample.iter().map(|&v| varint::zigzag(v as i64)));
        let best = (1..=MAX_LAG.min(sample.len()))
            .map(|lag| IntForm::differenced(sample, lag))
            .min_by_key(|form| form.cost);
        match best {
            Some(form) if form.cost < plain => IntForm::differenced(values, form.lag),
            _ => IntForm {
                lag: 0,
                divisors: Vec::new(),
                cost: cost(values.iter().map(|&v| varint::zigzag(v as i64))),
            },
        }
    }

    fn differenced(values: &[u64], lag: usize) -> IntForm {
        let divisors: Vec<u64> = (0..lag)
            .map(|offset| series_divisor(series(values, lag, offset)))
            .collect();
        let stream = (0..lag).flat_map(|offset| {
            let divisor = divisors[offset];
            series(values, lag, offset).map(move |d| varint::zigzag(divide(d, divisor)))
        });
        let cost = cost(stream);
        IntForm {
            lag,
            divisors,
            cost,
        }
    }

    /// The form byte, the lag and divisors for differences, then the varints.
    fn write(&self, out: &mut Vec<u8>, values: &[u64]) {
        if self.lag == 0 {
            out.push(PLAIN);
            for &v in values {
                varint::put(out, varint::zigzag(v as i64));
            }
            return;
        }
        out.extend_from_slice(&[DELTA, self.lag as u8]);
        for &divisor in &self.divisors {
            varint::put(out, divisor);
        }
        for (offset, &divisor) in self.divisors.iter().enumerate() {
            for difference in series(values, self.lag, offset) {
                varint::put(out, varint::zigzag(divide(difference, divisor)));
            }
        }
    }
}

/// The differences of one interleaved series: value `offset`, `offset + lag`, ... minus
/// the value `lag` places before it (0 before the start), wrapping.
fn series(values: &[u64], lag: usize, offset: usize) -> impl Iterator<Item = i64> + '_ {
    (offset..values.len()).step_by(lag).map(move |i| {
        let back = i.checked_sub(lag).map_or(0, |j| values[j]);
        values[i].wrapping_sub(back) as i64
    })
}

/// The greatest common divisor of a series' differences, at least 1. Noisy series reach 1
/// within a few values, and the scan stops there.
fn series_divisor(differences: impl Iterator<Item = i64>) -> u64 {
    let mut divisor = 0;
    for difference in differences {
        divisor = gcd(divisor, difference.unsigned_abs());
        if divisor == 1 {
            break;
        }
    }
    divisor.max(1)
}

/// Binary GCD: shifts and subtractions, no division.
fn gcd(a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    let (mut a, mut b) = (a >> a.trailing_zeros(), b);
    while b != 0 {
        b >>= b.trailing_zeros();
        if a > b {
            (a, b) = (b, a);
        }
        b -= a;
    }
    a << shift
}

/// `difference / divisor`, exact (the divisor divides it). A divisor of 2^63 (only for
/// differences of 0 and `i64::MIN`) goes through 128 bits.
fn divide(difference: i64, divisor: u64) -> i64 {
    match i64::try_from(divisor) {
        Ok(1) => difference,
        Ok(divisor) => difference / divisor,
        Err(_) => (i128::from(difference) / i128::from(divisor)) as i64,
    }
}

/// Positions `0..len`, every `lag`-th one starting at each offset in turn: the values of one
/// interleaved series, then the next.
fn series_order(len: usize, lag: usize) -> impl Iterator<Item = usize> {
    (0..lag).flat_map(move |offset| (offset..len).step_by(lag))
}

/// A guess at how well a stream of varints compresses: its size, except that a value equal
/// to the one before costs nothing, since the compressor afterwards turns runs into almost
/// nothing. (Timestamps of three interleaved series: differences to the neighbour alternate
/// between 0 and a minute, which is smaller raw; differences within each series are a
/// minute every time, which compresses away.)
fn cost(stream: impl Iterator<Item = u64>) -> usize {
    let mut previous = None;
    stream
        .map(|value| {
            let repeat = previous == Some(value);
            previous = Some(value);
            if repeat { 0 } else { varint_len(value) }
        })
        .sum()
}

fn varint_len(value: u64) -> usize {
    (64 - value.leading_zeros() as usize).max(1).div_ceil(7)
}

/// Reads what [`put_ints`] wrote.
pub(crate) fn read_ints(reader: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
    let count = reader.len()?;
    if count == 0 {
        return Ok(Vec::new());
    }
    read_int_body(reader, count)
}

fn read_int_body(reader: &mut Reader<'_>, count: usize) -> Result<Vec<u64>, CodecError> {
    let lag = match reader.byte()? {
        PLAIN => 0,
        DELTA => lag(reader)?,
        _ => return Err(CodecError::Corrupt("unknown integer stream form")),
    };
    let divisors = (0..lag)
        .map(|_| reader.varint())
        .collect::<Result<Vec<u64>, _>>()?;
    // Every value takes at least one byte, so a count beyond the bytes left is corrupt;
    // checking first keeps a forged count from reserving memory.
    if count > reader.remaining() {
        return Err(CodecError::Truncated("integer"));
    }
    if lag == 0 {
        return (0..count)
            .map(|_| Ok(varint::unzigzag(reader.varint()?) as u64))
            .collect();
    }
    let mut values = vec![0u64; count];
    for (offset, &divisor) in divisors.iter().enumerate() {
        for i in (offset..count).step_by(lag) {
            let quotient = varint::unzigzag(reader.varint()?);
            // Wrapping, as the writer's differences: corrupt input cannot overflow.
            values[i] = (quotient as u64).wrapping_mul(divisor);
        }
    }
    for i in lag..count {
        values[i] = values[i].wrapping_add(values[i - lag]);
    }
    Ok(values)
}

fn lag(reader: &mut Reader<'_>) -> Result<usize, CodecError> {
    match usize::from(reader.byte()?) {
        lag @ 1..=MAX_LAG => Ok(lag),
        _ => Err(CodecError::Corrupt("difference lag out of range")),
    }
}

/// A column's floats, with their scaled integers when they are all decimals.
pub(crate) struct Floats<'a> {
    bits: &'a [u64],
    decimal: Option<(usize, Vec<u64>)>,
}

impl<'a> Floats<'a> {
    /// Finds the decimal scale, if any, and scales once for every use.
    pub(crate) fn new(bits: &'a [u64]) -> Self {
        let decimal = decimal_scale(bits).map(|scale| (scale, scaled(bits, scale)));
        Floats { bits, decimal }
    }
}

/// Appends the floats to `out`. `earlier` holds the floats of the columns written before
/// this one: a decimal column may be stored as its difference from an earlier decimal
/// column of the same length and scale (a reading's `max` from its `value`).
pub(crate) fn put_floats(out: &mut Vec<u8>, floats: &Floats<'_>, earlier: &[Floats<'_>]) {
    let values = floats.bits;
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return;
    }
    if let Some((scale, scaled)) = &floats.decimal {
        let alone = IntForm::choose(scaled);
        let mut best = (alone, None, None);
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
            let form = IntForm::choose(&residuals);
            if form.cost < best.0.cost {
                best = (form, Some(index), Some(residuals));
            }
        }
        let (form, reference, residuals) = best;
        out.extend_from_slice(&[DECIMAL, *scale as u8]);
        varint::put(out, reference.map_or(0, |r| r as u64 + 1));
        form.write(out, residuals.as_deref().unwrap_or(scaled));
        return;
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
}

/// Each value times `10^scale`, as the integer it is exactly (see [`exact_at`]).
fn scaled(values: &[u64], scale: usize) -> Vec<u64> {
    let power = POWERS_OF_TEN[scale];
    values
        .iter()
        .map(|&bits| (f64::from_bits(bits) * power).round() as i64 as u64)
        .collect()
}

/// Each value XOR the value `lag` places back (0 before the start).
fn xors(values: &[u64], lag: usize) -> impl Iterator<Item = u64> + '_ {
    values
        .iter()
        .enumerate()
        .map(move |(i, &v)| v ^ i.checked_sub(lag).map_or(0, |j| values[j]))
}

/// Reads what [`put_floats`] wrote, as `f64` bit patterns; `earlier` as when writing.
pub(crate) fn read_floats(
    reader: &mut Reader<'_>,
    earlier: &[&[u64]],
) -> Result<Vec<u64>, CodecError> {
    let count = reader.len()?;
    if count == 0 {
        return Ok(Vec::new());
    }
    match reader.byte()? {
        DECIMAL => {
            let scale = usize::from(reader.byte()?);
            let power = *POWERS_OF_TEN
                .get(scale)
                .ok_or(CodecError::Corrupt("decimal scale out of range"))?;
            let reference = match reader.len()? {
                0 => None,
                n => {
                    let column = earlier
                        .get(n - 1)
                        .filter(|column| column.len() == count)
                        .ok_or(CodecError::Corrupt(
                            "float column refers to a missing column",
                        ))?;
                    Some(scaled(column, scale))
                }
            };
            let mut scaled = read_int_body(reader, count)?;
            if let Some(reference) = reference {
                for (value, base) in scaled.iter_mut().zip(reference) {
                    *value = value.wrapping_add(base);
                }
            }
            Ok(scaled
                .into_iter()
                .map(|n| unscale(n as i64, power).to_bits())
                .collect())
        }
        XOR_PLANES => {
            let lag = lag(reader)?;
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

/// The smallest number of fraction digits that represents every value exactly, if any.
/// One pass: the scale only grows, from the digits the values seen so far needed.
fn decimal_scale(values: &[u64]) -> Option<usize> {
    let mut scale = 0;
    for &bits in values {
        while !exact_at(bits, scale) {
            scale += 1;
            if scale == POWERS_OF_TEN.len() {
                return None;
            }
        }
    }
    // A value exact at a smaller scale is almost always exact at a larger one; check.
    values
        .iter()
        .all(|&bits| exact_at(bits, scale))
        .then_some(scale)
}

/// True when `bits` reads back bit for bit from its value scaled by `10^scale`.
fn exact_at(bits: u64, scale: usize) -> bool {
    let power = POWERS_OF_TEN[scale];
    let scaled = (f64::from_bits(bits) * power).round();
    // Comparing bit patterns keeps -0.0, NaN and infinities on the exact path.
    scaled.abs() <= MAX_EXACT && unscale(scaled as i64, power).to_bits() == bits
}

/// The decoder's arithmetic; the encoder checks with the same function, so the result is
/// bit-for-bit what was stored.
fn unscale(scaled: i64, power: f64) -> f64 {
    scaled as f64 / power
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints_round_trip(values: &[u64]) -> usize {
        let mut out = Vec::new();
        put_ints(&mut out, values);
        let mut reader = Reader::new(&out);
        assert_eq!(read_ints(&mut reader).expect("reads"), values);
        assert!(reader.is_empty());
        out.len()
    }

    fn floats_round_trip(values: &[f64]) -> usize {
        let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        let mut out = Vec::new();
        put_floats(&mut out, &Floats::new(&bits), &[]);
        let mut reader = Reader::new(&out);
        assert_eq!(read_floats(&mut reader, &[]).expect("reads"), bits);
        assert!(reader.is_empty());
        out.len()
    }

    #[test]
    fn evenly_spaced_timestamps_take_a_byte_each() {
        let minutes: Vec<u64> = (0..1440).map(|m| 1_700_000_000_000 + m * 60_000).collect();
        assert!(ints_round_trip(&minutes) < 1440 * 4);
        ints_round_trip(&[u64::MAX, 0, i64::MIN as u64, i64::MAX as u64, 1]);
    }

    #[test]
    fn interleaved_series_are_differenced_within_their_own_series() {
        // Three series taking turns: each steps by one, but neighbours differ by millions.
        let values: Vec<u64> = (0..900u64).map(|i| (i % 3) * 1_000_000 + i / 3).collect();
        let mut out = Vec::new();
        put_ints(&mut out, &values);
        assert_eq!(&out[2..4], &[DELTA, 3], "lag 3 chosen");
        assert!(ints_round_trip(&values) < 900 + 20, "about a byte a value");
        let readings: Vec<f64> = (0..300)
            .flat_map(|i| [20.0 + f64::from(i) / 10.0, 0.5, 900.25])
            .collect();
        floats_round_trip(&readings);
    }

    #[test]
    fn binary_gcd_agrees_with_euclid() {
        let euclid = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        for (a, b) in [
            (0, 0),
            (0, 9),
            (12, 18),
            (1 << 63, 1 << 40),
            (u64::MAX, 3),
            (97, 89),
        ] {
            assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
        }
    }

    #[test]
    fn series_stepping_by_a_common_factor_are_divided_by_it() {
        let tenths: Vec<u64> = (0..500u64).map(|i| 1_000 + i * 100).collect();
        assert!(
            ints_round_trip(&tenths) < 520,
            "one byte a value once divided by 100"
        );
        ints_round_trip(&[i64::MIN as u64, 0, i64::MIN as u64, 0]);
        ints_round_trip(&[u64::MAX, 1, u64::MAX - 6, 8]);
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
        put_floats(&mut alone, &Floats::new(&max), &[]);
        let mut referenced = Vec::new();
        put_floats(&mut referenced, &Floats::new(&max), &[Floats::new(&value)]);
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
        let back = read_floats(&mut Reader::new(&referenced), &[&value]).expect("reads");
        assert_eq!(back, max);
        // Without the column it refers to, the data is corrupt, not a panic.
        assert!(read_floats(&mut Reader::new(&referenced), &[]).is_err());
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
        put_floats(&mut out, &Floats::new(&[1.5f64.to_bits(); 3]), &[]);
        assert!(read_floats(&mut Reader::new(&out[..out.len() - 1]), &[]).is_err());
        assert!(read_ints(&mut Reader::new(&[5, 9, 1])).is_err());
        assert!(read_floats(&mut Reader::new(&[1, DECIMAL, 200, 0]), &[]).is_err());
        assert!(
            read_ints(&mut Reader::new(&[2, DELTA, 0, 1, 1])).is_err(),
            "lag 0"
        );
        assert!(
            read_ints(&mut Reader::new(&[2, DELTA, 99, 1, 1])).is_err(),
            "lag 99"
        );
        // A count far beyond the input must not allocate before failing.
        assert!(read_ints(&mut Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0, 1])).is_err());
    }
}
