// A field mapped to an index key is stored under the index's key attribute, so its
// attribute name must be that one.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "GSI1PK", sk = "TopScore", sk_type = "N"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Score", pk = "USER#{user}", sk = "GAME#{game}",
          index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score)))]
struct Score {
    user: String,
    game: String,
    score: u64,
}

fn main() {}
