//! A cursor resumes only the query that made it: reused with another sort condition,
//! direction, filter, projection or entity it is refused before anything is sent, and on an
//! index whose sort key is a number it carries the number.

use dynamap::Error;

use crate::attribute_keys::{Arcade, Score as Points};
use crate::fresh_db;
use crate::models::{App, Score};

async fn scores(test: &str) -> dynamap::Db<App> {
    let db = fresh_db::<App>(test).await;
    for score in 0..30i64 {
        db.put(&Score {
            game: "chess".into(),
            score: score * 10,
            user: format!("u{score:02}"),
        })
        .await
        .expect("put");
    }
    db
}

#[tokio::test]
async fn a_cursor_is_refused_by_every_other_query_of_its_partition() {
    let db = scores("cursor_misuse").await;
    let made = || db.query(Score::partition("chess")).sk_ge((50i64,)).limit(3);
    let cursor = made().send().await.expect("page").cursor.expect("more");

    // The query that made it resumes where it stopped.
    let next = made().after(cursor.clone()).send().await.expect("resume");
    let scores: Vec<i64> = next.items.iter().map(|s| s.score).collect();
    assert_eq!(scores, [80, 90, 100]);
    // A new page size is fine: it does not change which items come next.
    let more = made()
        .limit(5)
        .after(cursor.clone())
        .send()
        .await
        .expect("resize");
    assert_eq!(more.items.len(), 5);

    let misuses = [
        (
            "another bound",
            db.query(Score::partition("chess")).sk_ge((10i64,)).limit(3),
        ),
        ("another direction", made().descending()),
        (
            "another operator",
            db.query(Score::partition("chess")).sk_lt((10i64,)).limit(3),
        ),
        ("a filter", made().filter(Score::USER.ne("u00"))),
        ("a projection", made().project(["user"])),
        (
            "no sort condition",
            db.query(Score::partition("chess")).limit(3),
        ),
    ];
    for (what, query) in misuses {
        let err = query.after(cursor.clone()).send().await.expect_err(what);
        assert!(
            matches!(err, Error::InvalidCursor { .. }),
            "{what}: {err:?}"
        );
    }
    // Counting and streaming check it too.
    let err = db
        .query(Score::partition("chess"))
        .after(cursor.clone())
        .count()
        .await
        .expect_err("count");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
}

#[tokio::test]
async fn refusals_happen_before_sending() {
    // A client on a closed port: any request would fail with a service error.
    let db = scores("cursor_offline").await;
    let cursor = db
        .query(Score::partition("chess"))
        .limit(2)
        .send()
        .await
        .expect("page")
        .cursor
        .expect("more");
    let offline = crate::offline(&db);
    let err = offline
        .query(Score::partition("chess"))
        .descending()
        .after(cursor)
        .send()
        .await
        .expect_err("refused");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
}

#[tokio::test]
async fn pages_of_a_number_sort_key_resume_exactly() {
    let db = fresh_db::<Arcade>("cursor_numbers").await;
    for n in 0..25u64 {
        db.put(&Points {
            user_id: format!("u{n:02}"),
            game: "tetris".into(),
            score: (n * 37) % 100,
        })
        .await
        .expect("put");
    }
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = db
            .query(Points::leaderboard("tetris"))
            .descending()
            .limit(4);
        if let Some(c) = cursor.take() {
            query = query.after(c);
        }
        let page = query.send().await.expect("page");
        seen.extend(page.items.iter().map(|p| p.score));
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let mut expected: Vec<u64> = (0..25u64).map(|n| (n * 37) % 100).collect();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(seen, expected, "every score once, in order");
}

#[tokio::test]
async fn a_single_entity_cursor_does_not_resume_a_mixed_query() {
    use crate::models::{Reading, SensorItem, sensor};
    let db = fresh_db::<App>("cursor_entities").await;
    db.put(&sensor("S1")).await.expect("sensor");
    let start = time::macros::datetime!(2024-01-01 00:00 UTC);
    for minute in 0..5 {
        db.put(&Reading {
            sensor_id: "S1".into(),
            at: start + time::Duration::minutes(minute),
            value: minute as f64,
        })
        .await
        .expect("reading");
    }
    let cursor = db
        .query(Reading::partition("S1"))
        .limit(2)
        .send()
        .await
        .expect("page")
        .cursor
        .expect("more");
    let err = db
        .query(Reading::partition("S1"))
        .decode_as::<SensorItem>()
        .after(cursor)
        .send()
        .await
        .expect_err("another entity filter");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
}
