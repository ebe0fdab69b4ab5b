// A `Db` knows its layout: a transaction of this handle refuses another layout's entity.
use dynamap::{Db, Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Billing;

#[derive(Entity)]
#[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
struct Account {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = Billing, entity = "Invoice", pk = "INVOICE#{id}", sk = "INFO")]
struct Invoice {
    id: String,
}

async fn bill(db: Db<App>, account: &Account, invoice: &Invoice) -> dynamap::Result<()> {
    db.transaction().put(account).create(invoice).await
}

fn main() {}
