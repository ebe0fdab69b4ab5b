use dynamap::Table;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    index(name = "GSI1", pk = "GSI1PK"),
    index(name = "GSI1", pk = "GSI2PK")
)]
struct App;

fn main() {}
