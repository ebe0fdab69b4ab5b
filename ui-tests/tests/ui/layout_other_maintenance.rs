// A `Db` knows its layout: a maintenance job over another layout's entity is refused.
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

async fn rewrite(db: Db<App>) -> dynamap::Result<()> {
    db.maintain::<Invoice>("rewrite-invoices").send().await?;
    Ok(())
}

fn main() {}
