// A query on a multi-attribute sort key `(status, number)` that gives the number without
// the status: conditions take a leading run of the attributes, in order.
use dynamap::{Entity, KeyPart, Table};
use serde::{Deserialize, Serialize};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "ByStatus", pk("repo"), sk("status", "number"), sk_type("S", "N")))]
struct Hub;

#[derive(KeyPart, Serialize, Deserialize)]
enum Status {
    Open,
    Closed,
}

#[derive(Entity)]
#[dynamap(table = Hub, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}",
          index(name = "ByStatus", pk = field(repo), sk = fields(status, number)))]
struct Issue {
    repo: String,
    number: u64,
    status: Status,
}

fn open_after(db: &dynamap::Db) {
    let _ = db.query(Issue::by_status("hello")).sk_gt((5u64,));
}

fn main() {}
