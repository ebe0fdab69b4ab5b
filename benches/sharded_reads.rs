//! Benchmark: the first page of a read merged over shard partitions, through dynamap against
//! the best hand-written raw-SDK code.
//!
//! ```text
//! cargo bench --bench sharded_reads              # full run, writes docs/performance/sharded.json
//! cargo bench --bench sharded_reads -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! One day of deals in an index, spread over N shard partitions (N = 4 and 16, 400 items
//! each), read newest first, a page of 25:
//!
//! - dynamap: `db.query(PartitionKey::across(shards).merged()).descending().limit(25).send()`,
//!   with the default fan-out (up to 32 requests at once, so every shard here);
//! - hand-written: N `Query` calls sent at once (`join_all`) with `Limit` = 25, the items
//!   sorted by the index sort key, the first 25 decoded with `serde_dynamo`.
//!
//! The arms alternate in the same run, round after round, on the same DynamoDB Local
//! (started by `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`). Each round times a number
//! of pages per arm; the median over rounds of pages per second is reported, and its ratio
//! to the hand-written arm. Results are printed, written to
//! `$CARGO_TARGET_DIR/bench/sharded_reads.json`, and, for a full run, to
//! `docs/performance/sharded.json` (see `docs/performance/sharded.md`).

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::key::PartitionKey;
use dynamap::{Db, Entity, Table};
use dynamap_local::DynamoLocal;

const PAGE: usize = 25;
const ITEMS_PER_DAY: usize = 400;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct BenchTable;

#[derive(Entity, Debug, Clone, serde::Deserialize)]
#[dynamap(table = BenchTable, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}#{id}"))]
struct Deal {
    id: String,
    day: String,
    shard: u8,
    created_at: i64,
    title: String,
    price: f64,
}

/// What the hand-written arm decodes: the stored attributes it needs, by `serde_dynamo`.
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)] // read only through `black_box`
struct RawDeal {
    id: String,
    day: String,
    shard: u8,
    created_at: i64,
    title: String,
    price: f64,
}

fn day_of(shards: u8) -> String {
    format!("D{shards}")
}

async fn seed(db: &Db, shards: u8) {
    let deals: Vec<Deal> = (0..ITEMS_PER_DAY)
        .map(|i| Deal {
            id: format!("{i:05}"),
            day: day_of(shards),
            shard: (i % usize::from(shards)) as u8,
            created_at: 1_700_000_000 + (i as i64) * 37 % 5_000,
            title: format!("deal number {i} with a title of some length"),
            price: i as f64 * 1.25,
        })
        .collect();
    let report = db.put_all(&deals).await.expect("seeding");
    assert!(report.is_complete(), "{report}");
}

async fn dynamap_page(db: &Db, shards: u8) -> usize {
    let day = day_of(shards);
    let key = PartitionKey::across((0..shards).map(|s| Deal::gsi1(day.as_str(), s))).merged();
    let query = db.query(key).descending().limit(PAGE);
    let page = query.send().await.expect("dynamap page");
    black_box(&page.items);
    page.items.len()
}

async fn raw_page(db: &Db, shards: u8) -> usize {
    let client = db.client();
    let day = day_of(shards);
    let requests = (0..shards).map(|shard| {
        let pk = Deal::gsi1(day.as_str(), shard)
            .value()
            .expect("key")
            .to_owned();
        client
            .query()
            .table_name(db.table_name())
            .index_name("GSI1")
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", AttributeValue::S(pk))
            .scan_index_forward(false)
            .limit(PAGE as i32)
            .send()
    });
    let answers = futures_util::future::join_all(requests).await;
    let mut items: Vec<HashMap<String, AttributeValue>> = Vec::new();
    for answer in answers {
        items.extend(answer.expect("raw query").items.unwrap_or_default());
    }
    let sk = |item: &HashMap<String, AttributeValue>| {
        item.get("GSI1SK")
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    items.sort_by_key(|item| std::cmp::Reverse(sk(item)));
    items.truncate(PAGE);
    let deals: Vec<RawDeal> = items
        .into_iter()
        .map(|item| serde_dynamo::from_item(item).expect("decoding"))
        .collect();
    black_box(&deals);
    deals.len()
}

#[derive(Clone, Copy)]
enum Arm {
    Dynamap,
    Raw,
}

impl Arm {
    fn name(self) -> &'static str {
        match self {
            Arm::Dynamap => "dynamap",
            Arm::Raw => "hand-written raw SDK",
        }
    }
}

async fn time_arm(db: &Db, shards: u8, arm: Arm, pages: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..pages {
        let n = match arm {
            Arm::Dynamap => dynamap_page(db, shards).await,
            Arm::Raw => raw_page(db, shards).await,
        };
        assert_eq!(n, PAGE);
    }
    pages as f64 / start.elapsed().as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick =
        args.iter().any(|a| a == "--quick") || std::env::var_os("DYNAMAP_BENCH_QUICK").is_some();
    let (rounds, pages) = if quick { (3, 10) } else { (9, 60) };
    let local = DynamoLocal::shared().expect("starting DynamoDB Local");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let started = Instant::now();
    let results = runtime.block_on(async {
        let db = local
            .fresh_db::<BenchTable>("bench_sharded_reads")
            .await
            .expect("benchmark table");
        let mut results = Vec::new();
        for shards in [4u8, 16] {
            seed(&db, shards).await;
            // Warm-up: connections, the JIT of DynamoDB Local.
            for arm in [Arm::Raw, Arm::Dynamap] {
                time_arm(&db, shards, arm, 5).await;
            }
            let arms = [Arm::Raw, Arm::Dynamap];
            let mut rates: Vec<Vec<f64>> = vec![Vec::new(); arms.len()];
            for round in 0..rounds {
                // Alternate which arm goes first.
                let mut order: Vec<usize> = (0..arms.len()).collect();
                order.rotate_left(round % arms.len());
                for i in order {
                    rates[i].push(time_arm(&db, shards, arms[i], pages).await);
                }
            }
            let raw = median(rates[0].clone());
            for (arm, rates) in arms.iter().zip(&rates) {
                let m = median(rates.clone());
                println!(
                    "N = {shards:>2}  {:<22} {m:>8.1} pages/s  ({:.3}x hand-written)",
                    arm.name(),
                    m / raw
                );
                results.push(format!(
                    "    {{\"shards\": {shards}, \"arm\": \"{}\", \"median_pages_per_s\": {m:.1}, \"ratio_to_hand_written\": {:.3}, \"rounds\": {rounds}, \"pages_per_round\": {pages}}}",
                    arm.name(),
                    m / raw
                ));
            }
        }
        results
    });
    let total = started.elapsed();
    let json = format!(
        "{{\n  \"benchmark\": \"sharded_reads\",\n  \"mode\": \"{}\",\n  \"profile\": \"{}\",\n  \"nproc\": {},\n  \"page\": {PAGE},\n  \"items_per_day\": {ITEMS_PER_DAY},\n  \"total_run_s\": {:.1},\n  \"results\": [\n{}\n  ]\n}}\n",
        if quick { "quick" } else { "full" },
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        std::thread::available_parallelism().map_or(0, usize::from),
        total.as_secs_f64(),
        results.join(",\n"),
    );
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    let mut paths = vec![target.join("bench").join("sharded_reads.json")];
    if !quick {
        paths.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance/sharded.json"));
    }
    for path in paths {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("results directory");
        }
        std::fs::write(&path, &json).expect("writing results");
        println!("wrote {}", path.display());
    }
}
