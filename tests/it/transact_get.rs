//! Read transactions: items of several entity types read together, typed per slot.

use dynamap::{Entity, Error};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::fresh_db;
use crate::models::{App, Reading, Sensor, SensorItem, TimelineEntry, sensor};

fn reading(sensor_id: &str, value: f64) -> Reading {
    Reading {
        sensor_id: sensor_id.to_owned(),
        at: datetime!(2026-11-25 08:00 UTC),
        value,
    }
}

#[tokio::test]
async fn items_of_several_entities_come_back_typed_and_absent_ones_as_none() {
    let db = fresh_db::<App>("tx-get").await;
    db.put(&sensor("S1")).await.expect("put");
    db.put(&sensor("S2")).await.expect("put");
    db.put(&reading("S1", 0.5)).await.expect("put");

    let mut read = db.transact_get();
    let s1 = read.get(Sensor::key("S1"));
    let missing = read.get(Sensor::key("S9"));
    let r1 = read.get(Reading::key("S1", datetime!(2026-11-25 08:00 UTC)));
    let s2 = read.get(Sensor::key("S2"));
    assert_eq!(read.len(), 4);
    let results = read.send().await.expect("read");

    assert_eq!(results.get(s1).expect("decoded"), Some(sensor("S1")));
    assert_eq!(results.get(missing).expect("decoded"), None);
    assert_eq!(results.get(r1).expect("decoded"), Some(reading("S1", 0.5)));
    assert_eq!(results.get(s2).expect("decoded"), Some(sensor("S2")));
    assert_eq!(results.found_count(), 3);
    // Through an entity enum, by the item's entity type.
    assert_eq!(
        results.decode_as::<_, SensorItem>(r1).expect("decoded"),
        Some(SensorItem::Reading(reading("S1", 0.5)))
    );
}

#[tokio::test]
async fn an_empty_read_transaction_sends_nothing() {
    let db = fresh_db::<App>("tx-get-empty").await;
    let results = db.transact_get().send().await.expect("nothing to read");
    assert_eq!(results.found_count(), 0);
}

#[tokio::test]
async fn more_than_100_items_or_an_item_twice_are_refused_before_sending() {
    let db = fresh_db::<App>("tx-get-limits").await;
    let mut read = db.transact_get();
    for i in 0..101 {
        let _ = read.get(Sensor::key(format!("S{i}")));
    }
    match read.send().await {
        Err(Error::TooManyActions {
            actions: 101,
            limit: 100,
            ..
        }) => {}
        other => panic!("expected TooManyActions, got {other:?}"),
    }

    let mut read = db.transact_get();
    let _ = read.get(Sensor::key("S1"));
    let _ = read.get(Reading::key("S1", datetime!(2026-11-25 08:00 UTC)));
    let _ = read.get(Sensor::key("S1"));
    match read.send().await {
        Err(Error::DuplicateTransactionItem {
            first: 0,
            second: 2,
            first_entity,
            entity,
            ..
        }) => {
            assert_eq!((first_entity, entity), ("Sensor", "Sensor"));
        }
        other => panic!("expected DuplicateTransactionItem, got {other:?}"),
    }
}

#[tokio::test]
async fn a_slot_is_only_good_for_its_own_results() {
    let db = fresh_db::<App>("tx-get-slots").await;
    db.put(&sensor("S1")).await.expect("put");
    let mut first = db.transact_get();
    let slot = first.get(Sensor::key("S1"));
    let mut second = db.transact_get();
    let _ = second.get(Sensor::key("S1"));
    let second = second.send().await.expect("read");
    match second.get(slot) {
        Err(Error::Unsupported {
            operation: "TransactGetItems",
            reason,
            ..
        }) => {
            assert!(reason.contains("another read transaction"), "{reason}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let first = first.send().await.expect("read");
    assert_eq!(first.get(slot).expect("decoded"), Some(sensor("S1")));
}

#[tokio::test]
async fn expired_items_read_as_absent_unless_the_db_includes_them() {
    let db = fresh_db::<App>("tx-get-expired").await;
    let now = OffsetDateTime::now_utc();
    let entry = |stream: &str, expires_at: i64| TimelineEntry {
        follower: 1,
        at: datetime!(2026-11-25 08:00 UTC),
        stream: stream.to_owned(),
        streamer: "alice".to_owned(),
        expires_at,
    };
    let (expired, live) = (
        entry("old", now.unix_timestamp() - 60),
        entry("new", now.unix_timestamp() + 3600),
    );
    db.put(&expired).await.expect("put");
    db.put(&live).await.expect("put");

    let key = |e: &TimelineEntry| TimelineEntry::key(e.follower, e.at, e.stream.clone());
    let mut read = db.transact_get();
    let (old, new) = (read.get(key(&expired)), read.get(key(&live)));
    let results = read.send().await.expect("read");
    assert_eq!(results.get(old).expect("decoded"), None);
    assert_eq!(results.get(new).expect("decoded"), Some(live.clone()));

    let all = db.clone().include_expired_items();
    let mut read = all.transact_get();
    let old = read.get(key(&expired));
    assert_eq!(
        read.send().await.expect("read").get(old).expect("decoded"),
        Some(expired)
    );
}

#[tokio::test]
async fn an_item_of_another_entity_under_the_key_is_an_error() {
    // A Reading's key read as a Sensor slot cannot happen through typed keys, so store a
    // sensor item by hand under the key a Reading would have.
    let db = fresh_db::<App>("tx-get-wrong-type").await;
    let at = datetime!(2026-11-25 08:00 UTC);
    let mut item = sensor("S1").to_item().expect("item");
    let key = Reading::key("S1", at);
    let (pk, sk) = key.values().expect("key");
    item.insert(
        "PK".into(),
        dynamap::codec::AttributeValue::S(pk.to_owned()),
    );
    item.insert(
        "SK".into(),
        dynamap::codec::AttributeValue::S(sk.expect("sk").to_owned()),
    );
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("raw put");
    let mut read = db.transact_get();
    let slot = read.get(Reading::key("S1", at));
    let err = read
        .send()
        .await
        .expect("read")
        .get(slot)
        .expect_err("a sensor, not a reading");
    assert!(err.to_string().contains("Sensor"), "{err}");
}
