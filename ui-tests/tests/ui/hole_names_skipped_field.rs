use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "CACHE#{cache}")]
struct Sensor {
    id: String,
    #[dynamap(skip)]
    cache: u32,
}

fn main() {}
