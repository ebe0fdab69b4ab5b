// A query on a multi-attribute sort key `(year, month)` of one type, `i32`, given a tuple
// meant as the month alone. Matched by type, `(month,)` would mean `year = month`; tuples
// are not accepted for a multi-attribute sort key, whose attributes are given by name.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "ByDate", pk("city"), sk("year", "month"), sk_type("N", "N")))]
struct Calendar;

#[derive(Entity)]
#[dynamap(table = Calendar, entity = "Event", pk = "EVENT#{id}", sk = "EVENT",
          index(name = "ByDate", pk = field(city), sk = fields(year, month)))]
struct Event {
    id: String,
    city: String,
    year: i32,
    month: i32,
}

fn in_march(db: &dynamap::Db<Calendar>) {
    let month = 3i32;
    let _ = db.query(Event::by_date("Poznań")).sk_eq((month,));
}

fn main() {}
