//! Every key format reads back what it writes, and only that: random parts rendered in a
//! random format parse back to the value (lower-cased text for a lower-casing format), a
//! verbatim part is refused exactly when it holds the delimiter, and a stored number reads
//! back only from the one text its format writes for it. And each keeps the order
//! `docs/design/keys.md` says it keeps, and loses the one it says it loses.

use dynamap::key::{KeyErrorKind, KeyFormat, KeyPartError, KeyReader, KeyWriter, Numbers};
use proptest::prelude::*;

const TEMPLATE: &str = "E#{name}#{n}";

fn render(name: &str, n: i64, format: KeyFormat) -> Result<String, dynamap::KeyError> {
    let mut w = KeyWriter::new("E", "SK", 1024);
    w.literal("E#");
    w.part_as::<String, _>("name", &name, format);
    w.literal("#");
    w.part_as::<i64, _>("n", &n, format);
    w.finish()
}

fn parse(text: &str, format: KeyFormat) -> Result<(String, i64), dynamap::KeyError> {
    let mut r = KeyReader::new("E", "SK", text);
    r.literal("E#", TEMPLATE)?;
    let name = r.part_as("name", TEMPLATE, format)?;
    r.literal("#", TEMPLATE)?;
    let n = r.part_as("n", TEMPLATE, format)?;
    r.finish(TEMPLATE)?;
    Ok((name, n))
}

fn formats() -> impl Strategy<Value = KeyFormat> {
    let numbers = prop_oneof![
        Just(Numbers::Ordered),
        Just(Numbers::Plain),
        (1u8..8, prop_oneof![Just('0'), Just(' '), Just('x')])
            .prop_map(|(width, pad)| Numbers::Padded { width, pad }),
    ];
    (any::<bool>(), any::<bool>(), numbers).prop_map(|(verbatim, lowercase, numbers)| {
        KeyFormat::ESCAPED
            .with_escaping(!verbatim)
            .with_lowercase(lowercase)
            .numbers(numbers)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_key_reads_back_to_its_parts_in_every_format(
        name in "[ -~ąĄß]{1,12}",
        n in any::<i64>(),
        format in formats(),
    ) {
        match render(&name, n, format) {
            Ok(key) => {
                prop_assert!(!(format.is_verbatim() && name.contains('#')));
                let want = if format.is_lowercase() { name.to_lowercase() } else { name.clone() };
                prop_assert_eq!(parse(&key, format).expect("parses"), (want.clone(), n));
                // One value, one key: the parts read back render the same key.
                prop_assert_eq!(render(&want, n, format).expect("renders"), key);
            }
            Err(err) => {
                prop_assert!(format.is_verbatim() && name.contains('#'), "{}", err);
                prop_assert_eq!(
                    err.kind,
                    KeyErrorKind::Part(KeyPartError::NotVerbatim { text: if format.is_lowercase() { name.to_lowercase() } else { name } })
                );
            }
        }
    }

    #[test]
    fn a_number_reads_back_only_from_its_own_text(
        text in "-?[0 x]{0,3}[0-9]{0,4}",
        format in formats(),
    ) {
        // An escaped key also reads raw characters below `%` as themselves, for keys stored
        // before they were escaped (docs/design/keys.md): a raw space is not this format's
        // own text, but it reads.
        prop_assume!(format.is_verbatim() || !text.contains(' '));
        let key = format!("E#a#{text}");
        if let Ok((_, n)) = parse(&key, format) {
            prop_assert_eq!(render("a", n, format).expect("renders"), key);
        }
    }
}

fn key_of(name: &str, n: i64, format: KeyFormat) -> String {
    render(name, n, format).expect("renders")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Padded numbers sort as numbers from 0 up to `10^width - 1`, as documented.
    #[test]
    fn padded_numbers_in_range_sort_as_numbers(width in 1u8..6, a in 0i64..100_000, b in 0i64..100_000) {
        let limit = 10i64.pow(u32::from(width));
        let (a, b) = (a % limit, b % limit);
        let format = KeyFormat::verbatim().numbers(Numbers::Padded { width, pad: '0' });
        prop_assert_eq!(key_of("x", a, format).cmp(&key_of("x", b, format)), a.cmp(&b));
    }

    /// Verbatim text whose characters all sort above `$` keeps tuple order, and
    /// lower-cased text sorts as the lower-cased tuple.
    #[test]
    fn verbatim_and_lowercase_text_keep_tuple_order(
        a in "[&-~]{1,6}", b in "[&-~]{1,6}", n in -3i64..3, m in -3i64..3,
    ) {
        let verbatim = KeyFormat::verbatim();
        prop_assert_eq!(
            key_of(&a, n, verbatim).cmp(&key_of(&b, m, verbatim)),
            (a.as_str(), n).cmp(&(b.as_str(), m))
        );
        let lower = KeyFormat::verbatim().lowercase();
        let (la, lb) = (a.to_lowercase(), b.to_lowercase());
        prop_assert_eq!(
            key_of(&a, n, lower).cmp(&key_of(&b, m, lower)),
            (la.as_str(), n).cmp(&(lb.as_str(), m))
        );
    }
}

/// The orders the docs say a format does not keep, so nobody relies on them.
#[test]
fn plain_numbers_and_verbatim_low_characters_do_not_keep_order() {
    let plain = KeyFormat::verbatim().numbers(Numbers::Plain);
    assert!(
        key_of("x", 10, plain) < key_of("x", 9, plain),
        "plain numbers sort as text"
    );
    let padded = KeyFormat::verbatim().numbers(Numbers::Padded { width: 2, pad: '0' });
    assert!(
        key_of("x", 100, padded) < key_of("x", 99, padded),
        "beyond the width"
    );
    let verbatim = KeyFormat::verbatim();
    // ("A ", 1) > ("A", 1) as tuples, but its key sorts first: ' ' is below '#'.
    assert!(key_of("A ", 1, verbatim) < key_of("A", 1, verbatim));
    // Escaped, the same tuples keep their order.
    let escaped = KeyFormat::ESCAPED;
    assert!(key_of("A ", 1, escaped) > key_of("A", 1, escaped));
}
