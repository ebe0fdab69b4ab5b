use dynamap::{Entity, EntityEnum, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
struct Sensor {
    id: String,
}

struct Gateway {
    id: String,
}

#[derive(EntityEnum)]
enum Item {
    Sensor(Sensor),
    Gateway(Gateway),
}

fn main() {}
