// `encrypt` and `sign_only` exclude each other, and an encrypted field cannot be the
// version, the TTL, `created_at` or skipped.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER")]
struct User {
    id: String,
    #[dynamap(encrypt, sign_only)]
    email: String,
    #[dynamap(encrypt, version)]
    version: u64,
    #[dynamap(encrypt, skip)]
    cache: String,
}

fn main() {}
