// A field type that is neither an `Attribute` nor serde's: reported at the field's type,
// naming both ways to make it storable.
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
