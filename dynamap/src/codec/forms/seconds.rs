//! A duration as an exact decimal number of seconds: `90.5`, `0.000000001`, `-3600`. The
//! stored form of `std::time::Duration` and `time::Duration`: a number, so it sorts and
//! compares as durations do, with every nanosecond kept.

/// A duration's magnitude, split as its types hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Seconds {
    /// True below zero (never for a zero duration).
    pub(super) negative: bool,
    /// Whole seconds.
    pub(super) secs: u64,
    /// Nanoseconds past the whole seconds, below one billion.
    pub(super) nanos: u32,
}

/// The decimal text: no exponent, no trailing fraction zeros, no point for whole seconds.
pub(super) fn format(value: Seconds) -> String {
    let mut text = String::with_capacity(32);
    if value.negative && (value.secs, value.nanos) != (0, 0) {
        text.push('-');
    }
    text.push_str(itoa::Buffer::new().format(value.secs));
    if value.nanos != 0 {
        let fraction = format!("{:09}", value.nanos);
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text
}

/// Reads a decimal number of seconds exactly: in the form [`format`] writes, and in any
/// other spelling of a DynamoDB number (`1.50`, `1.5E+1`, `+2`), as long as no digit falls
/// below the nanosecond. `None` for anything else.
pub(super) fn parse(text: &str) -> Option<Seconds> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // The digits, and where the decimal point falls among them once the exponent moved it.
    let digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    let point = i64::try_from(whole.len()).ok()? + i64::from(exponent);
    let digit = |at: i64| -> u8 {
        usize::try_from(at)
            .ok()
            .and_then(|at| digits.get(at))
            .map_or(0, |d| d - b'0')
    };
    // Every digit below the nanosecond must be zero: the value is kept exactly or refused.
    let last_nonzero = digits.iter().rposition(|d| *d != b'0');
    let below_nanos = |last: usize| {
        i64::try_from(last)
            .ok()
            .is_none_or(|last| last >= point + 9)
    };
    if last_nonzero.is_some_and(below_nanos) {
        return None;
    }
    let first_nonzero = digits.iter().position(|d| *d != b'0');
    let mut secs: u64 = 0;
    if let Some(first) = first_nonzero {
        let first = i64::try_from(first).ok()?;
        // At most 20 digits fit a u64: more is out of range, checked below anyway.
        if point - first > 20 {
            return None;
        }
        for at in first.min(point)..point {
            secs = secs.checked_mul(10)?.checked_add(u64::from(digit(at)))?;
        }
    }
    let mut nanos: u32 = 0;
    for at in point..point + 9 {
        nanos = nanos * 10 + u32::from(digit(at));
    }
    Some(Seconds {
        negative: negative && (secs, nanos) != (0, 0),
        secs,
        nanos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(negative: bool, secs: u64, nanos: u32) -> Seconds {
        Seconds {
            negative,
            secs,
            nanos,
        }
    }

    #[test]
    fn writes_exact_decimals_and_reads_them_back() {
        for (value, text) in [
            (seconds(false, 0, 0), "0"),
            (seconds(false, 90, 500_000_000), "90.5"),
            (seconds(false, 0, 1), "0.000000001"),
            (seconds(true, 1, 250_000_000), "-1.25"),
            (seconds(false, 3600, 0), "3600"),
            (
                seconds(false, u64::MAX, 999_999_999),
                "18446744073709551615.999999999",
            ),
            (
                seconds(true, 9_223_372_036_854_775_808, 0),
                "-9223372036854775808",
            ),
        ] {
            assert_eq!(format(value), text);
            assert_eq!(parse(text), Some(value), "{text}");
        }
    }

    #[test]
    fn reads_other_spellings_of_the_same_number() {
        for (text, value) in [
            ("1.50", seconds(false, 1, 500_000_000)),
            ("+2", seconds(false, 2, 0)),
            ("1.5E+1", seconds(false, 15, 0)),
            ("1E-9", seconds(false, 0, 1)),
            ("25e-1", seconds(false, 2, 500_000_000)),
            ("-0", seconds(false, 0, 0)),
            (".5", seconds(false, 0, 500_000_000)),
            ("0001.000000001000", seconds(false, 1, 1)),
        ] {
            assert_eq!(parse(text), Some(value), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_exact_or_not_a_number() {
        for text in [
            "",
            "-",
            ".",
            "1.0000000001",
            "1E-10",
            "18446744073709551616",
            "1e30",
            "x",
            "1.2.3",
            "1e",
            "NaN",
            " 1",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
