use dynamap::{Entity, EntityEnum, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Audit;

#[derive(Entity)]
#[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
struct Sensor {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = Audit, entity = "Event", pk = "EVENT#{id}", sk = "EVENT")]
struct Event {
    id: String,
}

#[derive(EntityEnum)]
enum Item {
    Sensor(Sensor),
    Event(Event),
}

fn main() {}
