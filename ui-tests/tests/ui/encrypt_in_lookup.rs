// A lookup item's key is read by DynamoDB, so it cannot come from an encrypted field.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER", lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
struct User {
    id: String,
    #[dynamap(encrypt)]
    email: String,
}

fn main() {}
