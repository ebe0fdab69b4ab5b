// A lookup whose query method (`by_location`) is also an index's (`ByLocation`).
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "ByLocation", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
          index(name = "ByLocation", pk = "CITY#{city}", sk = "SENSOR#{id}"),
          lookup(name = "location", pk = "LOC#{city}", sk = "SENSOR#{id}"))]
struct Sensor {
    id: String,
    city: String,
}

fn main() {}
