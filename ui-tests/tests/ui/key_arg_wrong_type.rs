// A key builder given a value of another type than the key field's: the message names both.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
struct Sensor {
    id: String,
}

fn main() {
    let _ = Sensor::key(42);
}
