// An alias is an earlier name, not the entity's own one.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Customer", alias = "Client", alias = "Customer", pk = "CUSTOMER#{id}", sk = "PROFILE")]
struct Customer {
    id: String,
}

fn main() {}
