//! Updates against DynamoDB Local: typed changes, conditions, and the refusals that keep
//! keys, indexes and lookups consistent.

use dynamap::Error;

use crate::models::{App, Sensor, sensor};
use crate::write_models::{Counter, Device, PlacedSensor};
use crate::{fresh_db, raw_item};

fn device() -> Device {
    Device {
        id: "d1".into(),
        state: "new".into(),
        alarms: 0,
        balance: 10,
        tags: vec!["a".into()],
        note: Some("n".into()),
    }
}

#[tokio::test]
async fn typed_changes_apply_and_return_the_new_item() {
    let db = fresh_db::<App>("update_changes").await;
    db.put(&device()).await.expect("put");
    let updated = db
        .update(Device::key("d1"))
        .set(Device::STATE, "active")
        .increment(Device::ALARMS, 2u32)
        .increment(Device::BALANCE, -15i64)
        .append(Device::TAGS, ["b".to_owned(), "c".to_owned()])
        .remove(Device::NOTE)
        .condition(Device::ALARMS.lt(5u32))
        .returning_new()
        .await
        .expect("update");
    assert_eq!(
        updated,
        Device {
            id: "d1".into(),
            state: "active".into(),
            alarms: 2,
            balance: -5,
            tags: vec!["a".into(), "b".into(), "c".into()],
            note: None
        }
    );
    db.update(Device::key("d1"))
        .increment(Device::ALARMS, 3u32)
        .await
        .expect("increment");
    let stored = db
        .get(Device::key("d1"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(stored.alarms, 5);

    let err = db
        .update(Device::key("d1"))
        .increment(Device::ALARMS, 1u32)
        .condition(Device::ALARMS.lt(5u32))
        .await;
    assert!(
        matches!(
            err,
            Err(Error::ConditionalCheckFailed {
                entity: "Device",
                operation: "update",
                ..
            })
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_update_never_creates_an_item() {
    let db = fresh_db::<App>("update_missing").await;
    let err = db
        .update(Device::key("ghost"))
        .set(Device::STATE, "x")
        .await
        .expect_err("missing");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(
        db.get(Device::key("ghost"))
            .consistent()
            .await
            .expect("get"),
        None
    );
}

#[tokio::test]
async fn updates_that_would_break_keys_indexes_or_lookups_are_refused() {
    let db = fresh_db::<App>("update_refusals").await;
    db.put(&sensor("S1")).await.expect("put");
    let refused = |result: Result<(), Error>, what: &str| match result {
        Err(Error::Unsupported { reason, .. }) => assert!(reason.contains(what), "{reason}"),
        other => panic!("expected a refusal about {what}, got {other:?}"),
    };
    refused(
        db.update(Sensor::key("S1")).set(Sensor::ID, "S2").await,
        "primary key",
    );
    let incomplete = |result: Result<(), Error>, key: &str, fields: &[&str]| match result {
        Err(Error::IncompleteKeyUpdate {
            key: k, missing, ..
        }) => {
            assert!(k.contains(key), "{k}");
            assert_eq!(missing, fields);
        }
        other => panic!("expected an incomplete key update of {key}, got {other:?}"),
    };
    incomplete(
        db.update(Sensor::key("S1"))
            .set(Sensor::BUILDING, "B")
            .await,
        "index `GSI1`",
        &["city", "floor", "room"],
    );
    refused(
        db.update(Sensor::key("S1")).remove(Sensor::CITY).await,
        "not optional",
    );
    refused(
        db.update(Sensor::key("S1"))
            .set_if_not_exists(Sensor::BUILDING, "B")
            .await,
        "can only set it",
    );
    incomplete(
        db.update(PlacedSensor::key("P1"))
            .set(PlacedSensor::ROOM, "9")
            .await,
        "lookup `location`",
        &["city", "building", "floor"],
    );
    refused(db.update(Sensor::key("S1")).await, "at least one change");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        Some(sensor("S1")),
        "nothing changed"
    );
}

#[tokio::test]
async fn removing_an_indexed_optional_field_takes_the_item_out_of_the_index() {
    let db = fresh_db::<App>("update_sparse").await;
    db.put(&sensor("S1")).await.expect("put");
    assert_eq!(
        db.query(Sensor::gsi1("Poznań"))
            .count()
            .await
            .expect("count"),
        1
    );
    db.update(Sensor::key("S1"))
        .remove(Sensor::ROOM)
        .set(Sensor::KIND, crate::models::SensorKind::Humidity)
        .await
        .expect("update");
    let item = raw_item(&db, "SENSOR#S1", "SENSORINFO")
        .await
        .expect("stored");
    assert!(
        !item.contains_key("GSI1PK") && !item.contains_key("GSI1SK") && !item.contains_key("room"),
        "{item:?}"
    );
    assert_eq!(
        db.query(Sensor::gsi1("Poznań"))
            .count()
            .await
            .expect("count"),
        0
    );
}

#[tokio::test]
async fn updates_bump_versions_and_can_expect_one() {
    let db = fresh_db::<App>("update_versions").await;
    let mut counter = Counter {
        id: "c".into(),
        value: 1,
        version: 0,
    };
    db.save(&mut counter).await.expect("create");
    db.update(Counter::key("c"))
        .increment(Counter::VALUE, 1u64)
        .expect_version(1)
        .await
        .expect("update");
    let stored = db
        .get(Counter::key("c"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!((stored.value, stored.version), (2, 2));
    let err = db
        .update(Counter::key("c"))
        .increment(Counter::VALUE, 1u64)
        .expect_version(1)
        .await
        .expect_err("stale");
    assert!(
        matches!(err, Error::VersionConflict { expected: 1, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn updates_join_transactions() {
    let db = fresh_db::<App>("update_tx").await;
    db.put(&device()).await.expect("put");
    let err = db
        .transaction()
        .update(
            db.update(Device::key("d1"))
                .increment(Device::BALANCE, -100i64)
                .condition(Device::BALANCE.ge(100i64)),
        )
        .put(&sensor("S1"))
        .send()
        .await
        .expect_err("insufficient balance");
    let Error::TransactionCanceled { reasons, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (reasons[0].index, reasons[0].operation, reasons[0].entity),
        (0, "update", "Device")
    );
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        None
    );
}
