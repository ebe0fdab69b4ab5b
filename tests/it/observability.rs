//! Every call reports the capacity it consumed in a debug event of its `dynamodb` span, and
//! asks DynamoDB for it only when that event is listened to.

use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::models::{App, Sensor, SensorKind};

/// Collects the `consumed_capacity` of every event it sees.
#[derive(Clone, Default)]
struct CapacityEvents(Arc<Mutex<Vec<f64>>>);

impl CapacityEvents {
    fn taken(&self) -> Vec<f64> {
        std::mem::take(&mut *self.0.lock().expect("not poisoned"))
    }
}

struct Capacity(Option<f64>);

impl Visit for Capacity {
    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == "consumed_capacity" {
            self.0 = Some(value);
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn Debug) {}
}

impl Subscriber for CapacityEvents {
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
            self.0.lock().expect("not poisoned").push(units);
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
    // Not listened to: the calls work and nothing is reported.
    db.put(&sensor("S0")).await.expect("put");

    let events = CapacityEvents::default();
    let _listening = tracing::subscriber::set_default(events.clone());
    db.put(&sensor("S1")).await.expect("put");
    db.get(Sensor::key("S1")).await.expect("get");
    let read = db
        .query(Sensor::partition("S1"))
        .all()
        .await
        .expect("query");
    assert_eq!(read.len(), 1);
    db.delete(Sensor::key("S1")).await.expect("delete");
    let reported = events.taken();
    assert_eq!(reported.len(), 4, "one event per call: {reported:?}");
    assert!(
        reported.iter().all(|&units| units > 0.0),
        "DynamoDB was asked for the capacity of every call: {reported:?}"
    );
}
