// An entity maps two fields to an index sort key made of three attributes.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "ByPlace", pk("country"), sk("city", "street", "number"), sk_type("S", "S", "N")))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Shop", pk = "SHOP#{id}", sk = "SHOP",
          index(name = "ByPlace", pk = field(country), sk = fields(city, street)))]
struct Shop {
    id: String,
    country: String,
    city: String,
    street: String,
}

fn main() {}
