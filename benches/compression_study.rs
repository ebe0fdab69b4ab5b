//! Benchmark: the seed's compression study (seed 000) redone for dynamap's compressed
//! attributes. One day of sleep-tracker events (4,320 events, about 490 KB as JSON) is
//! stored with every codec and format, 100 rounds each way, in one run.
//!
//! ```text
//! cargo bench --bench compression_study              # full run: docs/performance/compression.*
//! cargo bench --bench compression_study -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Every row is measured two ways:
//!
//! - **codec only**: bytes to bytes, as the seed measured. The input is the value already
//!   serialized in the row's format (JSON text, or dynamap's columnar or row bytes), and
//!   the time is `Codec::compress` and `Codec::decompress` alone.
//! - **end to end**: from `Vec<Event>` to the stored attribute and back, which is what an
//!   application pays: `dynamap::codec::compress_list` (the generated columns, checksum,
//!   compress, header) and `decompress_list` for the `columnar v3` rows, which is what a
//!   `#[dynamap(compress)]` field of a `Columnar` type stores; `compress` and `decompress`
//!   (through serde) for the others.
//!
//! The goals are judged end to end for the default (`Compression::DEFAULT`, columnar v3)
//! against JSON + BZip2 level 9 (the seed's choice) in the same run: at most a quarter of
//! its bytes, at least 70x faster to compress and 35x faster to decompress. The codec-only
//! comparison is printed too. Last, the default is timed against a hand-written
//! struct-of-arrays codec for the same type (`compression_study/hand_written.rs`): at most
//! 1.5x its time each way, and no more bytes.
//!
//! Results are printed and written to `$CARGO_TARGET_DIR/bench/compression_study.{json,svg}`
//! (default `target/bench/`); a full run also writes `docs/performance/compression.json` and
//! the chart `docs/performance/compression.svg`. See `docs/performance/compression.md`.

#[path = "../examples/support/sleep.rs"]
mod sleep;

#[path = "compression_study/hand_written.rs"]
mod hand_written;

#[path = "compression_study/chart.rs"]
mod chart;

#[path = "compression_study/irregular.rs"]
mod irregular;

#[path = "compression_study/public_data.rs"]
mod public_data;

#[path = "compression_study/other_nights.rs"]
mod other_nights;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dynamap::codec::{
    Codec, Compression, Format, Header, compress, compress_list, decompress, decompress_list,
};
use serde_json::{Value, json};
use sleep::Event;

/// The seed's table (Java, its own machine): bytes, compress ms and decompress ms for 100
/// rounds on its 489,601-byte night.
const SEED: [(&str, usize, Option<f64>, Option<f64>); 4] = [
    ("Raw Data", 489_601, None, None),
    ("BZip2", 11_362, Some(9_613.0), Some(912.0)),
    ("GZip", 25_051, Some(557.0), Some(89.0)),
    ("Snappy", 54_792, Some(62.0), Some(31.0)),
];

/// One way of storing the night.
#[derive(Clone, Copy)]
struct Variant {
    /// Short label for tables and the chart.
    label: &'static str,
    format: Format,
    codec: Codec,
    /// A row of the seed's own table.
    seed: bool,
    /// The events regrouped by type before storing (an experiment, see the docs).
    grouped: bool,
    /// Written by the code `#[derive(Columnar)]` generates (columnar version 3), as a
    /// compressed `Vec<Event>` field is; otherwise through serde.
    generated: bool,
}

const fn variant(label: &'static str, format: Format, codec: Codec) -> Variant {
    Variant {
        label,
        format,
        codec,
        seed: false,
        grouped: false,
        generated: false,
    }
}

const fn generated(label: &'static str, codec: Codec) -> Variant {
    Variant {
        generated: true,
        ..variant(label, Format::Columnar, codec)
    }
}

const fn seed(label: &'static str, codec: Codec) -> Variant {
    Variant {
        seed: true,
        ..variant(label, Format::Json, codec)
    }
}

/// The JSON + BZip2 level 9 row: the seed's choice and the goal's yardstick.
const BZIP2_SEED: usize = 0;
/// The default row: `Compression::DEFAULT` (columnar + zstd level 3) for a list of a
/// `Columnar` type, what a `#[dynamap(compress)] events: Vec<Event>` field stores.
const DEFAULT: usize = 6;

const VARIANTS: [Variant; 20] = [
    seed("json bzip2-9", Codec::Bzip2 { level: 9 }),
    seed("json gzip-6", Codec::Gzip { level: 6 }),
    seed("json snappy", Codec::Snappy),
    variant("json bzip2-1", Format::Json, Codec::Bzip2 { level: 1 }),
    variant("json gzip-1", Format::Json, Codec::Gzip { level: 1 }),
    variant("json gzip-9", Format::Json, Codec::Gzip { level: 9 }),
    generated("columnar v3 zstd-3", Codec::Zstd { level: 3 }),
    generated("columnar v3 none", Codec::None),
    variant(
        "columnar zstd-3",
        Format::Columnar,
        Codec::Zstd { level: 3 },
    ),
    variant(
        "columnar zstd-1",
        Format::Columnar,
        Codec::Zstd { level: 1 },
    ),
    variant(
        "columnar zstd-9",
        Format::Columnar,
        Codec::Zstd { level: 9 },
    ),
    variant(
        "columnar zstd-19",
        Format::Columnar,
        Codec::Zstd { level: 19 },
    ),
    variant("columnar snappy", Format::Columnar, Codec::Snappy),
    variant(
        "columnar gzip-6",
        Format::Columnar,
        Codec::Gzip { level: 6 },
    ),
    variant(
        "columnar bzip2-9",
        Format::Columnar,
        Codec::Bzip2 { level: 9 },
    ),
    variant("row zstd-3", Format::Row, Codec::Zstd { level: 3 }),
    variant("json zstd-3", Format::Json, Codec::Zstd { level: 3 }),
    variant("columnar none", Format::Columnar, Codec::None),
    variant("json none", Format::Json, Codec::None),
    Variant {
        grouped: true,
        ..variant(
            "columnar zstd-3, grouped by type",
            Format::Columnar,
            Codec::Zstd { level: 3 },
        )
    },
];

/// Sizes of one run.
struct Plan {
    quick: bool,
    rounds: usize,
}

impl Plan {
    fn from_env() -> Plan {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let env_quick =
            std::env::var("DYNAMAP_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
        // `cargo bench` passes `--bench`; without it the binary runs as a test
        // (`cargo test --benches`), where a smoke run is what is wanted.
        let quick = env_quick
            || args.iter().any(|a| a == "--quick")
            || !args.iter().any(|a| a == "--bench");
        Plan {
            quick,
            rounds: if quick { 5 } else { 100 },
        }
    }
}

/// One direction's timings, one entry per round.
#[derive(Default)]
struct Timing {
    rounds: Vec<Duration>,
}

impl Timing {
    /// Times one call of `f`, recording it unless this is the warm-up round. The result
    /// is returned, so dropping it is not timed.
    fn time<T>(&mut self, record: bool, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        let elapsed = start.elapsed();
        if record {
            self.rounds.push(elapsed);
        }
        value
    }

    /// Total over all rounds, in milliseconds (what the seed reported).
    fn total_ms(&self) -> f64 {
        self.rounds.iter().sum::<Duration>().as_secs_f64() * 1e3
    }

    /// The median round, in microseconds (less sensitive to a busy machine).
    fn median_us(&self) -> f64 {
        let mut sorted = self.rounds.clone();
        sorted.sort();
        sorted
            .get(sorted.len() / 2)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    }

    fn json(&self) -> Value {
        json!({
            "total_ms": round3(self.total_ms()),
            "median_round_us": round3(self.median_us()),
        })
    }
}

/// One way of measuring one variant.
#[derive(Default)]
struct Measure {
    bytes: usize,
    compress: Timing,
    decompress: Timing,
}

impl Measure {
    fn json(&self, raw_json: usize) -> Value {
        json!({
            "bytes": self.bytes,
            "ratio": round3(raw_json as f64 / self.bytes as f64),
            "compress": self.compress.json(),
            "decompress": self.decompress.json(),
        })
    }
}

/// A variant ready to measure: its inputs built and both round trips checked.
struct Row {
    variant: Variant,
    /// The events as this row stores them.
    events: Vec<Event>,
    /// The serialized bytes (the codec-only input).
    raw: Vec<u8>,
    /// `raw` compressed by the codec (the codec-only output).
    packed: Vec<u8>,
    settings: Compression,
    /// The stored attribute (the end-to-end output).
    stored: Vec<u8>,
    codec_only: Measure,
    end_to_end: Measure,
}

/// Stores `events` as `variant` says: by the generated code or through serde.
fn store(events: &[Event], settings: &Compression, variant: Variant) -> Vec<u8> {
    if variant.generated {
        compress_list(events, settings).expect("compresses")
    } else {
        compress(events, settings).expect("compresses")
    }
}

/// Reads what [`store`] stored.
fn load(stored: &[u8], variant: Variant) -> Vec<Event> {
    if variant.generated {
        decompress_list(stored).expect("decompresses")
    } else {
        decompress(stored).expect("decompresses")
    }
}

/// The serialized bytes of `events` as `variant` writes them, before compression.
fn serialized(events: &[Event], variant: Variant) -> Vec<u8> {
    let settings = Compression::DEFAULT
        .codec(Codec::None)
        .format(variant.format);
    let stored = store(events, &settings, variant);
    let (_, payload) = Header::read(&stored).expect("reads its own header");
    payload.to_vec()
}

impl Row {
    fn new(night: &[Event], variant: Variant) -> Row {
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
    fn round(&mut self, record: bool) {
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

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One goal line: `value` against `limit`, met when `value <= limit` (or `>=` if `at_least`).
fn goal(name: &str, value: f64, limit: f64, at_least: bool) -> (String, bool, Value) {
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
fn verdict(way: &str, ours: &Measure, bzip2: &Measure) -> Value {
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
fn median_ratio(a: &Timing, b: &Timing) -> f64 {
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
fn against_hand_written(night: &[Event], rounds: usize) -> Value {
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

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = std::process::Command::new(program)
        .args(args)
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn machine(plan: &Plan) -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    json!({
        "mode": if plan.quick { "quick" } else { "full" },
        "date_utc": time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default(),
        "nproc": std::thread::available_parallelism().map_or(0, usize::from),
        "cpu": cpu,
        "os": std::env::consts::OS,
        "load_average_at_end": load,
        "rustc": command_output("rustc", &["--version"]),
        "git_commit": command_output("git", &["rev-parse", "--short", "HEAD"]),
    })
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("creating the results directory");
    }
    std::fs::write(path, text).expect("writing the results");
    println!("wrote {}", path.display());
}

fn main() {
    let plan = Plan::from_env();
    let run_start = Instant::now();
    let night = sleep::night(42);
    let raw_json = serde_json::to_vec(&night).expect("serializes").len();
    println!(
        "compression_study: {} run, {} rounds; night {}: {} events, {raw_json} bytes as JSON",
        if plan.quick { "quick" } else { "full" },
        plan.rounds,
        sleep::NIGHT,
        night.len()
    );

    println!(
        "\n{:<33} {:>9} | {:>8} {:>7} {:>10} {:>10} | {:>8} {:>7} {:>10} {:>10}",
        "", "", "codec", "only", "", "", "end", "to end", "", ""
    );
    println!(
        "{:<33} {:>9} | {:>8} {:>7} {:>10} {:>10} | {:>8} {:>7} {:>10} {:>10}",
        "format + codec",
        "serialized",
        "bytes",
        "ratio",
        "comp ms",
        "decomp ms",
        "bytes",
        "ratio",
        "comp ms",
        "decomp ms"
    );
    let mut rows: Vec<Row> = VARIANTS.iter().map(|&v| Row::new(&night, v)).collect();
    // Rounds go across all rows, starting at a different row each time, so a busy moment
    // on the (shared) machine falls on every row alike rather than on a few.
    for round in 0..=plan.rounds {
        let record = round > 0; // round 0 warms up caches, allocator and codec tables
        for i in 0..rows.len() {
            let at = (i + round) % rows.len();
            rows[at].round(record);
        }
    }
    for row in &rows {
        let (c, e) = (&row.codec_only, &row.end_to_end);
        println!(
            "{:<33} {:>9} | {:>8} {:>6.1}:1 {:>10.1} {:>10.1} | {:>8} {:>6.1}:1 {:>10.1} {:>10.1}",
            row.variant.label,
            row.raw.len(),
            c.bytes,
            raw_json as f64 / c.bytes as f64,
            c.compress.total_ms(),
            c.decompress.total_ms(),
            e.bytes,
            raw_json as f64 / e.bytes as f64,
            e.compress.total_ms(),
            e.decompress.total_ms(),
        );
    }
    println!(
        "(times: total ms for {} rounds; ratio: raw JSON bytes / stored bytes)",
        plan.rounds
    );

    println!("\nthe seed's table (Java, 100 rounds, its own machine and data):");
    for (name, bytes, c, d) in SEED {
        let ms = |t: Option<f64>| t.map_or("N/A".to_owned(), |t| format!("{t:.0}"));
        println!(
            "  {name:<9} {bytes:>7} bytes  compress {:>5} ms  decompress {:>4} ms",
            ms(c),
            ms(d)
        );
    }
    println!();
    let end_to_end = verdict(
        "end to end",
        &rows[DEFAULT].end_to_end,
        &rows[BZIP2_SEED].end_to_end,
    );
    let codec_only = verdict(
        "codec only",
        &rows[DEFAULT].codec_only,
        &rows[BZIP2_SEED].codec_only,
    );
    let hand_written = against_hand_written(&night, plan.rounds);
    let other_nights = vec![
        other_nights::measure(
            &other_nights::Night {
                name: "irregular",
                source: "benches/compression_study/irregular.rs, seed 42: sensors every 30, 45 and 60 s, 5% dropped, starts +-40 ms, durations +-30 ms",
                events: irregular::night(42),
                encode: hand_written::encode,
                decode: |stored| hand_written::decode(stored).ok(),
            },
            plan.rounds,
        ),
        other_nights::measure(
            &other_nights::Night {
                name: "public",
                source: "statsmodels 0.15.0 wheel (PyPI, BSD-3-Clause): Mauna Loa weekly CO2 and El Nino monthly sea surface temperatures, both public domain; extract in benches/compression_study/data/",
                events: public_data::night(),
                encode: public_data::encode,
                decode: public_data::decode,
            },
            plan.rounds,
        ),
    ];

    let total = run_start.elapsed();
    let result = json!({
        "benchmark": "compression_study",
        "machine": machine(&plan),
        "rounds": plan.rounds,
        "night": {
            "events": night.len(),
            "raw_json_bytes": raw_json,
            "generator": "examples/support/sleep.rs, seed 42",
        },
        "seed_table": SEED.iter().map(|(name, bytes, c, d)| json!({
            "algorithm": name, "bytes": bytes, "compress_ms": c, "decompress_ms": d,
        })).collect::<Vec<_>>(),
        "rows": rows.iter().map(|r| json!({
            "label": r.variant.label,
            "format": r.variant.format.name(),
            "codec": r.variant.codec.name(),
            "level": match r.variant.codec {
                Codec::Zstd { level } => Some(i64::from(level)),
                Codec::Bzip2 { level } | Codec::Gzip { level } => Some(i64::from(level)),
                _ => None,
            },
            "seed_row": r.variant.seed,
            "events_grouped_by_type": r.variant.grouped,
            "generated_columns": r.variant.generated,
            "default": r.variant.label == VARIANTS[DEFAULT].label,
            "serialized_bytes": r.raw.len(),
            "codec_only": r.codec_only.json(raw_json),
            "end_to_end": r.end_to_end.json(raw_json),
        })).collect::<Vec<_>>(),
        "goal": {
            "baseline": VARIANTS[BZIP2_SEED].label,
            "default": VARIANTS[DEFAULT].label,
            "end_to_end": end_to_end,
            "codec_only": codec_only,
            "against_hand_written": hand_written,
        },
        "other_nights": other_nights,
        "total_run_s": round3(total.as_secs_f64()),
    });
    let text = serde_json::to_string_pretty(&result).expect("json") + "\n";
    let svg = chart::chart(&rows, raw_json, plan.rounds);
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    write(&target.join("bench/compression_study.json"), &text);
    write(&target.join("bench/compression_study.svg"), &svg);
    if !plan.quick {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance");
        write(&docs.join("compression.json"), &text);
        write(&docs.join("compression.svg"), &svg);
    }
    println!("total run time: {:.1} s", total.as_secs_f64());
}
