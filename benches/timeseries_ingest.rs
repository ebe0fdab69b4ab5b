//! Benchmark: ingesting seed 002's car events into multi-event rows with each write path
//! (map-first, create-first, automatic), at 0%, 10%, 50% and 90% same-timestamp collisions,
//! against one item per event written with `PutItem` as the baseline.
//!
//! ```text
//! cargo bench --bench timeseries_ingest              # full run, writes docs/performance/timeseries.json
//! cargo bench --bench timeseries_ingest -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Every cell runs in the same process on the same DynamoDB Local (started by
//! `dynamap-local`, or `AWS_ENDPOINT_URL_DYNAMODB`), each into a fresh table:
//!
//! - The workload is `N` events over a few cars, in arrival order. A collision is an event
//!   whose (car, millisecond) already has an event; exactly `rate * N` events are
//!   collisions, at seeded random positions. Colliding events arrive together: an event
//!   that collides directly follows the one whose timestamp it shares (a device sending
//!   several readings of one millisecond in one upload), so with `CONCURRENCY` writes in
//!   flight the writers of one timestamp usually race each other.
//! - Timestamps are given when an event enters the pipeline: "live" events are stamped with
//!   the current time (so `WritePath::Auto` sees them as new), "backfill" events 30 days
//!   earlier (so `Auto` sees them as old). A new timestamp is one millisecond past the car's
//!   previous one when the clock has not moved on. Map-first and create-first do not look
//!   at the time, so they run on live events only.
//! - Each cell records events/s, the DynamoDB requests the writes reported
//!   (`WriteOutcome::requests`), and afterwards reads every car's rows back over the whole
//!   span with `EventRows::range` and checks that each generated event is stored exactly
//!   once. The baseline stores the same events as one item each (sort key `{at}#{seq}`)
//!   with `db.put`, at the same concurrency, and is read back with a query.
//!
//! Results are printed, written to `$CARGO_TARGET_DIR/bench/timeseries_ingest.json` (default
//! `target/bench/`), and for a full run to `docs/performance/timeseries.json`. See
//! `docs/performance/timeseries.md`. Nothing here asserts a time; the checks are about what
//! was stored.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::Select;
use dynamap::timeseries::rows::{WriteOutcome, WritePath, WriteStatus};
use dynamap::{Db, Entity, Table};
use dynamap_local::DynamoLocal;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde_json::{Value, json};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Iot;

/// One car's event at a millisecond (`at`, epoch ms), stored as multi-event rows.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{tenant}#{car}", sk = "{at}",
          event_rows(time = "at"))]
struct CarEvent {
    tenant: String,
    car: String,
    at: i64,
    speed: f64,
    seq: u32,
    door: Option<String>,
}

/// The same event as one item of its own: the baseline layout.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEventItem", pk = "CAR#{tenant}#{car}", sk = "{at}#{seq}")]
struct CarEventItem {
    tenant: String,
    car: String,
    at: i64,
    speed: f64,
    seq: u32,
    door: Option<String>,
}

impl From<&CarEvent> for CarEventItem {
    fn from(e: &CarEvent) -> Self {
        CarEventItem {
            tenant: e.tenant.clone(),
            car: e.car.clone(),
            at: e.at,
            speed: e.speed,
            seq: e.seq,
            door: e.door.clone(),
        }
    }
}

const TENANT: &str = "n111";
const CARS: u32 = 8;
const CONCURRENCY: usize = 32;
const RATES: [f64; 4] = [0.0, 0.1, 0.5, 0.9];
/// How far apart (in events) a spread group's collisions arrive: more than `CONCURRENCY`,
/// so the write that opened the group has finished.
const SPREAD: usize = 2 * CONCURRENCY;
/// How far back backfill events are.
const BACKFILL: Duration = Duration::from_secs(30 * 24 * 3600);
/// `WritePath::Auto`'s window, the seed's "within the last 5 seconds".
const RECENT: Duration = Duration::from_secs(5);

fn car_name(car: u32) -> String {
    format!("car{car:02}")
}

/// A small seeded generator (xorshift64*), so the workload is the same in every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("fits")
    }
}

/// One event of the workload, before it has a timestamp.
#[derive(Clone, Copy)]
struct Slot {
    car: u32,
    /// The event's timestamp group: events of one group share (car, millisecond). The
    /// first event of a group to arrive gives it a new timestamp; the others are collisions.
    group: usize,
}

/// `n` events of which exactly `round(rate * n)` are collisions, at seeded random
/// positions. Groups go to the cars in turn. With `spread`, the `k`th collision of a group
/// arrives about `k * SPREAD` events after the group's first event instead of right after
/// it, so it never races the write that opened the group.
fn plan(n: usize, rate: f64, spread: bool) -> Vec<Slot> {
    let mut flags = vec![false; n];
    let collisions = ((rate * n as f64).round() as usize).min(n.saturating_sub(1));
    for flag in flags.iter_mut().skip(1).take(collisions) {
        *flag = true;
    }
    // Shuffle positions 1.. (the first event always opens a group).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (rate * 1000.0) as u64);
    for i in (2..n).rev() {
        let j = 1 + rng.below(i);
        flags.swap(i, j);
    }
    let mut groups = 0;
    let (mut opened_at, mut rank) = (0, 0);
    let mut keyed: Vec<(usize, usize, Slot)> = Vec::with_capacity(n);
    for (position, collision) in flags.into_iter().enumerate() {
        if collision {
            rank += 1;
        } else {
            (opened_at, rank) = (position, 0);
            groups += 1;
        }
        let group = groups - 1;
        let slot = Slot {
            car: u32::try_from(group).expect("fits") % CARS,
            group,
        };
        let key = if spread {
            opened_at + rank * SPREAD
        } else {
            position
        };
        keyed.push((key, position, slot));
    }
    keyed.sort_unstable_by_key(|&(key, position, _)| (key, position));
    keyed.into_iter().map(|(_, _, slot)| slot).collect()
}

/// Stamps events as they enter the pipeline.
struct Clock {
    offset: Duration,
    last: Vec<i64>,
    groups: HashMap<usize, i64>,
    seq: u32,
}

impl Clock {
    fn new(offset: Duration) -> Self {
        Clock {
            offset,
            last: vec![i64::MIN; CARS as usize],
            groups: HashMap::new(),
            seq: 0,
        }
    }

    fn event(&mut self, slot: Slot) -> CarEvent {
        let car = slot.car as usize;
        let at = match self.groups.get(&slot.group) {
            Some(&at) => at,
            None => {
                let now = SystemTime::now()
                    .checked_sub(self.offset)
                    .expect("clock")
                    .duration_since(UNIX_EPOCH)
                    .expect("clock after 1970");
                let now = i64::try_from(now.as_millis()).expect("fits");
                let at = now.max(self.last[car].saturating_add(1));
                self.last[car] = at;
                self.groups.insert(slot.group, at);
                at
            }
        };
        let seq = self.seq;
        self.seq += 1;
        CarEvent {
            tenant: TENANT.to_owned(),
            car: car_name(slot.car),
            at,
            speed: f64::from(seq % 2000) / 10.0,
            seq,
            door: seq.is_multiple_of(7).then(|| "open".to_owned()),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// One item per event, `db.put`.
    Baseline,
    Rows(WritePath),
}

#[derive(Clone, Copy)]
struct Cell {
    name: &'static str,
    mode: Mode,
    /// Events stamped 30 days ago rather than now.
    backfill: bool,
    /// Collisions arrive after the group's first write finished (see [`plan`]).
    spread: bool,
}

const fn cell(name: &'static str, mode: Mode, backfill: bool, spread: bool) -> Cell {
    Cell {
        name,
        mode,
        backfill,
        spread,
    }
}

const AUTO: WritePath = WritePath::Auto { recent: RECENT };

const CELLS: [Cell; 9] = [
    cell("baseline (item per event)", Mode::Baseline, false, false),
    cell("map-first", Mode::Rows(WritePath::MapFirst), false, false),
    cell(
        "create-first",
        Mode::Rows(WritePath::CreateFirst),
        false,
        false,
    ),
    cell("auto, live", Mode::Rows(AUTO), false, false),
    cell("auto, backfill", Mode::Rows(AUTO), true, false),
    cell(
        "adaptive, backfill",
        Mode::Rows(WritePath::Adaptive),
        true,
        false,
    ),
    cell(
        "map-first, spread",
        Mode::Rows(WritePath::MapFirst),
        false,
        true,
    ),
    cell(
        "create-first, spread",
        Mode::Rows(WritePath::CreateFirst),
        false,
        true,
    ),
    cell(
        "adaptive, spread",
        Mode::Rows(WritePath::Adaptive),
        false,
        true,
    ),
];

/// What one cell measured.
struct Measured {
    events: usize,
    distinct_timestamps: usize,
    seconds: f64,
    requests: u64,
    /// Writes that took 1, 2, 3 and 4 or more requests.
    histogram: [u64; 4],
    started_with_create: usize,
    stored: usize,
    already_stored: usize,
    errors: usize,
    items_in_table: usize,
    read_back: usize,
}

impl Measured {
    fn events_per_second(&self) -> f64 {
        self.events as f64 / self.seconds
    }

    fn requests_per_event(&self) -> f64 {
        self.requests as f64 / self.events as f64
    }

    fn json(&self, cell: &Cell, rate: f64) -> Value {
        json!({
            "cell": cell.name,
            "backfill": cell.backfill,
            "collisions_spread": cell.spread,
            "collision_rate": rate,
            "events": self.events,
            "distinct_timestamps": self.distinct_timestamps,
            "seconds": self.seconds,
            "events_per_second": self.events_per_second(),
            "requests": self.requests,
            "requests_per_event": self.requests_per_event(),
            "requests_per_second": self.requests as f64 / self.seconds,
            "writes_by_requests": {
                "1": self.histogram[0], "2": self.histogram[1],
                "3": self.histogram[2], "4_or_more": self.histogram[3],
            },
            "started_with_create": self.started_with_create,
            "stored": self.stored,
            "already_stored": self.already_stored,
            "errors": self.errors,
            "items_in_table": self.items_in_table,
            "read_back": self.read_back,
        })
    }
}

async fn count_items(db: &Db<Iot>) -> usize {
    let mut total = 0;
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .select(Select::Count)
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("count scan");
        total += usize::try_from(out.count()).expect("count");
        match out.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return total,
        }
    }
}

/// Checks that every generated event was read back exactly once, with its timestamp and
/// fields; returns how many were read.
fn check_once(generated: &[CarEvent], read: impl IntoIterator<Item = CarEvent>) -> usize {
    let mut seen = vec![0u32; generated.len()];
    let mut count = 0;
    for event in read {
        let index = event.seq as usize;
        assert_eq!(
            generated.get(index),
            Some(&event),
            "read back an event that was not written as such"
        );
        seen[index] += 1;
        count += 1;
    }
    let missing = seen.iter().filter(|&&n| n == 0).count();
    let twice = seen.iter().filter(|&&n| n > 1).count();
    assert_eq!(
        (missing, twice),
        (0, 0),
        "every event is stored exactly once"
    );
    count
}

async fn run_cell(local: &DynamoLocal, cell: &Cell, n: usize, rate: f64) -> Measured {
    let slots = &plan(n, rate, cell.spread)[..];
    let db = local
        .fresh_db::<Iot>(&format!("bench_ts_{}", (rate * 100.0) as u32))
        .await
        .expect("table");
    let mut clock = Clock::new(if cell.backfill {
        BACKFILL
    } else {
        Duration::ZERO
    });
    let mut generated = Vec::with_capacity(slots.len());

    let started = Instant::now();
    let outcomes: Vec<Option<WriteOutcome>> = match cell.mode {
        Mode::Rows(path) => {
            let rows = db.event_rows::<CarEvent>().write_path(path);
            stream::iter(slots)
                .map(|&slot| {
                    let event = clock.event(slot);
                    let write = rows.write(&event);
                    generated.push(event);
                    write
                })
                .buffered(CONCURRENCY)
                .map(|r| Some(r.expect("event row write")))
                .collect()
                .await
        }
        Mode::Baseline => {
            stream::iter(slots)
                .map(|&slot| {
                    let event = clock.event(slot);
                    let item = CarEventItem::from(&event);
                    generated.push(event);
                    let db = db.clone();
                    async move { db.put(&item).await }
                })
                .buffered(CONCURRENCY)
                .map(|r| {
                    r.expect("put");
                    None
                })
                .collect()
                .await
        }
    };
    let seconds = started.elapsed().as_secs_f64();

    let mut m = Measured {
        events: slots.len(),
        distinct_timestamps: slots.iter().map(|s| s.group).max().map_or(0, |g| g + 1),
        seconds,
        requests: 0,
        histogram: [0; 4],
        started_with_create: 0,
        stored: 0,
        already_stored: 0,
        errors: 0,
        items_in_table: count_items(&db).await,
        read_back: 0,
    };
    for outcome in &outcomes {
        match outcome {
            None => {
                m.requests += 1;
                m.histogram[0] += 1;
                m.stored += 1;
            }
            Some(o) => {
                m.requests += u64::from(o.requests);
                m.histogram[(o.requests.clamp(1, 4) - 1) as usize] += 1;
                m.started_with_create += usize::from(o.started_with_create);
                match o.status {
                    WriteStatus::Stored => m.stored += 1,
                    WriteStatus::AlreadyStored => m.already_stored += 1,
                    _ => m.errors += 1,
                }
            }
        }
    }

    // Read everything back over each car's whole span.
    let mut read = Vec::with_capacity(slots.len());
    for car in 0..CARS {
        let name = car_name(car);
        match cell.mode {
            Mode::Rows(_) => {
                let rows = db.event_rows::<CarEvent>().consistent();
                let events: Vec<CarEvent> = rows
                    .range(
                        CarEvent::partition(TENANT, name.as_str()),
                        (0i64,),
                        (i64::MAX,),
                    )
                    .try_collect()
                    .await
                    .expect("range");
                read.extend(events);
            }
            Mode::Baseline => {
                let items = db
                    .query(CarEventItem::partition(TENANT, name.as_str()))
                    .consistent()
                    .all()
                    .await
                    .expect("query");
                read.extend(items.into_iter().map(|i| CarEvent {
                    tenant: i.tenant,
                    car: i.car,
                    at: i.at,
                    speed: i.speed,
                    seq: i.seq,
                    door: i.door,
                }));
            }
        }
    }
    m.read_back = check_once(&generated, read);
    m
}

/// Requests per write into a timestamp that already has `overflow` full overflow rows
/// (cap 2): the mean over `writes` new events, each past the full rows, and over as many
/// replays of events stored in overflow rows. Writes are sequential, so the counts are
/// exact, not shaped by races.
async fn overflow_cost(local: &DynamoLocal, overflow: u32, writes: u32) -> (f64, f64) {
    let db = local
        .fresh_db::<Iot>(&format!("bench_ts_overflow_{overflow}"))
        .await
        .expect("table");
    let rows = db.event_rows::<CarEvent>().cap(2).consistent();
    let event = |seq: u32| CarEvent {
        tenant: "t".into(),
        car: "overflow".into(),
        at: 1_700_000_000_000,
        speed: f64::from(seq),
        seq,
        door: None,
    };
    let filled = (overflow + 1) * 2;
    for seq in 0..filled {
        rows.write(&event(seq)).await.expect("fill");
    }
    let (mut new, mut replays) = (0u32, 0u32);
    for k in 0..writes {
        new += rows
            .write(&event(filled + k))
            .await
            .expect("write")
            .requests;
        replays += rows
            .write(&event(2 + k % (filled - 2).max(1)))
            .await
            .expect("replay")
            .requests;
    }
    (
        f64::from(new) / f64::from(writes),
        f64::from(replays) / f64::from(writes),
    )
}

#[tokio::main]
async fn main() {
    let quick = std::env::var("DYNAMAP_BENCH_QUICK").is_ok_and(|v| v == "1")
        || std::env::args().any(|a| a == "--quick");
    let n = if quick { 2_000 } else { 10_000 };
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    println!(
        "time-series ingest benchmark ({}; {n} events over {CARS} cars per cell, concurrency {CONCURRENCY})",
        if quick { "quick" } else { "full" }
    );

    // Warm up (connections, DynamoDB Local's JIT) with both layouts and both first requests.
    for cell in &CELLS[..3] {
        run_cell(local, cell, 2_000, 0.5).await;
    }

    let mut results = Vec::new();
    println!(
        "{:<26} {:>6} {:>9} {:>8} {:>8} {:>9} {:>22} {:>7}",
        "cell",
        "coll.",
        "events/s",
        "req/ev",
        "req/s",
        "created1",
        "writes by 1/2/3/4+ req",
        "items"
    );
    for (r, &rate) in RATES.iter().enumerate() {
        // Rotate the order per rate, so no cell always runs first on a fresh server state.
        for k in 0..CELLS.len() {
            let cell = &CELLS[(k + r) % CELLS.len()];
            if cell.spread && rate == 0.0 {
                // Without collisions the arrival order is the same.
                continue;
            }
            let m = run_cell(local, cell, n, rate).await;
            println!(
                "{:<26} {:>5.0}% {:>9.0} {:>8.3} {:>8.0} {:>9} {:>22} {:>7}",
                cell.name,
                rate * 100.0,
                m.events_per_second(),
                m.requests_per_event(),
                m.requests as f64 / m.seconds,
                m.started_with_create,
                format!(
                    "{}/{}/{}/{}",
                    m.histogram[0], m.histogram[1], m.histogram[2], m.histogram[3]
                ),
                m.items_in_table
            );
            results.push(m.json(cell, rate));
        }
    }

    // Write cost against the number of overflow rows of the timestamp.
    println!(
        "\n{:<16} {:>14} {:>14}",
        "overflow rows", "req/new event", "req/replay"
    );
    let mut overflow = Vec::new();
    for rows in [1u32, 10, 100] {
        let (new, replay) = overflow_cost(local, rows, 20).await;
        println!("{rows:<16} {new:>14.2} {replay:>14.2}");
        overflow.push(json!({ "overflow_rows": rows, "requests_per_new_event": new, "requests_per_replay": replay }));
    }

    let result = json!({
        "overflow": overflow,
        "mode": if quick { "quick" } else { "full" },
        "machine": { "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0) },
        "events_per_cell": n,
        "cars": CARS,
        "concurrency": CONCURRENCY,
        "auto_recent_seconds": RECENT.as_secs(),
        "backfill_age_days": BACKFILL.as_secs() / 86_400,
        "collisions_arrive": "together: a colliding event directly follows the event whose timestamp it shares; spread cells: the kth collision of a group arrives k * spread_events after its first event",
        "spread_events": SPREAD,
        "cells": results,
    });
    let text = serde_json::to_string_pretty(&result).expect("json");
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
    let dir = std::path::Path::new(&target).join("bench");
    std::fs::create_dir_all(&dir).expect("bench dir");
    std::fs::write(dir.join("timeseries_ingest.json"), &text).expect("write results");
    if !quick {
        std::fs::write("docs/performance/timeseries.json", &text).expect("write docs results");
    }
}
