// A String field cannot be a number sort key.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
struct Events;

#[derive(Entity)]
#[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = field(timestamp))]
struct Event {
    #[dynamap(rename = "userId")]
    user_id: String,
    timestamp: String,
}

fn main() {}
