//! Optimistic locking on items that predate it: an item stored at version 0 (what
//! `to_item()` renders for a new value, so any item another writer stored from it) and an
//! item with no version attribute at all (the version field was added to an existing
//! entity) read, save, upsert, modify, update and take part in transactions; a stale
//! version 0 still conflicts once the item has moved on.

use dynamap::codec::{AttributeValue, Item};
use dynamap::{Db, Entity, Error, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Shop;

/// A stock count that gained `#[dynamap(version)]` after items were written.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Stock", pk = "STOCK#{sku}", sk = "STOCK")]
struct Stock {
    sku: String,
    count: u64,
    #[dynamap(version)]
    version: u64,
}

/// A versioned entity with a lookup item, so its writes are transactions.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Buyer", pk = "BUYER#{id}", sk = "BUYER",
          lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
struct Buyer {
    id: String,
    email: String,
    #[dynamap(version)]
    version: i32,
}

fn stock(count: u64) -> Stock {
    Stock {
        sku: "s1".into(),
        count,
        version: 0,
    }
}

/// Stores `entity` as another writer would: its `to_item()`, through the raw client,
/// without the version attribute when `versioned` is false.
async fn store_raw<E: Entity>(db: &Db<Shop>, entity: &E, versioned: bool) {
    let mut item: Item = entity.to_item().expect("to_item");
    if !versioned {
        item.remove("version").expect("to_item renders the version");
    }
    crate::put_raw(db, item).await;
}

async fn stored_stock(db: &Db<Shop>) -> Stock {
    db.get(Stock::key("s1"))
        .consistent()
        .await
        .expect("get")
        .expect("stored")
}

async fn stored_version(db: &Db<Shop>) -> Option<AttributeValue> {
    crate::raw_item(db, "STOCK#s1", "STOCK")
        .await
        .expect("stored")
        .remove("version")
}

#[tokio::test]
async fn an_item_stored_at_version_zero_can_be_written_by_every_path() {
    let db = fresh_db::<Shop>("version_zero").await;
    for versioned in [true, false] {
        // save
        store_raw(&db, &stock(1), versioned).await;
        let mut read = stored_stock(&db).await;
        assert_eq!(read.version, 0, "stored with version: {versioned}");
        read.count = 2;
        db.save(&mut read).await.expect("save from version 0");
        assert_eq!((read.version, stored_stock(&db).await), (1, read.clone()));

        // put and upsert of a value read at version 0
        store_raw(&db, &stock(1), versioned).await;
        db.put(&stock(3)).await.expect("put at version 0");
        assert_eq!(stored_stock(&db).await.version, 1);
        store_raw(&db, &stock(1), versioned).await;
        db.upsert(&stock(4)).await.expect("upsert at version 0");
        assert_eq!(stored_stock(&db).await.count, 4);

        // modify: one attempt, no conflict to retry
        store_raw(&db, &stock(1), versioned).await;
        let modified = db
            .modify_with(
                Stock::key("s1"),
                dynamap::retry::RetryPolicy::default().max_attempts(1),
                |s| s.count += 10,
            )
            .await
            .expect("modify from version 0")
            .expect("exists");
        assert_eq!((modified.count, modified.version), (11, 1));

        // update expecting version 0
        store_raw(&db, &stock(1), versioned).await;
        db.update(Stock::key("s1"))
            .increment(Stock::COUNT, 1u64)
            .expect_version(0)
            .await
            .expect("update expecting version 0");
        assert_eq!(
            stored_version(&db).await,
            Some(AttributeValue::N("1".into()))
        );

        // a transaction's put
        store_raw(&db, &stock(1), versioned).await;
        db.transaction()
            .put(&stock(7))
            .send()
            .await
            .expect("transaction put at version 0");
        assert_eq!(stored_stock(&db).await.version, 1);
    }
}

#[tokio::test]
async fn a_stale_version_zero_still_conflicts_once_the_item_moved_on() {
    let db = fresh_db::<Shop>("version_zero_stale").await;
    store_raw(&db, &stock(1), false).await;
    let stale = stored_stock(&db).await;
    let mut first = stale.clone();
    db.save(&mut first).await.expect("the first writer wins");

    let err = db.put(&stale).await.expect_err("the second loses");
    assert!(
        matches!(err, Error::VersionConflict { expected: 0, .. }),
        "{err:?}"
    );
    let err = db
        .update(Stock::key("s1"))
        .increment(Stock::COUNT, 1u64)
        .expect_version(0)
        .await
        .expect_err("stale update");
    assert!(
        matches!(err, Error::VersionConflict { expected: 0, .. }),
        "{err:?}"
    );
    let err = db
        .transaction()
        .put(&stale)
        .send()
        .await
        .expect_err("stale transaction put");
    // A version that moved on is a lost race, in a transaction as alone.
    assert!(err.is_conflict(), "{err:?}");
    assert!(!err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(stored_stock(&db).await.version, 1);
}

#[tokio::test]
async fn an_entity_with_lookups_saves_from_a_missing_or_zero_version() {
    let db = fresh_db::<Shop>("version_zero_lookups").await;
    for versioned in [true, false] {
        let buyer = Buyer {
            id: "b1".into(),
            email: format!("b1-{versioned}@example.com"),
            version: 0,
        };
        store_raw(&db, &buyer, versioned).await;
        let mut read = db
            .get(Buyer::key("b1"))
            .consistent()
            .await
            .expect("get")
            .expect("stored");
        assert_eq!(read.version, 0);
        db.save(&mut read).await.expect("save with lookups");
        assert_eq!(read.version, 1);

        store_raw(&db, &buyer, versioned).await;
        db.transaction()
            .put(&buyer)
            .send()
            .await
            .expect("transaction put with lookups");
        let owner = crate::raw_item(&db, &format!("EMAIL#{}", buyer.email), "EMAIL").await;
        assert!(owner.is_some(), "the lookup item is written");
    }
}
