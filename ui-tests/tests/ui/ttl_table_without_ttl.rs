use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Entry", pk = "FEED#{user}", sk = "ENTRY#{seq}")]
struct Entry {
    user: String,
    seq: u32,
    #[dynamap(ttl)]
    expires_at: time::OffsetDateTime,
}

fn main() {}
