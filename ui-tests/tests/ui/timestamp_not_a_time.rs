// `created_at` and `updated_at` are `OffsetDateTime` fields (or `Option`s of one).
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Note", pk = "NOTE#{id}", sk = "NOTE")]
struct Note {
    id: String,
    #[dynamap(updated_at)]
    updated_at: u64,
}

fn main() {}
