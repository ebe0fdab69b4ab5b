use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{id}", sk = "V#{value}")]
struct Reading {
    id: String,
    value: f64,
}

fn main() {}
