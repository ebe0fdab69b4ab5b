//! Capacity by entity, operation and index, exported to Prometheus: seed 003's sensors and
//! readings written and read through a `Db::with_metrics` handle, then the scrape a
//! Prometheus server would collect, printed.
//!
//! ```text
//! cargo run --example metrics
//! ```
//!
//! starts DynamoDB Local by itself. The exporter's HTTP listener is not used: the scrape
//! text comes from its `PrometheusHandle`, as a web framework's `/metrics` route would
//! serve it.

use dynamap::{Entity, EntityEnum};
use example_support::example_db;
use example_support::tables::App;
use metrics_exporter_prometheus::PrometheusBuilder;
use time::macros::datetime;

/// A sensor, found by location through the `GSI1` index.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = App,
    entity = "Sensor",
    pk = "SENSOR#{id}",
    sk = "SENSORINFO",
    index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{room}")
)]
struct Sensor {
    id: String,
    city: String,
    building: String,
    floor: String,
    room: String,
}

/// One reading, in its sensor's partition.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
struct Reading {
    sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: time::OffsetDateTime,
    value: f64,
}

/// A sensor's partition: its info and its readings, in one query.
#[derive(EntityEnum, Debug)]
enum SensorItem {
    Sensor(Sensor),
    Reading(Reading),
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The recorder first, so that every metric lands in it; `describe` adds HELP lines.
    let prometheus = PrometheusBuilder::new()
        .set_quantiles(&[0.5, 0.99])?
        .install_recorder()?;
    dynamap::metrics::describe();

    let db = example_db::<App>("metrics").await?.with_metrics();

    // Writes: two sensors (each also written to the location index), a batch of readings.
    for (id, room) in [("S1", "13"), ("S2", "14")] {
        let sensor = Sensor {
            id: id.into(),
            city: "Poznań".into(),
            building: "A".into(),
            floor: "2".into(),
            room: room.into(),
        };
        db.put(&sensor).await?;
    }
    let start = datetime!(2024-05-01 12:00 UTC);
    let readings: Vec<Reading> = (0..40)
        .map(|minute| Reading {
            sensor_id: "S1".into(),
            at: start + time::Duration::minutes(minute),
            value: 20.0 + minute as f64 / 10.0,
        })
        .collect();
    let report = db.put_all(&readings).send().await?;
    println!(
        "wrote {} readings in {} calls",
        report.written, report.calls
    );

    // Reads: one item, a partition of two entity types, an index query.
    let sensor = db.get(Sensor::key("S1")).await?;
    println!("S1 is in room {:?}", sensor.map(|s| s.room));
    let partition = db
        .query(Sensor::partition("S1"))
        .decode_as::<SensorItem>()
        .all()
        .await?;
    let mut readings = Vec::new();
    for item in partition {
        match item {
            SensorItem::Sensor(sensor) => println!("S1's partition: the sensor in {}", sensor.room),
            SensorItem::Reading(reading) => readings.push(reading.value),
        }
    }
    println!("S1's partition: {} readings", readings.len());
    let on_floor = db
        .query(Sensor::gsi1("Poznań"))
        .sk_prefix(Sensor::gsi1_sk().building("A").floor("2"))
        .all()
        .await?;
    println!("{} sensors on floor 2 of building A", on_floor.len());

    println!("\n--- scrape ---\n{}", prometheus.render());
    Ok(())
}
