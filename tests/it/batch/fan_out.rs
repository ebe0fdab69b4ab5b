//! The acceptance test: a 20,000-item fan-out under faults loses nothing.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use dynamap::Error;
use dynamap::batch::WriteAction;
use dynamap::retry::RetryPolicy;
use dynamap_local::Faults;

use super::{assert_exactly_once, fan_out, faulty_db, keys_of};

/// The acceptance test: with at least 5% of calls throttled or answering with unprocessed
/// items, a fan-out of 20,000 items ends with every item stored exactly once or returned
/// as failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_fan_out_under_faults_stores_every_item_once_or_reports_it() {
    const ITEMS: u64 = 20_000;
    let faults = Faults::seeded(2024)
        .throttle(0.05)
        .server_error(0.01)
        .unprocessed(0.06);
    let db = faulty_db("batch_fanout", &faults).await;
    let started = Instant::now();
    let report = db.put_all(fan_out(0..ITEMS)).await.expect("batch runs");
    let elapsed = started.elapsed();
    let counts = faults.counts();
    eprintln!(
        "fan-out: {ITEMS} items in {elapsed:?} ({:.0} items/s), {report}, {counts:?}",
        ITEMS as f64 / elapsed.as_secs_f64()
    );
    let faulty = counts.throttled + counts.unprocessed_calls;
    assert!(
        faulty * 20 >= counts.calls,
        "at least 5% of calls faulty: {counts:?}"
    );
    assert!(counts.throttled > 0 && counts.unprocessed_items > 0 && counts.server_errors > 0);
    assert_exactly_once(
        &db,
        keys_of(fan_out(0..ITEMS)),
        report.written,
        &report.failed,
    )
    .await;
}

/// Faults so heavy that retries run out: the items given up are reported one by one, and
/// are exactly the ones not stored.
#[tokio::test]
async fn batch_items_given_up_are_reported_and_not_stored() {
    let faults = Faults::seeded(5).throttle(0.5).unprocessed(0.4);
    let db = faulty_db("batch_give_up", &faults).await;
    let policy = RetryPolicy::default()
        .base(Duration::from_millis(1))
        .max_attempts(2);
    let report = db
        .batch_write()
        .put_all(fan_out(0..1_000))
        .retry(policy)
        .await
        .expect("batch runs");
    assert!(!report.is_complete() && report.written > 0, "{report}");
    for failed in &report.failed {
        assert_eq!(
            (failed.entity, failed.action),
            ("Timeline", WriteAction::Put)
        );
        assert!(
            failed.error.is_throttled()
                || matches!(*failed.error, Error::Unprocessed { attempts: 2.., .. }),
            "{failed}"
        );
    }
    let indexes: HashSet<_> = report.failed.iter().map(|f| f.index).collect();
    assert_eq!(
        indexes.len(),
        report.failed.len(),
        "each input reported once"
    );
    assert_exactly_once(
        &db,
        keys_of(fan_out(0..1_000)),
        report.written,
        &report.failed,
    )
    .await;
}
