// A constant attribute named as the table's entity-type attribute, or as a field's: one
// error each, at the name.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Task", pk = "TASK#{id}", sk = "TASK",
          const_attr(name = "_type", value = "1"))]
struct Task {
    id: String,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Note", pk = "NOTE#{id}", sk = "NOTE",
          const_attr(name = "title", value = "1"))]
struct Note {
    id: String,
    title: String,
}

fn main() {}
