// Two indexes whose sort attributes have the same types are not interchangeable: a builder
// gives the sort key of its own index only, and one with no attribute given is no condition.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK",
          index(name = "ByDate", pk("city"), sk("year", "month"), sk_type("N", "N")),
          index(name = "ByRank", pk("league"), sk("rank", "points"), sk_type("N", "N")))]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Event", pk = "EVENT#{id}", sk = "EVENT",
          index(name = "ByDate", pk = field(city), sk = fields(year, month)),
          index(name = "ByRank", pk = field(league), sk = fields(rank, points)))]
struct Event {
    id: String,
    city: String,
    league: String,
    year: i32,
    month: i32,
    rank: i32,
    points: i32,
}

fn queries(db: &dynamap::Db<App>) {
    let _ = db.query(Event::by_rank("first")).sk_eq(Event::by_date_sk().year(2024));
    let _ = db.query(Event::by_date("Poznań")).sk_eq(Event::by_date_sk());
}

fn main() {}
