use dynamap::codec::Columnar;
use serde::{Deserialize, Serialize};

// A field type without a column form: leave `Columnar` off and the list is stored through serde.
#[derive(Columnar, Serialize, Deserialize)]
struct Event {
    start: i64,
    position: (f64, f64),
}

// Serde attributes the derive does not follow.
#[derive(Columnar, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict {
    start: i64,
}

// Nothing to store.
#[derive(Columnar, Serialize, Deserialize)]
struct Empty {
    #[serde(skip)]
    cached: u32,
}

// Variants with data.
#[derive(Columnar, Serialize, Deserialize)]
enum Shape {
    Dot,
    Line(u32),
}

fn main() {}
