// A field type that is neither an `Attribute` nor serde's: the missing serde traits are
// reported at the field's type.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

struct Shape {
    sides: u8,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Tile", pk = "TILE#{id}", sk = "TILE")]
struct Tile {
    id: String,
    shape: Shape,
}

fn main() {}
