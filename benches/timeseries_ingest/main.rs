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

use dynamap_local::DynamoLocal;
use serde_json::json;

mod cells;
mod model;
mod run;
mod workload;

use cells::CELLS;
use run::{overflow_cost, run_cell};
use workload::{BACKFILL, CARS, CONCURRENCY, RATES, RECENT, SPREAD};

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
