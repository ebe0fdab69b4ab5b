//! The measurements: alternating rounds of dynamap and the baseline, decode only, and peak
//! heap while streaming.

use std::hint::black_box;
use std::time::{Duration, Instant};

use dynamap::{Db, Entity};
use futures_util::StreamExt;

use crate::baseline::{decode_by_hand, raw_query};
use crate::entity::{BenchTable, Reading};
use crate::{Item, counting};

/// Which side of a comparison.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Side {
    Dynamap,
    Raw,
}

/// The order of the two sides in round `round`: alternating, so neither always goes first.
pub(crate) fn order(round: usize) -> [Side; 2] {
    if round.is_multiple_of(2) {
        [Side::Dynamap, Side::Raw]
    } else {
        [Side::Raw, Side::Dynamap]
    }
}

/// Timings of a comparison, one per measured round and side.
#[derive(Default)]
pub(crate) struct Rounds {
    pub(crate) dynamap: Vec<Duration>,
    pub(crate) raw: Vec<Duration>,
}

impl Rounds {
    pub(crate) fn push(&mut self, side: Side, elapsed: Duration) {
        match side {
            Side::Dynamap => self.dynamap.push(elapsed),
            Side::Raw => self.raw.push(elapsed),
        }
    }
}

pub(crate) fn median(durations: &[Duration]) -> Duration {
    let mut sorted = durations.to_vec();
    sorted.sort();
    let n = sorted.len();
    if n == 0 {
        Duration::ZERO
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

pub(crate) fn items_per_s(items: usize, elapsed: Duration) -> f64 {
    items as f64 / elapsed.as_secs_f64()
}

pub(crate) async fn read_with_dynamap(db: &Db<BenchTable>, sensor_id: &str) -> Vec<Reading> {
    db.query(Reading::partition(sensor_id))
        .all()
        .await
        .expect("dynamap query failed")
}

pub(crate) async fn read_with_sdk(db: &Db<BenchTable>, pk: &str) -> Vec<Reading> {
    let mut readings = Vec::new();
    raw_query(db.client(), db.table_name(), pk, |items| {
        readings.extend(
            items
                .into_iter()
                .map(|item| decode_by_hand(item).expect("hand-written decoding failed")),
        );
    })
    .await;
    readings
}

/// Reads a whole partition of `count` items `warmup + rounds` times with each side,
/// alternating which goes first.
pub(crate) async fn alternate<F, Fut>(count: usize, warmup: usize, rounds: usize, read: F) -> Rounds
where
    F: Fn(Side) -> Fut,
    Fut: std::future::Future<Output = Vec<Reading>>,
{
    let mut timings = Rounds::default();
    for round in 0..warmup + rounds {
        for side in order(round) {
            let start = Instant::now();
            let readings = read(side).await;
            let elapsed = start.elapsed();
            assert_eq!(readings.len(), count, "a query missed items");
            black_box(&readings);
            if round >= warmup {
                timings.push(side, elapsed);
            }
        }
    }
    timings
}

/// dynamap's query against the raw SDK's, alternating.
pub(crate) async fn query_throughput(
    db: &Db<BenchTable>,
    sensor_id: &str,
    pk: &str,
    count: usize,
    warmup: usize,
    rounds: usize,
) -> Rounds {
    alternate(count, warmup, rounds, |side| async move {
        match side {
            Side::Dynamap => read_with_dynamap(db, sensor_id).await,
            Side::Raw => read_with_sdk(db, pk).await,
        }
    })
    .await
}

/// The same query through a handle that records metrics ([`Db::with_metrics`], which also
/// asks DynamoDB for consumed capacity) with no recorder installed, as the `Dynamap` side,
/// against the plain handle as the `Raw` side: what metrics cost an application that
/// turned them on but collects nothing.
pub(crate) async fn metrics_overhead(
    db: &Db<BenchTable>,
    sensor_id: &str,
    count: usize,
    warmup: usize,
    rounds: usize,
) -> Rounds {
    let metered = &db.clone().with_metrics();
    alternate(count, warmup, rounds, |side| async move {
        let handle = match side {
            Side::Dynamap => metered,
            Side::Raw => db,
        };
        read_with_dynamap(handle, sensor_id).await
    })
    .await
}

/// Decodes `items` (cloned before each round, outside the timing) `warmup + rounds` times
/// with each decoder, alternating.
pub(crate) fn decode_throughput(items: &[Item], warmup: usize, rounds: usize) -> Rounds {
    let mut timings = Rounds::default();
    for round in 0..warmup + rounds {
        for side in order(round) {
            let input = items.to_vec();
            let start = Instant::now();
            let readings: Vec<Reading> = match side {
                Side::Dynamap => input
                    .into_iter()
                    .map(|item| Reading::from_item(item).expect("from_item failed"))
                    .collect(),
                Side::Raw => input
                    .into_iter()
                    .map(|item| decode_by_hand(item).expect("hand-written decoding failed"))
                    .collect(),
            };
            let elapsed = start.elapsed();
            black_box(&readings);
            if round >= warmup {
                timings.push(side, elapsed);
            }
        }
    }
    timings
}

/// Items read and the heap's peak above where it started, while reading a partition.
pub(crate) struct Footprint {
    pub(crate) items: usize,
    pub(crate) peak_bytes: usize,
    /// What was still allocated when the reading ended: the results `.all()` returns.
    pub(crate) retained_bytes: usize,
    pub(crate) elapsed: Duration,
}

/// Consumes `db.query(..).stream()` item by item, keeping nothing but a count and a sum.
pub(crate) async fn stream_footprint(db: &Db<BenchTable>, sensor_id: &str) -> Footprint {
    let start = Instant::now();
    let base = counting::reset_peak();
    let mut items = 0usize;
    let mut sum = 0.0f64;
    {
        let stream = db.query(Reading::partition(sensor_id)).stream();
        let mut stream = std::pin::pin!(stream);
        while let Some(reading) = stream.next().await {
            let reading = reading.expect("dynamap stream failed");
            items += 1;
            sum += reading.value;
        }
    }
    black_box(sum);
    Footprint {
        items,
        peak_bytes: counting::peak().saturating_sub(base),
        retained_bytes: counting::current().saturating_sub(base),
        elapsed: start.elapsed(),
    }
}

/// Reads the partition into memory with `.all()`, the contrast to [`stream_footprint`].
pub(crate) async fn all_footprint(db: &Db<BenchTable>, sensor_id: &str) -> Footprint {
    let start = Instant::now();
    let base = counting::reset_peak();
    let readings = read_with_dynamap(db, sensor_id).await;
    let retained_bytes = counting::current().saturating_sub(base);
    let items = readings.len();
    black_box(&readings);
    drop(readings);
    Footprint {
        items,
        peak_bytes: counting::peak().saturating_sub(base),
        retained_bytes,
        elapsed: start.elapsed(),
    }
}
