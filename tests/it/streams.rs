//! Stream records on DynamoDB Local: a table with a stream, writes of several entities, the
//! shard read with the SDK's streams client, and each record decoded.

use dynamap::Db;
use dynamap::admin::StreamView;
use dynamap::streams::aws_sdk_dynamodbstreams::types::{Record, ShardIteratorType};
use dynamap::streams::{ChangeKind, decode};
use dynamap_local::DynamoLocal;
use time::macros::datetime;

use crate::models::{App, Reading, Sensor, SensorItem, sensor};

/// Every record of the table's stream so far, in order (DynamoDB Local has one shard for a
/// small table; all shards are read anyway).
pub(crate) async fn stream_records<L: dynamap::Table>(db: &Db<L>) -> Vec<Record> {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let streams = local.streams_client();
    let arn = db
        .describe_table()
        .await
        .expect("described")
        .latest_stream_arn()
        .expect("the table has a stream")
        .to_owned();
    let description = streams
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .expect("describe stream");
    let shards = description
        .stream_description()
        .map(|d| d.shards().to_vec())
        .unwrap_or_default();
    let mut records = Vec::new();
    for shard in shards {
        let mut iterator = streams
            .get_shard_iterator()
            .stream_arn(&arn)
            .shard_id(shard.shard_id().expect("shard id"))
            .shard_iterator_type(ShardIteratorType::TrimHorizon)
            .send()
            .await
            .expect("iterator")
            .shard_iterator;
        // An open shard always hands back a next iterator: stop at the first empty page.
        while let Some(it) = iterator {
            let page = streams
                .get_records()
                .shard_iterator(it)
                .send()
                .await
                .expect("records");
            if page.records().is_empty() {
                break;
            }
            records.extend(page.records().iter().cloned());
            iterator = page.next_shard_iterator;
        }
    }
    records
}

#[tokio::test]
async fn records_read_from_the_stream_decode_into_entities_and_entity_enums() {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let db: Db<App> = Db::new(
        local.client(),
        format!("streams-{}", uuid::Uuid::new_v4().simple()),
    );
    db.create_table()
        .stream(StreamView::NewAndOldImages)
        .await
        .expect("created");

    let at = datetime!(2026-11-25 08:00 UTC);
    let reading = Reading {
        sensor_id: "S1".into(),
        at,
        value: 0.5,
    };
    db.put(&sensor("S1")).await.expect("insert");
    db.put(&reading).await.expect("insert reading");
    let mut moved = sensor("S1");
    moved.floor = "3".into();
    db.put(&moved).await.expect("modify");
    db.delete(Sensor::key("S1")).await.expect("remove");

    let records = stream_records(&db).await;
    assert_eq!(records.len(), 4, "{records:?}");

    // As sensors: the reading's record is about another entity.
    let sensors: Vec<_> = records
        .iter()
        .map(|r| decode::<Sensor>(r).expect("decoded"))
        .collect();
    assert!(sensors[1].is_none(), "a reading is not a sensor");
    let sensors: Vec<_> = sensors.into_iter().flatten().collect();
    let kinds: Vec<_> = sensors.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [ChangeKind::Insert, ChangeKind::Modify, ChangeKind::Remove]
    );
    assert_eq!(
        (&sensors[0].old, &sensors[0].new),
        (&None, &Some(sensor("S1")))
    );
    assert_eq!(
        (&sensors[1].old, &sensors[1].new),
        (&Some(sensor("S1")), &Some(moved.clone()))
    );
    assert_eq!(
        (&sensors[2].old, &sensors[2].new),
        (&Some(moved.clone()), &None)
    );
    assert_eq!(sensors[2].latest(), Some(&moved));
    assert_eq!(
        sensors[0]
            .keys
            .get("PK")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str),
        Some("SENSOR#S1")
    );

    // As the partition's entity enum: every record, each as its own variant.
    let items: Vec<_> = records
        .into_iter()
        .map(|r| {
            decode::<SensorItem>(r)
                .expect("decoded")
                .expect("known type")
        })
        .collect();
    assert_eq!(items[1].new, Some(SensorItem::Reading(reading)));
    assert_eq!(items[3].old, Some(SensorItem::Sensor(moved)));
}

#[tokio::test]
async fn a_keys_only_record_is_refused_with_a_reason() {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let db: Db<App> = Db::new(
        local.client(),
        format!("streams-keys-{}", uuid::Uuid::new_v4().simple()),
    );
    db.create_table()
        .stream(StreamView::KeysOnly)
        .await
        .expect("created");
    db.put(&sensor("S1")).await.expect("insert");
    let records = stream_records(&db).await;
    assert_eq!(records.len(), 1);
    let err = decode::<Sensor>(&records[0]).expect_err("no images");
    assert!(err.to_string().contains("KEYS_ONLY"), "{err}");
    assert!(
        matches!(
            &err,
            dynamap::Error::InvalidStreamRecord {
                problem: dynamap::StreamRecordProblem::NoImage,
                event_name,
                ..
            } if event_name == "INSERT"
        ),
        "{err:?}"
    );
}
