//! Typed queries on lookup items: the owners' keys with segment-exact sort prefixes, the
//! owners in one more call, and lookups that follow their owners when they move.

use dynamap::codec::AttributeValue::S;

use crate::fresh_db;
use crate::models::App;
use crate::write_models::{Member, PlacedSensor};

fn placed(id: &str, city: &str, building: &str, floor: &str, room: &str) -> PlacedSensor {
    PlacedSensor {
        id: id.into(),
        city: city.into(),
        building: building.into(),
        floor: floor.into(),
        room: room.into(),
    }
}

fn ids(sensors: Vec<PlacedSensor>) -> Vec<String> {
    sensors.into_iter().map(|s| s.id).collect()
}

#[tokio::test]
async fn a_lookup_query_finds_the_owners_by_segment_exact_prefixes() {
    let db = fresh_db::<App>("lookup-query").await;
    let sensors = [
        placed("s1", "Poznań", "A", "2", "13"),
        placed("s2", "Poznań", "A", "2", "432"),
        placed("s3", "Poznań", "A", "20", "1"),
        placed("s4", "Poznań", "B", "2", "7"),
        placed("s5", "Berlin", "A", "2", "13"),
    ];
    for s in &sensors {
        db.put(s).await.expect("put");
    }
    // Another entity's item in the lookups' partition, under the same sort prefix: not a
    // lookup, so not read as one.
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", S("CITY#Poznań".into()))
        .item("SK", S("LOCATION#A#2#99#x".into()))
        .item("_type", S("Note".into()))
        .send()
        .await
        .expect("raw put");

    let keys = db
        .query(PlacedSensor::by_location("Poznań"))
        .sk_prefix(("A", "2"))
        .all()
        .await
        .expect("lookup query");
    let keys: Vec<_> = keys
        .iter()
        .map(|k| k.key().values().expect("key").0.to_owned())
        .collect();
    assert_eq!(keys, ["PLACED#s1", "PLACED#s2"], "floor 2, not 20");

    let owners = db
        .query(PlacedSensor::by_location("Poznań"))
        .sk_prefix(("A",))
        .owners()
        .await
        .expect("owners");
    assert_eq!(ids(owners), ["s1", "s2", "s3"]);
    let all = db
        .query(PlacedSensor::by_location("Poznań"))
        .owners()
        .await
        .expect("owners");
    assert_eq!(ids(all), ["s1", "s2", "s3", "s4"]);
    let exact = db
        .query(PlacedSensor::by_location("Poznań"))
        .sk_prefix(("A", "2", "432"))
        .owners()
        .await
        .expect("owners");
    assert_eq!(exact, [sensors[1].clone()]);

    // The keys read the owners too, and pages carry on with a cursor.
    let first = db
        .query(PlacedSensor::by_location("Poznań"))
        .limit(2)
        .send()
        .await
        .expect("page");
    let owner = db
        .get(first.items[0].key().clone())
        .consistent()
        .await
        .expect("get");
    assert_eq!(owner, Some(sensors[0].clone()));
    let rest = db
        .query(PlacedSensor::by_location("Poznań"))
        .limit(2)
        .after(first.cursor.expect("more"))
        .send()
        .await
        .expect("next page");
    assert_eq!(rest.items.len(), 2);
}

#[tokio::test]
async fn lookup_queries_follow_moves_and_deletes() {
    let db = fresh_db::<App>("lookup-query-moves").await;
    db.put(&placed("s1", "Poznań", "A", "2", "13"))
        .await
        .expect("put");
    db.put(&placed("s2", "Poznań", "A", "2", "14"))
        .await
        .expect("put");
    // s1 moves to Berlin; s2 is removed.
    db.put(&placed("s1", "Berlin", "C", "1", "1"))
        .await
        .expect("move");
    db.delete(PlacedSensor::key("s2")).await.expect("delete");

    let poznan = db
        .query(PlacedSensor::by_location("Poznań"))
        .owners()
        .await
        .expect("owners");
    assert_eq!(poznan, []);
    let berlin = db
        .query(PlacedSensor::by_location("Berlin"))
        .sk_prefix(("C", "1"))
        .owners()
        .await
        .expect("owners");
    assert_eq!(ids(berlin), ["s1"]);
}

#[tokio::test]
async fn a_uniqueness_lookup_answers_who_holds_an_email() {
    let db = fresh_db::<App>("lookup-query-email").await;
    let member = Member {
        id: "m1".into(),
        email: "ada@example.com".into(),
    };
    db.put(&member).await.expect("put");
    let holders = db
        .query(Member::by_email("ada@example.com"))
        .owners()
        .await
        .expect("owners");
    assert_eq!(holders, [member]);
    let nobody = db
        .query(Member::by_email("bob@example.com"))
        .all()
        .await
        .expect("keys");
    assert!(nobody.is_empty());
}
