// A `time` type is stored in dynamap's form only with dynamap's `time` feature; without
// it, the field would reach the table in serde's form: refused, naming the feature. The
// stand-in module has no dynamap form, as `time`'s types have none with the feature off.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

mod time {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct OffsetDateTime(pub i64);
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
struct Order {
    id: String,
    placed_at: time::OffsetDateTime,
}

fn main() {}
