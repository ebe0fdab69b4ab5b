// Every older schema version must say how its items read, once; `from` names an older
// version; `upgrade` needs a schema version and one of `via` or `with`.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(serde::Deserialize)]
struct V1 {
    id: String,
}

impl From<V1> for Missing {
    fn from(v1: V1) -> Self {
        Missing { id: v1.id }
    }
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Missing", pk = "M#{id}", sk = "M",
          schema_version = 3, upgrade(from = 1, via = V1))]
struct Missing {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "OutOfRange", pk = "O#{id}", sk = "O",
          schema_version = 2, upgrade(from = 2, via = V1))]
struct OutOfRange {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "NoVersion", pk = "N#{id}", sk = "N",
          upgrade(from = 1, via = V1))]
struct NoVersion {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Both", pk = "B#{id}", sk = "B",
          schema_version = 2, upgrade(from = 1, via = V1, with = "read_v1"))]
struct Both {
    id: String,
}

fn main() {}
