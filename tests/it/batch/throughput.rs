//! Throughput measurement, run by hand.

use std::time::{Duration, Instant};

use dynamap::local::Faults;
use dynamap::{Db, Entity};

use super::{fan_out, faulty_db};
use crate::fresh_db;
use crate::models::App;

/// Throughput by concurrency, with and without faults, against the bare SDK. Prints a
/// table; asserts only completeness. Run by hand, in release mode:
/// `cargo test --release --all-features --test it batch_throughput -- --ignored --nocapture`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: slow, and its numbers depend on the machine"]
async fn batch_throughput_by_concurrency() {
    let items: u64 = std::env::var("BATCH_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let rate = |elapsed: Duration| items as f64 / elapsed.as_secs_f64();
    let levels: Vec<usize> = match std::env::var("BATCH_CONCURRENCY") {
        Ok(list) => list
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect(),
        Err(_) => vec![1, 2, 4, 8, 16, 32],
    };
    for concurrency in levels {
        for (label, faults) in [
            ("engine", Faults::seeded(1)),
            (
                "engine, faults",
                Faults::seeded(1).throttle(0.05).unprocessed(0.05),
            ),
        ] {
            let db = if label == "engine" {
                fresh_db::<App>("batch_throughput").await
            } else {
                faulty_db("batch_throughput", &faults).await
            };
            let started = Instant::now();
            let report = db
                .put_all(fan_out(0..items))
                .concurrency(concurrency)
                .await
                .expect("batch runs");
            let elapsed = started.elapsed();
            assert!(report.is_complete(), "{report}");
            eprintln!(
                "concurrency {concurrency:>2}, {label:<14}: {:>6.0} items/s",
                rate(elapsed)
            );
            drop_table(&db).await;
        }
        let db = fresh_db::<App>("batch_throughput_raw").await;
        let started = Instant::now();
        raw_sdk_fan_out(&db, items, concurrency).await;
        eprintln!(
            "concurrency {concurrency:>2}, {:<14}: {:>6.0} items/s",
            "raw SDK",
            rate(started.elapsed())
        );
        drop_table(&db).await;
    }
}

async fn drop_table(db: &Db) {
    let request = db.client().delete_table().table_name(db.table_name());
    request.send().await.expect("drop");
}

/// The same fan-out through the bare SDK, items converted up front and no retries: the
/// baseline the engine's overhead is measured against.
async fn raw_sdk_fan_out(db: &Db, items: u64, concurrency: usize) {
    use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
    use futures_util::StreamExt;
    let requests: Vec<WriteRequest> = fan_out(0..items)
        .map(|e| {
            let put = PutRequest::builder().set_item(Some(e.to_item().expect("item")));
            WriteRequest::builder()
                .put_request(put.build().expect("put"))
                .build()
        })
        .collect();
    let calls = requests.chunks(25).map(|chunk| {
        db.client()
            .batch_write_item()
            .request_items(db.table_name(), chunk.to_vec())
            .send()
    });
    let outputs: Vec<_> = futures_util::stream::iter(calls)
        .buffer_unordered(concurrency)
        .collect()
        .await;
    for output in outputs {
        let unprocessed = output.expect("call").unprocessed_items.unwrap_or_default();
        assert!(unprocessed.values().all(Vec::is_empty));
    }
}
