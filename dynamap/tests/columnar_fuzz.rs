//! Fuzzing the decoder of generated columns (columnar versions 2 and 3): damaged copies of real
//! lists and random bytes must give an error or a value, never a panic, a hang or a huge
//! allocation. The damage is applied to the columns behind a header whose checksum is
//! recomputed, so it reaches the column decoder instead of stopping at the checksum; damage
//! to whole stored values (header and checksum too) is fuzzed as well.
//!
//! `DYNAMAP_FUZZ_CASES` sets the number of cases per target (default 2,000, as for the serde
//! formats' fuzz test); docs/performance/compression.md records a long run.

use dynamap::codec::{Codec, Columnar, Compression, compress_list, decompress_list};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::{Deserialize, Serialize};

#[path = "support/damage.rs"]
mod damage;
#[path = "support/fixture_reading.rs"]
mod fixture_reading;

use damage::{apply, damage};

#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Kind {
    Motion,
    Noise,
    Light,
}

#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Place {
    room: String,
    floor: i16,
}

#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Event {
    kind: Kind,
    start: i64,
    /// Stored against `start`, grouped by `kind`.
    end: i64,
    level: f64,
    /// Stored as its difference from `level`.
    max: f64,
    ratio: f32,
    count: u8,
    ok: bool,
    note: Option<String>,
    flag: Option<Kind>,
    place: Place,
    samples: Vec<i16>,
    rooms: std::collections::BTreeMap<String, Vec<Kind>>,
}

fn cases() -> u32 {
    std::env::var("DYNAMAP_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

/// Three sensors at different intervals, taking no fixed turns, and durations jittered, so
/// that version 3's forms are written: `start` grouped by `kind`, `end` stored against
/// `start` (checked by [`columns`]).
fn events() -> Vec<Event> {
    let mut clocks = [0_i64; 3];
    (0..50)
        .map(|i| {
            let kind = [0, 1, 0, 2, 0, 1, 0][(i % 7) as usize];
            clocks[kind] += [20_000, 45_000, 60_000][kind];
            (i, kind, 1_700_000_000_000 + clocks[kind])
        })
        .map(|(i, kind, start)| Event {
            kind: [Kind::Motion, Kind::Noise, Kind::Light][kind].clone(),
            start,
            end: start + [19_000, 44_000, 59_000][kind] + (i * 13 % 23),
            level: (i + kind as i64 * 100) as f64 / 10.0,
            max: (i + i % 3 + (i % 7) * (i % 7)) as f64 / 10.0,
            ratio: if i % 4 == 0 { 0.1 } else { 1.0 / 3.0 },
            count: (i * 7) as u8,
            ok: i % 2 == 0,
            note: (i % 7 == 0).then(|| format!("n{i}")),
            flag: (i % 5 == 0).then_some(Kind::Noise),
            place: Place {
                room: format!("r{}", i % 4),
                floor: -(i as i16),
            },
            samples: (0..i % 5).map(|j| (i * j) as i16).collect(),
            rooms: (0..i % 3)
                .map(|j| (format!("r{j}"), vec![Kind::Light; j as usize]))
                .collect(),
        })
        .collect()
}

/// The columns alone: the payload of a value stored without compression, header cut off.
fn columns() -> Vec<u8> {
    let stored =
        compress_list(&events(), &Compression::DEFAULT.codec(Codec::None)).expect("compresses");
    let (header, payload) = dynamap::codec::Header::read(&stored).expect("header");
    assert_eq!(header.version, 3);
    // After each column's count (50, one byte): the forms the damage must reach.
    for (name, form) in [("start", GROUPED), ("end", AGAINST)] {
        assert_eq!(column(payload, name)[1], form, "`{name}`'s form");
    }
    payload.to_vec()
}

/// Integer stream forms of version 3.
const GROUPED: u8 = 3;
const AGAINST: u8 = 4;

/// The bytes of column `name` of the top record in `payload` (a value stored without
/// compression, header cut off): its name's length and bytes, then its length-prefixed
/// bytes (lengths below 128 and 16,384 here).
fn column<'a>(payload: &'a [u8], name: &str) -> &'a [u8] {
    let mut label = vec![name.len() as u8];
    label.extend_from_slice(name.as_bytes());
    let at = payload
        .windows(label.len())
        .position(|w| w == label.as_slice())
        .expect("the column is stored")
        + label.len();
    let (len, at) = if payload[at] < 0x80 {
        (usize::from(payload[at]), at + 1)
    } else {
        (
            usize::from(payload[at] & 0x7f) | usize::from(payload[at + 1]) << 7,
            at + 2,
        )
    };
    &payload[at..at + len]
}

/// The columns of a version 2 list written by an earlier release (a fixture of
/// `columnar_fixtures.rs`), which the same decoder reads.
fn version_2_columns() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/columnar_v2_none.bin"
    );
    let stored = std::fs::read(path).expect("the fixture is committed");
    let (header, payload) = dynamap::codec::Header::read(&stored).expect("header");
    assert_eq!(header.version, 2);
    payload.to_vec()
}

/// A stored value with `columns` behind a valid header: format 5 (columnar version 3),
/// no compression, the right size and checksum.
fn behind_a_valid_header(columns: &[u8]) -> Vec<u8> {
    behind_a_header(columns, 5)
}

/// As [`behind_a_valid_header`], with format byte `format` (4 for version 2).
fn behind_a_header(columns: &[u8], format: u8) -> Vec<u8> {
    let mut bytes = vec![b'd', b'm', 1, format, 0];
    let mut size = columns.len() as u64;
    while size >= 0x80 {
        bytes.push((size as u8) | 0x80);
        size >>= 7;
    }
    bytes.push(size as u8);
    bytes.extend_from_slice(&crc32fast::hash(columns).to_le_bytes());
    bytes.extend_from_slice(columns);
    bytes
}

#[cfg(feature = "all-codecs")]
fn stored_samples() -> Vec<Vec<u8>> {
    [
        Codec::None,
        Codec::Zstd { level: 3 },
        Codec::Bzip2 { level: 9 },
        Codec::Gzip { level: 6 },
        Codec::Snappy,
    ]
    .into_iter()
    .map(|codec| compress_list(&events(), &Compression::DEFAULT.codec(codec)).expect("compresses"))
    .collect()
}

/// Decodes as the list and as lists of other types; the result does not matter, only that
/// it returns.
fn decode_everything(bytes: &[u8]) {
    let _ = decompress_list::<Event>(bytes);
    let _ = decompress_list::<fixture_reading::Reading>(bytes);
    let _ = decompress_list::<Place>(bytes);
    let _ = decompress_list::<i64>(bytes);
    let _ = decompress_list::<Option<String>>(bytes);
    let _ = decompress_list::<Vec<String>>(bytes);
}

#[test]
fn damaged_columns_never_panic() {
    // Version 3's columns (three in four cases) and a version 2 list of an earlier release.
    let samples = [(columns(), 5), (version_2_columns(), 4)];
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        ..Config::default()
    });
    runner
        .run(
            &(0..4usize, proptest::collection::vec(damage(), 1..4)),
            |(pick, damage)| {
                let (columns, format) = &samples[pick / 3];
                decode_everything(&behind_a_header(&apply(columns.clone(), &damage), *format));
                Ok(())
            },
        )
        .expect("no panic");
}

/// Needs every codec and format.
#[cfg(feature = "all-codecs")]
#[test]
fn damaged_stored_values_never_panic() {
    let samples = stored_samples();
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        ..Config::default()
    });
    runner
        .run(
            &(0..samples.len(), proptest::collection::vec(damage(), 1..4)),
            |(sample, damage)| {
                decode_everything(&apply(samples[sample].clone(), &damage));
                Ok(())
            },
        )
        .expect("no panic");
}

#[test]
fn random_columns_behind_a_valid_header_never_panic() {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        ..Config::default()
    });
    runner
        .run(&proptest::collection::vec(any::<u8>(), 0..512), |columns| {
            decode_everything(&behind_a_valid_header(&columns));
            Ok(())
        })
        .expect("no panic");
}

#[test]
fn every_truncation_of_the_columns_is_an_error() {
    let columns = columns();
    assert_eq!(
        decompress_list::<Event>(&behind_a_valid_header(&columns)).expect("intact"),
        events()
    );
    for end in 0..columns.len() {
        assert!(
            decompress_list::<Event>(&behind_a_valid_header(&columns[..end])).is_err(),
            "columns cut at {end} of {} bytes decoded",
            columns.len()
        );
    }
}

#[test]
fn forged_counts_are_refused_before_allocating() {
    // A list claiming 2^40 events, then nothing to back them.
    let mut columns = vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
    columns.extend_from_slice(&[1, 4, b'k', b'i', b'n', b'd', 2, 0, 0]);
    assert!(decompress_list::<Event>(&behind_a_valid_header(&columns)).is_err());
    assert!(decompress_list::<Option<String>>(&behind_a_valid_header(&columns)).is_err());
    assert!(decompress_list::<f64>(&behind_a_valid_header(&columns)).is_err());
}
