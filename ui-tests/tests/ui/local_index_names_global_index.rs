// `local_index(...)` naming one of the table's global indexes, and `index(...)` naming a
// local one: each reported at the index's name.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
          local_index(name = "ByDate", sk = "LSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{id}",
          local_index(name = "GSI1", sk = "STATUS#{status}"),
          index(name = "ByDate", pk = "CUSTOMER#{customer}", sk = "DATE#{date}"))]
struct Order {
    customer: String,
    id: String,
    date: String,
    status: String,
}

fn main() {}
