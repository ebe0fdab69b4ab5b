use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct Iot;

#[derive(Entity)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}",
          index(name = "GSI1", pk = "KIND#{kind}", sk = "{at}"), event_rows)]
struct CarEvent {
    car: String,
    at: i64,
    kind: String,
}

fn main() {}
