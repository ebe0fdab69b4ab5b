//! Concurrent first writers of one timestamp, replays, and what each write path costs.

use std::collections::BTreeSet;
use std::time::Duration;

use dynamap::codec::AttributeValue;
use dynamap::timeseries::rows::{EventRows, WritePath, WriteStatus};

use super::{CarEvent, Iot, PK, event, now_ms, raw_rows, seqs, write_concurrently};
use crate::{fresh_db, raw_item};

async fn twenty_concurrent_writers(test: &str, path: WritePath, at: i64) {
    let db = fresh_db::<Iot>(test).await;
    let rows = db.event_rows::<CarEvent>().write_path(path).consistent();
    let events: Vec<CarEvent> = (0..20).map(|seq| event(at, seq)).collect();

    let outcomes = write_concurrently(&rows, &events).await;
    assert!(
        outcomes
            .iter()
            .all(|o| o.status == WriteStatus::Stored && o.row == 0),
        "{outcomes:?}"
    );
    eprintln!(
        "REQS {:?}",
        outcomes.iter().map(|o| o.requests).collect::<Vec<_>>()
    );
    let ids: BTreeSet<_> = outcomes.iter().map(|o| o.id.clone()).collect();
    assert_eq!(ids.len(), 20);

    let key = CarEvent::key("n111", "a_table", at);
    let stored = rows.at(key.clone()).await.expect("at");
    assert_eq!(seqs(&stored), (0..20).collect::<Vec<_>>());
    for e in &stored {
        assert_eq!(e, &events[e.seq as usize]);
    }
    let (_, sk) = key.values().expect("key");
    let before = raw_item(&db, PK, sk.expect("sk")).await.expect("row");
    let AttributeValue::L(id_list) = &before["_ids"] else {
        panic!("_ids is a list")
    };
    assert_eq!(id_list.len(), 20);

    // Replaying every write, concurrently again, changes nothing.
    let replays = write_concurrently(&rows, &events).await;
    assert!(
        replays
            .iter()
            .all(|o| o.status == WriteStatus::AlreadyStored),
        "{replays:?}"
    );
    let replayed_ids: BTreeSet<_> = replays.iter().map(|o| o.id.clone()).collect();
    assert_eq!(replayed_ids, ids);
    let after = raw_item(&db, PK, sk.expect("sk")).await.expect("row");
    assert_eq!(after, before);
    assert_eq!(raw_rows(&db, PK).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_writers_map_first() {
    twenty_concurrent_writers("rows_race_map", WritePath::MapFirst, 1_000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_writers_create_first() {
    twenty_concurrent_writers("rows_race_create", WritePath::CreateFirst, 1_000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_writers_auto() {
    // A timestamp of now: `Auto` writes create-first.
    let path = WritePath::Auto {
        recent: Duration::from_secs(3_600),
    };
    twenty_concurrent_writers("rows_race_auto", path, now_ms()).await;
}

#[tokio::test]
async fn write_paths_differ_in_requests_not_in_results() {
    let db = fresh_db::<Iot>("rows_paths").await;
    let map_first = db.event_rows::<CarEvent>().write_path(WritePath::MapFirst);
    let create_first = db
        .event_rows::<CarEvent>()
        .write_path(WritePath::CreateFirst);
    // A new timestamp: map-first pays for its wrong guess, create-first does not.
    let o = map_first.write(&event(1, 1)).await.expect("write");
    assert_eq!(
        (o.status, o.requests, o.started_with_create),
        (WriteStatus::Stored, 2, false)
    );
    let o = create_first.write(&event(2, 1)).await.expect("write");
    assert_eq!(
        (o.status, o.requests, o.started_with_create),
        (WriteStatus::Stored, 1, true)
    );
    // A timestamp that has events: the other way round.
    let o = map_first.write(&event(2, 2)).await.expect("write");
    assert_eq!((o.status, o.requests), (WriteStatus::Stored, 1));
    let o = create_first.write(&event(1, 2)).await.expect("write");
    assert_eq!((o.status, o.requests), (WriteStatus::Stored, 2));
    // Auto: an old timestamp is written map-first.
    let auto = db.event_rows::<CarEvent>();
    let o = auto.write(&event(1, 3)).await.expect("write");
    assert!(!o.started_with_create);
    assert_eq!(
        o.id,
        EventRows::<CarEvent>::id_of(&event(1, 3)).expect("id")
    );
}
