// A type that does not implement `KeyPart`, used in an index template and a lookup's:
// reported once, at the field's type, however many templates and builders use it.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(serde::Serialize, serde::Deserialize)]
struct Zone {
    name: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Reading", pk = "READING#{id}", sk = "READING",
          index(name = "GSI1", pk = "ZONE#{zone}", sk = "READING#{id}"),
          lookup(name = "zone", pk = "ZONE#{zone}"))]
struct Reading {
    id: String,
    zone: Zone,
}

fn main() {}
