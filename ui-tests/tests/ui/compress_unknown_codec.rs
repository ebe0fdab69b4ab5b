use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Night", pk = "ACCOUNT#{account}", sk = "NIGHT#{night}")]
struct Night {
    account: String,
    night: String,
    #[dynamap(compress(codec = "lzma"))]
    events: Vec<u32>,
}

fn main() {}
