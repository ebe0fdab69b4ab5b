//! Nights the library's authors did not shape (issue 26), each measured in one run against
//! a hand-written codec that knows its structure and against JSON + BZip2 level 9:
//!
//! - bytes at most 1.1x the hand-written codec's, and decoding at most 1.2x its time
//!   (median of per-round ratios, the two run in alternating order);
//! - end to end, at least 70x faster to compress and 30x faster to decompress than
//!   JSON + BZip2 9 (`dynamap::codec::compress` with `format = "json"`, as the study's row).

use std::hint::black_box;

use dynamap::codec::{
    Codec, Columnar, Compression, Format, compress, compress_list, decompress, decompress_list,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::goals::{goal, median_ratio, round3};
use crate::measure::Measure;

/// One night and its hand-written codec.
pub(crate) struct Night<T> {
    pub(crate) name: &'static str,
    pub(crate) source: &'static str,
    pub(crate) events: Vec<T>,
    pub(crate) encode: fn(&[T]) -> Vec<u8>,
    pub(crate) decode: fn(&[u8]) -> Option<Vec<T>>,
}

/// Measures `night` for `rounds` rounds against JSON + BZip2 9 and `rounds * 10` against
/// the hand-written codec; prints the verdicts and returns them.
pub(crate) fn measure<T>(night: &Night<T>, rounds: usize) -> Value
where
    T: Columnar + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let events = &night.events;
    let settings = Compression::DEFAULT;
    let bzip2 = Compression::DEFAULT
        .codec(Codec::Bzip2 { level: 9 })
        .format(Format::Json);
    let generated_stored = compress_list(events, &settings).expect("compresses");
    let hand_stored = (night.encode)(events);
    let bzip2_stored = compress(events, &bzip2).expect("compresses");
    assert_eq!(
        &decompress_list::<T>(&generated_stored).expect("reads"),
        events
    );
    assert_eq!(
        &(night.decode)(&hand_stored).expect("decodes by hand"),
        events
    );
    assert_eq!(&decompress::<Vec<T>>(&bzip2_stored).expect("reads"), events);
    let raw_json = serde_json::to_vec(events).expect("serializes").len();

    let (mut generated, mut hand, mut json_bzip2) =
        (Measure::default(), Measure::default(), Measure::default());
    generated.bytes = generated_stored.len();
    hand.bytes = hand_stored.len();
    json_bzip2.bytes = bzip2_stored.len();
    for round in 0..=rounds * 10 {
        let record = round > 0;
        for step in 0..2 {
            if (round + step) % 2 == 0 {
                generated.compress.time(record, || {
                    compress_list(black_box(events), &settings).expect("compresses")
                });
                generated.decompress.time(record, || {
                    decompress_list::<T>(black_box(&generated_stored)).expect("reads")
                });
            } else {
                hand.compress
                    .time(record, || (night.encode)(black_box(events)));
                hand.decompress.time(record, || {
                    (night.decode)(black_box(&hand_stored)).expect("decodes by hand")
                });
            }
        }
        // BZip2 takes tens of milliseconds a round: every tenth round.
        if round % 10 == 0 {
            json_bzip2.compress.time(record, || {
                compress(black_box(events), &bzip2).expect("compresses")
            });
            json_bzip2.decompress.time(record, || {
                decompress::<Vec<T>>(black_box(&bzip2_stored)).expect("reads")
            });
        }
    }
    let speedup = |theirs: &Measure, ours: &Measure, compress: bool| {
        let (t, o) = if compress {
            (&theirs.compress, &ours.compress)
        } else {
            (&theirs.decompress, &ours.decompress)
        };
        t.median_us() / o.median_us()
    };
    let checks = [
        goal(
            "generated / hand-written bytes",
            generated.bytes as f64 / hand.bytes as f64,
            1.1,
            false,
        ),
        goal(
            "generated / hand-written decompress time",
            median_ratio(&generated.decompress, &hand.decompress),
            1.2,
            false,
        ),
        goal(
            "compress speed-up over JSON + BZip2 9 (median rounds)",
            speedup(&json_bzip2, &generated, true),
            70.0,
            true,
        ),
        goal(
            "decompress speed-up over JSON + BZip2 9 (median rounds)",
            speedup(&json_bzip2, &generated, false),
            30.0,
            true,
        ),
    ];
    println!(
        "\nnight `{}` ({} events, {raw_json} bytes as JSON): generated {} bytes, hand-written {}, JSON + BZip2 9 {}; median round us: compress {:.0} / {:.0} / {:.0}, decompress {:.0} / {:.0} / {:.0}",
        night.name,
        events.len(),
        generated.bytes,
        hand.bytes,
        json_bzip2.bytes,
        generated.compress.median_us(),
        hand.compress.median_us(),
        json_bzip2.compress.median_us(),
        generated.decompress.median_us(),
        hand.decompress.median_us(),
        json_bzip2.decompress.median_us(),
    );
    for (text, _, _) in &checks {
        println!("  {text}");
    }
    json!({
        "night": night.name,
        "source": night.source,
        "events": events.len(),
        "raw_json_bytes": raw_json,
        "rounds_against_hand_written": rounds * 10,
        "rounds_against_bzip2": rounds,
        "generated": generated.json(raw_json),
        "hand_written": hand.json(raw_json),
        "json_bzip2_9": json_bzip2.json(raw_json),
        "generated_compress_time_over_hand_written": round3(median_ratio(&generated.compress, &hand.compress)),
        "bytes_ratio": checks[0].2,
        "decompress_time_ratio": checks[1].2,
        "compress_speedup_over_bzip2": checks[2].2,
        "decompress_speedup_over_bzip2": checks[3].2,
        "all_met": checks.iter().all(|c| c.1),
    })
}
