//! Benchmark: generated `to_item`/`from_item` against careful hand-written conversions and
//! against `serde_dynamo` of the whole struct, for four entities: 10 fields, a
//! timestamp-keyed reading, and 60 fields with nested values, once with direct conversions
//! for the nested type and once with only its serde derives.
//!
//! ```text
//! cargo bench --bench mapping              # full run, writes docs/performance/mapping.json
//! cargo bench --bench mapping -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Pure CPU, no I/O. Each round times every implementation on the same values, in a
//! rotating order, a page (256 values) at a time, as query results arrive; what a way
//! produces is dropped after the clock stops (it is the same whichever way made it). The
//! ratios are medians over rounds of the per-round ratio, so drift of the machine cancels;
//! allocations per value are counted beside the times. Results are printed, written to
//! `$CARGO_TARGET_DIR/bench/mapping.json` (default `target/bench/`) and, for a full run, to
//! `docs/performance/mapping.json`. See `docs/performance/mapping.md`.

use std::collections::HashMap;
use std::path::PathBuf;

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::Table;

mod allocations;
mod fallback;
mod hand;
mod order;
mod profile;
mod reading;
mod timing;

use timing::{Case, run_case};

#[global_allocator]
static ALLOCATOR: allocations::Counting = allocations::Counting;

type Item = HashMap<String, AttributeValue>;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Bench;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("DYNAMAP_BENCH_QUICK").is_some();
    let (values, rounds) = if quick { (2_000, 5) } else { (20_000, 31) };
    let wide_values = values / 4;
    let results = serde_json::json!({
        "benchmark": "mapping",
        "quick": quick,
        "rounds": rounds,
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "ten_fields": run_case(&Case {
            name: "ten_fields",
            values: (0..values).map(order::order).collect(),
            to_hand: order::order_to_item,
            from_hand: order::order_from_item,
        }, rounds),
        "timestamp_keyed": run_case(&Case {
            name: "timestamp",
            values: (0..values).map(reading::reading).collect(),
            to_hand: reading::reading_to_item,
            from_hand: reading::reading_from_item,
        }, rounds),
        "sixty_fields_nested": run_case(&Case {
            name: "sixty",
            values: (0..wide_values).map(profile::profile).collect(),
            to_hand: profile::profile_to_item,
            from_hand: profile::profile_from_item,
        }, rounds),
        "sixty_fields_serde_nested": run_case(&Case {
            name: "sixty_serde",
            values: (0..wide_values).map(profile::serde_profile).collect(),
            to_hand: profile::serde_profile_to_item,
            from_hand: profile::serde_profile_from_item,
        }, rounds),
        "serde_fallback": fallback::run_fallback(wide_values, rounds),
    });
    let text = serde_json::to_string_pretty(&results).expect("renders") + "\n";
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    let mut paths = vec![target.join("bench").join("mapping.json")];
    if !quick {
        paths.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance/mapping.json"));
    }
    for path in paths {
        std::fs::create_dir_all(path.parent().expect("has a parent"))
            .expect("creates the directory");
        std::fs::write(&path, &text).expect("writes results");
        println!("wrote {}", path.display());
    }
}
