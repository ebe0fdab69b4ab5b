// A table's own key types are "S", "N" or "B", and a sort key type needs a sort key.
use dynamap::Table;

#[derive(Table)]
#[dynamap(pk = "id", pk_type = "NUMBER")]
struct A;

#[derive(Table)]
#[dynamap(pk = "id", sk_type = "N")]
struct B;

fn main() {}
