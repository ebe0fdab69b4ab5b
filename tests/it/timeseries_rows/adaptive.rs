//! `WritePath::Adaptive` learns from what the handle's writes find, where `Auto` can only go
//! by the events' age.

use dynamap::timeseries::rows::{EventRows, WritePath};
use futures_util::TryStreamExt;

use super::{CarEvent, Iot, event};
use crate::fresh_db;

/// A backfill: old timestamps, first one event each (new rows), then a second event at
/// each (rows that exist). Written one at a time, so the request counts are exact.
async fn backfill(rows: &EventRows<CarEvent>, timestamps: i64) -> (u32, u32) {
    let mut phases = [0u32; 2];
    for (phase, requests) in phases.iter_mut().enumerate() {
        for at in 0..timestamps {
            let seq = u32::try_from(phase).expect("small");
            let outcome = rows.write(&event(1_000 + at, seq)).await.expect("write");
            assert!(outcome.stored());
            *requests += outcome.requests;
        }
    }
    (phases[0], phases[1])
}

#[tokio::test]
async fn adaptive_writes_follow_what_the_rows_turn_out_to_be() {
    let db = fresh_db::<Iot>("rows_adaptive").await;
    let adaptive = db.event_rows::<CarEvent>().write_path(WritePath::Adaptive);
    let (new_rows, existing_rows) = backfill(&adaptive, 60).await;
    // New rows: it starts by creating, and keeps doing so, one request each.
    assert_eq!(new_rows, 60);
    // Existing rows: creates are refused (two requests) until the handle has seen enough of
    // them to add first, one request each.
    assert!(
        (61..=60 + 20).contains(&existing_rows),
        "{existing_rows} requests for 60 events at existing rows"
    );

    // `Auto` judges these old events by age, guesses "the row exists" and pays twice for
    // every new row.
    let db = fresh_db::<Iot>("rows_auto_backfill").await;
    let auto = db.event_rows::<CarEvent>();
    let (auto_new, auto_existing) = backfill(&auto, 60).await;
    assert_eq!((auto_new, auto_existing), (120, 60));
    assert!(new_rows + existing_rows < auto_new + auto_existing);

    // Either way every event is stored once.
    let stored: Vec<CarEvent> = adaptive
        .range(
            CarEvent::partition("n111", "a_table"),
            (0i64,),
            (10_000i64,),
        )
        .try_collect()
        .await
        .expect("range");
    assert_eq!(stored.len(), 120);
}
