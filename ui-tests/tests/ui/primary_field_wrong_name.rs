// A field mapped to the table's key attribute is stored under that attribute's name.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
struct Events;

#[derive(Entity)]
#[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = field(timestamp))]
struct Event {
    user_id: String,
    timestamp: i64,
}

fn main() {}
