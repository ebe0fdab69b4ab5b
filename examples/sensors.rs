//! Building sensors in a single table (seed 003): register sensors, write their readings,
//! read a sensor back.
//!
//! ```text
//! cargo run --example sensors
//! ```
//!
//! starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it writes to table
//! `sensors` at that endpoint and leaves it there to inspect.

use dynamap::{Entity, Table};
use example_support::example_db;
use time::{Duration, OffsetDateTime, macros::datetime};

/// One table for every entity: generic key names, one index for locations.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct App;

/// A sensor's details: `SENSOR#<id>` / `SENSORINFO`, and in the location index under
/// `CITY#<city>` / `LOC#<building>#<floor>#<room>`.
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
    #[dynamap(rename = "type")]
    kind: String,
}

/// One reading, in the same partition as its sensor: `SENSOR#<id>` / `READ#<time>`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
struct Reading {
    sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    value: f64,
}

fn sensor(id: &str, city: &str, building: &str, floor: &str, room: &str, kind: &str) -> Sensor {
    Sensor {
        id: id.into(),
        city: city.into(),
        building: building.into(),
        floor: floor.into(),
        room: room.into(),
        kind: kind.into(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = example_db::<App>("sensors").await?;

    let sensors = [
        sensor("humidity-sensor-1", "Poznań", "A", "3", "112", "humidity"),
        sensor("carbon-monoxide-sensor-2", "Poznań", "A", "2", "432", "gas"),
        sensor(
            "temperature-sensor-3",
            "Berlin",
            "D",
            "4",
            "7",
            "temperature",
        ),
    ];
    for s in &sensors {
        // `put` would overwrite; registering twice should be noticed, so `create` it.
        match db.create(s).await {
            Ok(()) => println!(
                "registered {} in {}, building {}, floor {}, room {}",
                s.id, s.city, s.building, s.floor, s.room
            ),
            Err(err) if err.is_conditional_check_failed() => {
                println!("{} was already registered", s.id)
            }
            Err(err) => return Err(err.into()),
        }
    }
    let again = db.create(&sensors[0]).await;
    println!(
        "registering {} again: {}",
        sensors[0].id,
        again.err().map_or("stored".to_owned(), |e| e.to_string())
    );

    let start = datetime!(2020-03-01 12:30 UTC);
    let mut written = 0;
    for (i, s) in sensors.iter().enumerate() {
        for minute in 0..12 {
            let value = 0.5 + 0.01 * (minute as f64) + i as f64;
            db.put(&Reading {
                sensor_id: s.id.clone(),
                at: start + Duration::minutes(minute),
                value,
            })
            .await?;
            written += 1;
        }
    }
    println!("wrote {written} readings, 12 per sensor, one a minute from {start}");

    let found = db
        .get(Sensor::key("carbon-monoxide-sensor-2"))
        .consistent()
        .await?;
    println!("read back: {found:?}");
    assert_eq!(found.as_ref(), Some(&sensors[1]));

    let key = Reading::key("carbon-monoxide-sensor-2", start + Duration::minutes(5));
    let (pk, sk) = key.values()?;
    println!("reading key: PK = {pk}, SK = {}", sk.unwrap_or_default());
    let (sensor_id, at) = Reading::parse_key(pk, sk)?;
    println!("parsed back: sensor {sensor_id}, at {at}");
    let reading = db.get(key).await?.ok_or("reading not found")?;
    println!("that reading: {}", reading.value);

    println!(
        "unknown sensor: {:?}",
        db.get(Sensor::key("no-such-sensor")).await?
    );
    Ok(())
}
