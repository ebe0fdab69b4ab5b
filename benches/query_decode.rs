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
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use dynamap::{Db, Entity, Table};
use dynamap_local::DynamoLocal;
use futures_util::StreamExt;
use time::OffsetDateTime;
use time::format_description::FormatItem;
use time::macros::{datetime, format_description};

/// A DynamoDB item, as the SDK returns it.
type Item = HashMap<String, AttributeValue>;

// ---------------------------------------------------------------------------------------
// Counting allocator
// ---------------------------------------------------------------------------------------

/// A global allocator that forwards to the system allocator and keeps the bytes currently
/// allocated and their peak since the last reset.
#[allow(unsafe_code)] // a `GlobalAlloc` impl is unsafe by definition; it only forwards.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    static CURRENT: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    /// The allocator; install with `#[global_allocator]`.
    pub(crate) struct Counting;

    fn grew(bytes: usize) {
        let now = CURRENT.fetch_add(bytes, Relaxed) + bytes;
        PEAK.fetch_max(now, Relaxed);
    }

    fn shrank(bytes: usize) {
        CURRENT.fetch_sub(bytes, Relaxed);
    }

    // SAFETY: every method forwards to `System` with the caller's arguments unchanged, so
    // `System`'s guarantees carry over; the counters are only bookkeeping.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: forwarded as received; the caller upholds `alloc`'s contract.
            let ptr = unsafe { System.alloc(layout) };
            if !ptr.is_null() {
                grew(layout.size());
            }
            ptr
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as for `alloc`.
            let ptr = unsafe { System.alloc_zeroed(layout) };
            if !ptr.is_null() {
                grew(layout.size());
            }
            ptr
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator, i.e. from `System`, with `layout`.
            unsafe { System.dealloc(ptr, layout) };
            shrank(layout.size());
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: `ptr` came from `System` with `layout`; the caller upholds the rest.
            let new = unsafe { System.realloc(ptr, layout, new_size) };
            if !new.is_null() {
                if new_size >= layout.size() {
                    grew(new_size - layout.size());
                } else {
                    shrank(layout.size() - new_size);
                }
            }
            new
        }
    }

    /// Bytes allocated now.
    pub(crate) fn current() -> usize {
        CURRENT.load(Relaxed)
    }

    /// The most bytes allocated at once since the last [`reset_peak`].
    pub(crate) fn peak() -> usize {
        PEAK.load(Relaxed)
    }

    /// Starts a new peak at the current level and returns that level.
    pub(crate) fn reset_peak() -> usize {
        let now = current();
        PEAK.store(now, Relaxed);
        now
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

// ---------------------------------------------------------------------------------------
// The entity
// ---------------------------------------------------------------------------------------

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct BenchTable;

/// A sensor reading, as an application would store it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = BenchTable, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
struct Reading {
    sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    value: f64,
    unit: String,
    counter: i64,
    note: Option<String>,
    valid: bool,
}

/// The `i`th reading of a sensor: distinct timestamps, a note on every fourth.
fn reading(sensor_id: &str, i: usize) -> Reading {
    let i64_i = i64::try_from(i).expect("index fits in i64");
    Reading {
        sensor_id: sensor_id.to_owned(),
        at: datetime!(2024-01-01 00:00 UTC)
            + time::Duration::seconds(i64_i)
            + time::Duration::microseconds(i64_i % 1000),
        value: 20.0 + (i % 1000) as f64 * 0.013,
        unit: "celsius".to_owned(),
        counter: i64_i,
        note: i
            .is_multiple_of(4)
            .then(|| format!("calibrated by technician {}", i % 17)),
        valid: !i.is_multiple_of(10),
    }
}

// ---------------------------------------------------------------------------------------
// The baseline: the raw SDK and a hand-written decoder
// ---------------------------------------------------------------------------------------

/// The timestamp form dynamap stores (`dynamap::codec::timestamp`); a user decoding by hand
/// would parse the same text.
const TIMESTAMP: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:9]Z");

/// Why the hand-written decoder rejected an item (attribute name, problem).
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` when a decode fails
struct RawDecodeError(&'static str, &'static str);

fn take_s(item: &mut Item, name: &'static str) -> Result<String, RawDecodeError> {
    match item.remove(name) {
        Some(AttributeValue::S(s)) => Ok(s),
        Some(_) => Err(RawDecodeError(name, "not a string")),
        None => Err(RawDecodeError(name, "missing")),
    }
}

fn get_n<T: std::str::FromStr>(item: &Item, name: &'static str) -> Result<T, RawDecodeError> {
    item.get(name)
        .ok_or(RawDecodeError(name, "missing"))?
        .as_n()
        .map_err(|_| RawDecodeError(name, "not a number"))?
        .parse()
        .map_err(|_| RawDecodeError(name, "number out of range"))
}

/// What a careful user writes without a mapper: checks the entity type, moves strings out
/// of the map instead of cloning them, parses numbers and the timestamp.
fn decode_by_hand(mut item: Item) -> Result<Reading, RawDecodeError> {
    match item.get("_type") {
        Some(AttributeValue::S(t)) if t == "Reading" => {}
        _ => return Err(RawDecodeError("_type", "not a Reading")),
    }
    let at = item
        .get("at")
        .ok_or(RawDecodeError("at", "missing"))?
        .as_s()
        .map_err(|_| RawDecodeError("at", "not a string"))?;
    let at = time::PrimitiveDateTime::parse(at, TIMESTAMP)
        .map_err(|_| RawDecodeError("at", "not a timestamp"))?
        .assume_utc();
    let valid = *item
        .get("valid")
        .ok_or(RawDecodeError("valid", "missing"))?
        .as_bool()
        .map_err(|_| RawDecodeError("valid", "not a boolean"))?;
    Ok(Reading {
        at,
        value: get_n(&item, "value")?,
        counter: get_n(&item, "counter")?,
        valid,
        sensor_id: take_s(&mut item, "sensor_id")?,
        unit: take_s(&mut item, "unit")?,
        note: match item.remove("note") {
            None | Some(AttributeValue::Null(_)) => None,
            Some(AttributeValue::S(s)) => Some(s),
            Some(_) => return Err(RawDecodeError("note", "not a string")),
        },
    })
}

/// The request dynamap sends for `db.query(Reading::partition(id))`, written with the SDK:
/// the partition, the sort key prefix `READ#` and a filter on the entity type, read through
/// the SDK's paginator. Hands each page's items to `on_page`.
async fn raw_query(client: &Client, table: &str, pk: &str, mut on_page: impl FnMut(Vec<Item>)) {
    let mut pages = client
        .query()
        .table_name(table)
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
        .filter_expression("#type = :type")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_names("#sk", "SK")
        .expression_attribute_names("#type", "_type")
        .expression_attribute_values(":pk", AttributeValue::S(pk.to_owned()))
        .expression_attribute_values(":sk", AttributeValue::S("READ#".to_owned()))
        .expression_attribute_values(":type", AttributeValue::S("Reading".to_owned()))
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.expect("raw SDK query failed");
        on_page(page.items.unwrap_or_default());
    }
}

// ---------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------

/// Concurrent `BatchWriteItem` callers while seeding.
const WRITERS: usize = 6;
/// DynamoDB's limit of items per `BatchWriteItem`.
const BATCH: usize = 25;

/// Writes readings `0..count` of `sensor_id`, in dynamap's format (`to_item`), with the raw
/// SDK's `BatchWriteItem`: 25 items a call, a few calls at once, unprocessed items retried.
async fn seed(db: &Db<BenchTable>, sensor_id: &str, count: usize) -> Duration {
    let start = Instant::now();
    let batches = count.div_ceil(BATCH);
    let mut writers = tokio::task::JoinSet::new();
    for writer in 0..WRITERS {
        let client = db.client().clone();
        let table = db.table_name().to_owned();
        let sensor_id = sensor_id.to_owned();
        writers.spawn(async move {
            for batch in (writer..batches).step_by(WRITERS) {
                let requests = (batch * BATCH..((batch + 1) * BATCH).min(count))
                    .map(|i| {
                        let item = reading(&sensor_id, i).to_item().expect("to_item failed");
                        let put = PutRequest::builder()
                            .set_item(Some(item))
                            .build()
                            .expect("a put request with an item");
                        WriteRequest::builder().put_request(put).build()
                    })
                    .collect();
                write_batch(&client, &table, requests).await;
            }
        });
    }
    while let Some(done) = writers.join_next().await {
        done.expect("a seeding task panicked");
    }
    start.elapsed()
}

async fn write_batch(client: &Client, table: &str, mut requests: Vec<WriteRequest>) {
    for attempt in 0u32.. {
        let output = client
            .batch_write_item()
            .request_items(table, requests)
            .send()
            .await
            .expect("BatchWriteItem failed");
        requests = output
            .unprocessed_items
            .and_then(|mut unprocessed| unprocessed.remove(table))
            .unwrap_or_default();
        if requests.is_empty() {
            return;
        }
        assert!(
            attempt < 20,
            "BatchWriteItem kept leaving items unprocessed"
        );
        tokio::time::sleep(Duration::from_millis(10 << attempt.min(6))).await;
    }
}

// ---------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------

/// Which side of a comparison.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Dynamap,
    Raw,
}

/// The order of the two sides in round `round`: alternating, so neither always goes first.
fn order(round: usize) -> [Side; 2] {
    if round.is_multiple_of(2) {
        [Side::Dynamap, Side::Raw]
    } else {
        [Side::Raw, Side::Dynamap]
    }
}

/// Timings of a comparison, one per measured round and side.
#[derive(Default)]
struct Rounds {
    dynamap: Vec<Duration>,
    raw: Vec<Duration>,
}

impl Rounds {
    fn push(&mut self, side: Side, elapsed: Duration) {
        match side {
            Side::Dynamap => self.dynamap.push(elapsed),
            Side::Raw => self.raw.push(elapsed),
        }
    }
}

fn median(durations: &[Duration]) -> Duration {
    let mut sorted = durations.to_vec();
    sorted.sort();
    let n = sorted.len();
    if n == 0 {
        Duration::ZERO
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

fn items_per_s(items: usize, elapsed: Duration) -> f64 {
    items as f64 / elapsed.as_secs_f64()
}

async fn read_with_dynamap(db: &Db<BenchTable>, sensor_id: &str) -> Vec<Reading> {
    db.query(Reading::partition(sensor_id))
        .all()
        .await
        .expect("dynamap query failed")
}

async fn read_with_sdk(db: &Db<BenchTable>, pk: &str) -> Vec<Reading> {
    let mut readings = Vec::new();
    raw_query(db.client(), db.table_name(), pk, |items| {
        readings.extend(
            items
                .into_iter()
                .map(|item| decode_by_hand(item).expect("hand-written decoding failed")),
        );
    })
    .await;
    readings
}

/// Reads a whole partition of `count` items `warmup + rounds` times with each side,
/// alternating which goes first.
async fn alternate<F, Fut>(count: usize, warmup: usize, rounds: usize, read: F) -> Rounds
where
    F: Fn(Side) -> Fut,
    Fut: std::future::Future<Output = Vec<Reading>>,
{
    let mut timings = Rounds::default();
    for round in 0..warmup + rounds {
        for side in order(round) {
            let start = Instant::now();
            let readings = read(side).await;
            let elapsed = start.elapsed();
            assert_eq!(readings.len(), count, "a query missed items");
            black_box(&readings);
            if round >= warmup {
                timings.push(side, elapsed);
            }
        }
    }
    timings
}

/// dynamap's query against the raw SDK's, alternating.
async fn query_throughput(
    db: &Db<BenchTable>,
    sensor_id: &str,
    pk: &str,
    count: usize,
    warmup: usize,
    rounds: usize,
) -> Rounds {
    alternate(count, warmup, rounds, |side| async move {
        match side {
            Side::Dynamap => read_with_dynamap(db, sensor_id).await,
            Side::Raw => read_with_sdk(db, pk).await,
        }
    })
    .await
}

/// The same query through a handle that records metrics ([`Db::with_metrics`], which also
/// asks DynamoDB for consumed capacity) with no recorder installed, as the `Dynamap` side,
/// against the plain handle as the `Raw` side: what metrics cost an application that
/// turned them on but collects nothing.
async fn metrics_overhead(
    db: &Db<BenchTable>,
    sensor_id: &str,
    count: usize,
    warmup: usize,
    rounds: usize,
) -> Rounds {
    let metered = &db.clone().with_metrics();
    alternate(count, warmup, rounds, |side| async move {
        let handle = match side {
            Side::Dynamap => metered,
            Side::Raw => db,
        };
        read_with_dynamap(handle, sensor_id).await
    })
    .await
}

/// Decodes `items` (cloned before each round, outside the timing) `warmup + rounds` times
/// with each decoder, alternating.
fn decode_throughput(items: &[Item], warmup: usize, rounds: usize) -> Rounds {
    let mut timings = Rounds::default();
    for round in 0..warmup + rounds {
        for side in order(round) {
            let input = items.to_vec();
            let start = Instant::now();
            let readings: Vec<Reading> = match side {
                Side::Dynamap => input
                    .into_iter()
                    .map(|item| Reading::from_item(item).expect("from_item failed"))
                    .collect(),
                Side::Raw => input
                    .into_iter()
                    .map(|item| decode_by_hand(item).expect("hand-written decoding failed"))
                    .collect(),
            };
            let elapsed = start.elapsed();
            black_box(&readings);
            if round >= warmup {
                timings.push(side, elapsed);
            }
        }
    }
    timings
}

/// Items read and the heap's peak above where it started, while reading a partition.
struct Footprint {
    items: usize,
    peak_bytes: usize,
    /// What was still allocated when the reading ended: the results `.all()` returns.
    retained_bytes: usize,
    elapsed: Duration,
}

/// Consumes `db.query(..).stream()` item by item, keeping nothing but a count and a sum.
async fn stream_footprint(db: &Db<BenchTable>, sensor_id: &str) -> Footprint {
    let start = Instant::now();
    let base = counting::reset_peak();
    let mut items = 0usize;
    let mut sum = 0.0f64;
    {
        let stream = db.query(Reading::partition(sensor_id)).stream();
        let mut stream = std::pin::pin!(stream);
        while let Some(reading) = stream.next().await {
            let reading = reading.expect("dynamap stream failed");
            items += 1;
            sum += reading.value;
        }
    }
    black_box(sum);
    Footprint {
        items,
        peak_bytes: counting::peak().saturating_sub(base),
        retained_bytes: counting::current().saturating_sub(base),
        elapsed: start.elapsed(),
    }
}

/// Reads the partition into memory with `.all()`, the contrast to [`stream_footprint`].
async fn all_footprint(db: &Db<BenchTable>, sensor_id: &str) -> Footprint {
    let start = Instant::now();
    let base = counting::reset_peak();
    let readings = read_with_dynamap(db, sensor_id).await;
    let retained_bytes = counting::current().saturating_sub(base);
    let items = readings.len();
    black_box(&readings);
    drop(readings);
    Footprint {
        items,
        peak_bytes: counting::peak().saturating_sub(base),
        retained_bytes,
        elapsed: start.elapsed(),
    }
}

// ---------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------

/// Just enough JSON to write the results without another dependency.
enum Json {
    Num(f64),
    Int(u64),
    Str(String),
    Bool(bool),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    fn int(n: usize) -> Json {
        Json::Int(u64::try_from(n).unwrap_or(u64::MAX))
    }

    /// Milliseconds, rounded to microseconds.
    fn ms(d: Duration) -> Json {
        Json::Num((d.as_secs_f64() * 1e6).round() / 1e3)
    }

    fn render(&self, indent: usize, out: &mut String) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::Num(n) if n.is_finite() => out.push_str(&format!("{n}")),
            Json::Num(_) => out.push_str("null"),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::Arr(items)
                if items
                    .iter()
                    .all(|i| !matches!(i, Json::Arr(_) | Json::Obj(_))) =>
            {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    item.render(indent, out);
                }
                out.push(']');
            }
            Json::Arr(items) => {
                out.push_str("[\n");
                for (n, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.render(indent + 1, out);
                    out.push_str(if n + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push_str("{\n");
                for (n, (key, value)) in fields.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    Json::str(*key).render(indent + 1, out);
                    out.push_str(": ");
                    value.render(indent + 1, out);
                    out.push_str(if n + 1 < fields.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
}

/// Rounds to three significant decimals for reading.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Items per second of the median and of the fastest round, for each side.
struct Summary {
    dynamap: f64,
    raw: f64,
    dynamap_best: f64,
    raw_best: f64,
}

impl Summary {
    fn ratio(&self) -> f64 {
        self.dynamap / self.raw
    }

    fn best_ratio(&self) -> f64 {
        self.dynamap_best / self.raw_best
    }
}

fn comparison_json(items: usize, warmup: usize, rounds: &Rounds) -> (Json, Summary) {
    let fastest = |d: &[Duration]| d.iter().copied().min().unwrap_or_default();
    let summary = Summary {
        dynamap: items_per_s(items, median(&rounds.dynamap)),
        raw: items_per_s(items, median(&rounds.raw)),
        dynamap_best: items_per_s(items, fastest(&rounds.dynamap)),
        raw_best: items_per_s(items, fastest(&rounds.raw)),
    };
    let json = Json::Obj(vec![
        ("items_per_round", Json::int(items)),
        ("warmup_rounds", Json::int(warmup)),
        ("rounds", Json::int(rounds.dynamap.len())),
        ("dynamap_items_per_s", Json::Num(summary.dynamap.round())),
        ("raw_items_per_s", Json::Num(summary.raw.round())),
        ("ratio_dynamap_over_raw", Json::Num(round3(summary.ratio()))),
        (
            "dynamap_best_items_per_s",
            Json::Num(summary.dynamap_best.round()),
        ),
        ("raw_best_items_per_s", Json::Num(summary.raw_best.round())),
        (
            "best_ratio_dynamap_over_raw",
            Json::Num(round3(summary.best_ratio())),
        ),
        (
            "dynamap_round_ms",
            Json::Arr(rounds.dynamap.iter().copied().map(Json::ms).collect()),
        ),
        (
            "raw_round_ms",
            Json::Arr(rounds.raw.iter().copied().map(Json::ms).collect()),
        ),
    ]);
    (json, summary)
}

fn footprint_json(f: &Footprint) -> Json {
    Json::Obj(vec![
        ("items", Json::int(f.items)),
        ("peak_heap_bytes", Json::int(f.peak_bytes)),
        ("retained_heap_bytes", Json::int(f.retained_bytes)),
        ("elapsed_ms", Json::ms(f.elapsed)),
    ])
}

/// The output of a command, trimmed, if it ran and succeeded.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = std::process::Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn machine_json(quick: bool) -> Json {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let nproc = std::thread::available_parallelism().map_or(0, usize::from);
    let date = OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let commit = command_output("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = command_output("git", &["status", "--porcelain"]).map(|s| !s.is_empty());
    let mut fields = vec![
        ("mode", Json::str(if quick { "quick" } else { "full" })),
        ("date_utc", Json::str(date)),
        ("nproc", Json::int(nproc)),
        ("cpu", Json::str(cpu)),
        ("os", Json::str(std::env::consts::OS)),
        (
            "profile",
            Json::str(if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }),
        ),
    ];
    if let Some(rustc) = command_output("rustc", &["--version"]) {
        fields.push(("rustc", Json::str(rustc)));
    }
    if let Some(commit) = commit {
        fields.push(("git_commit", Json::str(commit)));
    }
    if let Some(dirty) = dirty {
        fields.push(("git_worktree_dirty", Json::Bool(dirty)));
    }
    Json::Obj(fields)
}

fn write_results(path: &PathBuf, json: &Json) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("creating the results directory");
    }
    let mut text = String::new();
    json.render(0, &mut text);
    text.push('\n');
    std::fs::write(path, text).expect("writing the results");
    println!("wrote {}", path.display());
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

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
