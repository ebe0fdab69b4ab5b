//! Every call reports the capacity it consumed in a debug event of its `dynamodb` span, and
//! asks DynamoDB for it only when that event is listened to.
//!
//! The subscriber is the test binary's global one (a thread's own default can miss events
//! while other tests register the same call sites at once), installed on first use. Each
//! test runs on its own thread, so events are told apart by thread.

use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::models::{App, Sensor, SensorKind};

/// Collects the `consumed_capacity` of every event it sees, with the thread it was on.
#[derive(Default)]
struct CapacityEvents(Mutex<Vec<(ThreadId, f64)>>);

/// The global subscriber, installed on first use.
fn listening() -> &'static CapacityEvents {
    static EVENTS: OnceLock<&'static CapacityEvents> = OnceLock::new();
    EVENTS.get_or_init(|| {
        let events: &'static CapacityEvents = Box::leak(Box::default());
        tracing::subscriber::set_global_default(Forward(events))
            .expect("no other global subscriber in this test binary");
        events
    })
}

impl CapacityEvents {
    /// The capacity reported on this thread so far.
    fn on_this_thread(&self) -> Vec<f64> {
        let here = std::thread::current().id();
        let events = self.0.lock().expect("not poisoned");
        events
            .iter()
            .filter(|(thread, _)| *thread == here)
            .map(|(_, units)| *units)
            .collect()
    }
}

/// The subscriber: forwards to the collected events.
struct Forward(&'static CapacityEvents);

struct Capacity(Option<f64>);

impl Visit for Capacity {
    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == "consumed_capacity" {
            self.0 = Some(value);
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn Debug) {}
}

impl Subscriber for Forward {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut capacity = Capacity(None);
        event.record(&mut capacity);
        if let Some(units) = capacity.0 {
            let thread = std::thread::current().id();
            self.0.0.lock().expect("not poisoned").push((thread, units));
        }
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

fn sensor(id: &str) -> Sensor {
    Sensor {
        id: id.into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: "2".into(),
        room: Some("13".into()),
        kind: SensorKind::Gas,
        note: None,
        cached_label: String::new(),
    }
}

#[tokio::test]
async fn consumed_capacity_is_reported_when_listened_to() {
    let db = crate::fresh_db::<App>("observability_capacity").await;
    let events = listening();
    let before = events.on_this_thread().len();
    db.put(&sensor("S1")).await.expect("put");
    db.get(Sensor::key("S1")).await.expect("get");
    let read = db
        .query(Sensor::partition("S1"))
        .all()
        .await
        .expect("query");
    assert_eq!(read.len(), 1);
    db.delete(Sensor::key("S1")).await.expect("delete");
    let reported = events.on_this_thread().split_off(before);
    assert_eq!(reported.len(), 4, "one event per call: {reported:?}");
    assert!(
        reported.iter().all(|&units| units > 0.0),
        "DynamoDB was asked for the capacity of every call: {reported:?}"
    );
}
