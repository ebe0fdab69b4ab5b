//! Put, create, replace, get and delete against DynamoDB Local.

use dynamap::codec::AttributeValue::{N, S};
use dynamap::{Entity, Error};

use crate::models::{App, Reading, Sensor, SensorKind, sensor};
use crate::{fresh_db, raw_item};

#[tokio::test]
async fn put_then_get_returns_the_same_entity() {
    let db = fresh_db::<App>("put_get").await;
    let mut s1 = sensor("S1");
    s1.note = Some("by the window".to_owned());
    db.put(&s1).await.expect("put");

    assert_eq!(
        db.get(Sensor::key("S1")).await.expect("get"),
        Some(s1.clone())
    );
    assert_eq!(
        db.get(Sensor::key("S1"))
            .consistent()
            .await
            .expect("consistent get"),
        Some(s1)
    );
    assert_eq!(db.get(Sensor::key("S2")).await.expect("get missing"), None);
}

#[tokio::test]
async fn stored_item_holds_keys_entity_type_and_renamed_fields() {
    let db = fresh_db::<App>("stored_item").await;
    let mut s1 = sensor("S1");
    s1.cached_label = "not stored".to_owned();
    db.put(&s1).await.expect("put");

    let item = raw_item(&db, "SENSOR#S1", "SENSORINFO")
        .await
        .expect("stored");
    assert_eq!(item["_type"], S("Sensor".to_owned()));
    assert_eq!(item["GSI1PK"], S("CITY#Poznań".to_owned()));
    assert_eq!(item["GSI1SK"], S("LOC#A#2#13".to_owned()));
    assert_eq!(item["type"], S("Gas".to_owned()), "renamed field");
    assert!(!item.contains_key("kind"));
    assert!(!item.contains_key("note"), "None is left out");
    assert!(!item.contains_key("cached_label"), "skipped field");
    // A skipped field reads back as its default.
    let read = db
        .get(Sensor::key("S1"))
        .await
        .expect("get")
        .expect("found");
    assert_eq!(read.cached_label, "");
}

#[tokio::test]
async fn sparse_index_attributes_are_written_only_when_every_field_is_present() {
    let db = fresh_db::<App>("sparse").await;
    let mut unplaced = sensor("S9");
    unplaced.room = None;
    db.put(&unplaced).await.expect("put");
    let item = raw_item(&db, "SENSOR#S9", "SENSORINFO")
        .await
        .expect("stored");
    assert!(
        !item.contains_key("GSI1PK") && !item.contains_key("GSI1SK"),
        "{item:?}"
    );
    assert_eq!(
        db.get(Sensor::key("S9")).await.expect("get"),
        Some(unplaced)
    );
}

#[tokio::test]
async fn create_fails_when_the_item_exists() {
    let db = fresh_db::<App>("create").await;
    db.create(&sensor("S1")).await.expect("first create");

    let mut changed = sensor("S1");
    changed.city = "Berlin".to_owned();
    let err = db.create(&changed).await.expect_err("second create");
    assert!(err.is_conditional_check_failed(), "{err}");
    assert!(matches!(
        err,
        Error::ConditionalCheckFailed {
            entity: "Sensor",
            operation: "create",
            ..
        }
    ));
    let stored = db
        .get(Sensor::key("S1"))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(stored.city, "Poznań", "the failed create changed nothing");
}

#[tokio::test]
async fn replace_fails_when_the_item_is_missing() {
    let db = fresh_db::<App>("replace").await;
    let err = db
        .replace(&sensor("S1"))
        .await
        .expect_err("replace of nothing");
    assert!(err.is_conditional_check_failed(), "{err}");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        None
    );

    db.put(&sensor("S1")).await.expect("put");
    let mut moved = sensor("S1");
    moved.floor = "3".to_owned();
    db.replace(&moved)
        .await
        .expect("replace of an existing item");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        Some(moved)
    );
}

#[tokio::test]
async fn delete_removes_the_item() {
    let db = fresh_db::<App>("delete").await;
    db.put(&sensor("S1")).await.expect("put");
    db.delete(Sensor::key("S1")).await.expect("delete");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        None
    );

    db.delete(Sensor::key("S1"))
        .await
        .expect("deleting nothing succeeds");
    let err = db
        .delete(Sensor::key("S1"))
        .if_exists()
        .await
        .expect_err("if_exists on nothing");
    assert!(err.is_conditional_check_failed(), "{err}");
}

#[tokio::test]
async fn a_conditional_delete_deletes_only_a_matching_item() {
    let db = fresh_db::<App>("delete_condition").await;
    db.put(&sensor("S1")).await.expect("put");
    let city = sensor("S1").city;
    let err = db
        .delete(Sensor::key("S1"))
        .condition(Sensor::CITY.ne(city.as_str()))
        .await
        .expect_err("the condition does not hold");
    assert!(err.is_conditional_check_failed(), "{err}");
    assert!(
        db.get(Sensor::key("S1"))
            .consistent()
            .await
            .expect("get")
            .is_some()
    );

    db.delete(Sensor::key("S1"))
        .if_exists()
        .condition(Sensor::CITY.eq(city.as_str()))
        .await
        .expect("the condition holds");
    assert_eq!(
        db.get(Sensor::key("S1")).consistent().await.expect("get"),
        None
    );

    // In a transaction, the same builders: a put conditioned and a create.
    db.transaction()
        .put(db.create(&sensor("S1")))
        .put(db.put(&sensor("S2")).condition(Sensor::CITY.not_exists()))
        .send()
        .await
        .expect("created");
    let err = db
        .transaction()
        .put(db.put(&sensor("S2")).condition(Sensor::CITY.not_exists()))
        .send()
        .await
        .expect_err("S2 has a city now");
    assert!(err.is_conditional_check_failed(), "{err}");
}

#[tokio::test]
async fn decoding_names_the_missing_attribute() {
    let db = fresh_db::<App>("missing_attr").await;
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", S("SENSOR#S1".to_owned()))
        .item("SK", S("SENSORINFO".to_owned()))
        .item("_type", S("Sensor".to_owned()))
        .item("id", S("S1".to_owned()))
        .item("building", S("A".to_owned()))
        .item("floor", S("2".to_owned()))
        .item("type", S("Gas".to_owned()))
        .send()
        .await
        .expect("raw put");
    let err = db
        .get(Sensor::key("S1"))
        .await
        .expect_err("city is missing");
    assert!(
        matches!(
            err,
            Error::MissingAttribute {
                entity: "Sensor",
                attribute: "city",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "item (SENSOR#S1, SENSORINFO) of entity `Sensor` has no attribute `city`"
    );
}

#[tokio::test]
async fn decoding_names_the_wrongly_typed_attribute() {
    let db = fresh_db::<App>("wrong_type").await;
    db.put(&Reading {
        sensor_id: "S1".to_owned(),
        at: time::macros::datetime!(2020-03-01 12:30 UTC),
        value: 0.5,
    })
    .await
    .expect("put");
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", S("SENSOR#S1".to_owned()))
        .key("SK", S("READ#2020-03-01T12:30:00.000000000Z".to_owned()))
        .update_expression("SET #v = :v")
        .expression_attribute_names("#v", "value")
        .expression_attribute_values(":v", S("high".to_owned()))
        .send()
        .await
        .expect("raw update");
    let key = Reading::key("S1", time::macros::datetime!(2020-03-01 12:30 UTC));
    let err = db.get(key).await.expect_err("value is a string");
    assert!(
        matches!(
            err,
            Error::InvalidAttribute {
                entity: "Reading",
                attribute: "value",
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_item_of_another_entity_type_is_not_decoded() {
    let db = fresh_db::<App>("wrong_entity").await;
    db.put(&sensor("S1")).await.expect("put");
    let item = raw_item(&db, "SENSOR#S1", "SENSORINFO")
        .await
        .expect("stored");
    let err = Reading::from_item(item).expect_err("a sensor is not a reading");
    assert!(
        matches!(&err, Error::WrongEntityType { expected: "Reading", found: Some(found), .. } if found == "Sensor"),
        "{err:?}"
    );
}

#[tokio::test]
async fn enum_fields_and_numbers_are_stored_as_native_attributes() {
    let db = fresh_db::<App>("native").await;
    let reading = Reading {
        sensor_id: "S1".to_owned(),
        at: time::macros::datetime!(2020-03-01 14:30 +02:00),
        value: 0.67,
    };
    db.put(&reading).await.expect("put");
    let item = raw_item(&db, "SENSOR#S1", "READ#2020-03-01T12:30:00.000000000Z")
        .await
        .expect("stored in UTC");
    assert_eq!(item["value"], N("0.67".to_owned()));
    assert_eq!(item["at"], S("2020-03-01T12:30:00.000000000Z".to_owned()));

    let mut s = sensor("S2");
    s.kind = SensorKind::CarbonDioxide;
    db.put(&s).await.expect("put");
    let item = raw_item(&db, "SENSOR#S2", "SENSORINFO")
        .await
        .expect("stored");
    assert_eq!(
        item["type"],
        S("co2".to_owned()),
        "serde's rename decides the attribute form, and the key part's"
    );
}
