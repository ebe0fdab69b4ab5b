// A bare `NaiveDateTime` is chrono's, in an `Option` too: refused.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(serde::Serialize, serde::Deserialize)]
struct NaiveDateTime(i64);

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
struct Order {
    id: String,
    shipped_at: Option<NaiveDateTime>,
}

fn main() {}
