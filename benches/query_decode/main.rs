//! Benchmark: reading query pages through dynamap against the raw SDK with hand-written
//! decoding, and peak heap while streaming a partition of 10k versus 100k items.
//!
//! ```text
//! cargo bench --bench query_decode              # full run, writes docs/performance/queries.json
//! cargo bench --bench query_decode -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Every number is a ratio against a baseline measured in the same run, on the same
//! DynamoDB Local (started by `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`):
//!
//! 1. Query throughput: the whole partition read with `db.query(..).all()` against the SDK's
//!    query paginator plus a hand-written decoder, issuing the same request.
//! 2. Decode only: the raw pages fetched once, then decoded in process with
//!    `Entity::from_item` against the hand-written decoder (no I/O).
//! 3. Peak heap (a counting global allocator) while consuming `.stream()` over partitions
//!    of two sizes, with `.all()` as the contrast that grows with the partition.
//!
//! Results are printed, written to `$CARGO_TARGET_DIR/bench/query_decode.json` (default
//! `target/bench/`), and, for a full run, to `docs/performance/queries.json`.
//! See `docs/performance/queries.md`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::Entity;
use dynamap_local::DynamoLocal;

/// A DynamoDB item, as the SDK returns it.
pub(crate) type Item = HashMap<String, AttributeValue>;

mod baseline;
#[allow(unsafe_code)] // a `GlobalAlloc` impl is unsafe by definition; it only forwards.
mod counting;
mod entity;
mod measure;
mod report;
mod seeding;

use baseline::raw_query;
use entity::{BenchTable, reading};
use measure::{
    all_footprint, decode_throughput, items_per_s, metrics_overhead, query_throughput,
    read_with_dynamap, read_with_sdk, stream_footprint,
};
use report::{Json, comparison_json, footprint_json, machine_json, mib, round3, write_results};
use seeding::seed;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Sizes of one run.
struct Plan {
    quick: bool,
    /// Items in the throughput partition.
    throughput_items: usize,
    warmup: usize,
    query_rounds: usize,
    decode_rounds: usize,
    /// The two partition sizes of the memory part.
    memory_small: usize,
    memory_large: usize,
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
        if quick {
            Plan {
                quick,
                throughput_items: 2_000,
                warmup: 1,
                query_rounds: 3,
                decode_rounds: 5,
                // More than one DynamoDB page (1 MB, about 5,500 of these items) even
                // for the small partition, or the comparison says nothing.
                memory_small: 6_000,
                memory_large: 24_000,
            }
        } else {
            Plan {
                quick,
                throughput_items: 20_000,
                warmup: 2,
                query_rounds: 9,
                decode_rounds: 31,
                memory_small: 10_000,
                memory_large: 100_000,
            }
        }
    }
}

fn main() {
    let plan = Plan::from_env();
    let run_start = Instant::now();
    println!(
        "query_decode: {} run (throughput partition {} items, memory partitions {} and {})",
        if plan.quick { "quick" } else { "full" },
        plan.throughput_items,
        plan.memory_small,
        plan.memory_large
    );
    let local = DynamoLocal::shared().expect("starting DynamoDB Local");
    println!("DynamoDB Local at {}", local.endpoint());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("building the tokio runtime");
    let results = runtime.block_on(run(local, &plan));

    let total = run_start.elapsed();
    let json = Json::Obj(vec![
        ("benchmark", Json::str("query_decode")),
        ("machine", machine_json(plan.quick)),
        (
            "total_run_s",
            Json::Num((total.as_secs_f64() * 10.0).round() / 10.0),
        ),
        ("results", results),
    ]);
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    write_results(&target.join("bench").join("query_decode.json"), &json);
    if !plan.quick {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance/queries.json");
        write_results(&docs, &json);
    }
    println!("total run time: {:.1} s", total.as_secs_f64());
}

async fn run(local: &DynamoLocal, plan: &Plan) -> Json {
    let db = local
        .fresh_db::<BenchTable>("bench_query_decode")
        .await
        .expect("creating the benchmark table");

    // Seeding.
    let throughput_sensor = "THROUGHPUT";
    let small_sensor = "MEM-SMALL";
    let large_sensor = "MEM-LARGE";
    let mut seeding = Vec::new();
    for (sensor, count) in [
        (throughput_sensor, plan.throughput_items),
        (small_sensor, plan.memory_small),
        (large_sensor, plan.memory_large),
    ] {
        let elapsed = seed(&db, sensor, count).await;
        println!(
            "seeded {count:>7} items in {:>6.1} s ({:.0} items/s)",
            elapsed.as_secs_f64(),
            items_per_s(count, elapsed)
        );
        seeding.push(Json::Obj(vec![
            ("partition", Json::str(sensor)),
            ("items", Json::int(count)),
            ("elapsed_ms", Json::ms(elapsed)),
        ]));
    }
    let sample = reading(throughput_sensor, 0)
        .to_item()
        .expect("to_item failed");
    let pk = sample["PK"].as_s().expect("PK is a string").clone();
    let item_bytes: usize = sample
        .iter()
        .map(|(k, v)| k.len() + attribute_size(v))
        .sum();

    // Both decoders agree, on every item.
    let by_dynamap = read_with_dynamap(&db, throughput_sensor).await;
    let by_hand = read_with_sdk(&db, &pk).await;
    assert_eq!(by_dynamap.len(), plan.throughput_items);
    assert!(
        by_dynamap == by_hand,
        "dynamap and the hand-written decoder disagree"
    );
    assert_eq!(by_dynamap[7], reading(throughput_sensor, 7));
    drop((by_dynamap, by_hand));

    // 1. Query throughput.
    let n = plan.throughput_items;
    let query = query_throughput(
        &db,
        throughput_sensor,
        &pk,
        n,
        plan.warmup,
        plan.query_rounds,
    )
    .await;
    let (query_json, query_summary) = comparison_json(n, plan.warmup, &query);
    let metrics = metrics_overhead(&db, throughput_sensor, n, plan.warmup, plan.query_rounds).await;
    let (metrics_json, metrics_summary) = comparison_json(n, plan.warmup, &metrics);

    // 2. Decode only: the raw pages, fetched once.
    let mut pages = 0usize;
    let mut raw_items: Vec<Item> = Vec::with_capacity(n);
    raw_query(db.client(), db.table_name(), &pk, |items| {
        pages += 1;
        raw_items.extend(items);
    })
    .await;
    let decode = decode_throughput(&raw_items, plan.warmup, plan.decode_rounds);
    drop(raw_items);
    let (decode_json, decode_summary) = comparison_json(n, plan.warmup, &decode);

    // 3. Memory. Each partition once with `.stream()`, then once with `.all()`.
    let stream_small = stream_footprint(&db, small_sensor).await;
    let stream_large = stream_footprint(&db, large_sensor).await;
    let all_small = all_footprint(&db, small_sensor).await;
    let all_large = all_footprint(&db, large_sensor).await;
    for (f, expected) in [
        (&stream_small, plan.memory_small),
        (&stream_large, plan.memory_large),
        (&all_small, plan.memory_small),
        (&all_large, plan.memory_large),
    ] {
        assert_eq!(f.items, expected, "a memory run missed items");
    }
    let stream_ratio = stream_large.peak_bytes as f64 / stream_small.peak_bytes as f64;
    let all_ratio = all_large.peak_bytes as f64 / all_small.peak_bytes as f64;

    // The table.
    println!();
    println!(
        "item: {item_bytes} bytes of attribute names and values, {pages} DynamoDB pages per {n} items"
    );
    println!();
    println!(
        "| {n} items per round | dynamap items/s (median) | raw SDK items/s (median) | dynamap / raw | same, fastest rounds |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (name, rounds, summary) in [
        ("query + decode", plan.query_rounds, &query_summary),
        ("decode only", plan.decode_rounds, &decode_summary),
    ] {
        println!(
            "| {name}, {rounds} rounds | {:.0} | {:.0} | {:.3} | {:.3} |",
            summary.dynamap,
            summary.raw,
            summary.ratio(),
            summary.best_ratio()
        );
    }
    println!();
    println!(
        "| {n} items per round | `with_metrics()`, no recorder, items/s | plain handle items/s | metered / plain throughput | same, fastest rounds |"
    );
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| query + decode, {} rounds | {:.0} | {:.0} | {:.3} | {:.3} |",
        plan.query_rounds,
        metrics_summary.dynamap,
        metrics_summary.raw,
        metrics_summary.ratio(),
        metrics_summary.best_ratio()
    );
    println!();
    println!(
        "| peak heap above start | {} items | {} items | large / small |",
        plan.memory_small, plan.memory_large
    );
    println!("|---|---:|---:|---:|");
    println!(
        "| `.stream()` | {:.2} MiB | {:.2} MiB | {:.2} |",
        mib(stream_small.peak_bytes),
        mib(stream_large.peak_bytes),
        stream_ratio
    );
    println!(
        "| `.all()` | {:.2} MiB | {:.2} MiB | {:.2} |",
        mib(all_small.peak_bytes),
        mib(all_large.peak_bytes),
        all_ratio
    );
    println!(
        "| `.all()`, held by the result | {:.2} MiB | {:.2} MiB | {:.2} |",
        mib(all_small.retained_bytes),
        mib(all_large.retained_bytes),
        all_large.retained_bytes as f64 / all_small.retained_bytes as f64
    );
    println!();

    Json::Obj(vec![
        (
            "entity",
            Json::Obj(vec![
                ("attributes", Json::int(sample.len())),
                ("approx_item_bytes", Json::int(item_bytes)),
                ("pages_per_throughput_partition", Json::int(pages)),
            ]),
        ),
        ("seeding", Json::Arr(seeding)),
        ("query_throughput", query_json),
        ("decode_only", decode_json),
        ("metrics_without_recorder_vs_plain", metrics_json),
        (
            "memory",
            Json::Obj(vec![
                ("stream_small", footprint_json(&stream_small)),
                ("stream_large", footprint_json(&stream_large)),
                ("all_small", footprint_json(&all_small)),
                ("all_large", footprint_json(&all_large)),
                (
                    "stream_ratio_large_over_small",
                    Json::Num(round3(stream_ratio)),
                ),
                ("all_ratio_large_over_small", Json::Num(round3(all_ratio))),
            ]),
        ),
    ])
}

/// DynamoDB's size of an attribute value, roughly (strings and numbers by their text).
fn attribute_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => s.len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        _ => 0,
    }
}
