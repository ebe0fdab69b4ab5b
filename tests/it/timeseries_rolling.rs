//! Rolling tables (seed 002, "Handling Time-to-Live") against DynamoDB Local: tables created
//! once on demand, range queries across tables merged in time order, late data, and
//! retention by write month.
//!
//! Each test names its tables with a prefix of its own, so tests running in parallel on the
//! shared server never see each other's tables.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use dynamap::timeseries::rolling::{RollingTables, TableNaming, WEEK_MS, WriteMonth};
use dynamap::{Entity, Table};
use dynamap_local::{DynamoLocal, Faults};
use futures_util::TryStreamExt;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Events;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Events, entity = "Reading", pk = "DEV#{device}", sk = "AT#{at}#{id}")]
struct Reading {
    device: String,
    at: i64,
    id: String,
    value: i64,
}

const DAY_MS: i64 = 86_400_000;
/// Sunday 2019-01-06T00:00:00Z, the start of a week.
const WEEK_2019: i64 = 1_546_732_800_000;
/// 2020-01-15, 2020-02-15 and 2020-03-15 (noon UTC): three write months.
const JAN_2020: i64 = 1_579_089_600_000;
const FEB_2020: i64 = 1_581_768_000_000;
const MAR_2020: i64 = 1_584_273_600_000;

/// A table-name prefix no other test (or earlier run) uses.
fn unique_prefix(test: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    format!("rt-{test}-{}-{n}-{nanos}.", std::process::id())
}

fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    i64::try_from(since.as_millis()).expect("ms fit an i64")
}

fn rolling(test: &str) -> RollingTables<Events> {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let naming = TableNaming::new(unique_prefix(test)).expect("valid prefix");
    RollingTables::new(local.client(), naming)
}

fn reading(at: i64, id: &str) -> Reading {
    Reading {
        device: "car-7".into(),
        at,
        id: id.into(),
        value: at % 1_000,
    }
}

/// Writes `r` to the table of its event time and `written_ms`.
async fn write(rolling: &RollingTables<Events>, r: &Reading, written_ms: i64) {
    let db = rolling.db_for(r.at, written_ms).await.expect("table");
    db.put(r).await.expect("put");
}

/// Every reading of car-7 with an event time in `from..=to`, merged across tables.
async fn read_range(rolling: &RollingTables<Events>, from: i64, to: i64) -> Vec<Reading> {
    let tables = rolling.range(from..=to).await.expect("tables of the range");
    tables
        .query(
            |db| {
                db.query(Reading::partition("car-7"))
                    .sk_between((from,), (to,))
            },
            |r| (r.at, r.id.clone()),
        )
        .try_collect()
        .await
        .expect("merged query")
}

async fn table_names(rolling: &RollingTables<Events>) -> Vec<String> {
    let tables = rolling.tables().await.expect("list");
    tables.iter().map(|t| t.name().to_owned()).collect()
}

#[tokio::test]
async fn concurrent_first_writers_create_the_table_once() {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    // No faults: the wrapper only counts the CreateTable calls that reach the server.
    let counter = Faults::seeded(0).only(["CreateTable"]);
    let naming = TableNaming::new(unique_prefix("once")).expect("valid prefix");
    let rolling = RollingTables::<Events>::new(local.faulty_client(&counter), naming);

    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let rolling = rolling.clone();
            tokio::spawn(async move {
                let r = reading(WEEK_2019 + i * 1_000, &format!("r{i}"));
                let db = rolling.db_for(r.at, JAN_2020).await?;
                db.put(&r).await?;
                Ok::<_, dynamap::Error>(db.table_name().to_owned())
            })
        })
        .collect();
    let mut names = Vec::new();
    for task in tasks {
        names.push(task.await.expect("task runs").expect("table and put"));
    }
    names.dedup();
    assert_eq!(names.len(), 1, "{names:?}");
    assert_eq!(counter.counts().calls, 1, "one CreateTable for 20 writers");
    assert_eq!(table_names(&rolling).await, names);
    assert_eq!(
        read_range(&rolling, WEEK_2019, WEEK_2019 + DAY_MS)
            .await
            .len(),
        20
    );

    // Later writers in this process do not ask again.
    rolling
        .db_for(WEEK_2019 + 5, JAN_2020)
        .await
        .expect("cached");
    assert_eq!(counter.counts().calls, 1);
}

#[tokio::test]
async fn range_query_merges_tables_in_time_order() {
    let rolling = rolling("merge");
    // Three weeks, each written over two months, interleaved in time.
    let mut expected = Vec::new();
    for week in 0..3 {
        for i in 0..6 {
            let at = WEEK_2019 + week * WEEK_MS + i * DAY_MS + 17;
            let written = if i % 2 == 0 { JAN_2020 } else { FEB_2020 };
            let r = reading(at, &format!("w{week}i{i}"));
            write(&rolling, &r, written).await;
            expected.push(r);
        }
    }
    // Another device and another prefix's tables must not show up.
    let mut other = reading(WEEK_2019 + 5, "other");
    other.device = "bus-1".into();
    write(&rolling, &other, JAN_2020).await;
    let stranger = RollingTables::<Events>::new(rolling.client().clone(), {
        TableNaming::new(unique_prefix("merge-other")).expect("valid prefix")
    });
    write(&stranger, &reading(WEEK_2019 + 6, "stranger"), JAN_2020).await;

    let everything = read_range(&rolling, WEEK_2019, WEEK_2019 + 3 * WEEK_MS - 1).await;
    assert_eq!(everything, expected);
    assert_eq!(rolling.tables().await.expect("list").len(), 6);

    // A range inside weeks 1 and 2 reads only their four tables, and only the range.
    let (from, to) = (
        WEEK_2019 + WEEK_MS + 3 * DAY_MS,
        WEEK_2019 + 2 * WEEK_MS + DAY_MS + 17,
    );
    let tables = rolling.range(from..=to).await.expect("tables");
    assert_eq!(tables.tables().len(), 4);
    let middle: Vec<Reading> = expected
        .iter()
        .filter(|r| (from..=to).contains(&r.at))
        .cloned()
        .collect();
    assert_eq!(middle.len(), 5);
    assert_eq!(read_range(&rolling, from, to).await, middle);

    // Newest first.
    let descending: Vec<Reading> = tables
        .query_descending(
            |db| {
                db.query(Reading::partition("car-7"))
                    .sk_between((from,), (to,))
            },
            |r| (r.at, r.id.clone()),
        )
        .try_collect()
        .await
        .expect("descending query");
    let mut reversed = middle.clone();
    reversed.reverse();
    assert_eq!(descending, reversed);

    // A range no table holds.
    assert!(read_range(&rolling, 0, WEEK_2019 - 1).await.is_empty());
}

/// The acceptance scenario: events of a week three months ago, written today, are read
/// with that week and survive retention of the week's original tables.
#[tokio::test]
async fn late_data_is_read_with_its_week_and_survives_retention() {
    let rolling = rolling("late");
    let now = now_ms();
    let week = rolling
        .naming()
        .periods()
        .period_of(now - 91 * DAY_MS)
        .expect("a week three months ago");
    let (from, to) = (week.start_ms(), week.end_ms());

    // On time: written as the events happened.
    let on_time: Vec<Reading> = (0..4)
        .map(|i| reading(from + i * DAY_MS + 1_000, &format!("on-time-{i}")))
        .collect();
    for r in &on_time {
        write(&rolling, r, r.at + 60_000).await;
    }
    // Late: a car that was offline uploads the same week today.
    let late: Vec<Reading> = (0..4)
        .map(|i| reading(from + i * DAY_MS + 2_000, &format!("late-{i}")))
        .collect();
    for r in &late {
        rolling
            .db_for_now(r.at)
            .await
            .expect("table of this month")
            .put(r)
            .await
            .expect("put");
    }

    let mut all: Vec<Reading> = on_time.iter().chain(&late).cloned().collect();
    all.sort_by_key(|r| (r.at, r.id.clone()));
    assert_eq!(read_range(&rolling, from, to).await, all);

    // Retention keeps this month only: the week's original tables go, the late one stays.
    let this_month = WriteMonth::of_millis(now);
    let before = rolling.tables().await.expect("list");
    let dropped = rolling
        .drop_written_before(this_month)
        .await
        .expect("retention");
    assert!(!dropped.is_empty());
    assert!(dropped.iter().all(|t| t.written() < this_month));
    let kept = rolling.tables().await.expect("list");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].written(), this_month);
    assert_eq!(before.len(), dropped.len() + kept.len());

    assert_eq!(read_range(&rolling, from, to).await, late);
}

#[tokio::test]
async fn retention_drops_by_write_month_and_leaves_other_tables_alone() {
    let rolling = rolling("retention");
    for (i, written) in [JAN_2020, FEB_2020, MAR_2020].into_iter().enumerate() {
        for week in 0..2 {
            let r = reading(WEEK_2019 + week * WEEK_MS + 100, &format!("m{i}w{week}"));
            write(&rolling, &r, written).await;
        }
    }
    // A table that starts with the prefix but is not a rolled table, and another
    // prefix's rolled table: retention must never touch either.
    let prefix = rolling.naming().prefix().to_owned();
    let notes: dynamap::Db<Events> =
        dynamap::Db::new(rolling.client().clone(), format!("{prefix}notes"));
    notes.create_table().await.expect("notes table");
    let neighbour = RollingTables::<Events>::new(rolling.client().clone(), {
        TableNaming::new(unique_prefix("retention-other")).expect("valid prefix")
    });
    write(&neighbour, &reading(WEEK_2019, "n"), JAN_2020).await;

    let march = WriteMonth::new(2020, 3).expect("month");
    let dropped = rolling.drop_written_before(march).await.expect("retention");
    let mut dropped_months: Vec<_> = dropped.iter().map(|t| t.written().month()).collect();
    dropped_months.sort_unstable();
    assert_eq!(dropped_months, [1, 1, 2, 2]);

    let kept = rolling.tables().await.expect("list");
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|t| t.written() == march));
    let all_names: Vec<String> = rolling
        .client()
        .list_tables()
        .into_paginator()
        .items()
        .send()
        .try_collect()
        .await
        .expect("list every table");
    for table in &dropped {
        assert!(
            !all_names.iter().any(|n| n == table.name()),
            "{table} is gone"
        );
    }
    assert!(all_names.contains(&notes.table_name().to_owned()));
    assert_eq!(neighbour.tables().await.expect("neighbour").len(), 1);

    // The March data is all that is left of those weeks.
    let left = read_range(&rolling, WEEK_2019, WEEK_2019 + 2 * WEEK_MS).await;
    let ids: Vec<&str> = left.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["m2w0", "m2w1"]);

    // Nothing older is left to drop; a dropped table is created again when written to.
    assert!(
        rolling
            .drop_written_before(march)
            .await
            .expect("again")
            .is_empty()
    );
    write(&rolling, &reading(WEEK_2019 + 200, "again"), JAN_2020).await;
    assert_eq!(rolling.tables().await.expect("list").len(), 3);

    notes
        .client()
        .delete_table()
        .table_name(notes.table_name())
        .send()
        .await
        .expect("clean up");
}

/// Several events per millisecond, as multi-event rows in rolled tables.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Events, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
struct Ping {
    device: String,
    at: i64,
    seq: u32,
}

#[tokio::test]
async fn event_rows_of_several_tables_merge_in_time_order() {
    let rolling = rolling("event-rows");
    let ping = |at: i64, seq: u32| Ping {
        device: "car-7".into(),
        at,
        seq,
    };
    // One week written in two months: the second batch is late data for the same week,
    // interleaved in time with the first.
    let on_time: Vec<Ping> = (0..6)
        .map(|i| ping(WEEK_2019 + i * 2 * DAY_MS / 3, 0))
        .collect();
    let late: Vec<Ping> = (0..6)
        .map(|i| ping(WEEK_2019 + i * 2 * DAY_MS / 3 + DAY_MS / 3, 1))
        .chain([ping(WEEK_2019, 1)]) // the same millisecond as the first on-time event
        .collect();
    for (events, written) in [(&on_time, JAN_2020), (&late, MAR_2020)] {
        for event in events {
            let db = rolling.db_for(event.at, written).await.expect("table");
            db.event_rows::<Ping>().write(event).await.expect("write");
        }
    }

    let (from, to) = (WEEK_2019, WEEK_2019 + WEEK_MS - 1);
    let tables = rolling.range(from..=to).await.expect("tables");
    assert_eq!(
        tables.tables().len(),
        2,
        "the week's on-time and late tables"
    );
    let merged: Vec<Ping> = tables
        .event_rows(
            |rows| rows.range(Ping::partition("car-7"), (from,), (to,)),
            |p| p.at,
        )
        .try_collect()
        .await
        .expect("merged read");

    let mut expected: Vec<Ping> = on_time.iter().chain(&late).cloned().collect();
    // Equal times keep table order: the January table's event first.
    expected.sort_by_key(|p| (p.at, p.seq));
    assert_eq!(merged, expected);
}

fn device_reading(device: &str, at: i64, id: &str) -> Reading {
    Reading {
        device: device.to_owned(),
        at,
        id: id.to_owned(),
        value: at % 1000,
    }
}

#[tokio::test]
async fn ingest_routes_a_mixed_batch_to_its_tables_and_writes_each_once() {
    let rolling = rolling("ingest");
    // Three weeks of events, written in two months: five tables, in no order.
    let events: Vec<Reading> = (0..60)
        .map(|i| {
            device_reading(
                &format!("d{}", i % 3),
                WEEK_2019 + (i % 3) * WEEK_MS + i * 1000,
                &format!("e{i}"),
            )
        })
        .collect();
    let written = |r: &Reading| if r.at % 2000 == 0 { JAN_2020 } else { FEB_2020 };
    let report = rolling
        .ingest(&events, |r| r.at)
        .written_at(written)
        .send()
        .await;
    assert!(report.is_complete(), "{report:?}");
    assert_eq!((report.written(), report.failed()), (60, 0));
    assert_eq!(report.tables.len(), 6);

    // Each table holds exactly the events routed to it, which are those of its period and
    // write month.
    for batch in &report.tables {
        let db = rolling.db(&batch.table);
        let stored: Vec<Reading> = db.scan::<Reading>().all().await.expect("scan");
        assert_eq!(
            stored.len(),
            batch.positions.len(),
            "{}",
            batch.table.name()
        );
        for r in &stored {
            let expected = rolling.naming().table_for(r.at, written(r)).expect("named");
            assert_eq!(expected.name(), batch.table.name());
        }
    }
    let all: Vec<Reading> = rolling
        .range(WEEK_2019..=WEEK_2019 + 3 * WEEK_MS)
        .await
        .expect("range")
        .query(
            |db| db.query(Reading::partition("d1")).sk_ge((WEEK_2019,)),
            |r| (r.at, r.id.clone()),
        )
        .try_collect()
        .await
        .expect("query");
    assert_eq!(all.len(), 20);
}

#[tokio::test]
async fn ingest_reports_events_without_a_table_by_position_and_writes_the_rest() {
    let rolling = rolling("ingest-refused");
    let events = [
        device_reading("d1", WEEK_2019, "ok-1"),
        device_reading("d1", WEEK_2019 + 1, "bad-write-time"),
        device_reading("d1", WEEK_2019 + 2, "ok-2"),
    ];
    let report = rolling
        .ingest(&events, |r| r.at)
        .written_at(|r| {
            if r.id == "bad-write-time" {
                -1
            } else {
                JAN_2020
            }
        })
        .send()
        .await;
    assert!(!report.is_complete());
    assert_eq!((report.written(), report.failed()), (2, 1));
    assert_eq!(report.refused.len(), 1);
    assert_eq!(report.refused[0].0, 1);
    assert!(
        matches!(
            &report.refused[0].1,
            dynamap::Error::Clock {
                millis: Some(-1),
                ..
            }
        ),
        "{:?}",
        report.refused
    );
}

#[tokio::test]
async fn ingest_writes_event_rows_in_their_tables_and_a_replay_stores_nothing_twice() {
    use dynamap::timeseries::rows::WritePath;
    let rolling = rolling("ingest-rows");
    let now = now_ms();
    let events: Vec<Ping> = (0..30u32)
        .map(|i| Ping {
            device: "p1".into(),
            // Ten milliseconds, three events each, across two weeks.
            at: now - i64::from(i / 3) * WEEK_MS / 5,
            seq: i,
        })
        .collect();
    let report = rolling
        .ingest(&events, |p| p.at)
        .event_rows(WritePath::MapFirst)
        .await;
    assert_eq!(report.outcomes.len(), 30);
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| o.as_ref().is_ok_and(|o| o.stored()))
    );
    assert!(report.tables.len() >= 2, "{:?}", report.tables);

    let replay = rolling
        .ingest(&events, |p| p.at)
        .event_rows(WritePath::MapFirst)
        .await;
    assert!(
        replay
            .outcomes
            .iter()
            .all(|o| o.as_ref().is_ok_and(|o| !o.stored()))
    );
    // Every event reads back from its table's row.
    for e in &events {
        let db = rolling.db_for_now(e.at).await.expect("table");
        let row = db
            .event_rows::<Ping>()
            .at(Ping::key("p1", e.at))
            .await
            .expect("row");
        assert!(row.contains(e), "{e:?} not in {row:?}");
    }
}
