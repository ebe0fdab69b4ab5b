// Rolled tables know their layout: a rolled table's handle refuses event rows of an entity
// of another layout.
use dynamap::timeseries::rolling::RollingTables;
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Iot;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Fleet;

#[derive(Entity)]
#[dynamap(table = Fleet, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}", event_rows)]
struct CarEvent {
    car: String,
    at: i64,
    speed: f64,
}

async fn record(rolling: RollingTables<Iot>, event: &CarEvent) -> dynamap::Result<()> {
    let db = rolling.db_for_now(event.at).await?;
    db.event_rows::<CarEvent>().write(event).await?;
    Ok(())
}

fn main() {}
