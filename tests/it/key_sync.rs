//! Updates that touch the fields keys are rendered from: index keys re-rendered in the same
//! UpdateItem, refusals that name the missing fields, sparse indexes, and lookup items moved
//! in one transaction. Each case checks the raw item.

use dynamap::{Entity, Error};

use crate::models::App;
use crate::write_models::PlacedSensor;
use crate::{fresh_db, raw_item};

/// A product listed by category and name; its index template also uses its key field.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Product", pk = "PRODUCT#{id}", sk = "PRODUCT",
          index(name = "GSI1", pk = "CATEGORY#{category}", sk = "NAME#{name}#{id}"))]
struct Product {
    id: String,
    category: String,
    name: String,
    price: u32,
}

/// An order in a sparse status index: only open orders (with a status) are in it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "ORDER#{id}"))]
struct Order {
    id: String,
    status: Option<String>,
}

fn text(item: &dynamap::codec::Item, attribute: &str) -> Option<String> {
    item.get(attribute).and_then(|v| v.as_s().ok()).cloned()
}

#[tokio::test]
async fn setting_every_field_of_a_template_re_renders_its_key() {
    let db = fresh_db::<App>("key_sync_render").await;
    let lamp = Product {
        id: "p1".into(),
        category: "lamps".into(),
        name: "Orb".into(),
        price: 40,
    };
    db.put(&lamp).await.expect("put");

    // The partition template has one field: setting it re-renders GSI1PK alone.
    db.update(Product::key("p1"))
        .set(Product::CATEGORY, "lighting")
        .await
        .expect("move category");
    let raw = raw_item(&db, "PRODUCT#p1", "PRODUCT")
        .await
        .expect("stored");
    assert_eq!(text(&raw, "GSI1PK").as_deref(), Some("CATEGORY#lighting"));
    assert_eq!(text(&raw, "GSI1SK").as_deref(), Some("NAME#Orb#p1"));

    // The sort template's other field is the key field `id`, taken from the key.
    db.update(Product::key("p1"))
        .set(Product::NAME, "Orb#2")
        .increment(Product::PRICE, 5u32)
        .await
        .expect("rename");
    let raw = raw_item(&db, "PRODUCT#p1", "PRODUCT")
        .await
        .expect("stored");
    assert_eq!(text(&raw, "GSI1SK").as_deref(), Some("NAME#Orb%232#p1"));
    let listed = db
        .query(Product::gsi1("lighting"))
        .sk_prefix(("Orb#2",))
        .all()
        .await
        .expect("query");
    assert_eq!(
        listed,
        vec![Product {
            category: "lighting".into(),
            name: "Orb#2".into(),
            price: 45,
            ..lamp
        }]
    );
    // What DynamoDB stores equals what a put of the new value would store.
    let put_item = listed[0].to_item().expect("item");
    for attribute in ["GSI1PK", "GSI1SK"] {
        assert_eq!(raw.get(attribute), put_item.get(attribute), "{attribute}");
    }
}

#[tokio::test]
async fn sparse_indexes_follow_optional_fields() {
    let db = fresh_db::<App>("key_sync_sparse").await;
    db.put(&Order {
        id: "o1".into(),
        status: None,
    })
    .await
    .expect("put");
    let raw = raw_item(&db, "ORDER#o1", "ORDER").await.expect("stored");
    assert!(!raw.contains_key("GSI1PK") && !raw.contains_key("GSI1SK"));

    // Setting the status puts the order in the index (both keys, `id` from the key).
    db.update(Order::key("o1"))
        .set(Order::STATUS, "PENDING")
        .await
        .expect("pending");
    let raw = raw_item(&db, "ORDER#o1", "ORDER").await.expect("stored");
    assert_eq!(text(&raw, "GSI1PK").as_deref(), Some("STATUS#PENDING"));
    assert_eq!(text(&raw, "GSI1SK").as_deref(), Some("ORDER#o1"));

    // Pending → paid is one UpdateItem, and the index moves with it.
    db.update(Order::key("o1"))
        .set(Order::STATUS, "PAID")
        .await
        .expect("paid");
    assert_eq!(
        db.query(Order::gsi1("PENDING"))
            .count()
            .await
            .expect("count"),
        0
    );
    assert_eq!(
        db.query(Order::gsi1("PAID")).count().await.expect("count"),
        1
    );

    // Setting it to `None` removes it and takes the order out.
    let closed: Option<&str> = None;
    db.update(Order::key("o1"))
        .set_option(Order::STATUS, closed)
        .await
        .expect("closed");
    let raw = raw_item(&db, "ORDER#o1", "ORDER").await.expect("stored");
    assert!(
        !raw.contains_key("GSI1PK") && !raw.contains_key("GSI1SK"),
        "{raw:?}"
    );
    assert_eq!(
        db.query(Order::gsi1("PAID")).count().await.expect("count"),
        0
    );
}

#[tokio::test]
async fn incomplete_key_updates_are_refused_before_sending() {
    let db = fresh_db::<App>("key_sync_refused").await;
    let sensor = crate::models::sensor("S1");
    db.put(&sensor).await.expect("put");
    let err = db
        .update(crate::models::Sensor::key("S1"))
        .set(crate::models::Sensor::FLOOR, "3")
        .set(crate::models::Sensor::ROOM, "1")
        .await
        .expect_err("building and city missing");
    let Error::IncompleteKeyUpdate {
        entity,
        key,
        missing,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*entity, key.as_str()), ("Sensor", "index `GSI1`'s keys"));
    assert_eq!(missing, &["city", "building"]);
    assert!(err.to_string().contains("`city`, `building`"), "{err}");
    // All of them: the whole sparse index is re-rendered.
    db.update(crate::models::Sensor::key("S1"))
        .set(crate::models::Sensor::CITY, "Kraków")
        .set(crate::models::Sensor::BUILDING, "B")
        .set(crate::models::Sensor::FLOOR, "3")
        .set(crate::models::Sensor::ROOM, "1")
        .await
        .expect("relocate");
    let raw = raw_item(&db, "SENSOR#S1", "SENSORINFO")
        .await
        .expect("stored");
    assert_eq!(text(&raw, "GSI1PK").as_deref(), Some("CITY#Kraków"));
    assert_eq!(text(&raw, "GSI1SK").as_deref(), Some("LOC#B#3#1"));
}

#[tokio::test]
async fn updating_lookup_fields_moves_the_lookup_item() {
    let db = fresh_db::<App>("key_sync_lookup").await;
    let placed = PlacedSensor {
        id: "P1".into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: "13".into(),
    };
    db.put(&placed).await.expect("put");
    db.update(PlacedSensor::key("P1"))
        .set(PlacedSensor::CITY, "Poznań")
        .set(PlacedSensor::BUILDING, "B")
        .set(PlacedSensor::FLOOR, "1")
        .set(PlacedSensor::ROOM, "7")
        .await
        .expect("move");
    let old = raw_item(&db, "CITY#Poznań", "LOCATION#A#2#13#P1").await;
    assert_eq!(old, None, "the old lookup item is gone");
    let new = raw_item(&db, "CITY#Poznań", "LOCATION#B#1#7#P1")
        .await
        .expect("the new lookup item exists");
    assert_eq!(text(&new, "_owner_pk").as_deref(), Some("PLACED#P1"));
    let owner = raw_item(&db, "PLACED#P1", "INFO").await.expect("owner");
    assert_eq!(
        text(&owner, "_lookup_location_sk").as_deref(),
        Some("LOCATION#B#1#7#P1")
    );
    assert_eq!(text(&owner, "room").as_deref(), Some("7"));

    // A lookup held by another owner fails the update (a uniqueness guard), and the
    // owner keeps its old value and lookup.
    use crate::write_models::Member;
    let member = |id: &str, email: &str| Member {
        id: id.into(),
        email: email.into(),
    };
    db.put(&member("m1", "taken@example.com"))
        .await
        .expect("m1");
    db.put(&member("m2", "free@example.com")).await.expect("m2");
    let err = db
        .update(Member::key("m2"))
        .set(Member::EMAIL, "taken@example.com")
        .await
        .expect_err("taken");
    assert!(
        matches!(
            err,
            Error::LookupTaken {
                lookup: "email",
                ..
            }
        ),
        "{err:?}"
    );
    let m2 = raw_item(&db, "MEMBER#m2", "PROFILE").await.expect("m2");
    assert_eq!(text(&m2, "email").as_deref(), Some("free@example.com"));
    assert!(
        raw_item(&db, "EMAIL#free@example.com", "EMAIL")
            .await
            .is_some()
    );
    db.update(Member::key("m2"))
        .set(Member::EMAIL, "new@example.com")
        .await
        .expect("free address");
    assert!(
        raw_item(&db, "EMAIL#free@example.com", "EMAIL")
            .await
            .is_none()
    );
    assert!(
        raw_item(&db, "EMAIL#new@example.com", "EMAIL")
            .await
            .is_some()
    );
}

#[tokio::test]
async fn a_transaction_update_that_would_move_a_lookup_is_refused() {
    let db = fresh_db::<App>("key_sync_tx_lookup").await;
    let placed = PlacedSensor {
        id: "P1".into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: "13".into(),
    };
    db.put(&placed).await.expect("put");
    let err = db
        .transaction()
        .update(
            db.update(PlacedSensor::key("P1"))
                .set(PlacedSensor::CITY, "Poznań")
                .set(PlacedSensor::BUILDING, "B")
                .set(PlacedSensor::FLOOR, "1")
                .set(PlacedSensor::ROOM, "7"),
        )
        .send()
        .await
        .expect_err("refused");
    assert!(
        matches!(&err, Error::Unsupported { reason, .. } if reason.contains("transaction of its own")),
        "{err:?}"
    );
    assert_eq!(
        db.get(PlacedSensor::key("P1"))
            .consistent()
            .await
            .expect("get"),
        Some(placed),
        "nothing was sent"
    );
}
