//! Every format and codec gives back exactly what was stored, for generated values of many
//! shapes; and data written with one codec reads after the default codec changes.

use std::collections::BTreeMap;

use dynamap::codec::{Codec, Compression, Format, Header, compress, decompress};
use proptest::prelude::*;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

#[cfg(feature = "all-codecs")]
const FORMATS: [Format; 4] = [Format::Auto, Format::Columnar, Format::Row, Format::Json];

#[cfg(feature = "all-codecs")]
const CODECS: [Codec; 5] = [
    Codec::None,
    Codec::Zstd { level: 3 },
    Codec::Bzip2 { level: 9 },
    Codec::Gzip { level: 6 },
    Codec::Snappy,
];

/// A record with a bit of everything serde can describe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Event {
    at: i64,
    kind: Kind,
    level: f64,
    ratio: f32,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    note: Option<String>,
    tags: Vec<String>,
    counts: BTreeMap<String, u32>,
    position: Option<Point>,
    detail: Detail,
    flag: bool,
    letter: char,
    small: (u8, i16),
    #[serde(flatten)]
    extra: Extra,
    wire: Wire,
    shape: Shape,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
enum Kind {
    Motion,
    Noise,
    Light,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Detail {
    Nothing,
    Code(u16),
    Pair(i8, u64),
    Span { from: i128, to: u128 },
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Extra {
    source: String,
    seq: u64,
}

/// Untagged: read back through `deserialize_any`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Wire {
    Number(i64),
    Words(Vec<String>),
}

/// Internally tagged: a struct with a tag field on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Shape {
    Circle { radius: u32 },
    Square { side: u32 },
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-10_000i32..10_000).prop_map(|n| f64::from(n) / 100.0),
        -1e12f64..1e12,
        Just(0.0),
    ]
}

fn detail() -> impl Strategy<Value = Detail> {
    prop_oneof![
        Just(Detail::Nothing),
        any::<u16>().prop_map(Detail::Code),
        (any::<i8>(), any::<u64>()).prop_map(|(a, b)| Detail::Pair(a, b)),
        (any::<i128>(), any::<u128>()).prop_map(|(from, to)| Detail::Span { from, to }),
        ".{0,12}".prop_map(Detail::Text),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    (
        (
            any::<i64>(),
            prop_oneof![Just(Kind::Motion), Just(Kind::Noise), Just(Kind::Light)],
            finite(),
            (-1000i16..1000).prop_map(|n| f32::from(n) / 8.0),
            proptest::option::of("[a-z ]{0,16}"),
            proptest::collection::vec("[A-Z]{1,4}", 0..4),
            proptest::collection::btree_map("[a-c]{1,2}", any::<u32>(), 0..3),
            proptest::option::of((any::<i16>(), any::<i16>()).prop_map(|(x, y)| Point {
                x: f32::from(x),
                y: f32::from(y) / 4.0,
            })),
        ),
        (
            detail(),
            any::<bool>(),
            any::<char>(),
            (any::<u8>(), any::<i16>()),
            ("[a-z]{0,6}", any::<u64>()).prop_map(|(source, seq)| Extra { source, seq }),
            prop_oneof![
                any::<i64>().prop_map(Wire::Number),
                proptest::collection::vec("[a-z]{0,3}", 0..3).prop_map(Wire::Words),
            ],
            prop_oneof![
                any::<u32>().prop_map(|radius| Shape::Circle { radius }),
                any::<u32>().prop_map(|side| Shape::Square { side }),
            ],
        ),
    )
        .prop_map(
            |(
                (at, kind, level, ratio, note, tags, counts, position),
                (detail, flag, letter, small, extra, wire, shape),
            )| Event {
                at,
                kind,
                level,
                ratio,
                note,
                tags,
                counts,
                position,
                detail,
                flag,
                letter,
                small,
                extra,
                wire,
                shape,
            },
        )
}

fn round_trip<T>(value: &T, codec: Codec, format: Format) -> T
where
    T: Serialize + DeserializeOwned,
{
    let settings = Compression::DEFAULT.codec(codec).format(format);
    let stored = compress(value, &settings).expect("compresses");
    let (header, _) = Header::read(&stored).expect("has a header");
    assert_eq!(header.codec.name(), codec.name());
    decompress(&stored).expect("decompresses")
}

proptest! {
    /// Needs every codec and format.
    #[cfg(feature = "all-codecs")]
    #[test]
    fn record_lists_round_trip_in_every_format_and_codec(
        events in proptest::collection::vec(event(), 0..40),
    ) {
        for codec in CODECS {
            for format in FORMATS {
                // JSON cannot hold 128-bit integers beyond 64 bits in every reader; the
                // binary formats can.
                if format == Format::Json && events.iter().any(|e| matches!(e.detail, Detail::Span { .. })) {
                    continue;
                }
                prop_assert_eq!(&round_trip(&events, codec, format), &events);
            }
        }
    }

    #[test]
    fn lone_records_and_nested_lists_round_trip(
        event in event(),
        nested in proptest::collection::vec(proptest::collection::vec(event(), 0..3), 0..4),
    ) {
        for format in [Format::Auto, Format::Columnar, Format::Row] {
            prop_assert_eq!(&round_trip(&event, Codec::DEFAULT, format), &event);
            prop_assert_eq!(&round_trip(&nested, Codec::DEFAULT, format), &nested);
        }
    }

    #[test]
    fn floats_round_trip_bit_for_bit(bits in proptest::collection::vec(any::<u64>(), 0..64)) {
        let values: Vec<f64> = bits.iter().copied().map(f64::from_bits).collect();
        for format in [Format::Columnar, Format::Row] {
            let back: Vec<f64> = round_trip(&values, Codec::DEFAULT, format);
            prop_assert_eq!(back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), bits.clone());
        }
    }

    /// Needs the `json` format.
    #[cfg(feature = "json")]
    #[test]
    fn self_describing_values_round_trip(value in json_value()) {
        for format in [Format::Columnar, Format::Row, Format::Json] {
            prop_assert_eq!(&round_trip(&value, Codec::DEFAULT, format), &value);
        }
    }
}

/// `serde_json::Value` is read entirely through `deserialize_any`.
#[cfg(feature = "json")]
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z]{0,5}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            proptest::collection::btree_map("[a-c]", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Needs every codec and format.
#[cfg(feature = "all-codecs")]
#[test]
fn values_written_with_one_codec_read_after_the_default_changes() {
    let night: Vec<(u32, String)> = (0..500).map(|m| (m, format!("K{}", m % 3))).collect();
    let written_by_old_release: Vec<Vec<u8>> = CODECS
        .iter()
        .map(|&codec| compress(&night, &Compression::DEFAULT.codec(codec)).expect("compresses"))
        .collect();
    // Reading takes no settings at all: the header of each value says how it was written.
    for stored in written_by_old_release {
        assert_eq!(
            decompress::<Vec<(u32, String)>>(&stored).expect("reads"),
            night
        );
    }
}

#[test]
fn auto_format_transposes_lists_and_keeps_lone_records_in_rows() {
    let format_of = |stored: &[u8]| Header::read(stored).expect("header").0.format;
    let list = compress(&vec![1u32, 2, 3], &Compression::DEFAULT).expect("compresses");
    assert_eq!(format_of(&list), Format::Columnar);
    let record = compress(&(1u32, "one"), &Compression::DEFAULT).expect("compresses");
    assert_eq!(format_of(&record), Format::Row);
}

#[test]
fn small_values_can_skip_compression() {
    let settings = Compression::DEFAULT.uncompressed_below(64);
    let small = compress(&vec![1u8, 2, 3], &settings).expect("compresses");
    assert_eq!(Header::read(&small).expect("header").0.codec, Codec::None);
    let large = compress(&vec![7u64; 1000], &settings).expect("compresses");
    assert_eq!(Header::read(&large).expect("header").0.codec.name(), "zstd");
}

#[test]
fn a_value_read_as_the_wrong_type_is_an_error() {
    let stored = compress(&vec![(1u32, "a")], &Compression::DEFAULT).expect("compresses");
    let err = decompress::<Vec<(u32, u32)>>(&stored).expect_err("wrong type");
    assert!(err.to_string().contains("does not fit"), "{err}");
    let err = decompress::<Vec<u32>>(&stored).expect_err("wrong type");
    assert!(!err.to_string().is_empty());
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct EventV1 {
    minute: u32,
    kind: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct EventV2 {
    minute: u32,
    confidence: Option<f32>,
    kind: String,
}

#[test]
fn records_read_across_a_field_added_or_dropped() {
    let old: Vec<EventV1> = (0..100)
        .map(|minute| EventV1 {
            minute,
            kind: "MOTION".into(),
        })
        .collect();
    let new: Vec<EventV2> = (0..100)
        .map(|minute| EventV2 {
            minute,
            confidence: Some(0.5),
            kind: "NOISE".into(),
        })
        .collect();
    for format in [Format::Columnar, Format::Row] {
        let settings = Compression::DEFAULT.format(format);
        let upgraded: Vec<EventV2> =
            decompress(&compress(&old, &settings).expect("compresses")).expect("reads");
        assert!(
            upgraded
                .iter()
                .all(|e| e.confidence.is_none() && e.kind == "MOTION")
        );
        let downgraded: Vec<EventV1> =
            decompress(&compress(&new, &settings).expect("compresses")).expect("reads");
        assert!(
            downgraded
                .iter()
                .zip(&new)
                .all(|(d, n)| d.minute == n.minute && d.kind == "NOISE")
        );
    }
}
