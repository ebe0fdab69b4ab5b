//! `#[derive(Columnar)]`: lists written column by column by generated code read back
//! exactly, read what serde's formats wrote before, and survive fields added and removed
//! and variants reordered.

use dynamap::codec::{
    CodecError, Columnar, Compression, compress_list, decompress, decompress_list,
};
// The tests of every codec (`all-codecs`, which includes `json`) and of the `json` format.
#[cfg(feature = "all-codecs")]
use dynamap::codec::Codec;
#[cfg(feature = "json")]
use dynamap::codec::{Format, Header, compress};
use serde::{Deserialize, Serialize};

#[derive(Columnar, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "UPPERCASE")]
enum Kind {
    Motion,
    Noise,
    #[serde(rename = "lux")]
    Light,
}

#[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Position {
    x: i32,
    y: i32,
}

#[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Event {
    #[serde(rename = "type")]
    kind: Kind,
    start: i64,
    end: u64,
    value: f64,
    ratio: f32,
    flag: Option<Kind>,
    label: String,
    note: Option<String>,
    ok: bool,
    small: u8,
    at: Position,
    readings: Vec<f64>,
    tags: Vec<String>,
    trail: Vec<Position>,
    counts: std::collections::BTreeMap<String, u32>,
    #[serde(skip)]
    cached: u32,
}

fn events(count: i64) -> Vec<Event> {
    (0..count)
        .map(|i| Event {
            kind: [Kind::Motion, Kind::Noise, Kind::Light][(i % 3) as usize],
            start: 1_795_219_200_000 + i / 3 * 60_000,
            end: u64::MAX - i as u64,
            value: (i % 1000) as f64 / 100.0,
            ratio: if i % 5 == 0 { f32::NAN } else { 0.5 },
            flag: (i % 4 == 0).then_some(Kind::Noise),
            label: format!("sensor-{}", i % 7),
            note: (i % 9 == 0).then(|| "é".repeat((i % 4) as usize)),
            ok: i % 2 == 0,
            small: (i % 256) as u8,
            at: Position {
                x: -(i as i32),
                y: i as i32 * 2,
            },
            readings: (0..i % 4).map(|j| (i + j) as f64 / 10.0).collect(),
            tags: (0..i % 3).map(|j| format!("tag-{j}")).collect(),
            trail: (0..i % 2)
                .map(|j| Position {
                    x: j as i32,
                    y: -(j as i32),
                })
                .collect(),
            counts: (0..i % 3).map(|j| (format!("k{j}"), j as u32)).collect(),
            cached: 0,
        })
        .collect()
}

/// NaN is not equal to itself: compare the stored bits.
#[cfg(feature = "json")]
fn assert_same(read: &[Event], written: &[Event]) {
    assert_eq!(read.len(), written.len());
    for (r, w) in read.iter().zip(written) {
        assert_eq!(r.ratio.to_bits(), w.ratio.to_bits());
        let (mut r, mut w) = (r.clone(), w.clone());
        (r.ratio, w.ratio) = (0.0, 0.0);
        assert_eq!(r, w);
    }
}

/// Needs every codec and format.
#[cfg(feature = "all-codecs")]
#[test]
fn lists_round_trip_with_every_codec() {
    let written = events(1000);
    for codec in [
        Codec::None,
        Codec::DEFAULT,
        Codec::Snappy,
        Codec::Gzip { level: 6 },
        Codec::Bzip2 { level: 9 },
    ] {
        let stored = compress_list(&written, &Compression::DEFAULT.codec(codec)).expect("writes");
        let (header, _) = Header::read(&stored).expect("has a header");
        assert_eq!(
            (header.format, header.version, header.codec),
            (Format::Columnar, 3, codec)
        );
        assert_same(&decompress_list::<Event>(&stored).expect("reads"), &written);
    }
    let empty: Vec<Event> = Vec::new();
    let stored = compress_list(&empty, &Compression::DEFAULT).expect("writes");
    assert!(decompress_list::<Event>(&stored).expect("reads").is_empty());
}

/// Needs the `json` format.
#[cfg(feature = "json")]
#[test]
fn lists_written_through_serde_still_read() {
    // JSON has no NaN.
    let written: Vec<Event> = events(300)
        .into_iter()
        .map(|e| Event { ratio: 0.5, ..e })
        .collect();
    for format in [Format::Columnar, Format::Row, Format::Json] {
        let stored = compress(&written, &Compression::DEFAULT.format(format)).expect("writes");
        assert_same(&decompress_list::<Event>(&stored).expect("reads"), &written);
        // Asked for a serde format, compress_list writes it.
        let stored = compress_list(&written, &Compression::DEFAULT.format(format));
        if format != Format::Columnar {
            let (header, _) = Header::read(stored.as_ref().expect("writes")).expect("header");
            assert_eq!((header.format, header.version), (format, 1));
        }
    }
}

#[test]
fn serde_decompress_names_the_reader_of_a_generated_list() {
    let stored = compress_list(&events(3), &Compression::DEFAULT).expect("writes");
    let error = decompress::<Vec<Event>>(&stored).expect_err("generated columns");
    assert!(error.to_string().contains("decompress_list"), "{error}");
}

mod before {
    use super::*;

    /// The element type as an earlier version wrote it.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Reading {
        pub(super) level: f64,
        pub(super) dropped: String,
        pub(super) kind: Order,
    }

    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
    pub(super) enum Order {
        First,
        Second,
        Gone,
    }
}

mod after {
    use super::*;

    /// The same type later: a field dropped, two added, variants reordered.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Reading {
        pub(super) level: f64,
        pub(super) kind: Order,
        pub(super) unit: Option<String>,
        #[serde(default)]
        pub(super) count: u32,
    }

    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
    pub(super) enum Order {
        Second,
        First,
    }

    /// A field added that must be stored: old lists do not have it.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Strict {
        pub(super) level: f64,
        pub(super) required: i64,
    }
}

#[test]
fn fields_added_and_removed_and_variants_reordered_still_read() {
    let old = [(1.5, before::Order::First), (2.25, before::Order::Second)].map(|(level, kind)| {
        before::Reading {
            level,
            dropped: "x".into(),
            kind,
        }
    });
    let stored = compress_list(&old, &Compression::DEFAULT).expect("writes");
    let read = decompress_list::<after::Reading>(&stored).expect("reads");
    assert_eq!(
        read,
        [(1.5, after::Order::First), (2.25, after::Order::Second)].map(|(level, kind)| {
            after::Reading {
                level,
                kind,
                unit: None,
                count: 0,
            }
        })
    );
    let error = decompress_list::<after::Strict>(&stored).expect_err("required is missing");
    assert!(
        error.to_string().contains("missing field `required`"),
        "{error}"
    );
    // A variant the reader no longer has is an error where a value uses it.
    let gone = [before::Reading {
        level: 1.0,
        dropped: String::new(),
        kind: before::Order::Gone,
    }];
    let stored = compress_list(&gone, &Compression::DEFAULT).expect("writes");
    let error = decompress_list::<after::Reading>(&stored).expect_err("Gone is unknown");
    assert_eq!(
        error,
        CodecError::Deserialize("unknown variant `Gone`".into())
    );
}

#[test]
fn lists_of_scalars_are_columns_too() {
    let levels: Vec<f64> = (0..1440).map(|m| f64::from(m % 50) / 10.0).collect();
    let stored = compress_list(&levels, &Compression::DEFAULT).expect("writes");
    assert_eq!(decompress_list::<f64>(&stored).expect("reads"), levels);
    let names: Vec<String> = (0..100).map(|i| format!("n{}", i % 3)).collect();
    let stored = compress_list(&names, &Compression::DEFAULT).expect("writes");
    assert_eq!(decompress_list::<String>(&stored).expect("reads"), names);
}

/// A reading whose `max` is its `value` plus a little: `max` is stored as its difference
/// from `value`.
mod readings {
    use super::*;

    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Reading {
        pub(super) value: f64,
        pub(super) max: f64,
        pub(super) low: f32,
    }

    /// The same columns, read by a type that declares `max` before `value`.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Reordered {
        pub(super) low: f32,
        pub(super) max: f64,
        pub(super) value: f64,
    }

    /// A later type that dropped `value`: `max` still reads.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct MaxOnly {
        pub(super) max: f64,
    }

    /// `max` with nothing to be stored against.
    #[derive(Columnar, Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub(super) struct Alone {
        pub(super) max: f64,
        pub(super) value: f64,
    }

    pub(super) fn day() -> Vec<Reading> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut level = 500_i64;
        (0..3000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                level += (state % 41) as i64 - 20;
                let above = if state.is_multiple_of(16) {
                    400
                } else {
                    (state >> 8) % 30
                } as i64;
                Reading {
                    value: level as f64 / 10.0,
                    max: (level + above) as f64 / 10.0,
                    low: (level - 3) as f32 / 10.0,
                }
            })
            .collect()
    }
}

#[test]
fn a_float_column_stored_against_an_earlier_one_reads_in_any_field_order() {
    let day = readings::day();
    let stored = compress_list(&day, &Compression::DEFAULT).expect("writes");
    assert_eq!(
        decompress_list::<readings::Reading>(&stored).expect("reads"),
        day
    );
    let reordered = decompress_list::<readings::Reordered>(&stored).expect("reads");
    let max_only = decompress_list::<readings::MaxOnly>(&stored).expect("reads");
    for ((r, m), d) in reordered.iter().zip(&max_only).zip(&day) {
        assert_eq!((r.value, r.max, r.low), (d.value, d.max, d.low));
        assert_eq!(m.max, d.max);
    }
    // Written with `max` first, it has no earlier column to be stored against, and takes
    // more room.
    let alone: Vec<readings::Alone> = day
        .iter()
        .map(|d| readings::Alone {
            max: d.max,
            value: d.value,
        })
        .collect();
    let alone = compress_list(&alone, &Compression::DEFAULT).expect("writes");
    let without_low = {
        let mut pairs = day.clone();
        pairs.iter_mut().for_each(|d| d.low = 0.0);
        compress_list(&pairs, &Compression::DEFAULT).expect("writes")
    };
    assert!(
        without_low.len() * 10 < alone.len() * 9,
        "{} bytes against {}",
        without_low.len(),
        alone.len()
    );
}
