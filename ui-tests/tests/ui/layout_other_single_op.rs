// A `Db` knows its layout: an entity of another `#[derive(Table)]` layout is refused on a
// single-item operation, even where the key attribute names coincide.
use dynamap::{Db, Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Billing;

#[derive(Entity)]
#[dynamap(table = Billing, entity = "Invoice", pk = "INVOICE#{id}", sk = "INFO")]
struct Invoice {
    id: String,
}

async fn store(db: Db<App>, invoice: &Invoice) -> dynamap::Result<()> {
    db.put(invoice).await
}

fn main() {}
