// A projection of one entity used on a query of another.
use dynamap::{Entity, EntityProjection, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
struct Issue {
    repo: String,
    number: u64,
    title: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Pull", pk = "REPO#{repo}", sk = "PULL#{number}")]
struct Pull {
    repo: String,
    number: u64,
    title: String,
}

#[derive(EntityProjection)]
#[dynamap(entity = Issue)]
struct IssueTitle {
    title: String,
}

fn titles(db: &dynamap::Db<App>) {
    let _ = db.query(Pull::partition("dynamap")).project_as::<IssueTitle>();
}

fn main() {}
