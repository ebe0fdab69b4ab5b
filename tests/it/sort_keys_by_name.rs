//! A multi-attribute sort key whose attributes share a type (`year`, `month`, `day`, all
//! `i32`) is given attribute by attribute, by name, with the builder the derive generates
//! for the index: `Event::by_date_sk().year(2024).month(3)`. A tuple of bare values cannot
//! say which attribute a value is for (`(3,)` passed for a year), so it is not accepted
//! (see `ui-tests/tests/ui/multi_attribute_query_same_types.rs`); these queries check that
//! each named attribute reaches DynamoDB Local as that attribute.

use dynamap::{Entity, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(
        name = "ByDate",
        pk("city"),
        sk("year", "month", "day"),
        sk_type("N", "N", "N")
    ),
    index(name = "ByTag", pk("city"), sk("tag", "year"), sk_type("S", "N"))
)]
pub(crate) struct Calendar;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Calendar, entity = "Event", pk = "EVENT#{id}", sk = "EVENT",
          index(name = "ByDate", pk = field(city), sk = fields(year, month, day)),
          index(name = "ByTag", pk = field(city), sk = fields(tag, year)))]
pub(crate) struct Event {
    id: String,
    city: String,
    year: i32,
    month: i32,
    day: i32,
    tag: String,
}

fn event(city: &str, (year, month, day): (i32, i32, i32)) -> Event {
    Event {
        id: format!("{city}-{year}-{month}-{day}"),
        city: city.into(),
        year,
        month,
        day,
        tag: if month == 3 { "spring" } else { "other" }.into(),
    }
}

/// Dates whose months and days are also small years' and months' values: a month taken for
/// a year, or a day for a month, would select other events than these queries expect.
const DATES: [(i32, i32, i32); 7] = [
    (2023, 12, 31),
    (2024, 1, 15),
    (2024, 3, 1),
    (2024, 3, 20),
    (2024, 4, 2),
    (2024, 12, 3),
    (2025, 3, 5),
];

/// The dates above in Poznań, and the same dates in another city.
async fn seeded(test: &str) -> dynamap::Db<Calendar> {
    let db = fresh_db::<Calendar>(test).await;
    let events: Vec<Event> = ["Poznań", "Kraków"]
        .into_iter()
        .flat_map(|city| DATES.map(|date| event(city, date)))
        .collect();
    let report = db.put_all(&events).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    db
}

fn dates(events: &[Event]) -> Vec<(i32, i32, i32)> {
    events.iter().map(|e| (e.year, e.month, e.day)).collect()
}

#[tokio::test]
async fn leading_attributes_given_by_name_select_by_that_attribute() {
    let db = seeded("sort_names_equal").await;
    let poznan = || db.query(Event::by_date("Poznań"));

    let y2024 = poznan().sk_eq(Event::by_date_sk().year(2024)).all().await;
    assert_eq!(
        dates(&y2024.expect("year")),
        [
            (2024, 1, 15),
            (2024, 3, 1),
            (2024, 3, 20),
            (2024, 4, 2),
            (2024, 12, 3)
        ]
    );

    let march = poznan()
        .sk_eq(Event::by_date_sk().year(2024).month(3))
        .all()
        .await;
    assert_eq!(dates(&march.expect("month")), [(2024, 3, 1), (2024, 3, 20)]);

    let one_day = poznan()
        .sk_eq(Event::by_date_sk().year(2024).month(3).day(20))
        .all()
        .await;
    assert_eq!(dates(&one_day.expect("day")), [(2024, 3, 20)]);

    // Year 3 (a month's value) holds nothing: the value went to the year.
    let year_3 = poznan().sk_eq(Event::by_date_sk().year(3)).all().await;
    assert_eq!(dates(&year_3.expect("year 3")), []);

    let latest_2024 = poznan()
        .sk_eq(Event::by_date_sk().year(2024))
        .last(1)
        .all()
        .await;
    assert_eq!(dates(&latest_2024.expect("last")), [(2024, 12, 3)]);
}

#[tokio::test]
async fn a_range_compares_the_last_named_attribute_within_the_ones_before() {
    let db = seeded("sort_names_ranges").await;
    let poznan = || db.query(Event::by_date("Poznań"));
    let sk = Event::by_date_sk;

    let from_march = poznan().sk_ge(sk().year(2024).month(3)).all().await;
    assert_eq!(
        dates(&from_march.expect("ge")),
        [(2024, 3, 1), (2024, 3, 20), (2024, 4, 2), (2024, 12, 3)],
        "2025 is another year: the range is on the month of 2024"
    );
    let before_march = poznan().sk_lt(sk().year(2024).month(3)).all().await;
    assert_eq!(dates(&before_march.expect("lt")), [(2024, 1, 15)]);

    let after_2023 = dates(&poznan().sk_gt(sk().year(2023)).all().await.expect("gt"));
    assert_eq!(
        (after_2023.len(), after_2023.first()),
        (6, Some(&(2024, 1, 15)))
    );
    let up_to_2024 = dates(&poznan().sk_le(sk().year(2024)).all().await.expect("le"));
    assert_eq!(
        (up_to_2024.len(), up_to_2024.first(), up_to_2024.last()),
        (6, Some(&(2023, 12, 31)), Some(&(2024, 12, 3)))
    );

    let spring = poznan()
        .sk_between(sk().year(2024).month(2), sk().year(2024).month(4))
        .all()
        .await;
    assert_eq!(
        dates(&spring.expect("between months")),
        [(2024, 3, 1), (2024, 3, 20), (2024, 4, 2)]
    );
    let early_march = poznan()
        .sk_between(
            sk().year(2024).month(3).day(1),
            sk().year(2024).month(3).day(19),
        )
        .all()
        .await;
    assert_eq!(dates(&early_march.expect("between days")), [(2024, 3, 1)]);
    let two_years = poznan()
        .sk_between(sk().year(2024), sk().year(2025))
        .descending()
        .all()
        .await;
    assert_eq!(
        dates(&two_years.expect("between years")),
        [
            (2025, 3, 5),
            (2024, 12, 3),
            (2024, 4, 2),
            (2024, 3, 20),
            (2024, 3, 1),
            (2024, 1, 15)
        ]
    );
}

#[tokio::test]
async fn each_index_of_the_entity_has_its_own_builder() {
    let db = seeded("sort_names_indexes").await;
    let spring_2025 = db
        .query(Event::by_tag("Poznań"))
        .sk_eq(Event::by_tag_sk().tag("spring").year(2025))
        .all()
        .await;
    assert_eq!(dates(&spring_2025.expect("by tag")), [(2025, 3, 5)]);

    // A value that is no key value is reported for the attribute it was given for.
    let offline = crate::offline(&db);
    let empty_tag = offline
        .query(Event::by_tag("Poznań"))
        .sk_eq(Event::by_tag_sk().tag("").year(2025))
        .all()
        .await;
    match empty_tag {
        Err(dynamap::Error::Key(err)) => assert_eq!(err.attribute, "tag"),
        other => panic!("expected a key error, got {other:?}"),
    }
}
