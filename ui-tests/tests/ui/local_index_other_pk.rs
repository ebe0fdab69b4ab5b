// A local index shares the table's partition key, so an entity cannot give it another.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", local_index(name = "ByDate", sk = "LSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{id}",
          local_index(name = "ByDate", pk = "ORDER#{id}", sk = "DATE#{date}"))]
struct Order {
    customer: String,
    id: String,
    date: String,
}

fn main() {}
