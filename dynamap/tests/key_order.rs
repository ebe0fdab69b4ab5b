//! Keys sort as their tuples of parts do, for arbitrary Unicode parts.
//!
//! For random tuples rich in the characters that broke order before (space, `!`, `"`, `#`,
//! `$`, `%`, control characters) and in shared prefixes, this checks that
//!
//! - byte order of rendered keys is tuple order;
//! - every sort condition on leading parts, as DynamoDB evaluates it on bytes, selects
//!   exactly the keys whose leading parts satisfy it;
//! - a rendered key parses back to its tuple, and so does a key rendered with the escaping
//!   of earlier builds (only `#` and `%` escaped).
//!
//! The queries built from these bounds are checked end to end against DynamoDB Local in
//! `tests/it/key_order.rs`.

use std::cmp::Ordering;

use dynamap::key::{KeyFormat, KeyReader, KeyWriter, Segment, SortArgs, SortBound};
use proptest::prelude::*;
use proptest::sample::select;

use Segment::{Hole, Literal};

/// One part of a tuple. Each template position always holds the same variant, so the
/// derived order is the order of the part's own type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Text(String),
    Int(i32),
}

/// A template and the type of each of its holes (`true` for `i32`, `false` for `String`).
struct Shape {
    segments: &'static [Segment],
    ints: [bool; 3],
}

const LOC: Shape = Shape {
    segments: &[
        Literal("LOC#"),
        Hole("building", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("floor", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("room", KeyFormat::ESCAPED),
    ],
    ints: [false, false, false],
};

/// Longer literals between holes, a number in the middle and a literal after the last hole.
const MIXED: Shape = Shape {
    segments: &[
        Literal("E#"),
        Hole("a", KeyFormat::ESCAPED),
        Literal("#x#"),
        Hole("n", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("b", KeyFormat::ESCAPED),
        Literal("#END"),
    ],
    ints: [false, true, false],
};

fn render(shape: &Shape, parts: &[Part]) -> String {
    let mut w = KeyWriter::new("T", "SK", 1024);
    let mut given = parts.iter();
    for segment in shape.segments {
        match segment {
            Literal(text) => w.literal(text),
            Hole(name, _) => match given.next().expect("whole tuple") {
                Part::Text(s) => w.part::<String, _>(name, s),
                Part::Int(n) => w.part::<i32, _>(name, n),
            },
        }
    }
    w.finish().expect("renders")
}

fn parse(shape: &Shape, key: &str) -> Vec<Part> {
    let mut r = KeyReader::new("T", "SK", key);
    let mut parts = Vec::new();
    for segment in shape.segments {
        match segment {
            Literal(text) => r.literal(text, "template").expect("literal"),
            Hole(name, _) => parts.push(if shape.ints[parts.len()] {
                Part::Int(r.part::<i32>(name, "template").expect("number"))
            } else {
                Part::Text(r.part::<String>(name, "template").expect("text"))
            }),
        }
    }
    r.finish("template").expect("whole key read");
    parts
}

/// The key as earlier builds rendered it: only `#` and `%` escaped.
fn render_old(shape: &Shape, parts: &[Part]) -> String {
    let mut out = String::new();
    let mut given = parts.iter();
    for segment in shape.segments {
        match segment {
            Literal(text) => out.push_str(text),
            Hole(..) => match given.next().expect("whole tuple") {
                Part::Text(s) => out.push_str(&s.replace('%', "%25").replace('#', "%23")),
                Part::Int(n) => {
                    // Numbers never held an escaped character: today's form is the old one.
                    let mut w = KeyWriter::new("T", "SK", 1024);
                    w.part::<i32, _>("n", n);
                    out.push_str(&w.finish().expect("renders"));
                }
            },
        }
    }
    out
}

/// The bound queries use for these leading parts.
fn bound(shape: &Shape, parts: &[Part]) -> SortBound {
    use Part::{Int as I, Text as T};
    let result = if shape.ints == MIXED.ints {
        type S = (String, i32, String);
        match parts {
            [] => SortArgs::<S>::bound(&(), shape.segments),
            [T(a)] => SortArgs::<S>::bound(&(a,), shape.segments),
            [T(a), I(n)] => SortArgs::<S>::bound(&(a, n), shape.segments),
            [T(a), I(n), T(b)] => SortArgs::<S>::bound(&(a, n, b), shape.segments),
            other => unreachable!("not a leading tuple of MIXED: {other:?}"),
        }
    } else {
        type S = (String, String, String);
        match parts {
            [] => SortArgs::<S>::bound(&(), shape.segments),
            [T(a)] => SortArgs::<S>::bound(&(a,), shape.segments),
            [T(a), T(b)] => SortArgs::<S>::bound(&(a, b), shape.segments),
            [T(a), T(b), T(c)] => SortArgs::<S>::bound(&(a, b, c), shape.segments),
            other => unreachable!("not a leading tuple of LOC: {other:?}"),
        }
    };
    result.expect("renders")
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Prefix,
}

const OPS: [Op; 6] = [Op::Eq, Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Prefix];

/// What a condition on leading parts means: the key's leading parts against the bound's.
fn wanted(op: Op, lead: Ordering) -> bool {
    match op {
        Op::Eq | Op::Prefix => lead.is_eq(),
        Op::Lt => lead.is_lt(),
        Op::Le => lead.is_le(),
        Op::Gt => lead.is_gt(),
        Op::Ge => lead.is_ge(),
    }
}

/// Whether DynamoDB, comparing bytes, keeps sort key `sk` under the condition a query
/// sends for `op` on `bound` (the table on [`SortBound`]).
fn selects(op: Op, bound: &SortBound, sk: &str) -> bool {
    match bound {
        SortBound::Whole(key) => match op {
            Op::Eq | Op::Prefix => sk == key,
            Op::Lt => sk < key.as_str(),
            Op::Le => sk <= key.as_str(),
            Op::Gt => sk > key.as_str(),
            Op::Ge => sk >= key.as_str(),
        },
        SortBound::Prefix { prefix, after } => match op {
            Op::Eq | Op::Prefix => sk.starts_with(prefix.as_str()),
            Op::Lt => sk < prefix.as_str(),
            Op::Le => sk < after.as_str(),
            Op::Gt => sk >= after.as_str(),
            Op::Ge => sk >= prefix.as_str(),
        },
        _ => unreachable!("templates render strings"),
    }
}

/// The `BETWEEN` operands a query sends for `low` and `high`.
fn between(low: &SortBound, high: &SortBound) -> (String, String) {
    let low = match low {
        SortBound::Whole(key) | SortBound::Prefix { prefix: key, .. } => key.clone(),
        _ => unreachable!("templates render strings"),
    };
    let high = match high {
        SortBound::Whole(key) | SortBound::Prefix { after: key, .. } => key.clone(),
        _ => unreachable!("templates render strings"),
    };
    (low, high)
}

/// Characters that sort around the delimiter and the escape, escapes' own digits, ASCII
/// that stays readable, and non-ASCII up to the last code point; now and then any `char`.
fn part_char() -> impl Strategy<Value = char> {
    let tricky = vec![
        '\0',
        '\t',
        '\n',
        '\x1f',
        ' ',
        '!',
        '"',
        '#',
        '$',
        '%',
        '&',
        '\'',
        '0',
        '2',
        '3',
        '5',
        'A',
        'B',
        'F',
        'a',
        'z',
        '-',
        '_',
        '.',
        ':',
        '@',
        '~',
        '\x7f',
        '\u{80}',
        'ą',
        '€',
        '\u{FFFF}',
        '\u{10FFFF}',
    ];
    prop_oneof![6 => select(tricky), 1 => any::<char>()]
}

fn text() -> impl Strategy<Value = Part> {
    proptest::collection::vec(part_char(), 1..5).prop_map(|c| Part::Text(c.into_iter().collect()))
}

fn int() -> impl Strategy<Value = Part> {
    prop_oneof![
        3 => select(vec![i32::MIN, -10, -9, -1, 0, 1, 2, 9, 10, i32::MAX]),
        1 => any::<i32>(),
    ]
    .prop_map(Part::Int)
}

fn tuple(ints: [bool; 3]) -> impl Strategy<Value = Vec<Part>> {
    let part = move |i: usize| {
        if ints[i] {
            int().boxed()
        } else {
            text().boxed()
        }
    };
    (part(0), part(1), part(2)).prop_map(|(a, b, c)| vec![a, b, c])
}

/// Tuples, and leading-part bounds: those of the tuples themselves (so equal parts are
/// common), the same with the last part lengthened or cut (so prefixes of parts are), and
/// random ones.
fn case(ints: [bool; 3]) -> impl Strategy<Value = (Vec<Vec<Part>>, Vec<Vec<Part>>)> {
    let tuples = proptest::collection::vec(tuple(ints), 1..14);
    let extra = proptest::collection::vec((tuple(ints), 0..=3usize, part_char()), 0..8);
    (tuples, extra).prop_map(|(tuples, extra)| {
        let mut bounds = Vec::new();
        for (t, k, ch) in extra.iter() {
            bounds.push(t[..*k].to_vec());
            let lead = &tuples[*k % tuples.len()][..(*k).max(1)];
            let mut longer = lead.to_vec();
            let mut shorter = lead.to_vec();
            if let Some(Part::Text(s)) = longer.last_mut() {
                s.push(*ch);
            }
            if let Some(Part::Text(s)) = shorter.last_mut()
                && s.chars().count() > 1
            {
                s.pop();
            }
            bounds.extend([longer, shorter]);
        }
        for t in tuples.iter().take(4) {
            bounds.extend((0..=3).map(|k| t[..k].to_vec()));
        }
        (tuples, bounds)
    })
}

fn check(shape: &Shape, tuples: &[Vec<Part>], bounds: &[Vec<Part>]) -> Result<(), TestCaseError> {
    let keys: Vec<String> = tuples.iter().map(|t| render(shape, t)).collect();

    for (t, key) in tuples.iter().zip(&keys) {
        prop_assert_eq!(&parse(shape, key), t, "round trip of {:?}", key);
        let old = render_old(shape, t);
        prop_assert_eq!(&parse(shape, &old), t, "old key {:?} still reads", old);
        let plain = |p: &Part| matches!(p, Part::Text(s) if s.chars().all(|c| c > '%' || c == '#'));
        if t.iter().all(|p| matches!(p, Part::Int(_)) || plain(p)) {
            prop_assert_eq!(
                &old,
                key,
                "keys without newly escaped characters are unchanged"
            );
        }
        for (u, other) in tuples.iter().zip(&keys) {
            prop_assert_eq!(key.cmp(other), t.cmp(u), "{:?} vs {:?}", key, other);
        }
    }

    let rendered: Vec<(&Vec<Part>, SortBound)> =
        bounds.iter().map(|p| (p, bound(shape, p))).collect();
    for (p, b) in &rendered {
        for (t, key) in tuples.iter().zip(&keys) {
            let lead = t[..p.len()].cmp(&p[..]);
            for op in OPS {
                prop_assert_eq!(
                    selects(op, b, key),
                    wanted(op, lead),
                    "{:?} {:?} ({:?}) on {:?} ({:?})",
                    op,
                    p,
                    b,
                    t,
                    key
                );
            }
        }
    }
    for (low_parts, low) in &rendered {
        for (high_parts, high) in &rendered {
            let (from, to) = between(low, high);
            for (t, key) in tuples.iter().zip(&keys) {
                let want = t[..low_parts.len()] >= low_parts[..]
                    && t[..high_parts.len()] <= high_parts[..];
                // DynamoDB refuses `BETWEEN` with `from > to`; then nothing may be wanted.
                let got =
                    from <= to && from.as_str() <= key.as_str() && key.as_str() <= to.as_str();
                prop_assert_eq!(
                    got,
                    want,
                    "between {:?} and {:?} on {:?}",
                    low_parts,
                    high_parts,
                    key
                );
            }
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("DYNAMAP_KEY_ORDER_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(512),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn string_tuples_sort_select_and_parse_as_tuples((tuples, bounds) in case(LOC.ints)) {
        check(&LOC, &tuples, &bounds)?;
    }

    #[test]
    fn mixed_tuples_with_longer_literals_too((tuples, bounds) in case(MIXED.ints)) {
        check(&MIXED, &tuples, &bounds)?;
    }
}

#[test]
fn the_cases_from_the_report() {
    let t = |a: &str, b: &str, c: &str| {
        vec![
            Part::Text(a.into()),
            Part::Text(b.into()),
            Part::Text(c.into()),
        ]
    };
    let floors = ["2", "2 ", "2!", "2#0", "2$", "2%", "20"];
    let tuples: Vec<_> = floors.iter().map(|f| t("A", f, "1")).collect();
    let mut keys: Vec<String> = tuples.iter().map(|t| render(&LOC, t)).collect();
    keys.sort();
    let order: Vec<String> = keys
        .iter()
        .map(|k| match &parse(&LOC, k)[1] {
            Part::Text(floor) => floor.clone(),
            Part::Int(_) => unreachable!(),
        })
        .collect();
    assert_eq!(order, floors, "{keys:?}");
    let after_two = bound(&LOC, &t("A", "2", "1")[..2]);
    for key in &keys[1..] {
        assert!(selects(Op::Gt, &after_two, key), "{key} is a floor after 2");
        assert!(
            !selects(Op::Prefix, &after_two, key),
            "{key} is not floor 2"
        );
    }
    check(&LOC, &tuples, &[]).expect("holds");
}
