// `field(...)` must name a field of the struct.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "GSI1PK", sk = "score", sk_type = "N"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Score", pk = "USER#{user}", sk = "GAME#{game}",
          index(name = "Leaderboard", pk = "GAME#{game}", sk = field(points)))]
struct Score {
    user: String,
    game: String,
    score: u64,
}

fn main() {}
