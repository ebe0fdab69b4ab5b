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

// Public items of the examples' library, private to this benchmark.
#[path = "../../examples/support/sleep.rs"]
#[allow(unreachable_pub)]
mod sleep;

mod hand_written;

mod chart;

mod irregular;

mod public_data;

mod goals;
mod measure;
mod other_nights;
mod variants;

use std::path::{Path, PathBuf};
use std::time::Instant;

use dynamap::codec::Codec;
use serde_json::{Value, json};

use goals::{against_hand_written, round3, verdict};
use measure::Row;
use variants::{BZIP2_SEED, DEFAULT, SEED, VARIANTS};

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
