// The sort key builder of a template sort key of several parts offers them in template
// order, one at a time: with `building` and `floor` both strings, the floor cannot be given
// first, where a tuple `("2", "A")` would compile with the parts swapped.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO",
          index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{room}"))]
struct Sensor {
    id: String,
    city: String,
    building: String,
    floor: String,
    room: String,
}

fn on_floor(db: &dynamap::Db<App>) {
    let _ = db
        .query(Sensor::gsi1("Poznań"))
        .sk_prefix(Sensor::gsi1_sk().floor("2").building("A"));
}

fn main() {}
