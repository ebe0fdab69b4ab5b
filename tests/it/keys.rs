//! Keys as DynamoDB stores and orders them.

use dynamap::codec::AttributeValue::S;
use dynamap::key::{KeyErrorKind, KeyPartError};
use dynamap::{Db, Entity, Error};
use time::macros::datetime;

use crate::models::{App, Sample, Sensor, SensorKind, Tenant, sensor};
use crate::{fresh_db, raw_item};

fn sample(small: u8, big: i64) -> Sample {
    Sample {
        tenant: Tenant("t#1".to_owned()),
        small,
        big,
        at: datetime!(2021-06-01 08:00 -05:00),
        id: uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        kind: SensorKind::CarbonDioxide,
    }
}

/// The sort keys of a partition in DynamoDB's own order.
pub(crate) async fn sort_keys<L: dynamap::Table>(db: &Db<L>, pk: &str) -> Vec<String> {
    let output = db
        .client()
        .query()
        .table_name(db.table_name())
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", S(pk.to_owned()))
        .consistent_read(true)
        .send()
        .await
        .expect("raw query");
    output
        .items()
        .iter()
        .map(|item| item["SK"].as_s().expect("string key").clone())
        .collect()
}

#[tokio::test]
async fn values_holding_the_delimiter_cannot_forge_another_key() {
    let db = fresh_db::<App>("forge").await;
    let mut tricky = sensor("S1#SENSORINFO");
    tricky.city = "tricky".to_owned();
    let plain = sensor("S1");
    db.put(&tricky).await.expect("put tricky");
    db.put(&plain).await.expect("put plain");

    assert_eq!(
        db.get(Sensor::key("S1#SENSORINFO")).await.expect("get"),
        Some(tricky)
    );
    assert_eq!(db.get(Sensor::key("S1")).await.expect("get"), Some(plain));
    assert!(
        raw_item(&db, "SENSOR#S1%23SENSORINFO", "SENSORINFO")
            .await
            .is_some(),
        "escaped as %23"
    );
}

#[tokio::test]
async fn every_key_part_type_round_trips_through_the_stored_key() {
    let db = fresh_db::<App>("parts").await;
    let value = sample(7, -42);
    db.put(&value).await.expect("put");
    let (pk, sk) = value.primary_key().into_values().expect("renders");
    let stored = raw_item(&db, &pk, sk.as_deref().expect("has sk"))
        .await
        .expect("stored");

    let parts = Sample::parse_key(
        stored["PK"].as_s().expect("s"),
        Some(stored["SK"].as_s().expect("s")),
    )
    .expect("parses");
    assert_eq!(
        parts,
        (
            value.tenant.clone(),
            value.small,
            value.big,
            value.at,
            value.id,
            value.kind
        )
    );
    assert_eq!(
        stored["SK"].as_s().expect("s"),
        "S#007#-9223372036854775766#2021-06-01T13:00:00.000000000Z#67e55044-10b1-426f-9247-bb680e5fe0c8#co2"
    );
    assert_eq!(stored["PK"].as_s().expect("s"), "TENANT#t%231");
    assert_eq!(
        db.get(Sample::key(
            Tenant("t#1".to_owned()),
            7u8,
            -42i64,
            value.at,
            value.id,
            value.kind
        ))
        .await
        .expect("get"),
        Some(value)
    );
}

#[tokio::test]
async fn dynamodb_orders_numeric_and_time_parts_by_value() {
    let db = fresh_db::<App>("order").await;
    let bigs = [i64::MIN, -1_000, -10, -9, -1, 0, 1, 9, 10, 1_000, i64::MAX];
    // Written in a scrambled order (7 is coprime to 11), so the order read back comes from
    // DynamoDB.
    for i in 0..bigs.len() {
        db.put(&sample(1, bigs[i * 7 % bigs.len()]))
            .await
            .expect("put");
    }
    let read: Vec<i64> = sort_keys(&db, "TENANT#t%231")
        .await
        .iter()
        .map(|sk| {
            Sample::parse_key("TENANT#t%231", Some(sk))
                .expect("parses")
                .2
        })
        .collect();
    assert_eq!(read, bigs);

    let db = fresh_db::<App>("time_order").await;
    let times = [
        datetime!(2020-03-01 12:30:00 +05:00), // 07:30 UTC
        datetime!(2020-03-01 08:00:00 UTC),
        datetime!(2020-03-01 04:00:00.5 -05:00), // 09:00:00.5 UTC
        datetime!(2020-03-01 09:00:00.75 UTC),
    ];
    for at in times.iter().rev() {
        db.put(&crate::models::Reading {
            sensor_id: "S1".to_owned(),
            at: *at,
            value: 1.0,
        })
        .await
        .expect("put");
    }
    let read: Vec<_> = sort_keys(&db, "SENSOR#S1")
        .await
        .iter()
        .map(|sk| {
            crate::models::Reading::parse_key("SENSOR#S1", Some(sk))
                .expect("parses")
                .1
        })
        .collect();
    assert_eq!(
        read, times,
        "UTC order, whatever offset the values were given in"
    );
}

#[tokio::test]
async fn empty_key_parts_are_rejected_before_sending() {
    let db = fresh_db::<App>("empty_part").await;
    let err = db.put(&sensor("")).await.expect_err("empty id");
    match &err {
        Error::Key(key) => {
            assert_eq!(
                (key.entity, key.attribute, key.field),
                ("Sensor", "PK", Some("id"))
            );
            assert_eq!(key.kind, KeyErrorKind::Part(KeyPartError::Empty));
        }
        other => panic!("expected a key error, got {other:?}"),
    }
    assert!(db.get(Sensor::key("")).await.is_err());
    let scan = db
        .client()
        .scan()
        .table_name(db.table_name())
        .send()
        .await
        .expect("scan");
    assert_eq!(scan.count(), 0, "nothing was written");
}

#[tokio::test]
async fn index_keys_are_checked_too() {
    let db = fresh_db::<App>("empty_index_part").await;
    let mut s = sensor("S1");
    s.building = String::new();
    let err = db.put(&s).await.expect_err("empty building");
    assert!(
        matches!(&err, Error::Key(k) if k.attribute == "GSI1SK" && k.field == Some("building")),
        "{err:?}"
    );
}

#[tokio::test]
async fn stored_keys_of_another_shape_do_not_parse() {
    let err = Sensor::parse_key("READING#S1", Some("SENSORINFO")).expect_err("wrong prefix");
    assert!(matches!(err.kind, KeyErrorKind::NoMatch { .. }), "{err:?}");
    let err = Sample::parse_key("TENANT#t", Some("S#007#12#x#y#Gas")).expect_err("bad parts");
    assert_eq!(err.field, Some("big"));
}

#[tokio::test]
async fn an_enum_key_part_and_its_stored_attribute_say_the_same() {
    let db = fresh_db::<App>("keys_enum_names").await;
    let value = sample(1, 2);
    db.put(&value).await.expect("put");
    let (pk, sk) = value.primary_key().into_values().expect("key");
    let sk = sk.expect("sort key");
    assert!(sk.ends_with("#co2"), "{sk}");
    let raw = raw_item(&db, &pk, &sk).await.expect("stored");
    assert_eq!(raw["kind"], S("co2".into()), "serde's name drives both");
}
