use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
struct Sensor {
    id: String,
}

fn main() {}
