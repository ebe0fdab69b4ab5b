// A projection's field the entity does not have.
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

#[derive(EntityProjection)]
#[dynamap(entity = Issue)]
struct IssueRow {
    number: u64,
    headline: String,
}

fn main() {}
