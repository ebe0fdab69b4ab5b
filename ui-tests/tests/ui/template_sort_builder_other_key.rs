// A sort key builder is the sort-key shape of its own table or index: the table's builder
// (`Sensor::sk()`) is refused by an index query whose sort key has parts of the same types.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "KIND#{kind}#{model}",
          index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}"))]
struct Sensor {
    id: String,
    kind: String,
    model: String,
    city: String,
    building: String,
    floor: String,
}

fn by_kind(db: &dynamap::Db<App>) {
    let _ = db
        .query(Sensor::gsi1("Poznań"))
        .sk_prefix(Sensor::sk().kind("A"));
}

fn main() {}
