// An entity storing a field under a multi-attribute index's key attribute name without
// mapping the index: one error per field, naming the index and its table, saying to map
// the index (its key attributes listed) or rename the field.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "IssuesByStatus", pk("owner", "repo"), sk("status", "number"), sk_type("S", "N")))]
struct Hub;

#[derive(Entity)]
#[dynamap(table = Hub, entity = "Comment", pk = "REPO#{owner}#{repo}", sk = "COMMENT#{id}")]
struct Comment {
    owner: String,
    repo: String,
    id: String,
}

fn main() {}
