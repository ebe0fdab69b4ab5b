use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(tabel = App, entity = "Sensor", pk = "SENSOR#{idx}", sk = "LOC#{building}-{floor}",
          index(name = "GSI1", pk = "CITY#{city", sk = "X"))]
struct Sensor {
    id: String,
    city: String,
    building: String,
    floor: Option<String>,
    #[dynamap(rename = "k", rename = "kk")]
    kind: String,
    #[dynamap(skip, default)]
    cache: u32,
}

fn main() {}
