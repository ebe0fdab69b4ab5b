//! IoT time series (seed 002): a fleet of cars reporting events, several in the same
//! millisecond, stored as multi-event rows (one item per car and millisecond, holding an id
//! list and one id-to-value map per field) in tables rolled by event week and write month,
//! named `iot.[start ms]_[end ms]_[write month]_[write year]`.
//!
//! ```text
//! cargo run --example iot
//! ```
//!
//! The story, on the real calendar: three months ago the fleet drove for three weeks, and
//! its events were written as they happened; one car was offline the whole time. This week
//! the fleet drives again. Now the offline car reconnects and uploads its three-month-old
//! history, which lands in tables of *this* write month; its modem then sends the same
//! upload again, which stores nothing. Range queries across the weeks read the on-time and
//! the late tables together, in time order. Finally retention drops the tables written
//! before last month: the fleet's old tables go, the late upload stays.
//!
//! Writes "three months ago" are simulated by handing the router an explicit write time
//! (`RollingTables::db_for(event_ms, written_ms)`); everything written now uses
//! `db_for_now`.
//!
//! Starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it uses that
//! endpoint instead, first drops the `iot.` tables an earlier run left, and leaves its own
//! tables there to inspect.

use std::collections::BTreeSet;

use dynamap::timeseries::rolling::{RolledTable, RollingTables, TableNaming, WEEK_MS, WriteMonth};
use dynamap::timeseries::rows::{WriteOutcome, WritePath};
use dynamap_local::DynamoLocal;
use example_support::iot::{CarEvent, HOUR_MS, TENANT, door, event, trip};
use example_support::tables::Iot;
use futures_util::TryStreamExt;
use time::OffsetDateTime;
use time::macros::format_description;

const PREFIX: &str = "iot.";
const CARS: [&str; 5] = ["car-1", "car-2", "car-3", "car-4", "car-5"];
/// The car that was offline three months ago.
const OFFLINE: &str = "car-5";
const DAY_MS: i64 = 24 * HOUR_MS;

/// One trip a day for each of `cars`, on `days` days from `first_day_ms`.
fn trips(cars: &[&str], first_day_ms: i64, days: i64) -> Vec<CarEvent> {
    (0..days)
        .flat_map(|d| {
            cars.iter()
                .flat_map(move |car| trip(car, first_day_ms + d * DAY_MS))
        })
        .collect()
}

/// What an ingest did.
#[derive(Debug, Default)]
struct Tally {
    stored: usize,
    already_stored: usize,
    requests: u32,
    tables: BTreeSet<String>,
}

impl Tally {
    fn line(&self) -> String {
        let events = self.stored + self.already_stored;
        format!(
            "{events} events: {} stored, {} already stored; {} requests ({:.2} per event); {}",
            self.stored,
            self.already_stored,
            self.requests,
            f64::from(self.requests) / events.max(1) as f64,
            count(self.tables.len(), "table")
        )
    }
}

/// Writes `events`, each to the table of its week and of the write time `written` gives it
/// (tables created on first use), 8 at a time: the router groups them by table.
async fn ingest(
    rolling: &RollingTables<Iot>,
    events: &[CarEvent],
    written: impl Fn(&CarEvent) -> i64 + Send + Sync,
    path: WritePath,
) -> dynamap::Result<Tally> {
    let report = rolling
        .ingest(events, |e| e.at)
        .written_at(written)
        .concurrency(8)
        .event_rows(path)
        .await;
    let mut tally = Tally {
        tables: report.tables.iter().map(|t| t.name().to_owned()).collect(),
        ..Tally::default()
    };
    for outcome in report.outcomes {
        let outcome = outcome?;
        tally.requests += outcome.requests;
        if outcome.stored() {
            tally.stored += 1;
        } else {
            tally.already_stored += 1;
        }
    }
    Ok(tally)
}

/// What one write did, in words: `stored in the millisecond's row (created it; 1 request)`.
fn in_words(outcome: &WriteOutcome) -> String {
    let what = if outcome.stored() {
        "stored"
    } else {
        "already stored (a repeated upload)"
    };
    let row = match outcome.row {
        0 => "the millisecond's row".to_owned(),
        n => format!("overflow row {n} of its millisecond"),
    };
    let start = if outcome.started_with_create {
        "started by creating the row"
    } else {
        "started by adding to the row"
    };
    format!(
        "{what} in {row} ({start}; {}), event id {}",
        count(outcome.requests as usize, "request"),
        outcome.id
    )
}

/// `car`'s events from `from` to `to` (inclusive), from every table holding that time, late
/// data included, merged in time order; and the tables read.
async fn events_between(
    rolling: &RollingTables<Iot>,
    car: &str,
    from: i64,
    to: i64,
) -> dynamap::Result<(Vec<CarEvent>, Vec<RolledTable>)> {
    let tables = rolling.range(from..=to).await?;
    let events = tables
        .event_rows(
            |rows| rows.range(CarEvent::partition(TENANT, car), (from,), (to,)),
            |e| e.at,
        )
        .try_collect()
        .await?;
    Ok((events, tables.tables().cloned().collect()))
}

/// `car`'s events at the millisecond `at`, from every table holding it.
async fn events_at(
    rolling: &RollingTables<Iot>,
    car: &str,
    at: i64,
) -> dynamap::Result<Vec<CarEvent>> {
    let tables = rolling.range(at..=at).await?;
    let mut events = Vec::new();
    for db in tables.dbs() {
        let rows = db.event_rows::<CarEvent>();
        events.extend(rows.at(CarEvent::key(TENANT, car, at)).await?);
    }
    Ok(events)
}

/// `1 table`, `2 tables`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn now_ms() -> i64 {
    let ns = OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
    i64::try_from(ns).expect("the clock fits epoch milliseconds")
}

/// `2026-08-23 09:41:07.118`.
fn when(ms: i64) -> String {
    let format =
        format_description!("[year]-[month]-[day] [hour]:[minute]:[second].[subsecond digits:3]");
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(format).ok())
        .unwrap_or_else(|| format!("{ms} ms"))
}

fn day(ms: i64) -> String {
    when(ms)[..10].to_owned()
}

fn show(e: &CarEvent) -> String {
    let door = e
        .door
        .as_deref()
        .map(|d| format!(", door {d}"))
        .unwrap_or_default();
    format!(
        "{} {} {:<13} {:>5.1} km/h, fuel {:>4.1}%{door}",
        when(e.at),
        e.car,
        e.kind,
        e.speed_kmh,
        e.fuel_pct
    )
}

/// Prints how many events came back, from how many tables, and the first and last few.
fn print_events(label: &str, events: &[CarEvent], tables: &[RolledTable]) {
    let late = tables.iter().filter(|t| is_late(t)).count();
    println!(
        "{label}: {} events from {} ({late} of late data)",
        events.len(),
        count(tables.len(), "table")
    );
    let shown = 3;
    for e in events.iter().take(shown) {
        println!("    {}", show(e));
    }
    if events.len() > 2 * shown {
        println!("    ...");
    }
    for e in events
        .iter()
        .skip(shown.max(events.len().saturating_sub(shown)))
    {
        println!("    {}", show(e));
    }
}

/// Written in a month after its events' period ended: late data.
fn is_late(table: &RolledTable) -> bool {
    table.written() > WriteMonth::of_millis(table.period().end_ms())
}

async fn print_tables(rolling: &RollingTables<Iot>) -> dynamap::Result<()> {
    let tables = rolling.tables().await?;
    println!("tables ({}):", tables.len());
    for table in &tables {
        // Items, not events: a row holds every event of one car and millisecond.
        let rows = rolling.db(table).scan::<CarEvent>().count().await?;
        println!(
            "  {:<42} events {} .. {}, written {}, {rows:>3} rows{}",
            table.name(),
            day(table.period().start_ms()),
            day(table.period().end_ms()),
            table.written(),
            if is_late(table) { "  <- late data" } else { "" }
        );
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = DynamoLocal::shared()?;
    // Weekly periods from Sunday 00:00 UTC and one table group per write month: the defaults.
    let rolling = RollingTables::<Iot>::new(local.client(), TableNaming::new(PREFIX)?);
    if local.is_external() {
        // Only tables whose names parse as `iot.[start]_[end]_[month]_[year]` are listed, so
        // this drops what an earlier run of this example left and nothing else.
        let everything = WriteMonth::now()?.months_after(1);
        let dropped = rolling.drop_written_before(everything).await?;
        println!(
            "using {} (dropped {} `{PREFIX}` tables of an earlier run; this run's are left in place)",
            local.endpoint(),
            dropped.len()
        );
    } else {
        println!("started DynamoDB Local at {}", local.endpoint());
    }

    let now = now_ms();
    let weeks = rolling.naming().periods();
    // Three whole weeks, starting with the week of 13 weeks ago.
    let first_week = weeks.period_of(now - 13 * WEEK_MS)?.start_ms();
    let three_weeks_end = first_week + 3 * WEEK_MS - 1;
    let today = now - now.rem_euclid(DAY_MS);

    println!();
    println!(
        "1. {} .. {}: cars 1-4 drive one trip a day, written as they happen; {OFFLINE} is offline and keeps its events",
        day(first_week),
        day(three_weeks_end)
    );
    let online: Vec<&str> = CARS.iter().copied().filter(|c| *c != OFFLINE).collect();
    let on_time = trips(&online, first_week, 21);
    // Auto would judge these old events by today's clock and write them map-first; live,
    // a new timestamp is the usual case, so replay them create-first.
    let tally = ingest(&rolling, &on_time, |e| e.at + 1_000, WritePath::CreateFirst).await?;
    println!("   {}", tally.line());
    let offline_history = trips(&[OFFLINE], first_week, 21);

    println!(
        "2. the last 7 days ({} .. {}): every car drives one trip a day",
        day(today - 7 * DAY_MS),
        day(today - DAY_MS)
    );
    let recent = trips(&CARS, today - 7 * DAY_MS, 7);
    let tally = ingest(&rolling, &recent, |e| e.at + 1_000, WritePath::CreateFirst).await?;
    println!("   {}", tally.line());

    println!(
        "3. now: car-1 starts a trip, two events in one millisecond, default write path (Auto)"
    );
    // Stamped just now, so `Auto` expects a new timestamp and starts by creating the row.
    let live = now_ms();
    let rows = rolling.db_for_now(live).await?.event_rows::<CarEvent>();
    for e in [
        event("car-1", live, "ignition-on", 0.0, 71.5),
        door("car-1", live, "locked", 71.5),
    ] {
        let outcome = rows.write(&e).await?;
        println!("   {:<12} {}", e.kind, in_words(&outcome));
    }

    println!(
        "4. {OFFLINE} comes back online and uploads its {} events of {} .. {}, written now",
        offline_history.len(),
        day(first_week),
        day(three_weeks_end)
    );
    let uploaded_at = now;
    let upload = ingest(
        &rolling,
        &offline_history,
        |_| uploaded_at,
        WritePath::CreateFirst,
    )
    .await?;
    println!("   upload: {}", upload.line());
    for name in &upload.tables {
        println!("     into {name}");
    }
    let before = rolling.tables().await?.len();
    let again = ingest(
        &rolling,
        &offline_history,
        |_| uploaded_at,
        WritePath::CreateFirst,
    )
    .await?;
    println!("5. the modem sends the same upload again");
    println!("   duplicate upload: {}", again.line());
    println!(
        "   tables before: {before}, after: {}",
        rolling.tables().await?.len()
    );

    println!();
    print_tables(&rolling).await?;

    println!();
    println!("queries:");
    let (from, to) = (
        first_week + 3 * DAY_MS,
        first_week + 2 * WEEK_MS + 3 * DAY_MS - 1,
    );
    println!("  {} .. {} (across three weeks):", when(from), when(to));
    for car in ["car-2", OFFLINE] {
        let (events, tables) = events_between(&rolling, car, from, to).await?;
        print_events(&format!("  {car}"), &events, &tables);
    }
    let first_trip = offline_history.first().map_or(first_week, |e| e.at);
    let together = events_at(&rolling, OFFLINE, first_trip).await?;
    println!(
        "  {OFFLINE} at {} (one millisecond): {} events: {}",
        when(first_trip),
        together.len(),
        together
            .iter()
            .map(|e| e.kind.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let fleet = |label: &'static str| {
        let rolling = rolling.clone();
        async move {
            let mut counts = Vec::new();
            for car in CARS {
                let (events, _) =
                    events_between(&rolling, car, first_week, three_weeks_end).await?;
                counts.push(format!("{car} {}", events.len()));
            }
            println!("  {label}: {}", counts.join(", "));
            Ok::<_, dynamap::Error>(())
        }
    };
    fleet("the whole fleet, all three weeks").await?;
    let (events, tables) = events_between(&rolling, "car-1", today - 7 * DAY_MS, now_ms()).await?;
    print_events("  car-1 since a week ago", &events, &tables);

    println!();
    let cutoff = WriteMonth::of_millis(now).months_before(1);
    println!("retention: drop the tables written before {cutoff}");
    let dropped = rolling.drop_written_before(cutoff).await?;
    for table in &dropped {
        println!("  dropped {table} (written {})", table.written());
    }
    println!(
        "  dropped {} tables, kept {}",
        dropped.len(),
        rolling.tables().await?.len()
    );
    fleet("after retention, the whole fleet, all three weeks").await?;
    let (events, tables) = events_between(&rolling, "car-1", today - 7 * DAY_MS, now_ms()).await?;
    println!(
        "  after retention, car-1 since a week ago: {} events from {}",
        events.len(),
        count(tables.len(), "table")
    );

    println!();
    print_tables(&rolling).await?;
    Ok(())
}
