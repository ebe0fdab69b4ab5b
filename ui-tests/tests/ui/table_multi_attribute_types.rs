// A multi-attribute key lists one type per attribute, and has at most four attributes.
use dynamap::Table;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "ByStatus", pk("repo"), sk("status", "number"), sk_type("N")),
          index(name = "Wide", pk("a", "b", "c", "d", "e")))]
struct Hub;

fn main() {}
