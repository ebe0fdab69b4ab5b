//! Bytes written by earlier releases still read. The files in `tests/fixtures/` were
//! written by the code of their version (columnar version 2 before version 3's grouped and
//! integer-reference forms) and are never rewritten: a change that stops them decoding to
//! the same lists breaks items already stored in users' tables.
//!
//! `DYNAMAP_WRITE_FIXTURES=1` writes the fixtures of the current version that are missing
//! (it never overwrites one).

use std::path::PathBuf;

use dynamap::codec::{Codec, Compression, Header, compress_list, decompress_list};

#[path = "support/fixture_reading.rs"]
mod fixture_reading;

use fixture_reading::{Kind, Reading};

/// A night of three sensors at different intervals, with jitter and dropped readings: the
/// shape version 3's forms are for, so the fixtures hold every form the older writers chose.
fn night() -> Vec<Reading> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut readings = Vec::new();
    for (sensor, (kind, interval)) in [
        (Kind::Motion, 30_000),
        (Kind::Noise, 45_000),
        (Kind::Light, 60_000),
    ]
    .into_iter()
    .enumerate()
    {
        let mut level = 500_i64;
        for step in 0..(3 * 3_600_000 / interval) {
            let roll = next();
            if roll % 20 == 0 {
                continue; // dropped
            }
            let jitter = (roll >> 8) % 61;
            let start = 1_795_219_200_000 + step * interval + jitter as i64 - 30;
            let duration = interval - 1_000 + ((roll >> 16) % 41) as i64 - 20;
            level += ((roll >> 24) % 21) as i64 - 10;
            readings.push(Reading {
                kind,
                sensor: sensor as u8,
                start,
                end: start + duration,
                value: level as f64 / 10.0,
                max: (level + ((roll >> 32) % 30) as i64) as f64 / 10.0,
                flag: (roll % 37 == 0).then(|| "SPIKE".to_string()),
                samples: (0..(roll >> 40) % 3).map(|j| (j as i16) * 3 - 1).collect(),
            });
        }
    }
    readings.sort_by_key(|r| r.start);
    readings
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The fixtures of one version: uncompressed (the columns as written) and with zstd.
fn fixtures(version: u8) -> [(String, Codec); 2] {
    [
        (format!("columnar_v{version}_none.bin"), Codec::None),
        (
            format!("columnar_v{version}_zstd.bin"),
            Codec::Zstd { level: 3 },
        ),
    ]
}

fn write_missing(version: u8) {
    for (name, codec) in fixtures(version) {
        let path = fixture(&name);
        if !path.exists() {
            let stored =
                compress_list(&night(), &Compression::DEFAULT.codec(codec)).expect("compresses");
            assert_eq!(Header::read(&stored).expect("header").0.version, version);
            std::fs::write(&path, stored).expect("writes the fixture");
        }
    }
}

#[test]
fn version_2_lists_still_read() {
    if std::env::var_os("DYNAMAP_WRITE_FIXTURES").is_some() {
        write_missing(2);
    }
    let night = night();
    assert!(night.len() > 600, "{}", night.len());
    for (name, _) in fixtures(2) {
        let stored = std::fs::read(fixture(&name)).expect("the fixture is committed");
        assert_eq!(
            Header::read(&stored).expect("header").0.version,
            2,
            "{name}"
        );
        let back = decompress_list::<Reading>(&stored).expect("an old list reads");
        assert_eq!(back, night, "{name}");
    }
}

#[test]
fn version_3_lists_read_back_and_store_the_irregular_night_smaller() {
    let night = night();
    for (name, codec) in fixtures(2) {
        let stored = compress_list(&night, &Compression::DEFAULT.codec(codec)).expect("compresses");
        assert_eq!(Header::read(&stored).expect("header").0.version, 3);
        assert_eq!(decompress_list::<Reading>(&stored).expect("reads"), night);
        let old = std::fs::read(fixture(&name)).expect("the fixture is committed");
        // Grouped by sensor and `end` stored against `start`: the jittered intervals and
        // durations each cost one noise term, not two.
        assert!(
            stored.len() * 10 < old.len() * 9,
            "{name}: {} bytes now, {} in version 2",
            stored.len(),
            old.len()
        );
    }
}

#[test]
fn version_3_lists_are_refused_by_the_serde_reader() {
    let stored = compress_list(&night(), &Compression::DEFAULT).expect("compresses");
    let error = dynamap::codec::decompress::<Vec<Reading>>(&stored).expect_err("not serde's");
    assert!(error.to_string().contains("decompress_list"), "{error}");
    // Format byte 5: a reader that knows only version 2 (format byte 4) refuses it as an
    // unknown format instead of misreading it.
    assert_eq!(stored[3], 5);
}
