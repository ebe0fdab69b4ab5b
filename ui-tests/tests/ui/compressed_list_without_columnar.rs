// A compressed list whose element type lacks `#[derive(Columnar)]` is stored through serde,
// several times slower to read: the build warns at the field's type (denied here so the
// warning shows as this test's error). Naming the format, or deriving `Columnar`, keeps it
// quiet.
#![deny(deprecated)]

use dynamap::codec::Columnar;
use dynamap::{Entity, Table};
use serde::{Deserialize, Serialize};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Slow {
    at: u64,
}

#[derive(Columnar, Debug, Clone, Serialize, Deserialize)]
struct Fast {
    at: u64,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Night", pk = "NIGHT#{id}", sk = "NIGHT")]
struct Night {
    id: String,
    #[dynamap(compress)]
    slow: Vec<Slow>,
    #[dynamap(compress(format = "columnar"))]
    chosen: Vec<Slow>,
    #[dynamap(compress)]
    fast: Vec<Fast>,
    #[dynamap(compress)]
    maybe: Option<Vec<Slow>>,
}

fn main() {}
