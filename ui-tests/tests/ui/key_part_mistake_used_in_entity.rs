// A `KeyPart` mistake is reported once, at its span, even where entities use the type in
// their keys: no follow-on errors at each use.
use dynamap::{Entity, KeyPart, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(KeyPart, serde::Serialize, serde::Deserialize)]
enum Status {
    #[dynamap(rename = "OPEN")]
    Open,
    Closed,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Issue", pk = "ISSUE#{id}", sk = "STATUS#{status}",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "ISSUE#{id}"))]
struct Issue {
    id: String,
    status: Status,
}

fn main() {
    let _ = Issue::key("1", Status::Closed);
}
