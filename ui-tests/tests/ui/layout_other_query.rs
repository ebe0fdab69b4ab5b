// A `Db` knows its layout: a query of another layout's partition is refused.
use dynamap::{Db, Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Billing;

#[derive(Entity)]
#[dynamap(table = Billing, entity = "Invoice", pk = "CUSTOMER#{customer}", sk = "INVOICE#{id}")]
struct Invoice {
    customer: String,
    id: String,
}

async fn invoices(db: Db<App>) -> dynamap::Result<Vec<Invoice>> {
    db.query(Invoice::partition("c1")).all().await
}

fn main() {}
