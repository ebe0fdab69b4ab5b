// A field mapped to an index key must be a string, a number or `dynamap::key::Binary`.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "GSI1PK", sk = "score", sk_type = "N"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Score", pk = "USER#{user}", sk = "GAME#{game}",
          index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score)))]
struct Score {
    user: String,
    game: String,
    score: Vec<u32>,
}

fn main() {}
