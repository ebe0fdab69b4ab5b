// A projection's field of another type than the entity's field of the same name.
use dynamap::{Entity, EntityProjection, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
struct Issue {
    repo: String,
    number: u64,
    title: Option<String>,
}

#[derive(EntityProjection)]
#[dynamap(entity = Issue)]
struct IssueRow {
    number: u32,
    title: String,
}

fn main() {}
