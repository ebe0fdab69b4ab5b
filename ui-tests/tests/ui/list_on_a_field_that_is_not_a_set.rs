// `#[dynamap(list)]` keeps a set stored as a list; on any other field it means nothing.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
struct Post {
    id: String,
    #[dynamap(list)]
    tags: Vec<String>,
}

fn main() {}
