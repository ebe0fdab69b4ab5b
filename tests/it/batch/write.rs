//! Batch writes: chunking, mixed entities, duplicates, invalid items, progress, errors.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dynamap::batch::{Progress, WriteAction};
use dynamap::{Db, Error};
use dynamap_local::{DynamoLocal, Faults};

use super::{event_time, fan_out, faulty_db, stored_count};
use crate::fresh_db;
use crate::models::{App, Reading, Score, Sensor, TimelineEntry, sensor};

#[tokio::test]
async fn batch_chunks_26_and_101_items_into_calls_of_25() {
    for (items, calls) in [(26u64, 2), (101, 5)] {
        let counter = Faults::seeded(0).only(["BatchWriteItem"]);
        let db = faulty_db("batch_chunks", &counter).await;
        let report = db.put_all(fan_out(0..items)).await.expect("batch runs");
        assert_eq!(
            (report.written, report.is_complete()),
            (items as usize, true)
        );
        assert_eq!(counter.counts().calls, calls, "{items} items");
        assert_eq!(stored_count(&db).await, items as usize);
    }
}

#[tokio::test]
async fn batch_mixes_entity_types_puts_and_deletes() {
    let db = fresh_db::<App>("batch_mixed").await;
    db.put(&sensor("OLD")).await.expect("put");
    let at = event_time();
    let readings = (0..30).map(move |i| Reading {
        sensor_id: "S1".to_owned(),
        at: at + Duration::from_secs(i),
        value: i as f64 / 2.0,
    });
    let score = Score {
        game: "g".to_owned(),
        score: -3,
        user: "ann".to_owned(),
    };
    let report = db
        .batch_write()
        .put(&sensor("S1"))
        .put_all(readings)
        .put(&score)
        .delete(Sensor::key("OLD"))
        .delete(Sensor::key("NEVER-THERE"))
        .await
        .expect("batch runs");
    assert!(report.is_complete(), "{report}");
    assert_eq!(report.written, 34);
    assert_eq!(
        db.get(Sensor::key("S1")).await.expect("get"),
        Some(sensor("S1"))
    );
    assert_eq!(
        db.get(Score::key("g", -3i64, "ann")).await.expect("get"),
        Some(score)
    );
    assert_eq!(db.get(Sensor::key("OLD")).await.expect("get"), None);
    let last = db
        .get(Reading::key("S1", at + Duration::from_secs(29)))
        .await
        .expect("get");
    assert_eq!(last.map(|r| r.value), Some(14.5));
    assert_eq!(stored_count(&db).await, 32);
}

#[tokio::test]
async fn batch_keeps_the_first_of_duplicate_keys_and_reports_the_rest() {
    let db = fresh_db::<App>("batch_duplicates").await;
    let mut second = sensor("S1");
    second.note = Some("second".to_owned());
    let report = db
        .batch_write()
        .put(&sensor("S1"))
        .put(&sensor("S2"))
        .put(&second)
        .delete(Sensor::key("S2"))
        .await
        .expect("batch runs");
    assert_eq!(report.written, 2);
    let mut failed: Vec<_> = report.failed.iter().map(|f| (f.index, f.action)).collect();
    failed.sort_by_key(|f| f.0);
    assert_eq!(failed, [(2, WriteAction::Put), (3, WriteAction::Delete)]);
    let Error::DuplicateKey { entity, pk, sk, .. } = &*report.failed[0].error else {
        panic!("not a duplicate-key error: {}", report.failed[0].error);
    };
    assert_eq!(
        (*entity, pk.as_str(), sk.as_deref()),
        ("Sensor", "SENSOR#S1", Some("SENSORINFO"))
    );
    assert_eq!(
        db.get(Sensor::key("S1")).await.expect("get"),
        Some(sensor("S1")),
        "first wins"
    );
    assert!(db.get(Sensor::key("S2")).await.expect("get").is_some());
}

#[tokio::test]
async fn batch_reports_invalid_items_and_writes_the_rest() {
    let db = fresh_db::<App>("batch_invalid").await;
    let entries = fan_out(0..30).enumerate().map(|(i, mut entry)| {
        if i == 3 || i == 17 {
            entry.streamer = "x".repeat(500_000);
        }
        entry
    });
    let report = db
        .batch_write()
        .put_all(entries)
        .put(&sensor(""))
        .await
        .expect("batch runs");
    assert_eq!(report.written, 28);
    let mut failed: Vec<_> = report.failed.iter().collect();
    failed.sort_by_key(|f| f.index);
    let summary: Vec<_> = failed.iter().map(|f| (f.index, f.key.is_some())).collect();
    assert_eq!(summary, [(3, true), (17, true), (30, false)]);
    assert!(matches!(
        *failed[0].error,
        Error::ItemTooLarge {
            entity: "Timeline",
            ..
        }
    ));
    assert!(
        matches!(*failed[2].error, Error::Key(_)),
        "empty key part: {}",
        failed[2].error
    );
    assert_eq!(stored_count(&db).await, 28);
}

#[tokio::test]
async fn batch_progress_reports_each_chunk_up_to_the_total() {
    let db = fresh_db::<App>("batch_progress").await;
    let seen = Arc::new(Mutex::new(Vec::<Progress>::new()));
    let sink = Arc::clone(&seen);
    let report = db
        .batch_write()
        .put_all(fan_out(0..101))
        .put(&sensor(""))
        .concurrency(2)
        .on_progress(move |p| sink.lock().expect("lock").push(p))
        .await
        .expect("batch runs");
    assert_eq!((report.written, report.failed.len()), (101, 1));
    let seen = seen.lock().expect("lock");
    assert!(seen.len() >= 5, "once per chunk: {seen:?}");
    assert!(seen.iter().all(|p| p.total == Some(102)), "{seen:?}");
    assert!(
        seen.windows(2).all(|w| w[0].done() <= w[1].done()),
        "{seen:?}"
    );
    let last = seen.last().expect("called");
    assert_eq!((last.written, last.failed, last.done()), (101, 1, 102));
}

#[tokio::test]
async fn batch_of_unknown_length_learns_its_total_at_the_end() {
    let db = fresh_db::<App>("batch_unknown_len").await;
    let last = Arc::new(Mutex::new(None));
    let sink = Arc::clone(&last);
    let report = db
        .put_all(fan_out(0..60).filter(|e| e.follower % 2 == 0))
        .on_progress(move |p| *sink.lock().expect("lock") = Some(p))
        .await
        .expect("batch runs");
    assert_eq!(report.written, 30);
    let last = last.lock().expect("lock").expect("called");
    assert_eq!((last.done(), last.total), (30, Some(30)));
}

#[tokio::test]
async fn batch_call_errors_that_retrying_cannot_fix_fail_every_item_at_once() {
    let db = Db::new(
        DynamoLocal::shared()
            .expect("DynamoDB Local starts")
            .client(),
        "batch_no_such_table",
    );
    let started = Instant::now();
    let report = db.put_all(fan_out(0..60)).await.expect("batch runs");
    assert_eq!((report.written, report.failed.len()), (0, 60));
    assert!(
        report
            .failed
            .iter()
            .all(|f| f.error.code() == Some("ResourceNotFoundException"))
    );
    assert!(started.elapsed() < Duration::from_secs(5), "not retried");
}

#[tokio::test]
async fn batch_tracks_consumed_capacity_only_when_asked() {
    let db = fresh_db::<App>("batch_capacity").await;
    let report = db.put_all(fan_out(0..30)).await.expect("batch runs");
    assert_eq!(report.consumed_capacity, None);
    let report = db
        .put_all(fan_out(30..60))
        .track_capacity()
        .await
        .expect("batch runs");
    assert_eq!(
        report.consumed_capacity,
        Some(30.0),
        "one unit per small item"
    );

    let at = event_time();
    let keys = (0..60).map(|f| TimelineEntry::key(f, at, "live-42"));
    let got = db
        .batch_get(keys)
        .track_capacity()
        .await
        .expect("batch runs");
    assert_eq!(got.into_found().count(), 60);
}

#[tokio::test]
async fn the_report_counts_calls_retries_and_throttling() {
    let faults = Faults::seeded(7)
        .throttle(0.3)
        .unprocessed(0.3)
        .only(["BatchWriteItem"]);
    let db = faulty_db("batch_report_counts", &faults).await;
    let report = db.put_all(fan_out(0..200)).await.expect("batch runs");
    assert!(report.is_complete(), "{report}");
    let seen = faults.counts();
    // Every call dynamap made reached the transport; the SDK may have retried some more.
    assert!(
        report.calls >= 8 && report.calls as u64 <= seen.calls,
        "{report:?} {seen:?}"
    );
    assert_eq!(
        report.retries,
        report.calls - 8,
        "8 chunks, each first call is no retry"
    );
    assert!(
        report.throttled as u64 <= seen.throttled,
        "{report:?} {seen:?}"
    );
    assert!(
        report.retries > 0,
        "faults at 30% force retries: {report:?}"
    );
}
