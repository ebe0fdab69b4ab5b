use dynamap::Table;

#[derive(Table)]
#[dynamap(sk = "SK")]
struct App;

fn main() {}
