use dynamap::Table;

#[derive(Table)]
#[dynamap(pk = "PK", sort_key = "SK")]
struct App;

fn main() {}
