//! Capacity metrics (`Db::with_metrics`): the exact units, labels and counts DynamoDB Local
//! reports for a put, a get, a transactional write with a lookup, a mixed query and a
//! batch write, read back from `metrics-util`'s debugging recorder.
//!
//! The recorder is installed for this thread only (`set_default_local_recorder`), and
//! `#[tokio::test]` runs each test on one thread, so tests in parallel do not see each
//! other's metrics.

use std::collections::BTreeMap;

use dynamap::Db;
use dynamap::metrics::{READ_CAPACITY, REQUEST_DURATION, REQUESTS, WRITE_CAPACITY};
use metrics_util::MetricKind;
use metrics_util::debugging::{DebugValue, DebuggingRecorder, Snapshotter};

use crate::fresh_db;
use crate::models::{App, Reading, Sensor, SensorItem, SensorKind};
use crate::write_models::PlacedSensor;

/// What the recorder holds: `"<metric> <label>=<value> ..."` (labels in the order dynamap
/// gives them, the table's name left out) to a counter's value or a histogram's count.
fn recorded<L: dynamap::Table>(snapshotter: &Snapshotter, db: &Db<L>) -> BTreeMap<String, u64> {
    let mut found = BTreeMap::new();
    for (key, _, _, value) in snapshotter.snapshot().into_vec() {
        let mut line = key.key().name().to_owned();
        for label in key.key().labels() {
            if label.key() == "table" {
                assert_eq!(label.value(), db.table_name(), "{key:?}");
                continue;
            }
            line.push_str(&format!(" {}={}", label.key(), label.value()));
        }
        let value = match (key.kind(), value) {
            (MetricKind::Counter, DebugValue::Counter(n)) => n,
            (MetricKind::Histogram, DebugValue::Histogram(seconds)) => {
                assert!(seconds.iter().all(|s| s.0 > 0.0), "{line}: {seconds:?}");
                seconds.len() as u64
            }
            other => panic!("unexpected metric {line}: {other:?}"),
        };
        found.insert(line, value);
    }
    found
}

/// The expected map from `(metric, labels, value)` lines.
fn expect(lines: &[(&str, &str, u64)]) -> BTreeMap<String, u64> {
    lines
        .iter()
        .map(|(name, labels, value)| (format!("{name} {labels}"), *value))
        .collect()
}

fn sensor(id: &str) -> Sensor {
    Sensor {
        id: id.into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: Some("13".into()),
        kind: SensorKind::Gas,
        note: None,
        cached_label: String::new(),
    }
}

/// A fresh table on a metered handle, and a recorder for this thread.
async fn metered(test: &str) -> (Db<App>, DebuggingRecorder) {
    let db = fresh_db::<App>(test).await.with_metrics();
    (db, DebuggingRecorder::new())
}

#[tokio::test]
async fn put_and_get_count_table_and_index_units() {
    let (db, recorder) = metered("metrics_put_get").await;
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    db.put(&sensor("S1")).await.expect("put");
    db.get(Sensor::key("S1")).await.expect("get");
    // A refused condition: counted as an error, with no capacity (DynamoDB reports none).
    let refused = db.create(&sensor("S1")).await;
    assert!(refused.is_err_and(|e| e.is_conditional_check_failed()));
    let labels = "entity=Sensor index=table";
    assert_eq!(
        recorded(&snapshotter, &db),
        expect(&[
            // A small item: one unit on the table, one on the index it is written to.
            (
                WRITE_CAPACITY,
                "operation=PutItem entity=Sensor index=table",
                1000
            ),
            (
                WRITE_CAPACITY,
                "operation=PutItem entity=Sensor index=GSI1",
                1000
            ),
            // An eventually consistent read of up to 4 KB: half a unit.
            (
                READ_CAPACITY,
                "operation=GetItem entity=Sensor index=table",
                500
            ),
            (
                REQUESTS,
                &format!("operation=PutItem {labels} outcome=ok"),
                1
            ),
            (
                REQUESTS,
                &format!("operation=PutItem {labels} outcome=error"),
                1
            ),
            (
                REQUESTS,
                &format!("operation=GetItem {labels} outcome=ok"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("operation=PutItem {labels} outcome=ok"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("operation=PutItem {labels} outcome=error"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("operation=GetItem {labels} outcome=ok"),
                1
            ),
        ])
    );
}

#[tokio::test]
async fn a_transaction_with_a_lookup_counts_the_lookup_item() {
    let (db, recorder) = metered("metrics_transaction").await;
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let placed = PlacedSensor {
        id: "P1".into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: "13".into(),
    };
    db.transaction()
        .put(&placed)
        .send()
        .await
        .expect("transaction");
    let labels = "entity=PlacedSensor index=table";
    assert_eq!(
        recorded(&snapshotter, &db),
        expect(&[
            // The owner's recorded lookups, read consistently before the transaction.
            (READ_CAPACITY, &format!("operation=GetItem {labels}"), 1000),
            // The owner and its lookup item, both counted as the owner's entity type.
            // (DynamoDB Local charges a transactional write like a plain one; DynamoDB
            // charges twice that.)
            (
                WRITE_CAPACITY,
                &format!("operation=TransactWriteItems {labels}"),
                2000
            ),
            (
                REQUESTS,
                &format!("operation=GetItem {labels} outcome=ok"),
                1
            ),
            (
                REQUESTS,
                &format!("operation=TransactWriteItems {labels} outcome=ok"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("operation=GetItem {labels} outcome=ok"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("operation=TransactWriteItems {labels} outcome=ok"),
                1
            ),
        ])
    );
}

#[tokio::test]
async fn a_mixed_query_names_every_entity_type() {
    let (db, recorder) = metered("metrics_mixed_query").await;
    db.put(&sensor("S1")).await.expect("put");
    let at = time::macros::datetime!(2024-05-01 12:00 UTC);
    let reading = Reading {
        sensor_id: "S1".into(),
        at,
        value: 21.5,
    };
    db.put(&reading).await.expect("put");
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let items = db
        .query(Sensor::partition("S1"))
        .decode_as::<SensorItem>()
        .all()
        .await
        .expect("query");
    assert_eq!(items.len(), 2);
    let by_city = db
        .query(Sensor::gsi1("Poznań"))
        .all()
        .await
        .expect("index query");
    assert_eq!(by_city.len(), 1);
    let mixed = "operation=Query entity=Reading|Sensor index=table";
    let index = "operation=Query entity=Sensor index=GSI1";
    assert_eq!(
        recorded(&snapshotter, &db),
        expect(&[
            // Two small items, read eventually consistently: half a unit.
            (READ_CAPACITY, mixed, 500),
            // A query of an index spends the index's units, none of the table's.
            (READ_CAPACITY, index, 500),
            (REQUESTS, &format!("{mixed} outcome=ok"), 1),
            (REQUESTS, &format!("{index} outcome=ok"), 1),
            (REQUEST_DURATION, &format!("{mixed} outcome=ok"), 1),
            (REQUEST_DURATION, &format!("{index} outcome=ok"), 1),
        ])
    );
}

#[tokio::test]
async fn a_batch_write_counts_each_call() {
    let (db, recorder) = metered("metrics_batch_write").await;
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let at = time::macros::datetime!(2024-05-01 12:00 UTC);
    let readings: Vec<Reading> = (0..30)
        .map(|i| Reading {
            sensor_id: "S1".into(),
            at: at + time::Duration::minutes(i),
            value: 20.0,
        })
        .collect();
    let sensors: Vec<Sensor> = (0..2).map(|i| sensor(&format!("S{i}"))).collect();
    let report = db
        .batch_write()
        .put_all(&readings)
        .put_all(&sensors)
        .send()
        .await
        .expect("batch");
    assert_eq!((report.written, report.calls), (32, 2));
    // The report sums capacity only when asked; the metrics have it regardless.
    assert_eq!(report.consumed_capacity, None);
    // 25 readings in the first call; 5 readings and 2 sensors (in the index) in the second.
    let first = "operation=BatchWriteItem entity=Reading";
    let second = "operation=BatchWriteItem entity=Reading|Sensor";
    assert_eq!(
        recorded(&snapshotter, &db),
        expect(&[
            (WRITE_CAPACITY, &format!("{first} index=table"), 25_000),
            (WRITE_CAPACITY, &format!("{second} index=table"), 7_000),
            (WRITE_CAPACITY, &format!("{second} index=GSI1"), 2_000),
            (REQUESTS, &format!("{first} index=table outcome=ok"), 1),
            (REQUESTS, &format!("{second} index=table outcome=ok"), 1),
            (
                REQUEST_DURATION,
                &format!("{first} index=table outcome=ok"),
                1
            ),
            (
                REQUEST_DURATION,
                &format!("{second} index=table outcome=ok"),
                1
            ),
        ])
    );
}

#[tokio::test]
async fn a_handle_without_metrics_records_nothing() {
    let db = fresh_db::<App>("metrics_off").await;
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    db.put(&sensor("S1")).await.expect("put");
    db.get(Sensor::key("S1")).await.expect("get");
    assert_eq!(recorded(&snapshotter, &db), BTreeMap::new());
}
