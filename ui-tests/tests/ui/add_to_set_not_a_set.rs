// `add_to_set` sends `ADD` with a DynamoDB set: a field that is not a set of strings,
// numbers or binaries (here a list) is refused at compile time.
use dynamap::{Db, Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
struct Post {
    id: String,
    tags: Vec<String>,
}

async fn tag(db: Db<App>) -> dynamap::Result<()> {
    db.update(Post::key("p1")).add_to_set(Post::TAGS, ["rust"]).await
}

fn main() {}
