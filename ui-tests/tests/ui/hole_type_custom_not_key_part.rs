// A type of the application's own that does not implement `KeyPart`: reported by the trait
// bound at the field's type.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(serde::Serialize, serde::Deserialize)]
struct Zone {
    name: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Reading", pk = "ZONE#{zone}", sk = "READING")]
struct Reading {
    zone: Zone,
}

fn main() {}
