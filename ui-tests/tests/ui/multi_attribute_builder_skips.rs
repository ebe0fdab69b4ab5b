// The sort key builder of a multi-attribute index offers its attributes in key order, one
// at a time: the month cannot be given before (or without) the year.
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
    let _ = db.query(Event::by_date("Poznań")).sk_eq(Event::by_date_sk().month(3));
}

fn main() {}
