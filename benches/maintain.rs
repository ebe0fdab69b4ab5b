//! Benchmark: a maintenance job (`db.maintain::<E>(..).rekey()`) against the best
//! hand-written raw-SDK migration, the job's capacity budget second by second, and its peak
//! memory on a small and a large table.
//!
//! ```text
//! cargo bench --bench maintain              # full run, writes docs/performance/maintain.json
//! cargo bench --bench maintain -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! cargo bench --bench maintain -- --second-round    # issue 42's measures, about 4 min
//! cargo bench --bench maintain -- --offline-only    # its offline comparison alone, ~1 min
//! cargo bench --bench maintain -- --counting-cost   # units counted without a budget, ~1 min
//! ```
//!
//! Every number comes from the same run on the same DynamoDB Local (started by
//! `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`):
//!
//! 1. Throughput: tickets whose status index was added after they were written (a tenth
//!    already carry it), among other items, re-keyed by the job and by hand. The hand-written
//!    code is what a careful team writes: the same parallel scan (8 segments, pages of 100,
//!    a filter on the type), keys rendered with `format!`, 8 conditional `UpdateItem`s in
//!    flight per segment (the job's own bound), conditioned on the version alone, a lost
//!    race re-read and redone; no checkpoints, no budget, no report. Rounds alternate, each
//!    on a freshly seeded table; medians are compared.
//! 2. Budget: the job at a write budget, every write's `ConsumedCapacity` recorded by an SDK
//!    interceptor as it arrives; the units of each whole second after the first are
//!    compared with the budget.
//! 3. Memory: the job run in a child process over a small and a large table (4x the
//!    items); the child's peak resident set (`VmHWM`) is compared.
//!
//! Results are printed, written to `target/bench/maintain.json`, and for a full run to
//! `docs/performance/maintain.json`. See `docs/performance/maintain.md`.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use aws_sdk_dynamodb::config::interceptors::AfterDeserializationInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::put_item::PutItemOutput;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsOutput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemOutput;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use dynamap::maintain::Budget;
use dynamap::{Db, Entity, Table};
use dynamap_local::DynamoLocal;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

#[path = "maintain_parts/cpu.rs"]
mod cpu;
#[path = "../tests/support/peak_rss.rs"]
mod peak_rss;
#[path = "maintain_parts/second_round.rs"]
mod second_round;
use peak_rss::peak_rss_kib;
use second_round::{counting_cost, hand_batch, offline_only, second_round};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct Desk;

/// A help desk ticket; its status index (`GSI1`) came after many tickets were written.
#[derive(Entity, Debug, Clone)]
#[dynamap(table = Desk, entity = "Ticket", pk = "TICKET#{id}", sk = "TICKET",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "TICKET#{id}"))]
struct Ticket {
    id: String,
    status: String,
    subject: String,
    assignee: String,
    touches: u64,
    #[dynamap(version)]
    version: u64,
}

const SEGMENTS: u32 = 8;
const PAGE: i32 = 100;
/// Writes in flight per segment: the job's own bound.
const IN_FLIGHT: usize = 8;
const STATUSES: [&str; 4] = ["open", "pending", "solved", "closed"];

/// A small deterministic generator, so every table holds the same items.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

/// The raw items of a table of `tickets` tickets and a tenth as many agents: subjects of
/// 10 to 400 characters, a tenth of the tickets already indexed, the rest not.
fn seed_items(tickets: u32) -> impl Iterator<Item = dynamap::codec::Item> {
    let mut rng = Rng(7);
    (0..tickets + tickets / 10).map(move |i| {
        let mut item = dynamap::codec::Item::new();
        if i >= tickets {
            item.insert("PK".into(), s(format!("AGENT#{i}")));
            item.insert("SK".into(), s("AGENT"));
            item.insert("_type".into(), s("Agent"));
            item.insert("name".into(), s(format!("agent {i}")));
            return item;
        }
        let id = format!("{i:07}");
        let status = STATUSES[(rng.next() % 4) as usize];
        let subject_len = 10 + (rng.next() % 391) as usize;
        item.insert("PK".into(), s(format!("TICKET#{id}")));
        item.insert("SK".into(), s("TICKET"));
        item.insert("_type".into(), s("Ticket"));
        item.insert("status".into(), s(status));
        item.insert("subject".into(), s("x".repeat(subject_len)));
        item.insert("assignee".into(), s(format!("agent {}", rng.next() % 50)));
        item.insert(
            "touches".into(),
            AttributeValue::N((rng.next() % 9).to_string()),
        );
        item.insert("version".into(), AttributeValue::N("1".into()));
        if rng.next().is_multiple_of(10) {
            item.insert("GSI1PK".into(), s(format!("STATUS#{status}")));
            item.insert("GSI1SK".into(), s(format!("TICKET#{id}")));
        }
        item.insert("id".into(), s(id));
        item
    })
}

/// Writes the seed items in batches of 25, 16 at a time.
async fn seed(db: &Db<Desk>, tickets: u32) {
    let batches: Vec<Vec<dynamap::codec::Item>> = {
        let items: Vec<_> = seed_items(tickets).collect();
        items.chunks(25).map(<[_]>::to_vec).collect()
    };
    stream::iter(batches)
        .for_each_concurrent(16, |batch| async move {
            let mut requests: Vec<WriteRequest> = batch
                .into_iter()
                .map(|item| {
                    let put = PutRequest::builder().set_item(Some(item)).build();
                    WriteRequest::builder()
                        .put_request(put.expect("put"))
                        .build()
                })
                .collect();
            while !requests.is_empty() {
                let out = db
                    .client()
                    .batch_write_item()
                    .request_items(db.table_name(), requests)
                    .send()
                    .await
                    .expect("seed batch");
                requests = out
                    .unprocessed_items
                    .and_then(|mut left| left.remove(db.table_name()))
                    .unwrap_or_default();
            }
        })
        .await;
}

/// Reads the whole table once (a count), so neither side meets a cold table.
async fn settle(db: &Db<Desk>) {
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .select(aws_sdk_dynamodb::types::Select::Count)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("count");
        match out.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return,
        }
    }
}

/// The job: re-keys every ticket; returns items scanned per second and how many it wrote.
async fn job(db: &Db<Desk>, name: &str) -> (f64, u64) {
    job_with(db, name, SEGMENTS, false).await
}

/// The job in `segments` segments, offline or conditioned.
async fn job_with(db: &Db<Desk>, name: &str, segments: u32, offline: bool) -> (f64, u64) {
    let started = Instant::now();
    let mut job = db.maintain::<Ticket>(name).rekey().segments(segments);
    if offline {
        job = job.offline_nothing_else_writes();
    }
    let report = job.send().await.expect("job");
    assert_eq!(report.failed_count, 0, "{:?}", report.failed);
    let seconds = started.elapsed().as_secs_f64();
    (report.scanned as f64 / seconds, report.rekeyed)
}

/// The hand-written migration: the same parallel scan, keys rendered by hand, conditional
/// updates on the version, redone from a fresh read after a lost race.
async fn by_hand(db: &Db<Desk>) -> (f64, u64) {
    by_hand_with(db, SEGMENTS, false).await
}

/// The hand-written migration in `segments` segments: conditional updates, or (`batch`)
/// unconditional `BatchWriteItem` puts of the re-keyed items.
async fn by_hand_with(db: &Db<Desk>, segments: u32, batch: bool) -> (f64, u64) {
    let started = Instant::now();
    let (scanned, written): (Vec<u64>, Vec<u64>) = futures_util::future::join_all(
        (0..segments).map(|segment| hand_segment(db, segment, segments, batch)),
    )
    .await
    .into_iter()
    .unzip();
    let seconds = started.elapsed().as_secs_f64();
    (
        scanned.iter().sum::<u64>() as f64 / seconds,
        written.iter().sum(),
    )
}

async fn hand_segment(db: &Db<Desk>, segment: u32, segments: u32, batch: bool) -> (u64, u64) {
    let (mut scanned, mut written) = (0, 0);
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .filter_expression("#t = :t")
            .expression_attribute_names("#t", "_type")
            .expression_attribute_values(":t", s("Ticket"))
            .limit(PAGE)
            .segment(segment as i32)
            .total_segments(segments as i32)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        let items = out.items.unwrap_or_default();
        scanned += items.len() as u64;
        if batch {
            written += hand_batch(db, items).await;
        } else {
            written += stream::iter(items)
                .map(|item| hand_item(db, item))
                .buffer_unordered(IN_FLIGHT)
                .fold(0, |n, wrote| async move { n + u64::from(wrote) })
                .await;
        }
        match out.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return (scanned, written),
        }
    }
}

/// One ticket: skipped when already keyed, else updated on its version.
async fn hand_item(db: &Db<Desk>, mut item: dynamap::codec::Item) -> bool {
    let text = |item: &dynamap::codec::Item, name: &str| {
        item.get(name)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    loop {
        let pk = format!("STATUS#{}", text(&item, "status"));
        let sk = format!("TICKET#{}", text(&item, "id"));
        if item.get("GSI1PK") == Some(&s(&pk)) && item.get("GSI1SK") == Some(&s(&sk)) {
            return false;
        }
        let version = item.get("version").cloned().expect("a version");
        let key = [
            ("PK".to_owned(), item["PK"].clone()),
            ("SK".to_owned(), item["SK"].clone()),
        ];
        let result = db
            .client()
            .update_item()
            .table_name(db.table_name())
            .set_key(Some(key.clone().into()))
            .update_expression("SET GSI1PK = :pk, GSI1SK = :sk, #v = #v + :one")
            .condition_expression("#v = :v")
            .expression_attribute_names("#v", "version")
            .expression_attribute_values(":pk", s(pk))
            .expression_attribute_values(":sk", s(sk))
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .expression_attribute_values(":v", version)
            .send()
            .await;
        match result {
            Ok(_) => return true,
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                let fresh = db
                    .client()
                    .get_item()
                    .table_name(db.table_name())
                    .set_key(Some(key.into()))
                    .consistent_read(true)
                    .send()
                    .await
                    .expect("re-read");
                match fresh.item {
                    Some(fresh) => item = fresh,
                    None => return false,
                }
            }
            Err(err) => panic!("update: {err:?}"),
        }
    }
}

/// Records the write units of every write response as it arrives.
#[derive(Debug, Clone, Default)]
struct Meter(Arc<Mutex<Vec<(Instant, f64)>>>);

impl Intercept for Meter {
    fn name(&self) -> &'static str {
        "WriteUnitMeter"
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Ok(output) = context.output_or_error() else {
            return Ok(());
        };
        let single = |c: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>| {
            c.and_then(aws_sdk_dynamodb::types::ConsumedCapacity::capacity_units)
        };
        let units = if let Some(out) = output.downcast_ref::<UpdateItemOutput>() {
            single(out.consumed_capacity())
        } else if let Some(out) = output.downcast_ref::<PutItemOutput>() {
            single(out.consumed_capacity())
        } else {
            output
                .downcast_ref::<TransactWriteItemsOutput>()
                .map(|out| {
                    out.consumed_capacity()
                        .iter()
                        .filter_map(|c| c.capacity_units())
                        .sum()
                })
        };
        if let Some(units) = units {
            self.0.lock().expect("meter").push((Instant::now(), units));
        }
        Ok(())
    }
}

struct BudgetRun {
    budget: f64,
    seconds: f64,
    /// Units in each whole second of the run, the first included.
    windows: Vec<f64>,
    units: f64,
}

/// The job at a write budget; the units of every write, by the second.
async fn budgeted(local: &DynamoLocal, tickets: u32, budget: f64) -> BudgetRun {
    let seeded = local.fresh_db::<Desk>("bench_budget").await.expect("table");
    seed(&seeded, tickets).await;
    let meter = Meter::default();
    let config = local
        .client()
        .config()
        .to_builder()
        .interceptor(meter.clone());
    let db = Db::new(
        aws_sdk_dynamodb::Client::from_conf(config.build()),
        seeded.table_name(),
    );
    let started = Instant::now();
    let report = db
        .maintain::<Ticket>("budget")
        .rekey()
        .segments(SEGMENTS)
        .budget(Budget::UNLIMITED.writes(budget))
        .send()
        .await
        .expect("job");
    let seconds = started.elapsed().as_secs_f64();
    let writes = meter.0.lock().expect("meter").clone();
    let whole = seconds.floor() as usize;
    let mut windows = vec![0.0; whole];
    for (at, units) in &writes {
        let second = at.duration_since(started).as_secs_f64().floor() as usize;
        if let Some(window) = windows.get_mut(second) {
            *window += units;
        }
    }
    let units: f64 = writes.iter().map(|(_, u)| u).sum();
    assert!(
        (units - report.write_units).abs() < 1e-6,
        "the meter saw what the report counts: {units} vs {}",
        report.write_units
    );
    BudgetRun {
        budget,
        seconds,
        windows,
        units,
    }
}

/// The memory child: runs the job over `table` and prints its peak resident set.
async fn memory_child(table: &str) {
    let local = DynamoLocal::shared().expect("DynamoDB Local");
    let db = Db::new(local.client(), table);
    let (_, written) = job(&db, "memory").await;
    println!("{written} {}", peak_rss_kib());
}

/// Seeds a table of `tickets` tickets and runs the job over it in a child process; returns
/// the child's peak resident set in KiB.
async fn job_memory(local: &DynamoLocal, tickets: u32) -> u64 {
    let db = local.fresh_db::<Desk>("bench_memory").await.expect("table");
    seed(&db, tickets).await;
    let mut child = std::process::Command::new(std::env::current_exe().expect("this benchmark"));
    child
        .args(["--memory-child", db.table_name()])
        .env("AWS_ENDPOINT_URL_DYNAMODB", local.endpoint());
    let out = tokio::task::spawn_blocking(move || child.output())
        .await
        .expect("joined")
        .expect("the memory child runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut fields = text.split_whitespace();
    let written: u64 = fields.next().and_then(|w| w.parse().ok()).expect("written");
    assert!(written >= u64::from(tickets) * 8 / 10, "{text}");
    fields.next().and_then(|k| k.parse().ok()).expect("peak")
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--memory-child") {
        return memory_child(&args[at + 1]).await;
    }
    let quick = std::env::var("DYNAMAP_BENCH_QUICK").is_ok_and(|v| v == "1")
        || args.iter().any(|a| a == "--quick");
    // An even number of rounds, so that each side goes first as often.
    let (n, rounds, budget_items, budget, small, large) = if quick {
        (2_000, 2, 600, 100.0, 5_000, 20_000)
    } else {
        (20_000, 4, 3_000, 100.0, 50_000, 200_000)
    };
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    if args.iter().any(|a| a == "--counting-cost") {
        return counting_cost(local, quick).await;
    }
    if args.iter().any(|a| a == "--offline-only") {
        return offline_only(local, quick).await;
    }
    if args.iter().any(|a| a == "--second-round") {
        return second_round(local, quick).await;
    }
    println!(
        "maintenance job benchmark ({}; {n} tickets x {rounds} rounds, {SEGMENTS} segments)",
        if quick { "quick" } else { "full" }
    );

    // Warm up both paths (connections, the JIT of DynamoDB Local).
    let warm = local.fresh_db::<Desk>("bench_warm").await.expect("table");
    seed(&warm, 1_000).await;
    job(&warm, "warm").await;
    by_hand(&warm).await;

    let (mut ours, mut raw, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let a = local.fresh_db::<Desk>("bench_job").await.expect("table");
        let b = local.fresh_db::<Desk>("bench_hand").await.expect("table");
        seed(&a, n).await;
        seed(&b, n).await;
        // Right after a bulk load DynamoDB Local is slower for a while, whichever table is
        // read first: both tables are read through once before either side starts.
        settle(&a).await;
        settle(&b).await;
        // Alternate which goes first, so neither always gets the warmer server.
        let ((job_rate, job_wrote), (hand_rate, hand_wrote)) = if round % 2 == 0 {
            let ours = job(&a, "bench").await;
            (ours, by_hand(&b).await)
        } else {
            let theirs = by_hand(&b).await;
            (job(&a, "bench").await, theirs)
        };
        assert_eq!(job_wrote, hand_wrote, "both re-key the same tickets");
        println!(
            "  round {round}: job {job_rate:.0} items/s, by hand {hand_rate:.0} items/s ({job_wrote} written)"
        );
        ours.push(job_rate);
        raw.push(hand_rate);
        ratios.push(job_rate / hand_rate);
    }
    // The median of the rounds' own ratios: each compares two runs made side by side.
    let (ours, raw, ratio) = (median(ours), median(raw), median(ratios.clone()));
    println!(
        "throughput: job {ours:.0} items/s, hand-written {raw:.0} items/s (medians), \
         median ratio of the rounds {ratio:.3}"
    );

    let mut run = budgeted(local, budget_items, budget).await;
    run.windows.remove(0);
    let worst = run.windows.iter().copied().fold(0.0, f64::max);
    let mean = run.windows.iter().sum::<f64>() / run.windows.len().max(1) as f64;
    println!(
        "budget {:.0} WCU/s: {:.1} s, {:.0} units, worst second after the first {worst:.1} units ({:.3}x), mean {:.1}/s",
        run.budget,
        run.seconds,
        run.units,
        worst / run.budget,
        mean
    );

    let small_kib = job_memory(local, small).await;
    let large_kib = job_memory(local, large).await;
    println!(
        "peak memory: {small} tickets {:.1} MiB, {large} tickets {:.1} MiB, ratio {:.3}",
        small_kib as f64 / 1024.0,
        large_kib as f64 / 1024.0,
        large_kib as f64 / small_kib as f64
    );

    let result = json!({
        "mode": if quick { "quick" } else { "full" },
        "machine": { "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0) },
        "segments": SEGMENTS,
        "writes_in_flight_per_segment": IN_FLIGHT,
        "throughput": { "tickets": n, "rounds": rounds, "job_items_per_second": ours,
                        "hand_written_items_per_second": raw, "round_ratios": ratios,
                        "ratio": ratio },
        "budget": { "tickets": budget_items, "write_units_per_second": run.budget,
                    "seconds": run.seconds, "units": run.units,
                    "units_per_second_after_the_first": run.windows,
                    "worst_second_ratio": worst / run.budget },
        "memory": { "small_tickets": small, "small_peak_kib": small_kib,
                    "large_tickets": large, "large_peak_kib": large_kib,
                    "ratio": large_kib as f64 / small_kib as f64 },
    });
    let text = serde_json::to_string_pretty(&result).expect("json");
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
    let dir = std::path::Path::new(&target).join("bench");
    std::fs::create_dir_all(&dir).expect("bench dir");
    std::fs::write(dir.join("maintain.json"), &text).expect("write results");
    if !quick {
        std::fs::write("docs/performance/maintain.json", &text).expect("write docs results");
    }
}
