use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Iot;

#[derive(Entity)]
#[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}",
          event_rows(cap = 100, time = "timestamp"))]
struct CarEvent {
    car: String,
    at: i64,
}

fn main() {}
