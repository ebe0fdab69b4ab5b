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
//!   sorted by the index sort key, the first 25 decoded with `serde_dynamo`;
//! - the same hand-written code filtering on the entity type, as dynamap's typed reads do:
//!   the same work on the server, for a like-for-like ratio.
//!
//! The arms take turns page by page in the same run (the first arm rotating by round) on the
//! same DynamoDB Local (started by `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`), so its
//! JIT, which keeps compiling through a run, weighs on every arm alike. The median over
//! rounds of each round's ratio is reported, with pages per second and the client's CPU time
//! per page. Results are printed, written to `$CARGO_TARGET_DIR/bench/sharded_reads.json`,
//! and, for a full run, to `docs/performance/sharded.json` (see
//! `docs/performance/sharded.md`).

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

async fn seed(db: &Db<BenchTable>, shards: u8) {
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

async fn dynamap_page(db: &Db<BenchTable>, shards: u8) -> usize {
    let day = day_of(shards);
    let key = PartitionKey::across((0..shards).map(|s| Deal::gsi1(day.as_str(), s))).merged();
    let query = db.query(key).descending().limit(PAGE);
    let page = query.send().await.expect("dynamap page");
    black_box(&page.items);
    page.items.len()
}

/// The hand-written page. With `typed`, each request also filters on the entity type, as
/// dynamap's typed reads do so that other entities sharing a partition are left out: the
/// same work on the server, for a like-for-like ratio.
async fn raw_page(db: &Db<BenchTable>, shards: u8, typed: bool) -> usize {
    let client = db.client();
    let day = day_of(shards);
    let requests = (0..shards).map(|shard| {
        let pk = Deal::gsi1(day.as_str(), shard)
            .value()
            .expect("key")
            .to_owned();
        let request = client
            .query()
            .table_name(db.table_name())
            .index_name("GSI1")
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", AttributeValue::S(pk))
            .scan_index_forward(false)
            .limit(PAGE as i32);
        let request = if typed {
            request
                .filter_expression("#t = :t")
                .expression_attribute_names("#t", BenchTable::SCHEMA.entity_type)
                .expression_attribute_values(":t", AttributeValue::S("Deal".to_owned()))
        } else {
            request
        };
        request.send()
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
    RawTyped,
}

impl Arm {
    fn name(self) -> &'static str {
        match self {
            Arm::Dynamap => "dynamap",
            Arm::Raw => "hand-written raw SDK",
            Arm::RawTyped => "hand-written, type filter",
        }
    }

    async fn page(self, db: &Db<BenchTable>, shards: u8) {
        let n = match self {
            Arm::Dynamap => dynamap_page(db, shards).await,
            Arm::Raw => raw_page(db, shards, false).await,
            Arm::RawTyped => raw_page(db, shards, true).await,
        };
        assert_eq!(n, PAGE);
    }
}

/// This process's CPU time so far (user and system), in clock ticks of 10 ms, from
/// `/proc/self/stat`; `None` where there is none. Charged to whatever runs at each tick,
/// so summed over many pages it is an unbiased estimate of the client's own work.
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// What one arm took over a round.
#[derive(Default, Clone, Copy)]
struct Spent {
    seconds: f64,
    ticks: Option<u64>,
}

/// One round: `pages` pages of each arm, the arms taking turns page by page (the first
/// arm rotating), so DynamoDB Local's warming JIT and the machine's load weigh on both
/// alike. Returns each arm's time and CPU ticks.
async fn round(
    db: &Db<BenchTable>,
    shards: u8,
    arms: &[Arm],
    first: usize,
    pages: usize,
) -> Vec<Spent> {
    let mut spent = vec![
        Spent {
            seconds: 0.0,
            ticks: Some(0)
        };
        arms.len()
    ];
    for _ in 0..pages {
        for k in 0..arms.len() {
            let i = (first + k) % arms.len();
            let (ticks, start) = (cpu_ticks(), Instant::now());
            arms[i].page(db, shards).await;
            spent[i].seconds += start.elapsed().as_secs_f64();
            spent[i].ticks = match (spent[i].ticks, ticks, cpu_ticks()) {
                (Some(sum), Some(before), Some(after)) => Some(sum + (after - before)),
                _ => None,
            };
        }
    }
    spent
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick =
        args.iter().any(|a| a == "--quick") || std::env::var_os("DYNAMAP_BENCH_QUICK").is_some();
    let (rounds, pages, warm_up) = if quick { (3, 10, 10) } else { (9, 60, 200) };
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
            // Warm-up: connections and DynamoDB Local's JIT, which otherwise speeds up
            // through the whole run.
            let arms = [Arm::Raw, Arm::RawTyped, Arm::Dynamap];
            round(&db, shards, &arms, 0, warm_up).await;
            let mut rates: Vec<Vec<f64>> = vec![Vec::new(); arms.len()];
            // Per round, each arm's speed over the plain hand-written arm's, and dynamap's
            // over the hand-written arm that filters like it.
            let mut to_raw: Vec<Vec<f64>> = vec![Vec::new(); arms.len()];
            let mut to_typed = Vec::new();
            let mut ticks: Vec<Option<u64>> = vec![Some(0); arms.len()];
            for r in 0..rounds {
                let spent = round(&db, shards, &arms, r % arms.len(), pages).await;
                for (i, arm) in spent.iter().enumerate() {
                    rates[i].push(pages as f64 / arm.seconds);
                    to_raw[i].push(spent[0].seconds / arm.seconds);
                    ticks[i] = ticks[i].zip(arm.ticks).map(|(a, b)| a + b);
                }
                to_typed.push(spent[1].seconds / spent[2].seconds);
            }
            let to_typed = median(to_typed);
            for (i, arm) in arms.iter().enumerate() {
                let m = median(rates[i].clone());
                let ratio = median(to_raw[i].clone());
                let cpu_ms = ticks[i].map(|t| t as f64 * 10.0 / (rounds * pages) as f64);
                let cpu = cpu_ms.map_or("null".to_owned(), |ms| format!("{ms:.2}"));
                let typed = matches!(arm, Arm::Dynamap).then_some(to_typed);
                println!(
                    "N = {shards:>2}  {:<26} {m:>6.1} pages/s  {ratio:.3}x hand-written{}  client CPU {cpu} ms/page",
                    arm.name(),
                    typed.map_or(String::new(), |t| format!(", {t:.3}x with type filter")),
                );
                results.push(format!(
                    "    {{\"shards\": {shards}, \"arm\": \"{}\", \"median_pages_per_s\": {m:.1}, \"ratio_to_hand_written\": {ratio:.3}, \"ratio_to_hand_written_with_type_filter\": {}, \"client_cpu_ms_per_page\": {cpu}, \"rounds\": {rounds}, \"pages_per_round\": {pages}}}",
                    arm.name(),
                    typed.map_or("null".to_owned(), |t| format!("{t:.3}")),
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
