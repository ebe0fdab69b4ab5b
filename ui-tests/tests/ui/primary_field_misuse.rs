// A key attribute is one field, always present, with no default, and not also a template
// part; an entity whose key is a field's attribute has no lookups.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "id", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "A", pk = fields(id, other), sk = "A")]
struct A {
    id: String,
    other: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "B", pk = field(id), sk = "B#{id}",
          lookup(name = "byName", pk = "NAME#{name}"))]
struct B {
    id: String,
    name: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "C", pk = field(id), sk = "C")]
struct C {
    #[dynamap(default)]
    id: Option<String>,
}

fn main() {}
