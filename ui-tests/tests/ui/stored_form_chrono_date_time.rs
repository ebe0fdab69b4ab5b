// A chrono date-time would be stored in serde's form (which other crates' serde features
// change): refused, with what to do. (A stand-in for chrono, recognized by its path.)
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

mod chrono {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Utc;
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct DateTime<Tz>(pub Tz);
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
struct Order {
    id: String,
    placed_at: chrono::DateTime<chrono::Utc>,
}

fn main() {}
