//! Fuzzing the decoder: random bytes and damaged copies of real values (bit flips,
//! truncations, splices, forged headers) must give an error or a value, never a panic,
//! a hang or a huge allocation.
//!
//! `DYNAMAP_FUZZ_CASES` sets the number of cases per target (default 2,000 so the suite stays
//! quick); docs/performance/compression.md records a long run.

#[cfg(feature = "all-codecs")]
use dynamap::codec::Codec;
use dynamap::codec::{Compression, Format, compress, decompress};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::{Deserialize, Serialize};

// The damaged copies are of values written with every codec.
#[cfg(feature = "all-codecs")]
#[path = "support/damage.rs"]
mod damage;

#[cfg(feature = "all-codecs")]
use damage::{apply, damage};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Event {
    start: i64,
    kind: String,
    level: f64,
    note: Option<String>,
    tags: Vec<u16>,
    detail: Detail,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Detail {
    Nothing,
    Code(u16),
    Span { from: i128, to: u32 },
}

fn cases() -> u32 {
    std::env::var("DYNAMAP_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

#[cfg(feature = "all-codecs")]
fn samples() -> Vec<Vec<u8>> {
    let events: Vec<Event> = (0..50)
        .map(|i| Event {
            start: 1_700_000_000 + i * 60,
            kind: ["MOTION", "NOISE", "LIGHT"][(i % 3) as usize].into(),
            level: i as f64 / 10.0,
            note: (i % 7 == 0).then(|| format!("n{i}")),
            tags: vec![i as u16; (i % 3) as usize],
            detail: match i % 3 {
                0 => Detail::Nothing,
                1 => Detail::Code(i as u16),
                _ => Detail::Span {
                    from: -i as i128,
                    to: i as u32,
                },
            },
        })
        .collect();
    let codecs = [
        Codec::None,
        Codec::Zstd { level: 3 },
        Codec::Bzip2 { level: 9 },
        Codec::Gzip { level: 6 },
        Codec::Snappy,
    ];
    let mut samples = Vec::new();
    for codec in codecs {
        for format in [Format::Columnar, Format::Row, Format::Json] {
            let settings = Compression::DEFAULT.codec(codec).format(format);
            samples.push(compress(&events, &settings).expect("compresses"));
        }
    }
    samples
}

/// Decodes as a typed list and as a self-describing value; the result does not matter,
/// only that it returns.
fn decode_everything(bytes: &[u8]) {
    let _ = decompress::<Vec<Event>>(bytes);
    let _ = decompress::<serde_json::Value>(bytes);
}

/// Needs every codec and format.
#[cfg(feature = "all-codecs")]
#[test]
fn damaged_values_never_panic() {
    let samples = samples();
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
fn random_bytes_behind_a_valid_header_never_panic() {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        ..Config::default()
    });
    let header = (1u8..=3, 0u8..=4, 0u32..5_000);
    runner
        .run(
            &(header, proptest::collection::vec(any::<u8>(), 0..512)),
            |((format, codec, size), body)| {
                let mut bytes = vec![b'd', b'm', 1, format, codec];
                let mut size = size;
                while size >= 0x80 {
                    bytes.push((size as u8) | 0x80);
                    size >>= 7;
                }
                bytes.push(size as u8);
                // The body starts where the checksum goes: random bytes there too.
                bytes.extend_from_slice(&body);
                decode_everything(&bytes);
                Ok(())
            },
        )
        .expect("no panic");
}

/// Needs every codec and format.
#[cfg(feature = "all-codecs")]
#[test]
fn every_truncation_of_every_sample_is_an_error() {
    for sample in samples() {
        for end in 0..sample.len() {
            assert!(
                decompress::<Vec<Event>>(&sample[..end]).is_err(),
                "a value cut at {end} of {} bytes decoded",
                sample.len()
            );
        }
    }
}

#[test]
fn named_corruptions_give_named_errors() {
    use dynamap::codec::CodecError;
    let stored = compress(&vec![1u32, 2, 3], &Compression::DEFAULT).expect("compresses");
    let with = |at: usize, byte: u8| {
        let mut bytes = stored.clone();
        bytes[at] = byte;
        decompress::<Vec<u32>>(&bytes).expect_err("corrupt")
    };
    assert_eq!(with(0, b'x'), CodecError::NoHeader);
    assert_eq!(with(2, 9), CodecError::UnknownVersion(9));
    assert_eq!(with(3, 77), CodecError::UnknownFormat(77));
    assert_eq!(with(4, 99), CodecError::UnknownCodec(99));
    let mut forged = stored[..5].to_vec();
    forged.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x7f]);
    assert!(matches!(
        decompress::<Vec<u32>>(&forged),
        Err(CodecError::TooLarge { .. })
    ));
    assert_eq!(
        decompress::<Vec<u32>>(&[]).expect_err("empty"),
        CodecError::NoHeader
    );
}

#[test]
fn nesting_past_the_limit_is_an_error_not_a_stack_overflow() {
    let mut deep = serde_json::Value::Null;
    for _ in 0..300 {
        deep = serde_json::Value::Array(vec![deep]);
    }
    for format in [Format::Columnar, Format::Row] {
        let stored = compress(&deep, &Compression::DEFAULT.format(format)).expect("compresses");
        let err = decompress::<serde_json::Value>(&stored).expect_err("too deep");
        assert_eq!(err, dynamap::codec::CodecError::TooDeep(128));
    }
}
