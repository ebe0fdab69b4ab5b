//! Building sensors in a single table (seed 003): register sensors, write their readings,
//! read a sensor back, find sensors by location through a sparse index (a sensor without a
//! room stays out of it, as do the readings) and through location items kept in sync with
//! each sensor by transactions (every sensor has one), and fetch a sensor with its latest
//! readings in one query.
//!
//! ```text
//! cargo run --example sensors
//! ```
//!
//! starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it writes to table
//! `sensors` at that endpoint and leaves it there to inspect.

use dynamap::Entity;
use example_support::sensors::{READINGS_START, Reading, Sensor, SensorItem, sensor};
use example_support::tables::App;
use example_support::{example_db, rfc3339};
use time::Duration;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = example_db::<App>("sensors").await?;

    let sensors = [
        sensor(
            "humidity-sensor-1",
            "Poznań",
            "A",
            "3",
            Some("112"),
            "humidity",
        ),
        sensor(
            "carbon-monoxide-sensor-2",
            "Poznań",
            "A",
            "2",
            Some("432"),
            "gas",
        ),
        sensor(
            "temperature-sensor-3",
            "Berlin",
            "D",
            "4",
            Some("7"),
            "temperature",
        ),
        sensor("smoke-sensor-4", "Poznań", "A", "2", Some("13"), "smoke"),
        sensor("smoke-sensor-5", "Poznań", "A", "20", Some("1"), "smoke"),
        sensor("co2-sensor-6", "Poznań", "B", "-1", Some("garage"), "gas"),
        sensor(
            "humidity-sensor-7",
            "Lisbon",
            "F",
            "3",
            Some("102"),
            "humidity",
        ),
        // On the roof of building A: no room, so not in the location index.
        sensor("rain-sensor-8", "Poznań", "A", "roof", None, "rain"),
    ];
    for s in &sensors {
        // `put` would overwrite; registering twice should be noticed, so `create` it.
        match db.create(s).await {
            Ok(()) => println!(
                "registered {} in {}, building {}, floor {}, {}",
                s.id,
                s.city,
                s.building,
                s.floor,
                s.room
                    .as_ref()
                    .map_or("no room".to_owned(), |r| format!("room {r}"))
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

    let start = READINGS_START;
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
    println!(
        "wrote {written} readings, 12 per sensor, one a minute from {}",
        rfc3339(start)
    );

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
    println!("parsed back: sensor {sensor_id}, at {}", rfc3339(at));
    let reading = db.get(key).await?.ok_or("reading not found")?;
    println!("that reading: {}", reading.value);

    println!(
        "unknown sensor: {:?}",
        db.get(Sensor::key("no-such-sensor")).await?
    );

    // Sensors by location, through GSI1: CITY#<city> / LOC#<building>#<floor>#<room>.
    let ids = |found: Vec<Sensor>| found.into_iter().map(|s| s.id).collect::<Vec<_>>();
    let poznan = || db.query(Sensor::gsi1("Poznań"));
    // The location's parts by name: the builder offers `building`, then `floor`, then `room`.
    let loc = Sensor::gsi1_sk;
    println!(
        "all sensors in Poznań with a room: {:?}",
        ids(poznan().all().await?)
    );
    println!(
        "in Poznań, building A: {:?}",
        ids(poznan().sk_prefix(loc().building("A")).all().await?)
    );
    println!(
        "in Poznań, building A, floor 2 (not 20): {:?}",
        ids(poznan()
            .sk_prefix(loc().building("A").floor("2"))
            .all()
            .await?)
    );
    println!(
        "in Poznań, building A, floor 2, room 432: {:?}",
        ids(poznan()
            .sk_prefix(loc().building("A").floor("2").room("432"))
            .all()
            .await?)
    );
    println!(
        "in Lisbon: {:?}",
        ids(db.query(Sensor::gsi1("Lisbon")).all().await?)
    );

    // The roof sensor is an item like any other, but without a room it is not indexed.
    let roof = db
        .get(Sensor::key("rain-sensor-8"))
        .await?
        .ok_or("rain-sensor-8 not found")?;
    let indexed = poznan().sk_prefix(loc().building("A")).all().await?;
    println!(
        "{} (no room) read by key: {}; in the location index: {}",
        roof.id,
        roof.kind,
        indexed.iter().any(|s| s.id == roof.id)
    );

    // Through the location items: every sensor in building A, the roomless one too, read
    // with one query of the location items and one batch get of their sensors.
    let site = db
        .query(Sensor::by_site("Poznań"))
        .sk_prefix(Sensor::by_site_sk().building("A"))
        .owners()
        .await?;
    println!("in Poznań, building A, by location items: {:?}", ids(site));
    let floor = db
        .query(Sensor::by_site("Poznań"))
        .sk_prefix(Sensor::by_site_sk().building("A").floor("2"))
        .all()
        .await?;
    println!(
        "sensor keys on floor 2 of building A: {:?}",
        floor
            .iter()
            .map(|owner| owner.key().values().map(|(pk, _)| pk.to_owned()))
            .collect::<Result<Vec<_>, _>>()?
    );

    // One query for a sensor and its 10 latest readings: SENSORINFO sorts after READ#...,
    // so reading the partition newest first returns the details, then the readings.
    let page = db
        .query(Sensor::partition("carbon-monoxide-sensor-2"))
        .decode_as::<SensorItem>()
        .descending()
        .limit(11)
        .send()
        .await?;
    for item in &page.items {
        match item {
            SensorItem::Sensor(s) => println!(
                "sensor {} ({}) in {} {}/{}/{}",
                s.id,
                s.kind,
                s.city,
                s.building,
                s.floor,
                s.room.as_deref().unwrap_or("-")
            ),
            SensorItem::Reading(r) => println!("  {} -> {:.2}", rfc3339(r.at), r.value),
        }
    }
    println!("more readings after these: {}", page.has_more());

    print_index_attributes(&db).await?;
    Ok(())
}

/// A raw scan: sensors with a room carry GSI1PK/GSI1SK; the roomless sensor, the readings
/// and the location items carry none, so they stay out of the index.
async fn print_index_attributes(db: &dynamap::Db<App>) -> Result<(), Box<dyn std::error::Error>> {
    let scan = db
        .client()
        .scan()
        .table_name(db.table_name())
        .send()
        .await?;
    let (mut indexed, mut not_indexed) = (Vec::new(), Vec::new());
    for item in scan.items() {
        let entity = item
            .get("_type")
            .and_then(|v| v.as_s().ok())
            .map_or("?", String::as_str);
        let text =
            |v: &dynamap::codec::AttributeValue| v.as_s().map_or("?", String::as_str).to_owned();
        match (item.get("GSI1PK"), item.get("GSI1SK")) {
            (Some(pk), Some(sk)) => indexed.push(format!("{entity} {} / {}", text(pk), text(sk))),
            _ => not_indexed.push(entity.to_owned()),
        }
    }
    println!("items in GSI1 ({}):", indexed.len());
    for line in indexed {
        println!("  {line}");
    }
    let of = |entity: &str| not_indexed.iter().filter(|e| *e == entity).count();
    println!(
        "items without index attributes: {} ({} sensor, {} readings, {} location items)",
        not_indexed.len(),
        of("Sensor"),
        of("Reading"),
        of("Sensor.site")
    );
    Ok(())
}
