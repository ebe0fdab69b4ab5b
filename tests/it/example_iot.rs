//! The `iot` example (seed 002) run against the shared DynamoDB Local, then inspected with
//! raw `ListTables` and `Scan` calls: rolled tables named
//! `iot.[start ms]_[end ms]_[write month]_[write year]`, holding rows of several events
//! each (an id list and one id-to-value map per field).
//!
//! The server is shared with other tests, so only tables with the example's prefix are
//! looked at.

use std::collections::BTreeSet;

use dynamap::codec::{AttributeValue, Item};
use dynamap::timeseries::rolling::{
    RolledTable, SUNDAY_ORIGIN_MS, TableNaming, WEEK_MS, WriteMonth,
};
use dynamap_local::DynamoLocal;

use crate::examples::run_example;

/// Fields of `CarEvent` stored as one map per row, and whether every event has an entry.
const MAP_FIELDS: [(&str, bool); 4] = [
    ("kind", true),
    ("speed_kmh", true),
    ("fuel_pct", true),
    ("door", false),
];

async fn iot_tables(client: &aws_sdk_dynamodb::Client) -> Vec<RolledTable> {
    let naming = TableNaming::new("iot.").expect("valid prefix");
    let mut tables = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .list_tables()
            .set_exclusive_start_table_name(start)
            .send()
            .await
            .expect("raw list_tables");
        tables.extend(
            page.table_names()
                .iter()
                .filter(|name| name.starts_with("iot."))
                .map(|name| {
                    naming
                        .parse(name)
                        .unwrap_or_else(|| panic!("`{name}` does not parse"))
                }),
        );
        match page.last_evaluated_table_name {
            Some(last) => start = Some(last),
            None => break,
        }
    }
    tables.sort();
    tables
}

async fn raw_scan(client: &aws_sdk_dynamodb::Client, table: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("raw scan");
        items.extend(page.items.unwrap_or_default());
        match page.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return items,
        }
    }
}

/// The row's event ids, after checking the row's layout: `_ids` a list of distinct strings,
/// the key fields plain values, every other field a map from those ids.
fn checked_ids(table: &str, row: &Item) -> Vec<String> {
    let ids: Vec<String> = row
        .get("_ids")
        .and_then(|v| v.as_l().ok())
        .unwrap_or_else(|| panic!("row without an `_ids` list in {table}: {row:?}"))
        .iter()
        .map(|id| id.as_s().expect("ids are strings").clone())
        .collect();
    let id_set: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    assert_eq!(id_set.len(), ids.len(), "repeated id in {row:?}");
    assert!(!ids.is_empty(), "empty row {row:?}");
    assert_eq!(row["_type"], AttributeValue::S("CarEvent".into()));
    assert!(
        row["tenant"].is_s() && row["car"].is_s() && row["at"].is_n(),
        "{row:?}"
    );
    for (field, every_event) in MAP_FIELDS {
        let map = row
            .get(field)
            .and_then(|v| v.as_m().ok())
            .unwrap_or_else(|| panic!("`{field}` is not a map in {row:?}"));
        let keys: BTreeSet<&str> = map.keys().map(String::as_str).collect();
        if every_event {
            assert_eq!(keys, id_set, "`{field}` in {row:?}");
        } else {
            assert!(keys.is_subset(&id_set), "`{field}` in {row:?}");
        }
    }
    ids
}

#[tokio::test]
async fn iot_example_stores_several_events_per_row_in_rolled_tables() {
    let stdout = run_example("iot");
    for expected in [
        "672 events: 672 stored, 0 already stored",
        "upload: 168 events: 168 stored, 0 already stored",
        "duplicate upload: 168 events: 0 stored, 168 already stored; 168 requests (1.00 per event)",
        "(one millisecond): 2 events",
        "the whole fleet, all three weeks: car-1 168, car-2 168, car-3 168, car-4 168, car-5 168",
        "after retention, the whole fleet, all three weeks: car-1 0, car-2 0, car-3 0, car-4 0, car-5 168",
        "after retention, car-1 since a week ago: 58 events",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    // Across three weeks: the other cars' tables (how many depends on where the months
    // break on the calendar) and the offline car's three late ones.
    for car in ["car-2", "car-5"] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{car}: ")))
            .unwrap_or_else(|| panic!("no range line for {car} in:\n{stdout}"));
        assert!(line.contains(": 112 events from "), "{line}");
        assert!(line.ends_with(" tables (3 of late data)"), "{line}");
    }
    let ignition = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("ignition-on "));
    let door = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("door-locked "));
    for line in [ignition, door] {
        let line = line.unwrap_or_else(|| panic!("a live write line in:\n{stdout}"));
        assert!(line.contains("stored in the millisecond's row"), "{line}");
    }
    // The duplicate upload created no table.
    let counts = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("tables before: "))
        .expect("table counts line");
    let (before, after) = counts.split_once(", after: ").expect("before and after");
    assert_eq!(before, after);

    let client = DynamoLocal::shared().expect("running").client();
    let tables = iot_tables(&client).await;
    let this_month = WriteMonth::now().expect("clock");
    // Retention kept what was written last month and this month.
    let kept_from = this_month.months_before(1);
    assert!(tables.len() >= 4, "{tables:?}");
    for table in &tables {
        let period = table.period();
        assert_eq!(period.end_ms() - period.start_ms() + 1, WEEK_MS, "{table}");
        assert_eq!(
            (period.start_ms() - SUNDAY_ORIGIN_MS) % WEEK_MS,
            0,
            "{table}"
        );
        let written = table.written();
        assert_eq!(
            table.name(),
            format!(
                "iot.{}_{}_{}_{}",
                period.start_ms(),
                period.end_ms(),
                written.month(),
                written.year()
            )
        );
        assert!((kept_from..=this_month).contains(&written), "{table}");
        assert!(
            written >= WriteMonth::of_millis(period.start_ms()),
            "{table}"
        );
    }
    // The offline car's three weeks, written this month, months after they ended.
    let late: Vec<&RolledTable> = tables
        .iter()
        .filter(|t| t.written() > WriteMonth::of_millis(t.period().end_ms()))
        .collect();
    assert_eq!(late.len(), 3, "{tables:?}");
    assert!(late.iter().all(|t| t.written() == this_month));

    let (mut rows, mut events, mut widest) = (0, 0, 0);
    for table in &late {
        for row in raw_scan(&client, table.name()).await {
            let ids = checked_ids(table.name(), &row);
            assert_eq!(row["car"], AttributeValue::S("car-5".into()));
            rows += 1;
            events += ids.len();
            widest = widest.max(ids.len());
        }
    }
    // 21 trips of 8 events: two at the start in one row, three at the end in another.
    assert_eq!((rows, events, widest), (105, 168, 3));
    for table in &tables {
        for row in raw_scan(&client, table.name()).await {
            checked_ids(table.name(), &row);
        }
    }
}
