// A `Db` knows its layout: a batch write of another layout's entities is refused.
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

async fn store(db: Db<App>, invoices: &[Invoice]) -> dynamap::Result<()> {
    db.put_all(invoices).await?;
    Ok(())
}

fn main() {}
