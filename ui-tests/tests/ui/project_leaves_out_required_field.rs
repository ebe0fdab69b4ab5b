// Field constants projecting an entity with a required field: the item read without
// `title` would not decode, so this is refused when compiling (issue 24).
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Issue", pk = "REPO#{owner}#{repo}", sk = "ISSUE#{number}")]
struct Issue {
    owner: String,
    repo: String,
    number: u64,
    title: String,
    assignee: Option<String>,
}

fn titles(db: &dynamap::Db<App>) {
    let _ = db.query(Issue::partition("dynamap", "dynamap")).project((Issue::NUMBER,));
}

fn main() {}
