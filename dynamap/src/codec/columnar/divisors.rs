//! Common factors of number series: each series of a column is divided by its greatest
//! common divisor before it is written (noise stored in tenths, read in steps of ten), and
//! the division, done for every value, is a shift and a multiplication.

/// The greatest common divisor of a series, at least 1, given the divisor of its first
/// values when `known` (0 when not). Noisy series reach 1 within a few values, and the scan
/// stops there (or does not start); a value the divisor so far divides (most, in a series
/// that has one) is passed by a multiplication instead of a GCD.
pub(super) fn series_divisor(values: impl Iterator<Item = i64>, known: u64) -> u64 {
    let mut divisor = known;
    let mut test = ExactDivisor::new(known);
    for value in values {
        if divisor == 1 {
            break;
        }
        let value = value.unsigned_abs();
        if divisor != 0 && test.divides(value) {
            continue;
        }
        divisor = gcd(divisor, value);
        test = ExactDivisor::new(divisor);
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

/// Division by a number known to divide every dividend exactly (a series' common
/// divisor), as a shift and a multiplication: dividing out the divisor's factors of two is
/// an exact arithmetic shift, and the odd rest is undone by multiplying by its inverse
/// modulo 2^64, which is exact for multiples of it (in two's complement, negative ones too).
#[derive(Clone, Copy)]
pub(super) struct ExactDivisor {
    shift: u32,
    inverse: u64,
    /// The largest quotient of the odd part: a number is a multiple of it exactly when its
    /// product with the inverse is at most this.
    limit: u64,
}

impl ExactDivisor {
    pub(super) fn new(divisor: u64) -> Self {
        let divisor = divisor.max(1);
        let shift = divisor.trailing_zeros();
        let odd = divisor >> shift;
        // Newton's iteration doubles the correct low bits each step: 3, 6, 12, 24, 48, 96.
        let mut inverse = odd;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        ExactDivisor {
            shift,
            inverse,
            limit: u64::MAX / odd,
        }
    }

    /// Whether the divisor divides `value`.
    fn divides(self, value: u64) -> bool {
        value.trailing_zeros() >= self.shift
            && (value >> self.shift).wrapping_mul(self.inverse) <= self.limit
    }

    pub(super) fn divide(self, difference: i64) -> i64 {
        ((difference >> self.shift) as u64).wrapping_mul(self.inverse) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_division_by_multiplication_matches_division() {
        let divisors = [
            1u64,
            2,
            3,
            10,
            100,
            60_000,
            86_400_000,
            1 << 40,
            999_999_937,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for divisor in divisors {
            let exact = ExactDivisor::new(divisor);
            for _ in 0..10_000 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let quotient = (state as i64) >> (divisor.ilog2() + 1);
                let difference = quotient * divisor as i64;
                assert_eq!(
                    exact.divide(difference),
                    quotient,
                    "{difference} / {divisor}"
                );
            }
        }
        for divisor in divisors {
            let exact = ExactDivisor::new(divisor);
            for value in [
                0,
                1,
                divisor,
                divisor + 1,
                divisor * 7,
                u64::MAX,
                u64::MAX - 1,
            ] {
                assert_eq!(
                    exact.divides(value),
                    value % divisor == 0,
                    "{value} % {divisor}"
                );
            }
        }
        let top = ExactDivisor::new(1 << 63);
        assert_eq!((top.divide(i64::MIN), top.divide(0)), (-1, 0));
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
}
