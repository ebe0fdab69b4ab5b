//! Benchmark: batch write throughput of dynamap against a hand-tuned raw SDK writer and
//! against sequential `PutItem`, and seed 004's fan-out with and without injected throttling.
//!
//! ```text
//! cargo bench --bench batch_write              # full run, writes docs/performance/batch.json
//! cargo bench --bench batch_write -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Every number comes from the same run on the same DynamoDB Local (started by
//! `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`), and the comparisons are ratios:
//!
//! 1. Throughput: `db.batch_write().put_all(..)` against a raw writer that pre-converts the
//!    items, sends `BatchWriteItem` calls of 25 with the same concurrency, and resends
//!    unprocessed items at once. Rounds alternate, each into a fresh table.
//! 2. Sequential `PutItem`, one item after another: the naive baseline.
//! 3. The fan-out: 220,000 timeline items (one per follower), without faults and with 5%
//!    of calls throttled; every item must end up stored once (counted) or reported failed.
//!
//! Results are printed, written to `target/bench/batch_write.json`, and for a full run to
//! `docs/performance/batch.json`. See `docs/performance/batch.md`.

use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, Select, WriteRequest};
use dynamap::{Db, Entity, Table};
use dynamap_local::{DynamoLocal, Faults};
use futures_util::stream::{self, StreamExt};
use serde_json::json;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Social;

/// Seed 004's timeline entry: one per follower per stream.
#[derive(Entity, Debug, Clone)]
#[dynamap(table = Social, entity = "TimelineEntry", pk = "USER#{follower}", sk = "TL#{at}#{stream_id}")]
struct TimelineEntry {
    follower: u32,
    at: u64,
    stream_id: String,
    streamer: String,
    title: String,
    expires_at: i64,
}

const CONCURRENCY: usize = 16;

fn entries(n: u32, stream: &str) -> impl Iterator<Item = TimelineEntry> + '_ {
    (0..n).map(move |follower| TimelineEntry {
        follower,
        at: 1_700_000_000_000,
        stream_id: stream.to_owned(),
        streamer: "alice".to_owned(),
        title: "Speedrun, any%".to_owned(),
        // 2100: far enough ahead that neither DynamoDB's TTL nor dynamap's reads drop it.
        expires_at: 4_102_444_800,
    })
}

async fn count(db: &Db<Social>) -> usize {
    let mut total = 0;
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .select(Select::Count)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("count scan");
        total += out.count() as usize;
        match out.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return total,
        }
    }
}

/// dynamap's batch writer; returns items/s.
async fn dynamap_write(db: &Db<Social>, n: u32) -> f64 {
    let started = Instant::now();
    let report = db
        .batch_write()
        .put_all(entries(n, "st-1"))
        .concurrency(CONCURRENCY)
        .send()
        .await
        .expect("batch");
    let rate = f64::from(n) / started.elapsed().as_secs_f64();
    assert!(
        report.is_complete() && report.written == n as usize,
        "{} failed",
        report.failed.len()
    );
    rate
}

/// What a careful user writes by hand: items converted up front, chunks of 25 sent with
/// the same concurrency, unprocessed items resent at once.
async fn raw_write(db: &Db<Social>, n: u32) -> f64 {
    let items: Vec<HashMap<String, AttributeValue>> = entries(n, "st-1")
        .map(|e| e.to_item().expect("item"))
        .collect();
    let started = Instant::now();
    let chunks: Vec<Vec<WriteRequest>> = items
        .chunks(25)
        .map(|chunk| {
            chunk
                .iter()
                .map(|item| {
                    let put = PutRequest::builder()
                        .set_item(Some(item.clone()))
                        .build()
                        .expect("put request");
                    WriteRequest::builder().put_request(put).build()
                })
                .collect()
        })
        .collect();
    let table = db.table_name().to_owned();
    stream::iter(chunks)
        .for_each_concurrent(CONCURRENCY, |mut requests| {
            let (client, table) = (db.client().clone(), table.clone());
            async move {
                while !requests.is_empty() {
                    let out = client
                        .batch_write_item()
                        .request_items(&table, requests)
                        .send()
                        .await
                        .expect("raw batch");
                    requests = out
                        .unprocessed_items
                        .and_then(|mut m| m.remove(&table))
                        .unwrap_or_default();
                }
            }
        })
        .await;
    f64::from(n) / started.elapsed().as_secs_f64()
}

/// One `PutItem` after another.
async fn sequential_put(db: &Db<Social>, n: u32) -> f64 {
    let started = Instant::now();
    for entry in entries(n, "st-1") {
        db.put(&entry).await.expect("put");
    }
    f64::from(n) / started.elapsed().as_secs_f64()
}

struct FanOut {
    seconds: f64,
    written: usize,
    failed: usize,
    stored: usize,
    injected: u64,
}

async fn fan_out(local: &DynamoLocal, name: &str, n: u32, faults: Option<Faults>) -> FanOut {
    let db = match &faults {
        Some(f) => local
            .fresh_db_with_faults::<Social>(name, f)
            .await
            .expect("table"),
        None => local.fresh_db::<Social>(name).await.expect("table"),
    };
    let started = Instant::now();
    let report = db
        .batch_write()
        .put_all(entries(n, "st-fan"))
        .concurrency(CONCURRENCY)
        .send()
        .await
        .expect("fan-out");
    let seconds = started.elapsed().as_secs_f64();
    let clean = Db::new(local.client(), db.table_name());
    let stored = count(&clean).await;
    assert_eq!(stored, report.written, "every written item is stored once");
    assert_eq!(
        report.written + report.failed.len(),
        n as usize,
        "nothing is lost"
    );
    FanOut {
        seconds,
        written: report.written,
        failed: report.failed.len(),
        stored,
        injected: faults.map_or(0, |f| f.counts().faulty_calls()),
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let quick = std::env::var("DYNAMAP_BENCH_QUICK").is_ok_and(|v| v == "1")
        || std::env::args().any(|a| a == "--quick");
    let (n, rounds, sequential_n, fan_out_n) = if quick {
        (5_000, 1, 500, 20_000)
    } else {
        (50_000, 3, 5_000, 220_000)
    };
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    println!(
        "batch write benchmark ({}; {n} items x {rounds} rounds, concurrency {CONCURRENCY})",
        if quick { "quick" } else { "full" }
    );

    // Warm up both paths (connections, JIT of DynamoDB Local).
    let warm = local.fresh_db::<Social>("bench_warm").await.expect("table");
    dynamap_write(&warm, 2_000).await;
    raw_write(&warm, 2_000).await;

    let (mut ours, mut raw) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let a = local
            .fresh_db::<Social>("bench_dynamap")
            .await
            .expect("table");
        let b = local.fresh_db::<Social>("bench_raw").await.expect("table");
        // Alternate which goes first, so neither always gets the warmer server.
        if round % 2 == 0 {
            ours.push(dynamap_write(&a, n).await);
            raw.push(raw_write(&b, n).await);
        } else {
            raw.push(raw_write(&b, n).await);
            ours.push(dynamap_write(&a, n).await);
        }
        println!(
            "  round {round}: dynamap {:.0} items/s, raw {:.0} items/s",
            ours[round], raw[round]
        );
    }
    let sequential = sequential_put(
        &local.fresh_db::<Social>("bench_seq").await.expect("table"),
        sequential_n,
    )
    .await;
    let (ours, raw) = (median(ours), median(raw));
    println!(
        "batch write: dynamap {ours:.0} items/s, raw SDK {raw:.0} items/s, ratio {:.3}",
        ours / raw
    );
    println!(
        "sequential PutItem: {sequential:.0} items/s; dynamap batch is {:.1}x faster",
        ours / sequential
    );

    let clean = fan_out(local, "bench_fanout", fan_out_n, None).await;
    let throttled = fan_out(
        local,
        "bench_fanout_throttled",
        fan_out_n,
        Some(Faults::seeded(42).throttle(0.05)),
    )
    .await;
    for (label, f) in [("no faults", &clean), ("5% throttled", &throttled)] {
        println!(
            "fan-out of {fan_out_n} ({label}): {:.1} s, {:.0} items/s, {} written, {} failed, {} stored, {} faults injected",
            f.seconds,
            f64::from(fan_out_n) / f.seconds,
            f.written,
            f.failed,
            f.stored,
            f.injected
        );
    }

    let fan = |f: &FanOut| {
        json!({"seconds": f.seconds, "items_per_second": f64::from(fan_out_n) / f.seconds, "written": f.written,
               "failed": f.failed, "stored": f.stored, "faults_injected": f.injected})
    };
    let result = json!({
        "mode": if quick { "quick" } else { "full" },
        "machine": { "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0) },
        "concurrency": CONCURRENCY,
        "throughput": { "items": n, "rounds": rounds, "dynamap_items_per_second": ours, "raw_items_per_second": raw, "ratio": ours / raw },
        "sequential_put": { "items": sequential_n, "items_per_second": sequential, "batch_speedup": ours / sequential },
        "fan_out": { "items": fan_out_n, "no_faults": fan(&clean), "throttled_5_percent": fan(&throttled) },
    });
    let text = serde_json::to_string_pretty(&result).expect("json");
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
    let dir = std::path::Path::new(&target).join("bench");
    std::fs::create_dir_all(&dir).expect("bench dir");
    std::fs::write(dir.join("batch_write.json"), &text).expect("write results");
    if !quick {
        std::fs::write("docs/performance/batch.json", &text).expect("write docs results");
    }
}
