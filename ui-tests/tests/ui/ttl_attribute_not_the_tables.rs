use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", ttl = "expires_at")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Entry", pk = "FEED#{user}", sk = "ENTRY#{seq}")]
struct Entry {
    user: String,
    seq: u32,
    #[dynamap(ttl)]
    valid_until: time::OffsetDateTime,
}

fn main() {}
