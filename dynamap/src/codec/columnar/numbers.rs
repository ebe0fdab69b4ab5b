//! Integer and float streams: each column's numbers are encoded together, in whichever of
//! a few forms is smallest, so that the general-purpose compressor afterwards sees runs.
//!
//! - Integers: zigzag varints of the values, or of the differences between neighbours
//!   (timestamps one minute apart become a run of the same small number).
//! - Floats: when every value in the column is a decimal with at most nine fraction digits
//!   (sensor readings such as `21.4`), the scaled integers as zigzag varints of their
//!   differences; otherwise the XOR of each value with the previous one, split into eight
//!   byte planes, so the sign, exponent and top mantissa bits of slowly drifting values
//!   become long runs of zero bytes.

use super::CodecError;
use super::varint::{self, Reader};

const PLAIN: u8 = 0;
const DELTA: u8 = 1;
const XOR_PLANES: u8 = 2;
const DECIMAL: u8 = 3;

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
    let mut plain = Vec::with_capacity(values.len() * 2);
    let mut delta = Vec::with_capacity(values.len() * 2);
    let mut previous = 0u64;
    for &value in values {
        varint::put(&mut plain, varint::zigzag(value as i64));
        varint::put(
            &mut delta,
            varint::zigzag(value.wrapping_sub(previous) as i64),
        );
        previous = value;
    }
    if delta.len() < plain.len() {
        out.push(DELTA);
        out.extend_from_slice(&delta);
    } else {
        out.push(PLAIN);
        out.extend_from_slice(&plain);
    }
}

/// Reads what [`put_ints`] wrote.
pub(crate) fn read_ints(reader: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
    let count = reader.len()?;
    if count == 0 {
        return Ok(Vec::new());
    }
    let mode = reader.byte()?;
    // Every value takes at least one byte, so a count beyond the bytes left is corrupt;
    // checking first keeps a forged count from reserving memory.
    let mut values = Vec::with_capacity(count.min(reader.remaining()));
    let mut previous = 0u64;
    for _ in 0..count {
        let raw = varint::unzigzag(reader.varint()?) as u64;
        let value = match mode {
            PLAIN => raw,
            DELTA => previous.wrapping_add(raw),
            _ => return Err(CodecError::Corrupt("unknown integer stream form")),
        };
        values.push(value);
        previous = value;
    }
    Ok(values)
}

/// Appends the floats (as `f64` bit patterns) to `out`.
pub(crate) fn put_floats(out: &mut Vec<u8>, values: &[u64]) {
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return;
    }
    if let Some(scale) = decimal_scale(values) {
        out.push(DECIMAL);
        out.push(scale as u8);
        let power = POWERS_OF_TEN[scale];
        let mut previous = 0i64;
        for &bits in values {
            let scaled = (f64::from_bits(bits) * power).round() as i64;
            varint::put(out, varint::zigzag(scaled.wrapping_sub(previous)));
            previous = scaled;
        }
        return;
    }
    out.push(XOR_PLANES);
    let start = out.len();
    out.resize(start + values.len() * 8, 0);
    let mut previous = 0u64;
    for (i, &bits) in values.iter().enumerate() {
        let xored = bits ^ previous;
        previous = bits;
        for (plane, byte) in xored.to_be_bytes().into_iter().enumerate() {
            out[start + plane * values.len() + i] = byte;
        }
    }
}

/// Reads what [`put_floats`] wrote, as `f64` bit patterns.
pub(crate) fn read_floats(reader: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
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
            let mut values = Vec::with_capacity(count.min(reader.remaining()));
            let mut previous = 0i64;
            for _ in 0..count {
                let scaled = previous.wrapping_add(varint::unzigzag(reader.varint()?));
                values.push(unscale(scaled, power).to_bits());
                previous = scaled;
            }
            Ok(values)
        }
        XOR_PLANES => {
            let total = count
                .checked_mul(8)
                .ok_or(CodecError::Corrupt("float count overflows"))?;
            let planes = reader.take(total)?;
            let mut values = Vec::with_capacity(count);
            let mut previous = 0u64;
            for i in 0..count {
                let mut bytes = [0u8; 8];
                for (plane, byte) in bytes.iter_mut().enumerate() {
                    *byte = planes[plane * count + i];
                }
                previous ^= u64::from_be_bytes(bytes);
                values.push(previous);
            }
            Ok(values)
        }
        _ => Err(CodecError::Corrupt("unknown float stream form")),
    }
}

/// The smallest number of fraction digits that represents every value exactly, if any.
fn decimal_scale(values: &[u64]) -> Option<usize> {
    (0..POWERS_OF_TEN.len()).find(|&scale| {
        let power = POWERS_OF_TEN[scale];
        values.iter().all(|&bits| {
            let scaled = (f64::from_bits(bits) * power).round();
            // Comparing bit patterns keeps -0.0, NaN and infinities on the exact path.
            scaled.abs() <= MAX_EXACT && unscale(scaled as i64, power).to_bits() == bits
        })
    })
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
        put_floats(&mut out, &bits);
        let mut reader = Reader::new(&out);
        assert_eq!(read_floats(&mut reader).expect("reads"), bits);
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
        put_floats(&mut out, &[1.5f64.to_bits(); 3]);
        assert!(read_floats(&mut Reader::new(&out[..out.len() - 1])).is_err());
        assert!(read_ints(&mut Reader::new(&[5, 9, 1])).is_err());
        assert!(read_floats(&mut Reader::new(&[1, DECIMAL, 200, 0])).is_err());
        // A count far beyond the input must not allocate before failing.
        assert!(read_ints(&mut Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0, 1])).is_err());
    }
}
