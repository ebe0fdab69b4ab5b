//! Batch writes and gets against DynamoDB Local, with and without injected faults, and
//! what they share: the timeline fan-out of seed 004 and checks of what is stored.

mod fan_out;
mod get;
mod get_mixed;
mod write;

use std::collections::HashSet;

use dynamap::batch::FailedWrite;
use dynamap::{Db, Entity};
use dynamap_local::{DynamoLocal, Faults};
use time::OffsetDateTime;

use crate::models::{App, TimelineEntry};

/// 2100-01-01T00:00:00Z.
const EVENT_SECONDS: i64 = 4_102_444_800;

/// The instant of the fan-out's event.
pub(super) fn event_time() -> OffsetDateTime {
    // In the future, so the entries' TTL (a month later) has not passed: reads hide
    // expired items.
    OffsetDateTime::from_unix_timestamp(EVENT_SECONDS).expect("valid time")
}

/// A test table whose client gets `faults`.
pub(super) async fn faulty_db(test: &str, faults: &Faults) -> Db<App> {
    DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .fresh_db_with_faults::<App>(test, faults)
        .await
        .expect("test table is created")
}

/// Seed 004's fan-out: one timeline entry per follower for a stream that went live.
pub(super) fn fan_out(
    followers: std::ops::Range<u64>,
) -> impl Iterator<Item = TimelineEntry> + Send {
    let at = event_time();
    followers.map(move |follower| TimelineEntry {
        follower,
        at,
        stream: "live-42".to_owned(),
        streamer: "streamer-7".to_owned(),
        expires_at: EVENT_SECONDS + 30 * 86_400,
    })
}

/// A client without faults on the same table, to check what is stored.
pub(super) fn clean_client() -> aws_sdk_dynamodb::Client {
    DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .client()
}

/// Every (PK, SK) stored, read with a consistent scan through a raw SDK client.
pub(super) async fn stored_keys<L: dynamap::Table>(db: &Db<L>) -> Vec<(String, String)> {
    let items = clean_client()
        .scan()
        .table_name(db.table_name())
        .consistent_read(true)
        .projection_expression("PK, SK")
        .into_paginator()
        .items()
        .send()
        .try_collect()
        .await
        .expect("scan");
    items
        .into_iter()
        .map(|item| {
            let get = |name: &str| item[name].as_s().expect("string key").clone();
            (get("PK"), get("SK"))
        })
        .collect()
}

/// The number of items stored, by a `Select COUNT` scan.
pub(super) async fn stored_count<L: dynamap::Table>(db: &Db<L>) -> usize {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = clean_client()
            .scan()
            .table_name(db.table_name())
            .consistent_read(true)
            .select(aws_sdk_dynamodb::types::Select::Count)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("count scan");
        count += usize::try_from(page.count).expect("non-negative");
        start = page.last_evaluated_key;
        if start.is_none() {
            return count;
        }
    }
}

pub(super) fn failed_key(failed: &FailedWrite) -> (String, String) {
    let key = failed.key.as_ref().expect("rendered key");
    (key.pk.clone(), key.sk.clone().expect("sort key"))
}

/// Checks "nothing lost, nothing doubled": every item is either stored or reported.
pub(super) async fn assert_exactly_once<L: dynamap::Table>(
    db: &Db<L>,
    expected: HashSet<(String, String)>,
    written: usize,
    failed: &[FailedWrite],
) {
    assert_eq!(
        written + failed.len(),
        expected.len(),
        "every item accounted for"
    );
    let stored = stored_keys(db).await;
    let distinct: HashSet<_> = stored.iter().cloned().collect();
    assert_eq!(distinct.len(), stored.len(), "keys are distinct");
    assert_eq!(stored_count(db).await, written, "count scan equals written");
    let failed: HashSet<_> = failed.iter().map(failed_key).collect();
    assert!(failed.is_disjoint(&distinct), "failed items are not stored");
    let missing: HashSet<_> = expected.difference(&distinct).cloned().collect();
    assert_eq!(missing, failed, "everything not stored was reported");
}

pub(super) fn keys_of(entries: impl Iterator<Item = TimelineEntry>) -> HashSet<(String, String)> {
    entries
        .map(|e| {
            let (pk, sk) = e.primary_key().into_values().expect("key");
            (pk, sk.expect("sort key"))
        })
        .collect()
}
