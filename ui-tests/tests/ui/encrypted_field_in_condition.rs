// DynamoDB cannot compare ciphertext: no condition, filter or update on an encrypted field.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER")]
struct User {
    id: String,
    #[dynamap(encrypt)]
    email: String,
}

fn main() {
    let _ = User::EMAIL.eq("ada@example.com");
    let _ = User::EMAIL.begins_with("ada");
}
