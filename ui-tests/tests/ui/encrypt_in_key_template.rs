// An encrypted field cannot be part of the primary key: DynamoDB would see only ciphertext.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{email}", sk = "USER")]
struct User {
    #[dynamap(encrypt)]
    email: String,
}

fn main() {}
