//! The text of a number attribute, written without `core::fmt`.
//!
//! Every number a field stores goes through here, so it is on the hot path of `to_item`.
//! The text is exactly what `Display` writes (and so what `serde_dynamo` stores), so a
//! condition written now matches a number stored by an earlier version: integers through
//! `itoa`; floats through `Display` into a buffer sized once. (Not `ryu`: where the exact
//! value lies halfway between two shortest spellings it picks the other one, a different
//! DynamoDB number for the same float.)

use std::fmt::Write as _;

/// The decimal text of an integer.
#[inline]
pub(crate) fn integer(value: impl itoa::Integer) -> String {
    itoa::Buffer::new().format(value).to_owned()
}

/// The decimal text of a finite float, as `Display` writes it.
#[inline]
pub(crate) fn float(value: impl std::fmt::Display) -> String {
    // Room for the shortest digits of everyday values; only extremes grow it.
    let mut text = String::with_capacity(24);
    let _ = write!(text, "{value}"); // writing to a `String` cannot fail
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of bit patterns (splitmix64).
    fn bits(count: usize) -> impl Iterator<Item = u64> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        (0..count).map(move |_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
    }

    #[test]
    fn integers_are_written_as_display_writes_them() {
        for value in [0, 1, -1, 42, i64::MIN, i64::MAX] {
            assert_eq!(integer(value), value.to_string());
        }
        assert_eq!(integer(u64::MAX), u64::MAX.to_string());
        for value in bits(10_000) {
            assert_eq!(integer(value as i64), (value as i64).to_string());
        }
    }

    #[test]
    fn floats_are_written_as_display_writes_them() {
        let special = [
            0.0,
            -0.0,
            1.0,
            -3.0,
            0.1,
            2.5,
            1e15,
            1e16,
            1e17,
            123_456_789.0,
            1e-5,
            1e-7,
            1e300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            9_007_199_254_740_993.0,
        ];
        for value in special {
            assert_eq!(float(value), value.to_string(), "{value:e}");
        }
        assert_eq!(float(0.1_f32), "0.1");
    }
}
