// Local indexes on a table without a sort key, with a partition key of their own, or with
// a sort key of several attributes.
use dynamap::Table;

#[derive(Table)]
#[dynamap(pk = "PK",
          local_index(name = "ByDate", pk = "LSI1PK", sk = "LSI1SK"),
          local_index(name = "ByPlace", sk("country", "city")))]
struct App;

fn main() {}
