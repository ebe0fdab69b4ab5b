//! Running a cell into a fresh table and checking every event is stored exactly once, and the
//! cost of writes past full overflow rows.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::Select;
use dynamap::Db;
use dynamap::timeseries::rows::{WriteOutcome, WriteStatus};
use dynamap_local::DynamoLocal;
use futures_util::stream::{self, StreamExt, TryStreamExt};

use crate::cells::{Cell, Measured, Mode};
use crate::model::{CarEvent, CarEventItem, Iot};
use crate::workload::{BACKFILL, CARS, CONCURRENCY, Clock, TENANT, car_name, plan};

pub(crate) async fn count_items(db: &Db<Iot>) -> usize {
    let mut total = 0;
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .select(Select::Count)
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("count scan");
        total += usize::try_from(out.count()).expect("count");
        match out.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return total,
        }
    }
}

/// Checks that every generated event was read back exactly once, with its timestamp and
/// fields; returns how many were read.
pub(crate) fn check_once(
    generated: &[CarEvent],
    read: impl IntoIterator<Item = CarEvent>,
) -> usize {
    let mut seen = vec![0u32; generated.len()];
    let mut count = 0;
    for event in read {
        let index = event.seq as usize;
        assert_eq!(
            generated.get(index),
            Some(&event),
            "read back an event that was not written as such"
        );
        seen[index] += 1;
        count += 1;
    }
    let missing = seen.iter().filter(|&&n| n == 0).count();
    let twice = seen.iter().filter(|&&n| n > 1).count();
    assert_eq!(
        (missing, twice),
        (0, 0),
        "every event is stored exactly once"
    );
    count
}

pub(crate) async fn run_cell(local: &DynamoLocal, cell: &Cell, n: usize, rate: f64) -> Measured {
    let slots = &plan(n, rate, cell.spread)[..];
    let db = local
        .fresh_db::<Iot>(&format!("bench_ts_{}", (rate * 100.0) as u32))
        .await
        .expect("table");
    let mut clock = Clock::new(if cell.backfill {
        BACKFILL
    } else {
        Duration::ZERO
    });
    let mut generated = Vec::with_capacity(slots.len());

    let started = Instant::now();
    let outcomes: Vec<Option<WriteOutcome>> = match cell.mode {
        Mode::Rows(path) => {
            let rows = db.event_rows::<CarEvent>().write_path(path);
            stream::iter(slots)
                .map(|&slot| {
                    let event = clock.event(slot);
                    let write = rows.write(&event);
                    generated.push(event);
                    write
                })
                .buffered(CONCURRENCY)
                .map(|r| Some(r.expect("event row write")))
                .collect()
                .await
        }
        Mode::Baseline => {
            stream::iter(slots)
                .map(|&slot| {
                    let event = clock.event(slot);
                    let item = CarEventItem::from(&event);
                    generated.push(event);
                    let db = db.clone();
                    async move { db.put(&item).await }
                })
                .buffered(CONCURRENCY)
                .map(|r| {
                    r.expect("put");
                    None
                })
                .collect()
                .await
        }
    };
    let seconds = started.elapsed().as_secs_f64();

    let mut m = Measured {
        events: slots.len(),
        distinct_timestamps: slots.iter().map(|s| s.group).max().map_or(0, |g| g + 1),
        seconds,
        requests: 0,
        histogram: [0; 4],
        started_with_create: 0,
        stored: 0,
        already_stored: 0,
        errors: 0,
        items_in_table: count_items(&db).await,
        read_back: 0,
    };
    for outcome in &outcomes {
        match outcome {
            None => {
                m.requests += 1;
                m.histogram[0] += 1;
                m.stored += 1;
            }
            Some(o) => {
                m.requests += u64::from(o.requests);
                m.histogram[(o.requests.clamp(1, 4) - 1) as usize] += 1;
                m.started_with_create += usize::from(o.started_with_create);
                match o.status {
                    WriteStatus::Stored => m.stored += 1,
                    WriteStatus::AlreadyStored => m.already_stored += 1,
                    _ => m.errors += 1,
                }
            }
        }
    }

    // Read everything back over each car's whole span.
    let mut read = Vec::with_capacity(slots.len());
    for car in 0..CARS {
        let name = car_name(car);
        match cell.mode {
            Mode::Rows(_) => {
                let rows = db.event_rows::<CarEvent>().consistent();
                let events: Vec<CarEvent> = rows
                    .range(
                        CarEvent::partition(TENANT, name.as_str()),
                        (0i64,),
                        (i64::MAX,),
                    )
                    .try_collect()
                    .await
                    .expect("range");
                read.extend(events);
            }
            Mode::Baseline => {
                let items = db
                    .query(CarEventItem::partition(TENANT, name.as_str()))
                    .consistent()
                    .all()
                    .await
                    .expect("query");
                read.extend(items.into_iter().map(|i| CarEvent {
                    tenant: i.tenant,
                    car: i.car,
                    at: i.at,
                    speed: i.speed,
                    seq: i.seq,
                    door: i.door,
                }));
            }
        }
    }
    m.read_back = check_once(&generated, read);
    m
}

/// Requests per write into a timestamp that already has `overflow` full overflow rows
/// (cap 2): the mean over `writes` new events, each past the full rows, and over as many
/// replays of events stored in overflow rows. Writes are sequential, so the counts are
/// exact, not shaped by races.
pub(crate) async fn overflow_cost(local: &DynamoLocal, overflow: u32, writes: u32) -> (f64, f64) {
    let db = local
        .fresh_db::<Iot>(&format!("bench_ts_overflow_{overflow}"))
        .await
        .expect("table");
    let rows = db.event_rows::<CarEvent>().cap(2).consistent();
    let event = |seq: u32| CarEvent {
        tenant: "t".into(),
        car: "overflow".into(),
        at: 1_700_000_000_000,
        speed: f64::from(seq),
        seq,
        door: None,
    };
    let filled = (overflow + 1) * 2;
    for seq in 0..filled {
        rows.write(&event(seq)).await.expect("fill");
    }
    let (mut new, mut replays) = (0u32, 0u32);
    for k in 0..writes {
        new += rows
            .write(&event(filled + k))
            .await
            .expect("write")
            .requests;
        replays += rows
            .write(&event(2 + k % (filled - 2).max(1)))
            .await
            .expect("replay")
            .requests;
    }
    (
        f64::from(new) / f64::from(writes),
        f64::from(replays) / f64::from(writes),
    )
}
