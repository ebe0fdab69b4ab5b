//! Transactions whose answer is lost: sent again with the same `ClientRequestToken` and
//! actions, DynamoDB answers with the first outcome. This covers the writes of entities
//! with lookup items, which are transactions too.

use dynamap::Db;

use super::lose::{RUNS, assert_unknown, lossy_db};
use crate::models::{App, Sensor, sensor};
use crate::raw_item;
use crate::write_models::{Device, Member};

fn member(email: &str) -> Member {
    Member {
        id: "m1".into(),
        email: email.into(),
    }
}

/// Whether the member and the lookup item of `email` are stored.
async fn stored(db: &Db<App>, email: &str) -> (bool, bool) {
    (
        raw_item(db, "MEMBER#m1", "PROFILE").await.is_some(),
        raw_item(db, &format!("EMAIL#{email}"), "EMAIL")
            .await
            .is_some(),
    )
}

/// create, put, update, replace and `delete().if_exists()` of an entity with a lookup
/// answer what happened: before, the library's own next round read the item its lost
/// transaction wrote and answered "exists" or "taken".
#[tokio::test]
async fn writes_with_lookups_answer_the_first_outcome() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_lookups_{sdk_retries}"), sdk_retries).await;

        losses.lose("TransactWriteItems", lost);
        db.create(&member("a@example.com"))
            .await
            .expect("the create was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "a@example.com").await, (true, true));

        losses.lose("TransactWriteItems", lost);
        db.put(&member("b@example.com"))
            .await
            .expect("the put was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "b@example.com").await, (true, true));
        assert!(!stored(&db, "a@example.com").await.1, "old lookup released");

        losses.lose("TransactWriteItems", lost);
        db.update(Member::key("m1"))
            .set(Member::EMAIL, "c@example.com")
            .await
            .expect("the update was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "c@example.com").await, (true, true));
        assert!(!stored(&db, "b@example.com").await.1, "old lookup released");

        losses.lose("TransactWriteItems", lost);
        db.replace(&member("d@example.com"))
            .await
            .expect("the replace was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "d@example.com").await, (true, true));

        losses.lose("TransactWriteItems", lost);
        db.delete(Member::key("m1"))
            .if_exists()
            .await
            .expect("the delete was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "d@example.com").await, (false, false));
    }
}

/// `db.transaction()`: a create and an increment land once, answered as applied, with or
/// without a token of the caller's; a create of an entity with lookups too.
#[tokio::test]
async fn transactions_are_sent_again_with_their_token() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_transactions_{sdk_retries}"), sdk_retries).await;
        db.put(&Device {
            id: "d1".into(),
            state: "idle".into(),
            alarms: 0,
            balance: 0,
            tags: Vec::new(),
            note: None,
        })
        .await
        .expect("seed");

        losses.lose("TransactWriteItems", lost);
        db.transaction()
            .create(&sensor("S1"))
            .update(db.update(Device::key("d1")).increment(Device::ALARMS, 1u32))
            .send()
            .await
            .expect("the transaction was applied");
        losses.assert_one_token(lost + 1);
        let device = db.get(Device::key("d1")).consistent().await.expect("get");
        assert_eq!(device.map(|d| d.alarms), Some(1), "applied once");
        assert!(
            db.get(Sensor::key("S1"))
                .consistent()
                .await
                .expect("get")
                .is_some()
        );

        losses.lose("TransactWriteItems", lost);
        db.transaction()
            .delete(db.delete(Sensor::key("S1")).if_exists())
            .update(db.update(Device::key("d1")).increment(Device::ALARMS, 1u32))
            .idempotency_token(format!("caller-token-{sdk_retries}"))
            .send()
            .await
            .expect("the transaction was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(losses.tokens()[0], format!("caller-token-{sdk_retries}"));
        let device = db.get(Device::key("d1")).consistent().await.expect("get");
        assert_eq!(device.map(|d| d.alarms), Some(2), "applied once");

        losses.lose("TransactWriteItems", lost);
        db.transaction()
            .create(&member("a@example.com"))
            .send()
            .await
            .expect("the transaction was applied");
        losses.assert_one_token(lost + 1);
        assert_eq!(stored(&db, "a@example.com").await, (true, true));
    }
}

/// When every answer is lost, the outcome stays unknown: `OutcomeUnknown`, and the
/// transaction was applied once however often it was sent.
#[tokio::test]
async fn a_transaction_whose_every_answer_is_lost_is_unknown_and_applied_once() {
    let (db, losses) = lossy_db("lost_transaction_always", false).await;
    db.put(&Device {
        id: "d1".into(),
        state: "idle".into(),
        alarms: 0,
        balance: 0,
        tags: Vec::new(),
        note: None,
    })
    .await
    .expect("seed");
    losses.lose("TransactWriteItems", u32::MAX);
    let result = db
        .transaction()
        .update(db.update(Device::key("d1")).increment(Device::ALARMS, 1u32))
        .send()
        .await;
    assert_unknown(result, "update");
    losses.assert_one_token(2);
    let device = db.get(Device::key("d1")).consistent().await.expect("get");
    assert_eq!(device.map(|d| d.alarms), Some(1), "applied once");
}
