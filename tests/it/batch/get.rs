//! Batch gets: order, duplicates, missing and bad keys, unprocessed keys.

use dynamap_local::Faults;

use super::{event_time, fan_out, faulty_db};
use crate::models::TimelineEntry;

#[tokio::test]
async fn batch_get_returns_every_item_despite_unprocessed_keys() {
    let faults = Faults::seeded(11)
        .unprocessed(0.6)
        .throttle(0.1)
        .only(["BatchGetItem"]);
    let db = faulty_db("batch_get", &faults).await;
    let report = db.put_all(fan_out(0..250)).await.expect("batch runs");
    assert!(report.is_complete(), "{report}");

    let at = event_time();
    // Every stored key, three missing ones, one asked twice and one bad key, in that order.
    let followers: Vec<u64> = (0..250).chain([900, 901, 902, 7]).collect();
    let keys = followers
        .iter()
        .map(|f| TimelineEntry::key(*f, at, "live-42"));
    let keys = keys.chain([TimelineEntry::key(1, at, "")]);
    let got = db.batch_get(keys).consistent().await.expect("batch runs");

    assert_eq!(got.items.len(), 255);
    for (i, follower) in followers.iter().enumerate() {
        let item = got.items[i].as_ref().map(|e| e.follower);
        let expected = (*follower < 250).then_some(*follower);
        assert_eq!(item, expected, "position {i}");
    }
    assert!(got.items[254].is_none());
    let failed: Vec<_> = got
        .failed
        .iter()
        .map(|f| (f.index, f.key.is_none()))
        .collect();
    assert_eq!(failed, [(254, true)], "only the bad key fails");
    let counts = faults.counts();
    assert!(
        counts.unprocessed_items > 0 && counts.calls > 3,
        "{counts:?}"
    );
}
