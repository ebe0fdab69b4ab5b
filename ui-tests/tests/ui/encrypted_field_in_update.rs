// An update cannot set an encrypted field: the SDK encrypts whole items only.
use dynamap::{Db, Entity, Table};

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

fn update(db: &Db<App>) {
    let _ = db.update(User::key("u1")).set(User::EMAIL, "ada@example.com");
}

fn main() {}
