//! Measuring a row: its inputs built, both round trips checked, and each direction timed,
//! codec only and end to end.

use std::hint::black_box;
use std::time::{Duration, Instant};

use dynamap::codec::{
    Codec, Compression, Header, compress, compress_list, decompress, decompress_list,
};
use serde_json::{Value, json};

use crate::goals::round3;
use crate::sleep::Event;
use crate::variants::{DEFAULT, VARIANTS, Variant};

/// One direction's timings, one entry per round.
#[derive(Default)]
pub(crate) struct Timing {
    pub(crate) rounds: Vec<Duration>,
}

impl Timing {
    /// Times one call of `f`, recording it unless this is the warm-up round. The result
    /// is returned, so dropping it is not timed.
    pub(crate) fn time<T>(&mut self, record: bool, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        let elapsed = start.elapsed();
        if record {
            self.rounds.push(elapsed);
        }
        value
    }

    /// Total over all rounds, in milliseconds (what the seed reported).
    pub(crate) fn total_ms(&self) -> f64 {
        self.rounds.iter().sum::<Duration>().as_secs_f64() * 1e3
    }

    /// The median round, in microseconds (less sensitive to a busy machine).
    pub(crate) fn median_us(&self) -> f64 {
        let mut sorted = self.rounds.clone();
        sorted.sort();
        sorted
            .get(sorted.len() / 2)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    }

    pub(crate) fn json(&self) -> Value {
        json!({
            "total_ms": round3(self.total_ms()),
            "median_round_us": round3(self.median_us()),
        })
    }
}

/// One way of measuring one variant.
#[derive(Default)]
pub(crate) struct Measure {
    pub(crate) bytes: usize,
    pub(crate) compress: Timing,
    pub(crate) decompress: Timing,
}

impl Measure {
    pub(crate) fn json(&self, raw_json: usize) -> Value {
        json!({
            "bytes": self.bytes,
            "ratio": round3(raw_json as f64 / self.bytes as f64),
            "compress": self.compress.json(),
            "decompress": self.decompress.json(),
        })
    }
}

/// A variant ready to measure: its inputs built and both round trips checked.
pub(crate) struct Row {
    pub(crate) variant: Variant,
    /// The events as this row stores them.
    pub(crate) events: Vec<Event>,
    /// The serialized bytes (the codec-only input).
    pub(crate) raw: Vec<u8>,
    /// `raw` compressed by the codec (the codec-only output).
    pub(crate) packed: Vec<u8>,
    pub(crate) settings: Compression,
    /// The stored attribute (the end-to-end output).
    pub(crate) stored: Vec<u8>,
    pub(crate) codec_only: Measure,
    pub(crate) end_to_end: Measure,
}

/// Stores `events` as `variant` says: by the generated code or through serde.
pub(crate) fn store(events: &[Event], settings: &Compression, variant: Variant) -> Vec<u8> {
    if variant.generated {
        compress_list(events, settings).expect("compresses")
    } else {
        compress(events, settings).expect("compresses")
    }
}

/// Reads what [`store`] stored.
pub(crate) fn load(stored: &[u8], variant: Variant) -> Vec<Event> {
    if variant.generated {
        decompress_list(stored).expect("decompresses")
    } else {
        decompress(stored).expect("decompresses")
    }
}

/// The serialized bytes of `events` as `variant` writes them, before compression.
pub(crate) fn serialized(events: &[Event], variant: Variant) -> Vec<u8> {
    let settings = Compression::DEFAULT
        .codec(Codec::None)
        .format(variant.format);
    let stored = store(events, &settings, variant);
    let (_, payload) = Header::read(&stored).expect("reads its own header");
    payload.to_vec()
}

impl Row {
    pub(crate) fn new(night: &[Event], variant: Variant) -> Row {
        let mut events = night.to_vec();
        if variant.grouped {
            // Stable: each type keeps its time order.
            events.sort_by_key(|e| e.kind as u8);
        }
        let codec = variant.codec;
        let raw = serialized(&events, variant);
        let packed = codec.compress(&raw).expect("compresses");
        assert_eq!(
            codec.decompress(&packed, raw.len()).expect("decompresses"),
            raw,
            "{}: codec round trip",
            variant.label
        );
        let settings = if variant.label == VARIANTS[DEFAULT].label {
            Compression::DEFAULT
        } else {
            Compression::DEFAULT.codec(codec).format(variant.format)
        };
        let stored = store(&events, &settings, variant);
        assert_eq!(
            load(&stored, variant),
            events,
            "{}: end-to-end round trip",
            variant.label
        );
        Row {
            variant,
            codec_only: Measure {
                bytes: packed.len(),
                ..Measure::default()
            },
            end_to_end: Measure {
                bytes: stored.len(),
                ..Measure::default()
            },
            events,
            raw,
            packed,
            settings,
            stored,
        }
    }

    /// One round of the four measurements; every output is checked after its timing.
    pub(crate) fn round(&mut self, record: bool) {
        let codec = self.variant.codec;
        let (raw, packed, events, stored) = (&self.raw, &self.packed, &self.events, &self.stored);
        let out = self.codec_only.compress.time(record, || {
            codec.compress(black_box(raw)).expect("compresses")
        });
        assert_eq!(&out, packed, "{}: codec output", self.variant.label);
        let out = self.codec_only.decompress.time(record, || {
            codec
                .decompress(black_box(packed), raw.len())
                .expect("decompresses")
        });
        assert_eq!(&out, raw, "{}: codec round trip", self.variant.label);
        let (settings, variant) = (self.settings, self.variant);
        let out = self.end_to_end.compress.time(record, || {
            store(black_box(events.as_slice()), &settings, variant)
        });
        assert_eq!(&out, stored, "{}: stored bytes", self.variant.label);
        let back = self
            .end_to_end
            .decompress
            .time(record, || load(black_box(stored), variant));
        assert_eq!(
            &back, events,
            "{}: end-to-end round trip",
            self.variant.label
        );
    }
}
