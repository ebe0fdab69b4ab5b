// An encrypted field can be neither in an index key template nor an index key attribute.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"), index(name = "ByScore", pk = "ByScorePK", sk = "score", sk_type = "N"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER",
          index(name = "GSI1", pk = "EMAIL#{email}", sk = "USER#{id}"),
          index(name = "ByScore", pk = "SCORES", sk = field(score)))]
struct User {
    id: String,
    #[dynamap(encrypt)]
    email: String,
    #[dynamap(encrypt)]
    score: u64,
}

fn main() {}
