//! Time to live: stored as epoch seconds in the table's TTL attribute, and expired items
//! hidden from every read until DynamoDB deletes them.

use dynamap::Db;
use time::{Duration, OffsetDateTime};

use crate::codec_models::{Draft, Entry, SleepApp};
use crate::{fresh_db, raw_item};

/// A table whose TTL is switched off again after creation, so DynamoDB Local does not
/// delete expired items while the test looks at them: what the reads return is then down
/// to dynamap alone.
async fn table_without_background_deletes(test: &str) -> Db<SleepApp> {
    let db = fresh_db::<SleepApp>(test).await;
    db.client()
        .update_time_to_live()
        .table_name(db.table_name())
        .time_to_live_specification(
            aws_sdk_dynamodb::types::TimeToLiveSpecification::builder()
                .attribute_name("expires_at")
                .enabled(false)
                .build()
                .expect("valid specification"),
        )
        .send()
        .await
        .expect("TTL switched off");
    db
}

fn entry(seq: u32, expires_at: OffsetDateTime) -> Entry {
    Entry {
        user: "u1".into(),
        seq,
        expires_at,
    }
}

#[tokio::test]
async fn the_ttl_attribute_holds_epoch_seconds_as_a_number() {
    let db = fresh_db::<SleepApp>("ttl_epoch_seconds").await;
    let at = time::macros::datetime!(2030-01-02 03:04:05.678 UTC);
    db.put(&entry(1, at)).await.expect("put");
    let raw = raw_item(&db, "FEED#u1", "ENTRY#0000000001")
        .await
        .expect("stored");
    assert_eq!(raw["expires_at"].as_n().expect("a number"), "1893553445");
    // Whole seconds are stored, so the value reads back without its fraction.
    let read = db
        .get(Entry::key("u1", 1u32))
        .await
        .expect("get")
        .expect("found");
    assert_eq!(
        read.expires_at,
        time::macros::datetime!(2030-01-02 03:04:05 UTC)
    );

    let table = db
        .client()
        .describe_time_to_live()
        .table_name(db.table_name())
        .send()
        .await
        .expect("describe");
    let ttl = table.time_to_live_description.expect("a TTL description");
    assert_eq!(ttl.attribute_name(), Some("expires_at"));
}

#[tokio::test]
async fn expired_items_are_hidden_from_get_query_scan_and_batch_get() {
    let db = table_without_background_deletes("ttl_hidden").await;
    let now = OffsetDateTime::now_utc();
    let expired = entry(1, now - Duration::hours(1));
    let live = entry(2, now + Duration::days(30));
    db.put(&expired).await.expect("put expired");
    db.put(&live).await.expect("put live");
    let never = Draft {
        id: "d".into(),
        expires_at: None,
    };
    db.put(&never).await.expect("put a draft without TTL");
    let stale_draft = Draft {
        id: "old".into(),
        expires_at: Some(now - Duration::days(1)),
    };
    db.put(&stale_draft).await.expect("put an expired draft");
    let truncate = |e: &Entry| Entry {
        expires_at: e.expires_at.replace_nanosecond(0).expect("valid"),
        ..e.clone()
    };

    // Still stored: DynamoDB has not deleted it.
    assert!(raw_item(&db, "FEED#u1", "ENTRY#0000000001").await.is_some());

    assert_eq!(db.get(Entry::key("u1", 1u32)).await.expect("get"), None);
    assert_eq!(
        db.get(Entry::key("u1", 2u32)).await.expect("get"),
        Some(truncate(&live))
    );
    let feed = db.query(Entry::partition("u1")).all().await.expect("query");
    assert_eq!(feed, vec![truncate(&live)]);
    assert_eq!(
        db.query(Entry::partition("u1"))
            .count()
            .await
            .expect("count"),
        1
    );
    let scanned = db.scan::<Entry>().all().await.expect("scan");
    assert_eq!(scanned, vec![truncate(&live)]);
    let batch = db
        .batch_get([Entry::key("u1", 1u32), Entry::key("u1", 2u32)])
        .await
        .expect("batch get");
    assert_eq!(batch.items, vec![None, Some(truncate(&live))]);
    assert_eq!(db.get(Draft::key("d")).await.expect("get"), Some(never));
    assert_eq!(db.get(Draft::key("old")).await.expect("get"), None);

    // Each read can ask for expired items, and so can the whole handle.
    assert!(
        db.get(Entry::key("u1", 1u32))
            .include_expired()
            .await
            .expect("get")
            .is_some()
    );
    let all = db
        .query(Entry::partition("u1"))
        .include_expired()
        .all()
        .await
        .expect("query");
    assert_eq!(all.len(), 2);
    assert_eq!(
        db.scan::<Entry>()
            .include_expired()
            .all()
            .await
            .expect("scan")
            .len(),
        2
    );
    let batch = db
        .batch_get([Entry::key("u1", 1u32)])
        .include_expired()
        .await
        .expect("batch get");
    assert!(batch.items[0].is_some());
    let everything = db.clone().include_expired_items();
    assert_eq!(
        everything
            .query(Entry::partition("u1"))
            .all()
            .await
            .expect("query")
            .len(),
        2
    );
}
