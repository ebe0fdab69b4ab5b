// Every item has its primary key, so a key field cannot have a default.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Customer", pk = "CUSTOMER#{id}", sk = "PROFILE")]
struct Customer {
    #[dynamap(default)]
    id: String,
    #[dynamap(default)]
    points: u32,
}

fn main() {}
