use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Blob", pk = "BLOB#{id}", sk = "BLOB",
          index(name = "GSI1", pk = "HASH#{digest}", sk = "BLOB"))]
struct Blob {
    id: String,
    digest: Option<Vec<u8>>,
}

fn main() {}
