// A projection that does not say which entity it reads, or names it by its stored name.
use dynamap::EntityProjection;

#[derive(EntityProjection)]
struct IssueRow {
    number: u64,
}

#[derive(EntityProjection)]
#[dynamap(entity = "Issue")]
struct IssueTitle {
    title: String,
}

fn main() {}
