//! The goals and their verdict: the default against JSON + BZip2 and against a
//! hand-written struct-of-arrays codec.

use std::hint::black_box;

use dynamap::codec::{Compression, compress_list, decompress_list};
use serde_json::{Value, json};

use crate::hand_written;
use crate::measure::{Measure, Timing};
use crate::sleep::Event;

pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One goal line: `value` against `limit`, met when `value <= limit` (or `>=` if `at_least`).
pub(crate) fn goal(name: &str, value: f64, limit: f64, at_least: bool) -> (String, bool, Value) {
    let met = if at_least {
        value >= limit
    } else {
        value <= limit
    };
    let text = format!(
        "{name}: {value:.3} (goal {} {limit}) {}",
        if at_least { ">=" } else { "<=" },
        if met { "PASS" } else { "MISS" }
    );
    (
        text,
        met,
        json!({"value": round3(value), "goal": limit, "at_least": at_least, "met": met}),
    )
}

/// The three goals of the issue for one way of measuring.
pub(crate) fn verdict(way: &str, ours: &Measure, bzip2: &Measure) -> Value {
    let checks = [
        goal(
            "bytes / bzip2 bytes",
            ours.bytes as f64 / bzip2.bytes as f64,
            0.25,
            false,
        ),
        goal(
            "compress speed-up",
            bzip2.compress.total_ms() / ours.compress.total_ms(),
            70.0,
            true,
        ),
        goal(
            "decompress speed-up",
            bzip2.decompress.total_ms() / ours.decompress.total_ms(),
            35.0,
            true,
        ),
    ];
    println!("goal, {way} (default against JSON + BZip2 level 9):");
    for (text, _, _) in &checks {
        println!("  {text}");
    }
    json!({
        "bytes_ratio": checks[0].2,
        "compress_speedup": checks[1].2,
        "decompress_speedup": checks[2].2,
        "all_met": checks.iter().all(|c| c.1),
    })
}

/// The median of per-round ratios `a[i] / b[i]`.
pub(crate) fn median_ratio(a: &Timing, b: &Timing) -> f64 {
    let mut ratios: Vec<f64> = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The default (generated columns) against the hand-written struct-of-arrays codec, end to
/// end, in alternating order each round.
pub(crate) fn against_hand_written(night: &[Event], rounds: usize) -> Value {
    let settings = Compression::DEFAULT;
    let generated_stored = compress_list(night, &settings).expect("compresses");
    let hand_stored = hand_written::encode(night);
    assert_eq!(
        decompress_list::<Event>(&generated_stored).expect("decompresses"),
        night
    );
    assert_eq!(
        hand_written::decode(&hand_stored).expect("decodes by hand"),
        night
    );
    let (mut generated, mut hand) = (Measure::default(), Measure::default());
    for round in 0..=rounds * 10 {
        let record = round > 0;
        for step in 0..2 {
            if (round + step) % 2 == 0 {
                let out = generated.compress.time(record, || {
                    compress_list(black_box(night), &settings).expect("compresses")
                });
                assert_eq!(out, generated_stored);
                generated.decompress.time(record, || {
                    decompress_list::<Event>(black_box(&generated_stored)).expect("decompresses")
                });
            } else {
                let out = hand
                    .compress
                    .time(record, || hand_written::encode(black_box(night)));
                assert_eq!(out, hand_stored);
                hand.decompress.time(record, || {
                    hand_written::decode(black_box(&hand_stored)).expect("decodes by hand")
                });
            }
        }
    }
    let checks = [
        goal(
            "generated / hand-written bytes",
            generated_stored.len() as f64 / hand_stored.len() as f64,
            1.0,
            false,
        ),
        goal(
            "generated / hand-written compress time",
            median_ratio(&generated.compress, &hand.compress),
            1.5,
            false,
        ),
        goal(
            "generated / hand-written decompress time",
            median_ratio(&generated.decompress, &hand.decompress),
            1.5,
            false,
        ),
    ];
    println!(
        "\ngoal, against a hand-written struct-of-arrays codec ({} rounds each way; bytes {} against {}; median round {:.0} / {:.0} us to compress, {:.0} / {:.0} us to decompress):",
        rounds * 10,
        generated_stored.len(),
        hand_stored.len(),
        generated.compress.median_us(),
        hand.compress.median_us(),
        generated.decompress.median_us(),
        hand.decompress.median_us(),
    );
    for (text, _, _) in &checks {
        println!("  {text}");
    }
    json!({
        "rounds": rounds * 10,
        "generated": { "bytes": generated_stored.len(), "compress": generated.compress.json(), "decompress": generated.decompress.json() },
        "hand_written": { "bytes": hand_stored.len(), "compress": hand.compress.json(), "decompress": hand.decompress.json() },
        "bytes_ratio": checks[0].2,
        "compress_time_ratio": checks[1].2,
        "decompress_time_ratio": checks[2].2,
        "all_met": checks.iter().all(|c| c.1),
    })
}
