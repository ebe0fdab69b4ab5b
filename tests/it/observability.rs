//! Every call reports the capacity it consumed in a debug event of its `dynamodb` span, and
//! asks DynamoDB for it only when that event is listened to.
//!
//! The subscriber is the test binary's global one (a thread's own default can miss events
//! while other tests register the same call sites at once), installed on first use. Each
//! test runs on its own thread, so events are told apart by thread.

use std::cell::Cell;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};

use crate::models::{App, Sensor, SensorKind};

/// Collects the `consumed_capacity` of every event it sees, with the thread it was on.
#[derive(Default)]
pub(crate) struct CapacityEvents(Mutex<Vec<(ThreadId, f64)>>);

/// What the global subscriber collects: capacity events, and the spans of the threads
/// that asked for them ([`Listening::export_spans`]) as OpenTelemetry exports them.
pub(crate) struct Listening {
    events: CapacityEvents,
    spans: InMemorySpanExporter,
}

thread_local! {
    /// This thread's spans go to the OpenTelemetry exporter.
    static EXPORTING: Cell<bool> = const { Cell::new(false) };
}

/// The global subscriber, installed on first use: the capacity events, and dynamap's
/// spans through `tracing-opentelemetry` into OpenTelemetry's in-memory exporter, for the
/// threads that ask (so the other tests' spans are not kept).
pub(crate) fn listening() -> &'static Listening {
    static LISTENING: OnceLock<&'static Listening> = OnceLock::new();
    LISTENING.get_or_init(|| {
        let spans = InMemorySpanExporter::default();
        let listening: &'static Listening = Box::leak(Box::new(Listening {
            events: CapacityEvents::default(),
            spans: spans.clone(),
        }));
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(spans)
            .build();
        let otel = tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("dynamap-suite"))
            .with_filter(tracing_subscriber::filter::filter_fn(|_| {
                EXPORTING.with(Cell::get)
            }));
        let subscriber = tracing_subscriber::registry()
            .with(Forward(&listening.events))
            .with(otel);
        tracing::subscriber::set_global_default(subscriber)
            .expect("no other global subscriber in this test binary");
        listening
    })
}

impl Listening {
    /// The capacity reported on this thread so far.
    fn on_this_thread(&self) -> Vec<f64> {
        self.events.on_this_thread()
    }

    /// From now on, this thread's spans are exported.
    pub(crate) fn export_spans(&self) {
        EXPORTING.with(|on| on.set(true));
    }

    /// The spans exported so far (by every thread that asked).
    pub(crate) fn exported(&self) -> Vec<SpanData> {
        self.spans.get_finished_spans().expect("in-memory exporter")
    }
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

/// The layer that forwards to the collected events.
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

impl<S: Subscriber> Layer<S> for Forward {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut capacity = Capacity(None);
        event.record(&mut capacity);
        if let Some(units) = capacity.0 {
            let thread = std::thread::current().id();
            self.0.0.lock().expect("not poisoned").push((thread, units));
        }
    }
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
