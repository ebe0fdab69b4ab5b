use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
struct Sensor {
    id: String,
}

fn main() {}
