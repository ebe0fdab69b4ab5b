//! Batch gets of several entity types, decoded through an entity enum.

use dynamap::Error;
use dynamap_local::Faults;
use time::macros::datetime;

use super::faulty_db;
use crate::models::{Reading, Sensor, SensorItem, sensor};

fn reading(sensor_id: &str, minute: u8) -> Reading {
    Reading {
        sensor_id: sensor_id.to_owned(),
        at: datetime!(2026-11-25 08:00 UTC) + time::Duration::minutes(minute.into()),
        value: f64::from(minute),
    }
}

#[tokio::test]
async fn mixed_keys_come_back_as_variants_in_order_despite_unprocessed_keys() {
    let faults = Faults::seeded(5)
        .unprocessed(0.5)
        .throttle(0.1)
        .only(["BatchGetItem"]);
    let db = faulty_db("batch_get_mixed", &faults).await;
    let sensors: Vec<_> = (0..60).map(|i| sensor(&format!("S{i}"))).collect();
    let readings: Vec<_> = (0..60).map(|m| reading("S0", m)).collect();
    assert!(
        db.put_all(sensors.clone())
            .await
            .expect("put")
            .is_complete()
    );
    assert!(
        db.put_all(readings.clone())
            .await
            .expect("put")
            .is_complete()
    );

    // 60 sensors, 60 readings, a missing sensor, a sensor asked twice: 122 keys, two calls
    // at least.
    let report = db
        .batch_get(sensors.iter().map(|s| Sensor::key(s.id.clone())))
        .decode_as::<SensorItem>()
        .keys(
            readings
                .iter()
                .map(|r| Reading::key(r.sensor_id.clone(), r.at)),
        )
        .key(Sensor::key("S999"))
        .key(Sensor::key("S7"))
        .consistent()
        .await
        .expect("batch runs");

    assert!(report.is_complete(), "{:?}", report.failed);
    assert_eq!(report.items.len(), 122);
    for (i, s) in sensors.iter().enumerate() {
        assert_eq!(
            report.items[i],
            Some(SensorItem::Sensor(s.clone())),
            "position {i}"
        );
    }
    for (i, r) in readings.iter().enumerate() {
        assert_eq!(
            report.items[60 + i],
            Some(SensorItem::Reading(r.clone())),
            "position {}",
            60 + i
        );
    }
    assert_eq!(report.items[120], None);
    assert_eq!(report.items[121], Some(SensorItem::Sensor(sensor("S7"))));
    assert!(
        faults.counts().unprocessed_items > 0,
        "{:?}",
        faults.counts()
    );
}

#[tokio::test]
async fn an_item_of_a_type_the_enum_does_not_know_is_reported_at_its_position() {
    let db = faulty_db("batch_get_unknown", &Faults::seeded(1)).await;
    db.put(&sensor("S1")).await.expect("put");
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", dynamap::codec::AttributeValue::S("SENSOR#S2".into()))
        .item("SK", dynamap::codec::AttributeValue::S("SENSORINFO".into()))
        .item("_type", dynamap::codec::AttributeValue::S("Gateway".into()))
        .send()
        .await
        .expect("raw put");

    let report = db
        .batch_get([Sensor::key("S2")])
        .decode_as::<SensorItem>()
        .key(Sensor::key("S1"))
        .await
        .expect("batch runs");
    assert_eq!(report.items[0], None);
    assert_eq!(report.items[1], Some(SensorItem::Sensor(sensor("S1"))));
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].index, 0);
    assert!(
        matches!(&*report.failed[0].error, Error::UnknownEntityType { found: Some(found), .. } if found == "Gateway"),
        "{}",
        report.failed[0].error
    );
}
