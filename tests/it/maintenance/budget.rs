//! A write budget holds every second, the first included: units consumed per whole second
//! of the job, as DynamoDB reported them, timed by a metrics recorder of the test's own.
//! A request's units count in the second it was sent (its answer's time less its
//! duration, both recorded by dynamap's metrics): what the budget paces, whatever DynamoDB
//! Local's own delays on a loaded machine.
//!
//! The recorder is installed for this thread only (`set_default_local_recorder`), and
//! `#[tokio::test]` runs each test on one thread, so tests in parallel do not interfere.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use dynamap::maintain::Budget;
use dynamap::metrics::{REQUEST_DURATION, WRITE_CAPACITY};
use metrics::{
    Counter, CounterFn, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
};
use metrics::{SharedString, Unit};

use super::{Ticket, old_desk};

/// Write units DynamoDB reported, with when their request was sent (seconds since the
/// recorder was made).
#[derive(Clone)]
struct Timed {
    start: Instant,
    units: Arc<Mutex<Vec<(f64, f64)>>>,
    /// The units of the call that is ending, until its duration is recorded (dynamap
    /// records a call's capacity, then its duration).
    ending: Arc<Mutex<Vec<f64>>>,
}

struct WriteUnits(Timed);

impl CounterFn for WriteUnits {
    fn increment(&self, milli: u64) {
        let mut ending = self.0.ending.lock().expect("not poisoned");
        ending.push(milli as f64 / 1000.0);
    }

    fn absolute(&self, _: u64) {}
}

struct Duration(Timed);

impl HistogramFn for Duration {
    fn record(&self, seconds: f64) {
        let sent = self.0.start.elapsed().as_secs_f64() - seconds;
        let ending = std::mem::take(&mut *self.0.ending.lock().expect("not poisoned"));
        let mut units = self.0.units.lock().expect("not poisoned");
        units.extend(ending.into_iter().map(|u| (sent, u)));
    }
}

impl Recorder for Timed {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        if key.name() == WRITE_CAPACITY {
            Counter::from_arc(Arc::new(WriteUnits(self.clone())))
        } else {
            Counter::noop()
        }
    }

    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        if key.name() == REQUEST_DURATION {
            Histogram::from_arc(Arc::new(Duration(self.clone())))
        } else {
            Histogram::noop()
        }
    }
}

/// Units per whole second of the job, from its first write on.
pub(crate) fn per_second(units: &[(f64, f64)]) -> Vec<f64> {
    let Some(first) = units.iter().map(|(at, _)| *at).reduce(f64::min) else {
        return Vec::new();
    };
    let mut seconds = Vec::new();
    for (at, units) in units {
        let second = (at - first) as usize;
        if seconds.len() <= second {
            seconds.resize(second + 1, 0.0);
        }
        seconds[second] += units;
    }
    seconds
}

/// 240 tickets re-keyed (2 or 3 write units each: an index key added or changed) at 200
/// units a second, in 8 segments of 20-item pages: every whole second, the first included,
/// within a tenth of the budget, and the job takes as long as its units ask.
#[tokio::test]
async fn a_write_budget_holds_every_second_from_the_first() {
    const BUDGET: f64 = 200.0;
    let db = old_desk("maintain_budget", 240, 0).await.with_metrics();
    let recorder = Timed {
        start: Instant::now(),
        units: Arc::default(),
        ending: Arc::default(),
    };
    let _local = metrics::set_default_local_recorder(&recorder);
    let started = Instant::now();
    let report = db
        .maintain::<Ticket>("budget")
        .rekey()
        .segments(8)
        .page_size(20)
        .budget(Budget::UNLIMITED.writes(BUDGET))
        .send()
        .await
        .expect("job");
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(report.rekeyed, 240);
    let units = recorder.units.lock().expect("not poisoned").clone();
    let total: f64 = units.iter().map(|(_, u)| u).sum();
    assert!(
        (total - report.write_units).abs() < 1.0,
        "{total} units reported, {} counted",
        report.write_units
    );
    let seconds = per_second(&units);
    // The last second is not whole.
    let whole = &seconds[..seconds.len() - 1];
    assert!(whole.len() >= 2, "{seconds:?}");
    for (second, units) in whole.iter().enumerate() {
        assert!(
            *units <= 1.1 * BUDGET,
            "second {second} took {units} units: {seconds:?}"
        );
    }
    let floor = (report.write_units - 0.1 * BUDGET) / BUDGET;
    assert!(elapsed >= floor, "{elapsed}s for {total} units");
}
