//! Lookup items inside transactions: puts and deletes of an entity with `lookup(...)` items
//! keep them in sync as `Db::put` and `Db::delete` do, on every transaction action.

use dynamap::codec::AttributeValue::S;
use dynamap::{Db, Error};

use crate::models::App;
use crate::write_models::{Counter, Member, PlacedSensor};
use crate::{fresh_db, raw_item};

fn placed(id: &str, room: &str) -> PlacedSensor {
    PlacedSensor {
        id: id.into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: room.into(),
    }
}

/// Every lookup item of the table (by entity type), as (sort key, owner's partition key).
async fn lookup_items<L: dynamap::Table>(db: &Db<L>) -> Vec<(String, String)> {
    let scan = db
        .client()
        .scan()
        .table_name(db.table_name())
        .filter_expression("begins_with(#t, :t)")
        .expression_attribute_names("#t", "_type")
        .expression_attribute_values(":t", S("PlacedSensor.".into()))
        .consistent_read(true)
        .send()
        .await
        .expect("scan");
    let mut found: Vec<_> = scan
        .items()
        .iter()
        .map(|i| {
            let text = |n: &str| i[n].as_s().expect("string").clone();
            (text("SK"), text("_owner_pk"))
        })
        .collect();
    found.sort();
    found
}

fn at(room: &str, id: &str) -> (String, String) {
    (format!("LOCATION#A#2#{room}#{id}"), format!("PLACED#{id}"))
}

#[tokio::test]
async fn transaction_puts_and_deletes_keep_lookups_in_sync() {
    let db = fresh_db::<App>("tx_lookups").await;
    let counter = Counter {
        id: "moves".into(),
        value: 1,
        version: 0,
    };
    db.transaction()
        .put(&counter)
        .create(&placed("P1", "13"))
        .put(&placed("P2", "20"))
        .send()
        .await
        .expect("create with lookups");
    assert_eq!(lookup_items(&db).await, [at("13", "P1"), at("20", "P2")]);

    // A move in a transaction deletes the old lookup and writes the new one.
    db.transaction()
        .put(&placed("P1", "14"))
        .send()
        .await
        .expect("move");
    assert_eq!(lookup_items(&db).await, [at("14", "P1"), at("20", "P2")]);

    // A failed condition cancels everything, lookups included; indexes are the caller's.
    let err = db
        .transaction()
        .check(Counter::key("moves"), Counter::VALUE.gt(5u64))
        .delete(PlacedSensor::key("P1"))
        .send()
        .await
        .expect_err("check fails");
    let Error::TransactionCanceled { reasons, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(reasons[0].index, 0, "{reasons:?}");
    assert_eq!(lookup_items(&db).await, [at("14", "P1"), at("20", "P2")]);

    // A conditional delete whose condition fails cancels the transaction and leaves the
    // owner and its lookup in place.
    let refused = db
        .transaction()
        .delete(
            db.delete(PlacedSensor::key("P2"))
                .condition(PlacedSensor::ROOM.eq("99")),
        )
        .send()
        .await
        .expect_err("the condition does not hold");
    assert!(refused.is_conditional_check_failed(), "{refused:?}");
    assert_eq!(lookup_items(&db).await, [at("14", "P1"), at("20", "P2")]);

    // Deletes, plain and conditional, remove the owner and its lookups together: no orphans.
    db.transaction()
        .delete(PlacedSensor::key("P1"))
        .delete(
            db.delete(PlacedSensor::key("P2"))
                .condition(PlacedSensor::ROOM.eq("20")),
        )
        .send()
        .await
        .expect("delete both");
    assert_eq!(lookup_items(&db).await, []);
    assert_eq!(raw_item(&db, "PLACED#P1", "INFO").await, None);

    // Deleting an item that is not there is fine, as outside transactions.
    db.transaction()
        .delete(PlacedSensor::key("P9"))
        .send()
        .await
        .expect("nothing to delete");
}

#[tokio::test]
async fn a_lookup_held_by_another_item_fails_the_transaction() {
    let db = fresh_db::<App>("tx_lookups_taken").await;
    let member = |id: &str, email: &str| Member {
        id: id.into(),
        email: email.into(),
    };
    db.transaction()
        .put(&member("m1", "a@example.com"))
        .send()
        .await
        .expect("first");
    let err = db
        .transaction()
        .put(&member("m2", "a@example.com"))
        .send()
        .await
        .expect_err("taken");
    assert!(
        matches!(
            err,
            Error::LookupTaken {
                entity: "Member",
                lookup: "email",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(raw_item(&db, "MEMBER#m2", "PROFILE").await, None);
}

#[tokio::test]
async fn concurrent_transactions_moving_one_item_leave_one_lookup() {
    let db = fresh_db::<App>("tx_lookups_race").await;
    db.put(&placed("P1", "1")).await.expect("register");
    let tasks = (0..12).map(|room| {
        let db = db.clone();
        tokio::spawn(async move {
            db.transaction()
                .put(&placed("P1", &format!("{}", 100 + room)))
                .send()
                .await
        })
    });
    for task in tasks {
        task.await
            .expect("joined")
            .expect("every move lands eventually");
    }
    let owner = raw_item(&db, "PLACED#P1", "INFO").await.expect("owner");
    let room = owner["room"].as_s().expect("room").clone();
    assert_eq!(
        lookup_items(&db).await,
        [at(&room, "P1")],
        "exactly the owner's lookup"
    );
}
