//! Multi-event rows (seed 002) against DynamoDB Local: concurrent first writers, replays,
//! overflow past the cap and past the item size limit, fields that appear later, and reads.
//! The models and helpers are here; the tests are in the submodules.

mod adaptive;
mod concurrency;
mod overflow;
mod reads;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use dynamap::codec::{AttributeValue, Item};
use dynamap::timeseries::rows::{EventRow, EventRows, WriteOutcome};
use dynamap::{Db, Entity, Table};
use tokio::sync::Barrier;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub(super) struct Iot;

/// One car's event at a millisecond (`at`, epoch ms), as in the seed's IoT tables.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{tenant}#{car}", sk = "{at}",
          event_rows(time = "at"))]
pub(super) struct CarEvent {
    pub(super) tenant: String,
    pub(super) car: String,
    pub(super) at: i64,
    pub(super) speed: f64,
    pub(super) seq: u32,
    pub(super) door: Option<String>,
}

/// The same events as an earlier version of the struct wrote them, before `door` existed.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{tenant}#{car}", sk = "{at}")]
pub(super) struct CarEventV1 {
    pub(super) tenant: String,
    pub(super) car: String,
    pub(super) at: i64,
    pub(super) speed: f64,
    pub(super) seq: u32,
}

// Written by hand, as the derive would.
impl EventRow for CarEventV1 {}

/// Large events, so a few fill a row's 400 KB before its cap.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "Snapshot", pk = "CAM#{camera}", sk = "{at}")]
pub(super) struct Snapshot {
    pub(super) camera: String,
    pub(super) at: i64,
    pub(super) image: String,
}

impl EventRow for Snapshot {}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Iot, entity = "Versioned", pk = "V#{id}", sk = "{at}")]
pub(super) struct Versioned {
    pub(super) id: String,
    pub(super) at: i64,
    #[dynamap(version)]
    pub(super) version: u64,
}

impl EventRow for Versioned {}

pub(super) fn event(at: i64, seq: u32) -> CarEvent {
    CarEvent {
        tenant: "n111".into(),
        car: "a_table".into(),
        at,
        speed: f64::from(seq) * 1.5,
        seq,
        door: seq.is_multiple_of(3).then(|| format!("door-{seq}")),
    }
}

pub(super) const PK: &str = "CAR#n111#a_table";

pub(super) fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    i64::try_from(since.as_millis()).expect("fits")
}

/// Every stored item of partition `pk`, in sort key order, as the raw SDK reads it.
pub(super) async fn raw_rows(db: &Db<Iot>, pk: &str) -> Vec<Item> {
    let mut rows = Vec::new();
    let mut start = None;
    loop {
        let output = db
            .client()
            .query()
            .table_name(db.table_name())
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(pk.to_owned()))
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("raw query");
        rows.extend(output.items.unwrap_or_default());
        match output.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return rows,
        }
    }
}

/// Writes every event from its own task, all released at once.
pub(super) async fn write_concurrently(
    rows: &EventRows<CarEvent>,
    events: &[CarEvent],
) -> Vec<WriteOutcome> {
    let start = Arc::new(Barrier::new(events.len()));
    let tasks: Vec<_> = events
        .iter()
        .map(|e| {
            let write = rows.write(e);
            let start = Arc::clone(&start);
            tokio::spawn(async move {
                start.wait().await;
                write.await
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.expect("task").expect("write"));
    }
    outcomes
}

pub(super) fn seqs(events: &[CarEvent]) -> Vec<u32> {
    let mut seqs: Vec<u32> = events.iter().map(|e| e.seq).collect();
    seqs.sort_unstable();
    seqs
}
