//! Rolled tables keep every setting of the handle they are made from
//! (`RollingTables::from_db`): metrics recorded under the rolled table's name, the cursor
//! key, and expired items shown. Each test names its tables with a prefix of its own.

use dynamap::metrics::REQUESTS;
use dynamap::timeseries::rolling::{RollingTables, TableNaming};
use dynamap::{Db, Error};
use dynamap_local::DynamoLocal;
use metrics_util::debugging::DebuggingRecorder;
use time::{Duration, OffsetDateTime};

use crate::codec_models::{Entry, SleepApp};

/// 2020-01-15 (noon UTC): the event time and the write time of every rolled table here.
const JAN_2020: i64 = 1_579_089_600_000;

/// A handle of layout `SleepApp` on no table of its own: the settings rolled tables copy.
fn base(test: &str) -> (Db<SleepApp>, TableNaming) {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let prefix = format!("rs-{test}-{}.", uuid::Uuid::new_v4().simple());
    let naming = TableNaming::new(prefix.clone()).expect("valid prefix");
    (Db::new(local.client(), prefix), naming)
}

fn entry(seq: u32, expires_at: OffsetDateTime) -> Entry {
    Entry {
        user: "u1".into(),
        seq,
        expires_at,
    }
}

#[tokio::test]
async fn a_rolled_table_records_metrics_under_its_own_name() {
    let (db, naming) = base("metrics");
    let rolling = RollingTables::from_db(&db.with_metrics(), naming);
    let rolled = rolling
        .db_for(JAN_2020, JAN_2020)
        .await
        .expect("rolled table");
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let far = OffsetDateTime::now_utc() + Duration::days(30);
    rolled.put(&entry(1, far)).await.expect("put");

    let requests: Vec<_> = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .filter(|(key, ..)| key.key().name() == REQUESTS)
        .map(|(key, ..)| {
            key.key()
                .labels()
                .map(|l| (l.key().to_owned(), l.value().to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(
        requests[0].contains(&("table".to_owned(), rolled.table_name().to_owned())),
        "{requests:?}"
    );
}

#[tokio::test]
async fn a_rolled_table_refuses_a_cursor_not_signed_with_the_key() {
    let (db, naming) = base("cursor");
    let keyed = RollingTables::from_db(&db.with_cursor_key(b"the service's secret"), naming);
    let rolled = keyed
        .db_for(JAN_2020, JAN_2020)
        .await
        .expect("rolled table");
    let far = OffsetDateTime::now_utc() + Duration::days(30);
    for seq in 1..=3 {
        rolled.put(&entry(seq, far)).await.expect("put");
    }
    let page = || rolled.query(Entry::partition("u1")).limit(1);
    let signed = page().send().await.expect("page").cursor.expect("more");
    page()
        .after(signed)
        .send()
        .await
        .expect("its own cursor resumes");

    // The same query through a handle without the key makes a cursor anyone can make.
    let unkeyed: Db<SleepApp> = Db::new(rolled.client().clone(), rolled.table_name());
    let forged = unkeyed
        .query(Entry::partition("u1"))
        .limit(1)
        .send()
        .await
        .expect("page")
        .cursor
        .expect("more");
    let err = page().after(forged).send().await.expect_err("forged");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
}

#[tokio::test]
async fn a_rolled_table_shows_expired_items_when_the_handle_does() {
    let (db, naming) = base("expired");
    let rolling = RollingTables::from_db(&db.include_expired_items(), naming);
    let rolled = rolling
        .db_for(JAN_2020, JAN_2020)
        .await
        .expect("rolled table");
    // TTL off again, so DynamoDB Local does not delete the item while the test reads it.
    rolled
        .client()
        .update_time_to_live()
        .table_name(rolled.table_name())
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
    // Whole seconds: the TTL attribute stores epoch seconds.
    let an_hour_ago = OffsetDateTime::now_utc().unix_timestamp() - 3_600;
    let expired = entry(
        1,
        OffsetDateTime::from_unix_timestamp(an_hour_ago).expect("valid time"),
    );
    rolled.put(&expired).await.expect("put");

    let read = rolled.get(Entry::key("u1", 1)).await.expect("get");
    assert_eq!(read, Some(expired.clone()));
    // And through a handle made by the router itself, not only the one it returned.
    let again = rolling.db(&rolling.tables().await.expect("tables")[0]);
    assert_eq!(
        again.get(Entry::key("u1", 1)).await.expect("get"),
        Some(expired)
    );
}
