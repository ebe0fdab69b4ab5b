use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Iot;

#[derive(Entity)]
#[dynamap(table = Iot, entity = "Door", pk = "CAR#{car}", sk = "{at}",
          event_rows(time = "label"))]
struct Door {
    car: String,
    at: i64,
    label: String,
}

fn main() {}
