//! DynamoDB's order of sort key values, to merge partitions: strings and binaries byte by
//! byte, numbers by value, several attributes one after the other.

use std::cmp::Ordering;

use crate::codec::{AttributeValue, Item};

/// Compares two items by the sort key attributes `attributes`, in order.
pub(super) fn compare_items(a: &Item, b: &Item, attributes: &[&str]) -> Ordering {
    attributes
        .iter()
        .map(|name| compare_values(a.get(*name), b.get(*name)))
        .find(|order| order.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// Compares two key values as DynamoDB orders them. A missing value or one of another type
/// (neither can be in one index's sort key) sorts by type, so the order stays total.
pub(super) fn compare_values(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> Ordering {
    use AttributeValue::{B, N, S};
    match (a, b) {
        (Some(S(a)), Some(S(b))) => a.as_bytes().cmp(b.as_bytes()),
        (Some(N(a)), Some(N(b))) => compare_numbers(a, b),
        (Some(B(a)), Some(B(b))) => a.as_ref().cmp(b.as_ref()),
        (a, b) => rank(a).cmp(&rank(b)),
    }
}

fn rank(value: Option<&AttributeValue>) -> u8 {
    match value {
        None => 0,
        Some(AttributeValue::N(_)) => 1,
        Some(AttributeValue::S(_)) => 2,
        Some(AttributeValue::B(_)) => 3,
        Some(_) => 4,
    }
}

/// A decimal number: `sign * 0.digits * 10^exponent`, `digits` without leading or trailing
/// zeros (empty for zero).
struct Decimal<'a> {
    negative: bool,
    digits: Vec<&'a u8>,
    exponent: i64,
}

fn parse(text: &str) -> Option<Decimal<'_>> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let all: Vec<&u8> = int.as_bytes().iter().chain(frac.as_bytes()).collect();
    if all.iter().any(|b| !b.is_ascii_digit()) {
        return None;
    }
    let leading = all.iter().take_while(|b| ***b == b'0').count();
    let mut digits = all[leading..].to_vec();
    while digits.last().is_some_and(|b| **b == b'0') {
        digits.pop();
    }
    let point = i64::try_from(int.len()).ok()? - i64::try_from(leading).ok()?;
    Some(Decimal {
        negative: negative && !digits.is_empty(),
        digits,
        exponent: point.checked_add(exp)?,
    })
}

/// Compares two DynamoDB numbers by value, exactly (no floating point); text that is not a
/// number compares as text.
pub(super) fn compare_numbers(a: &str, b: &str) -> Ordering {
    let (Some(x), Some(y)) = (parse(a), parse(b)) else {
        return a.cmp(b);
    };
    let sign = |d: &Decimal<'_>| match (d.negative, d.digits.is_empty()) {
        (_, true) => 0,
        (true, false) => -1,
        (false, false) => 1,
    };
    match sign(&x).cmp(&sign(&y)) {
        Ordering::Equal => {}
        other => return other,
    }
    if sign(&x) == 0 {
        return Ordering::Equal;
    }
    let magnitude = x
        .exponent
        .cmp(&y.exponent)
        .then_with(|| x.digits.cmp(&y.digits));
    if x.negative {
        magnitude.reverse()
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        let ordered = [
            "-1E+3",
            "-100",
            "-10.5",
            "-10",
            "-0.001",
            "0",
            "1e-3",
            "0.0012",
            "2",
            "9.99",
            "10",
            "10.5",
            "1E2",
            "100.5",
            "12345678901234567890123456789",
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(compare_numbers(a, b), i.cmp(&j), "{a} vs {b}");
            }
        }
        for (a, b) in [
            ("0", "-0"),
            ("1.50", "1.5"),
            ("007", "7"),
            ("1E2", "100"),
            ("0.0", "0"),
        ] {
            assert_eq!(compare_numbers(a, b), Ordering::Equal, "{a} vs {b}");
        }
    }

    #[test]
    fn strings_and_binaries_compare_bytewise_and_attributes_in_order() {
        let s = |t: &str| AttributeValue::S(t.to_owned());
        assert_eq!(compare_values(Some(&s("Z")), Some(&s("a"))), Ordering::Less);
        assert_eq!(
            compare_values(Some(&s("é")), Some(&s("z"))),
            Ordering::Greater
        );
        let b = |v: &[u8]| AttributeValue::B(v.to_vec().into());
        assert_eq!(
            compare_values(Some(&b(&[1, 255])), Some(&b(&[2]))),
            Ordering::Less
        );
        let item = |x: &str, n: &str| -> Item {
            [
                ("a".to_owned(), s(x)),
                ("n".to_owned(), AttributeValue::N(n.to_owned())),
            ]
            .into()
        };
        assert_eq!(
            compare_items(&item("A", "10"), &item("A", "9"), &["a", "n"]),
            Ordering::Greater
        );
        assert_eq!(
            compare_items(&item("A", "10"), &item("B", "9"), &["a", "n"]),
            Ordering::Less
        );
        assert_eq!(
            compare_items(&item("A", "1"), &item("A", "1.0"), &["a", "n"]),
            Ordering::Equal
        );
    }
}
