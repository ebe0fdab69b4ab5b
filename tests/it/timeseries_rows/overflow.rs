//! Rows past their cap and past DynamoDB's item size limit.

use std::collections::BTreeSet;

use dynamap::Error;
use dynamap::timeseries::rows::{WriteOutcome, WritePath, WriteStatus};
use futures_util::TryStreamExt;

use super::{CarEvent, Iot, PK, Snapshot, event, raw_rows, seqs, write_concurrently};
use crate::fresh_db;

#[tokio::test]
async fn overflow_past_the_cap_keeps_every_event_readable() {
    let db = fresh_db::<Iot>("rows_overflow").await;
    let rows = db.event_rows::<CarEvent>().cap(5).consistent();
    let events: Vec<CarEvent> = (0..23).map(|seq| event(500, seq)).collect();
    let neighbours = [event(499, 100), event(501, 101)];
    for outcome in rows.write_all(&neighbours, 2).await {
        outcome.expect("write");
    }

    let outcomes = write_concurrently(&rows, &events).await;
    assert!(outcomes.iter().all(WriteOutcome::stored));
    let used: BTreeSet<u32> = outcomes.iter().map(|o| o.row).collect();
    assert_eq!(used, (0..5).collect(), "23 events in rows of 5");

    let key = CarEvent::key("n111", "a_table", 500i64);
    let at = rows.at(key).await.expect("at");
    assert_eq!(seqs(&at), (0..23).collect::<Vec<_>>());

    let range: Vec<CarEvent> = rows
        .range(CarEvent::partition("n111", "a_table"), (499i64,), (501i64,))
        .try_collect()
        .await
        .expect("range");
    assert_eq!(range.len(), 25);
    assert_eq!(range[0], neighbours[0]);
    assert_eq!(range[24], neighbours[1]);
    assert_eq!(seqs(&range[1..24]), (0..23).collect::<Vec<_>>());
    // The upper bound covers the overflow rows of its own timestamp.
    let up_to: Vec<CarEvent> = rows
        .range(CarEvent::partition("n111", "a_table"), (0i64,), (500i64,))
        .try_collect()
        .await
        .expect("range");
    assert_eq!(up_to.len(), 24);

    let stored = raw_rows(&db, PK).await;
    let sks: Vec<&str> = stored
        .iter()
        .map(|r| r["SK"].as_s().expect("sk").as_str())
        .collect();
    assert_eq!(
        sks,
        [
            "0000000000000000499",
            "0000000000000000500",
            "0000000000000000500#0001",
            "0000000000000000500#0002",
            "0000000000000000500#0003",
            "0000000000000000500#0004",
            "0000000000000000501",
        ]
    );
    let replays = rows.write_all(&events, 8).await;
    for (replay, first) in replays.into_iter().zip(&outcomes) {
        let replay = replay.expect("replay");
        assert_eq!(replay.status, WriteStatus::AlreadyStored);
        assert_eq!(
            (replay.id.clone(), replay.row),
            (first.id.clone(), first.row)
        );
    }
    assert_eq!(raw_rows(&db, PK).await, stored);
}

#[tokio::test]
async fn rows_close_at_the_item_size_limit_and_overflow() {
    let db = fresh_db::<Iot>("rows_item_size").await;
    let rows = db.event_rows::<Snapshot>().write_path(WritePath::MapFirst);
    let shot = |i: usize| Snapshot {
        camera: "c1".into(),
        at: 7,
        image: format!("{i:03}{}", "x".repeat(120_000)),
    };
    let shots: Vec<Snapshot> = (0..8).map(shot).collect();
    let mut used = Vec::new();
    for s in &shots {
        let outcome = rows.write(s).await.expect("write");
        assert!(outcome.stored());
        used.push(outcome.row);
    }
    // Three 120 KB images fit in 400 KB, a fourth does not.
    assert_eq!(used, [0, 0, 0, 1, 1, 1, 2, 2]);
    let stored = rows.at(Snapshot::key("c1", 7i64)).await.expect("at");
    assert_eq!(stored, shots);
    for s in &shots {
        let outcome = rows.write(s).await.expect("replay");
        assert_eq!(outcome.status, WriteStatus::AlreadyStored);
    }
    assert_eq!(rows.at(Snapshot::key("c1", 7i64)).await.expect("at"), shots);

    let too_big = Snapshot {
        camera: "c1".into(),
        at: 8,
        image: "x".repeat(410_000),
    };
    let err = rows.write(&too_big).await.expect_err("no row can hold it");
    assert!(
        matches!(
            err,
            Error::ItemTooLarge {
                entity: "Snapshot",
                ..
            }
        ),
        "{err:?}"
    );
}

/// The requests one more write costs when its timestamp already has `overflow` rows:
/// bounded, not growing with the number of rows (it used to walk them from row 0).
#[tokio::test]
async fn a_write_costs_the_same_at_1_10_and_100_overflow_rows() {
    let db = fresh_db::<Iot>("rows_overflow_cost").await;
    let rows = db.event_rows::<CarEvent>().cap(2).consistent();
    let mut written = 0u32;
    let mut costs = Vec::new();
    for overflow in [1u32, 10, 100] {
        // Fill rows 0..=overflow (cap 2 each), so the next event opens row overflow + 1.
        let target = (overflow + 1) * 2;
        let events: Vec<CarEvent> = (written..target).map(|seq| event(700, seq)).collect();
        for outcome in rows.write_all(&events, 8).await {
            outcome.expect("fill");
        }
        written = target;
        let next = rows.write(&event(700, written)).await.expect("one more");
        assert_eq!(next.row, overflow + 1, "a new row after the full ones");
        assert!(next.stored());
        costs.push(next.requests);
        // A replay of an event in an overflow row is found, not stored again.
        let replay = rows.write(&event(700, written)).await.expect("replay");
        assert_eq!(
            (replay.row, replay.status),
            (overflow + 1, WriteStatus::AlreadyStored)
        );
        costs.push(replay.requests);
        written += 1;
    }
    // Row 0 (one request), the overflow query (one), then the new row (a create, maybe
    // after an add): at most five, whatever the number of rows.
    println!("requests per write (new, replay) at 1, 10, 100 overflow rows: {costs:?}");
    assert!(
        costs.iter().all(|&c| c <= 5),
        "requests per write: {costs:?}"
    );
    let at = rows
        .at(CarEvent::key("n111", "a_table", 700i64))
        .await
        .expect("at");
    assert_eq!(at.len(), written as usize, "every event once");
}
