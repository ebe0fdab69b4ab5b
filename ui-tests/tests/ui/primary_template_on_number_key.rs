// A template renders a string: it cannot fill a number key attribute.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
struct Events;

#[derive(Entity)]
#[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = "AT#{timestamp}")]
struct Event {
    #[dynamap(rename = "userId")]
    user_id: String,
    #[dynamap(rename = "at")]
    timestamp: u64,
}

fn main() {}
