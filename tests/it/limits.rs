//! DynamoDB's size limits, checked before anything is sent.

use dynamap::key::KeyErrorKind;
use dynamap::limits::{MAX_ITEM_BYTES, item_size};
use dynamap::{Entity, Error};

use crate::fresh_db;
use crate::models::{App, Sensor, sensor};

/// A sensor whose item is exactly `size` bytes as dynamap counts them.
fn sensor_of_size(id: &str, size: usize) -> Sensor {
    let mut s = sensor(id);
    s.note = Some(String::new());
    let base = item_size(&s.to_item().expect("encodes"));
    s.note = Some("x".repeat(size - base));
    assert_eq!(item_size(&s.to_item().expect("encodes")), size);
    s
}

#[tokio::test]
async fn an_item_over_400_kb_is_rejected_before_sending() {
    let db = fresh_db::<App>("too_large").await;
    let err = db
        .put(&sensor_of_size("S1", MAX_ITEM_BYTES + 1))
        .await
        .expect_err("over the limit");
    assert!(
        matches!(err, Error::ItemTooLarge { entity: "Sensor", size, limit: 409_600, .. } if size == MAX_ITEM_BYTES + 1),
        "{err:?}"
    );
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        None,
        "nothing was written"
    );
}

#[tokio::test]
async fn an_item_of_exactly_400_kb_is_stored() {
    // DynamoDB Local accepts it too, so our count does not overestimate.
    let db = fresh_db::<App>("at_limit").await;
    let s = sensor_of_size("S1", MAX_ITEM_BYTES);
    db.put(&s).await.expect("at the limit");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        Some(s)
    );
}

#[tokio::test]
async fn keys_over_dynamodb_limits_are_rejected_before_sending() {
    let db = fresh_db::<App>("long_keys").await;
    let err = db
        .put(&sensor(&"x".repeat(2_048)))
        .await
        .expect_err("partition key too long");
    match &err {
        Error::Key(key) => {
            assert_eq!((key.entity, key.attribute), ("Sensor", "PK"));
            assert_eq!(
                key.kind,
                KeyErrorKind::TooLong {
                    len: 2_055,
                    limit: 2_048
                }
            );
        }
        other => panic!("expected a key error, got {other:?}"),
    }
    // The longest partition key that fits is accepted by DynamoDB Local.
    let longest = sensor(&"x".repeat(2_048 - "SENSOR#".len()));
    db.put(&longest).await.expect("2,048-byte partition key");

    let mut s = sensor("S1");
    s.room = Some("r".repeat(1_024));
    let err = db.put(&s).await.expect_err("index sort key too long");
    assert!(
        matches!(&err, Error::Key(k) if k.attribute == "GSI1SK"),
        "{err:?}"
    );
}
