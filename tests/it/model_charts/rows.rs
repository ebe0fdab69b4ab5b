//! A model's sample rows (`Model::sample_rows`) are the rows writing the events stores: the
//! items a scan finds after `EventRows` wrote the same events into DynamoDB Local, overflow
//! rows and a repeated event included.

use dynamap::model::Model;
use dynamap::timeseries::rows::WritePath;
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Fleet;

/// Rows of two events, so that a third in one millisecond overflows.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Fleet, entity = "Ping", pk = "CAR#{car}", sk = "{at}", event_rows(cap = 2))]
struct Ping {
    car: String,
    at: i64,
    kind: String,
    speed: Option<f64>,
}

fn ping(at: i64, kind: &str, speed: Option<f64>) -> Ping {
    Ping {
        car: "c1".into(),
        at,
        kind: kind.into(),
        speed,
    }
}

#[tokio::test]
async fn sample_rows_are_the_items_writing_the_events_stores() {
    // Three events in one millisecond (an overflow row), one of them twice, one without
    // its optional field; one alone in the next.
    let events = [
        ping(1_000, "ignition", None),
        ping(1_000, "lock", Some(0.0)),
        ping(1_000, "ignition", None),
        ping(1_000, "speed", Some(31.5)),
        ping(2_000, "speed", Some(48.0)),
    ];
    let db = crate::fresh_db::<Fleet>("sample_rows_are_the_items_writing_stores").await;
    let rows = db.event_rows::<Ping>().write_path(WritePath::CreateFirst);
    for event in &events {
        rows.write(event).await.expect("written");
    }
    let scanned = db
        .client()
        .scan()
        .table_name(db.table_name())
        .consistent_read(true)
        .send()
        .await
        .expect("scan")
        .items
        .unwrap_or_default();
    let sampled = Model::<Fleet>::new("fleet")
        .sample_rows(&events)
        .expect("rows");
    let read = Model::<Fleet>::new("fleet").entity::<Ping>().items(scanned);
    // The items of the one facet, by sort key.
    let data = |model: &Model<Fleet>| {
        let json = model.workbench_json().expect("the model");
        let mut items = json["DataModel"][0]["TableFacets"][0]["TableData"]
            .as_array()
            .expect("items")
            .clone();
        items.sort_by_key(|item| item["SK"]["S"].as_str().map(str::to_owned));
        items
    };
    assert_eq!(data(&sampled).len(), 3, "{:#?}", data(&sampled));
    assert_eq!(data(&sampled), data(&read));
    let model = sampled;
    assert!(
        model.markdown().contains(
            "speed: `map<event id, Option<f64>>`, _ids: `list<event id>`, _cap: `number`"
        ),
        "{}",
        model.markdown()
    );
}
