//! Query patterns of seed 001 against DynamoDB Local: key conditions, counts, top and
//! bottom N, pages and cursors.

use std::collections::HashSet;

use dynamap::query::UnknownEntity;
use dynamap::{Db, Error};
use futures_util::TryStreamExt;
use time::macros::datetime;

use crate::fresh_db;
use crate::models::{App, Order, Reading, Score, Sensor, SensorItem, sensor};

const SCORES: [i64; 9] = [-20, -10, -1, 0, 1, 2, 10, 20, 100];

async fn scores_db(test: &str) -> Db<App> {
    let db = fresh_db::<App>(test).await;
    for (i, score) in SCORES.iter().enumerate() {
        db.put(&Score {
            game: "chess".into(),
            score: *score,
            user: format!("u{i}"),
        })
        .await
        .expect("put");
    }
    // Another game's scores must never show up.
    db.put(&Score {
        game: "go".into(),
        score: 5,
        user: "x".into(),
    })
    .await
    .expect("put");
    db
}

fn values(scores: &[Score]) -> Vec<i64> {
    scores.iter().map(|s| s.score).collect()
}

#[tokio::test]
async fn comparisons_follow_numeric_order_with_bounds_and_negatives() {
    let db = scores_db("comparisons").await;
    let q = || db.query(Score::partition("chess"));

    assert_eq!(values(&q().all().await.expect("all")), SCORES);
    assert_eq!(
        values(&q().sk_eq((10i64, "u6")).all().await.expect("eq")),
        [10]
    );
    assert_eq!(
        values(&q().sk_eq((10i64,)).all().await.expect("eq on a prefix")),
        [10]
    );
    assert_eq!(
        values(&q().sk_lt((0i64,)).all().await.expect("lt")),
        [-20, -10, -1]
    );
    assert_eq!(
        values(&q().sk_le((0i64,)).all().await.expect("le")),
        [-20, -10, -1, 0]
    );
    assert_eq!(
        values(&q().sk_gt((0i64,)).all().await.expect("gt")),
        [1, 2, 10, 20, 100]
    );
    assert_eq!(
        values(&q().sk_ge((-1i64,)).all().await.expect("ge")),
        [-1, 0, 1, 2, 10, 20, 100]
    );
    assert_eq!(
        values(
            &q().sk_between((-10i64,), (10i64,))
                .all()
                .await
                .expect("between")
        ),
        [-10, -1, 0, 1, 2, 10]
    );
    assert_eq!(
        values(&q().sk_gt((100i64,)).all().await.expect("nothing above")),
        Vec::<i64>::new()
    );
    // Whole keys compare whole keys: (10, "u6") itself is not greater than itself.
    assert_eq!(
        values(&q().sk_gt((10i64, "u6")).all().await.expect("gt whole")),
        [20, 100]
    );
}

#[tokio::test]
async fn top_and_bottom_n() {
    let db = scores_db("top_bottom").await;
    let top = db
        .query(Score::partition("chess"))
        .last(3)
        .send()
        .await
        .expect("top");
    assert_eq!(values(&top.items), [100, 20, 10]);
    assert!(top.has_more());
    let bottom = db
        .query(Score::partition("chess"))
        .first(2)
        .send()
        .await
        .expect("bottom");
    assert_eq!(values(&bottom.items), [-20, -10]);
    let all_desc = db
        .query(Score::partition("chess"))
        .descending()
        .all()
        .await
        .expect("all");
    assert_eq!(
        values(&all_desc),
        SCORES.iter().rev().copied().collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn counts_are_summed_by_dynamodb() {
    let db = scores_db("counts").await;
    assert_eq!(
        db.query(Score::partition("chess"))
            .count()
            .await
            .expect("count"),
        SCORES.len()
    );
    assert_eq!(
        db.query(Score::partition("chess"))
            .sk_lt((0i64,))
            .count()
            .await
            .expect("count lt"),
        3
    );
    let filtered = db
        .query(Score::partition("chess"))
        .filter(Score::USER.is_in(["u0", "u8"]))
        .count()
        .await;
    assert_eq!(filtered.expect("count filtered"), 2);
    assert_eq!(
        db.query(Score::partition("checkers"))
            .count()
            .await
            .expect("empty"),
        0
    );
}

#[tokio::test]
async fn an_empty_partition_gives_an_empty_last_page() {
    let db = fresh_db::<App>("empty_partition").await;
    let page = db
        .query(Score::partition("none"))
        .limit(10)
        .send()
        .await
        .expect("page");
    assert!(page.items.is_empty());
    assert_eq!(page.cursor, None);
    assert!(
        db.query(Score::partition("none"))
            .all()
            .await
            .expect("all")
            .is_empty()
    );
}

#[tokio::test]
async fn timestamps_in_any_offset_compare_as_utc_instants() {
    let db = fresh_db::<App>("orders").await;
    let times = [
        datetime!(2012-03-20 18:23:10 UTC),
        datetime!(2012-05-15 15:00:11 UTC),
        datetime!(2012-05-16 09:00:10 UTC),
        datetime!(2012-05-16 12:00:10 UTC),
    ];
    for (i, at) in times.iter().enumerate() {
        db.put(&Order {
            customer: "101".into(),
            placed_at: *at,
            total: 25.0 * (i as f64 + 1.0),
        })
        .await
        .expect("put");
    }
    // The same bounds, written in other offsets: 2012-05-15 15:00:11 UTC and 2012-05-16 09:00:10 UTC.
    let from = datetime!(2012-05-15 17:00:11 +02:00);
    let to = datetime!(2012-05-16 04:00:10 -05:00);
    let between = db
        .query(Order::partition("101"))
        .sk_between((from,), (to,))
        .all()
        .await
        .expect("between");
    assert_eq!(
        between.iter().map(|o| o.placed_at).collect::<Vec<_>>(),
        &times[1..3],
        "both bounds inclusive"
    );
    let after = db
        .query(Order::partition("101"))
        .sk_gt((to,))
        .count()
        .await
        .expect("count");
    assert_eq!(after, 1);
}

/// Reads the whole partition in pages of `size`, following cursors.
async fn read_in_pages(db: &Db<App>, size: usize) -> (Vec<Score>, usize) {
    let mut all = Vec::new();
    let mut pages = 0;
    let mut cursor = None;
    loop {
        let mut query = db.query(Score::partition("paged")).limit(size);
        if let Some(c) = cursor.take() {
            query = query.after(c);
        }
        let page = query.send().await.expect("page");
        pages += 1;
        assert!(page.items.len() <= size);
        all.extend(page.items);
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => return (all, pages),
        }
    }
}

#[tokio::test]
async fn cursors_resume_without_repeating_or_skipping() {
    let db = fresh_db::<App>("paging").await;
    for i in 0..140i64 {
        db.put(&Score {
            game: "paged".into(),
            score: i - 70,
            user: format!("u{i}"),
        })
        .await
        .expect("put");
    }
    let expected = db
        .query(Score::partition("paged"))
        .all()
        .await
        .expect("all");
    assert_eq!(expected.len(), 140);
    for (size, pages) in [(1, 140), (7, 20), (100, 2)] {
        let (read, count) = read_in_pages(&db, size).await;
        assert_eq!(read, expected, "pages of {size}");
        assert_eq!(
            count, pages,
            "pages of {size}: a page boundary exactly at the end leaves no empty page"
        );
    }
}

#[tokio::test]
async fn limit_counts_items_returned_after_filtering() {
    let db = fresh_db::<App>("filtered_limit").await;
    for i in 0..30i64 {
        let user = if i % 3 == 0 { "keep" } else { "drop" };
        db.put(&Score {
            game: "g".into(),
            score: i,
            user: format!("{user}{i:02}"),
        })
        .await
        .expect("put");
    }
    let keep = || {
        db.query(Score::partition("g"))
            .filter(Score::USER.begins_with("keep"))
            .limit(4)
    };
    let first = keep().send().await.expect("first page");
    assert_eq!(values(&first.items), [0, 3, 6, 9]);
    let second = keep()
        .after(first.cursor.expect("more"))
        .send()
        .await
        .expect("second page");
    assert_eq!(values(&second.items), [12, 15, 18, 21]);
    let third = keep()
        .after(second.cursor.expect("more"))
        .send()
        .await
        .expect("third page");
    assert_eq!(values(&third.items), [24, 27]);
    assert_eq!(third.cursor, None);
}

#[tokio::test]
async fn foreign_and_tampered_cursors_are_rejected() {
    let db = scores_db("bad_cursors").await;
    let page = db
        .query(Score::partition("chess"))
        .limit(2)
        .send()
        .await
        .expect("page");
    let cursor = page.cursor.expect("more");

    let err = db
        .query(Score::partition("go"))
        .after(cursor.clone())
        .send()
        .await
        .expect_err("other partition");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
    let err = db
        .query(Score::partition("chess"))
        .descending()
        .limit(2)
        .after(cursor.clone())
        .send()
        .await;
    assert!(
        matches!(err, Err(Error::InvalidCursor { .. })),
        "a cursor resumes only the direction it was made in: {err:?}"
    );

    let mut text = cursor.as_str().to_owned();
    let last = text.pop().expect("non-empty");
    text.push(if last == 'A' { 'B' } else { 'A' });
    let err = db
        .query(Score::partition("chess"))
        .after(text.parse().expect("any text"))
        .send()
        .await;
    assert!(matches!(err, Err(Error::InvalidCursor { .. })), "{err:?}");

    let signed = db.clone().with_cursor_key("secret-1");
    let page = signed
        .query(Score::partition("chess"))
        .limit(2)
        .send()
        .await
        .expect("page");
    let cursor = page.cursor.expect("more");
    let other_key = db.clone().with_cursor_key("secret-2");
    let err = other_key
        .query(Score::partition("chess"))
        .after(cursor.clone())
        .send()
        .await;
    assert!(matches!(err, Err(Error::InvalidCursor { .. })), "{err:?}");
    let next = signed
        .query(Score::partition("chess"))
        .limit(2)
        .after(cursor)
        .send()
        .await
        .expect("same key");
    assert_eq!(values(&next.items), [-1, 0]);
}

#[tokio::test]
async fn a_sensor_and_its_latest_readings_come_back_from_one_query() {
    let db = fresh_db::<App>("mixed").await;
    db.put(&sensor("S1")).await.expect("put");
    let start = datetime!(2020-03-01 12:00 UTC);
    for minute in 0..15 {
        let at = start + time::Duration::minutes(minute);
        db.put(&Reading {
            sensor_id: "S1".into(),
            at,
            value: minute as f64,
        })
        .await
        .expect("put");
    }
    // SENSORINFO sorts after READ#..., so newest first gives the sensor, then its readings.
    let page = db
        .query(Sensor::partition("S1"))
        .decode_as::<SensorItem>()
        .descending()
        .limit(11)
        .send()
        .await;
    let items = page.expect("query").items;
    assert_eq!(items[0], SensorItem::Sensor(sensor("S1")));
    let minutes: Vec<f64> = items[1..]
        .iter()
        .map(|item| match item {
            SensorItem::Reading(r) => r.value,
            other => panic!("expected a reading, got {other:?}"),
        })
        .collect();
    assert_eq!(
        minutes,
        [14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0]
    );

    // A typed query reads only its own entity from the shared partition.
    assert_eq!(
        db.query(Reading::partition("S1"))
            .count()
            .await
            .expect("count"),
        15
    );
    assert_eq!(
        db.query(Sensor::partition("S1"))
            .all()
            .await
            .expect("sensor")
            .len(),
        1
    );
}

#[tokio::test]
async fn unknown_entity_types_are_skipped_or_rejected_as_asked() {
    use dynamap::codec::AttributeValue::S;
    let db = fresh_db::<App>("unknown_types").await;
    db.put(&sensor("S1")).await.expect("put");
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", S("SENSOR#S1".into()))
        .item("SK", S("ALARM#1".into()))
        .item("_type", S("Alarm".into()))
        .send()
        .await
        .expect("raw put");
    let skipped = db
        .query(Sensor::partition("S1"))
        .decode_as::<SensorItem>()
        .all()
        .await
        .expect("skip");
    assert_eq!(skipped, [SensorItem::Sensor(sensor("S1"))]);
    let err = db
        .query(Sensor::partition("S1"))
        .decode_as::<SensorItem>()
        .on_unknown(UnknownEntity::Error)
        .all()
        .await
        .expect_err("unknown type");
    assert!(
        matches!(&err, Error::UnknownEntityType { found: Some(f), .. } if f == "Alarm"),
        "{err:?}"
    );
}

#[tokio::test]
async fn location_prefixes_end_on_segment_boundaries() {
    let db = fresh_db::<App>("locations").await;
    let place = |id: &str, city: &str, building: &str, floor: &str, room: Option<&str>| {
        let mut s = sensor(id);
        s.city = city.into();
        s.building = building.into();
        s.floor = floor.into();
        s.room = room.map(Into::into);
        s
    };
    let all = [
        place("S1", "Poznań", "A", "2", Some("13")),
        place("S2", "Poznań", "A", "2", Some("14")),
        place("S3", "Poznań", "A", "20", Some("1")),
        place("S4", "Poznań", "AB", "2", Some("13")),
        place("S5", "Poznań", "B", "-1", Some("1")),
        place("S6", "Berlin", "A", "2", Some("13")),
        place("S7", "Poznań", "A", "2", None),
    ];
    for s in &all {
        db.put(s).await.expect("put");
    }
    let ids = |found: Vec<Sensor>| -> HashSet<String> { found.into_iter().map(|s| s.id).collect() };
    let set = |ids: &[&str]| -> HashSet<String> { ids.iter().map(|s| s.to_string()).collect() };
    let city = || db.query(Sensor::gsi1("Poznań"));

    assert_eq!(
        ids(city().all().await.expect("city")),
        set(&["S1", "S2", "S3", "S4", "S5"]),
        "S7 has no room: not indexed"
    );
    assert_eq!(
        ids(city().sk_prefix(("A",)).all().await.expect("building")),
        set(&["S1", "S2", "S3"])
    );
    assert_eq!(
        ids(city().sk_prefix(("A", "2")).all().await.expect("floor")),
        set(&["S1", "S2"])
    );
    assert_eq!(
        ids(city()
            .sk_prefix(("A", "2", "13"))
            .all()
            .await
            .expect("room")),
        set(&["S1"])
    );
    assert_eq!(
        ids(city().sk_prefix(("A", "20")).all().await.expect("floor 20")),
        set(&["S3"])
    );

    let err = db
        .query(Sensor::gsi1("Poznań"))
        .consistent()
        .send()
        .await
        .expect_err("consistent on a GSI");
    assert!(
        matches!(&err, Error::Unsupported { operation: "Query", reason, .. } if reason.contains("GSI1")),
        "{err:?}"
    );

    // Moving a sensor out of every room takes it out of the index.
    db.put(&place("S1", "Poznań", "A", "2", None))
        .await
        .expect("put");
    assert_eq!(
        ids(city().sk_prefix(("A", "2")).all().await.expect("floor")),
        set(&["S2"])
    );
}

#[tokio::test]
async fn streams_read_page_by_page_in_order() {
    let db = scores_db("streams").await;
    let streamed: Vec<Score> = db
        .query(Score::partition("chess"))
        .stream()
        .try_collect()
        .await
        .expect("stream");
    assert_eq!(values(&streamed), SCORES);
    let limited: Vec<Score> = db
        .query(Score::partition("chess"))
        .limit(4)
        .stream()
        .try_collect()
        .await
        .expect("stream");
    assert_eq!(values(&limited), [-20, -10, -1, 0]);
}

#[tokio::test]
async fn projections_read_only_the_named_attributes() {
    let db = fresh_db::<App>("projection").await;
    let mut s = sensor("S1");
    s.note = Some("by the window".into());
    db.put(&s).await.expect("put");
    // `note` is optional, so a projection without it still decodes. `Sensor` has required
    // fields, so it projects by attribute name, which is checked only when decoding.
    let projected = db
        .query(Sensor::partition("S1"))
        .project(["city", "building", "floor", "room", "type"])
        .all()
        .await
        .expect("projected");
    assert_eq!(projected[0].note, None);
    assert_eq!(projected[0].city, "Poznań");
    // `id` is in the primary key: read back from it.
    assert_eq!(projected[0].id, "S1");
    let err = db
        .query(Sensor::partition("S1"))
        .project(["type"])
        .all()
        .await
        .expect_err("city missing");
    assert!(
        matches!(
            err,
            Error::MissingAttribute {
                attribute: "city",
                ..
            }
        ),
        "{err:?}"
    );
}
