// An entity's `local_index(...)` naming an index the table does not have.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", local_index(name = "ByDate", sk = "LSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{id}",
          local_index(name = "ByDay", sk = "DATE#{date}"))]
struct Order {
    customer: String,
    id: String,
    date: String,
}

fn main() {}
