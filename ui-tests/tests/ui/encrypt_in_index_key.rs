// An encrypted field can be neither in an index key template nor a key attribute (of an
// index or of the table).
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

#[derive(Table)]
#[dynamap(pk = "userId", sk = "SK")]
struct Shared;

#[derive(Entity)]
#[dynamap(table = Shared, entity = "Account", pk = field(user_id), sk = "ACCOUNT")]
struct Account {
    #[dynamap(rename = "userId", encrypt)]
    user_id: String,
}

fn main() {}
