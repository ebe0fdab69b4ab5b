// A key attribute's type is "S", "N" or "B".
use dynamap::Table;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "GSI1PK", sk = "score", sk_type = "int"))]
struct App;

fn main() {}
