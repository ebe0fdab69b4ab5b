//! `first(n)` is the n smallest sort keys and `last(n)` the n greatest, whatever else the
//! query says; combined with `descending()`, `limit(n)` or each other they are refused, as is
//! `count()` after a limit.

use dynamap::Error;
use futures_util::TryStreamExt;

use crate::fresh_db;
use crate::models::{App, Score};

async fn ten(test: &str) -> dynamap::Db<App> {
    let db = fresh_db::<App>(test).await;
    for score in 1..=10i64 {
        db.put(&Score {
            game: "g".into(),
            score,
            user: "u".into(),
        })
        .await
        .expect("put");
    }
    db
}

async fn page(query: dynamap::query::Query<Score, (i64, String)>) -> dynamap::Result<Vec<i64>> {
    query.send().await.map(|p| scores(&p.items))
}

fn scores(items: &[Score]) -> Vec<i64> {
    items.iter().map(|s| s.score).collect()
}

#[tokio::test]
async fn first_last_limit_and_descending_in_every_combination() {
    let db = ten("first_last").await;
    let q = || db.query(Score::partition("g"));
    assert_eq!(page(q().first(3)).await.expect("first"), [1, 2, 3]);
    assert_eq!(page(q().last(3)).await.expect("last"), [10, 9, 8]);
    assert_eq!(page(q().limit(3)).await.expect("limit"), [1, 2, 3]);
    assert_eq!(
        page(q().descending().limit(3)).await.expect("desc"),
        [10, 9, 8]
    );
    assert_eq!(
        page(q().limit(3).descending()).await.expect("desc"),
        [10, 9, 8]
    );
    for query in [
        q().descending().first(3),
        q().first(3).descending(),
        q().last(3).descending(),
    ] {
        let err = page(query).await.expect_err("first/last set the order");
        assert!(
            matches!(&err, Error::Unsupported { reason, .. } if reason.contains("drop `.descending()`")),
            "{err:?}"
        );
    }
    // Filters apply before the n are taken.
    let odd = || Score::SCORE.is_in([1i64, 3, 5, 7, 9]);
    assert_eq!(
        page(q().first(2).filter(odd())).await.expect("filtered"),
        [1, 3]
    );
    assert_eq!(
        page(q().last(2).filter(odd())).await.expect("filtered"),
        [9, 7]
    );
    // `all` and `stream` stop at n too.
    assert_eq!(
        scores(&q().last(4).all().await.expect("all")),
        [10, 9, 8, 7]
    );
    let streamed: Vec<Score> = q().first(2).stream().try_collect().await.expect("stream");
    assert_eq!(scores(&streamed), [1, 2]);
}

#[tokio::test]
async fn first_and_last_pages_continue_from_their_cursor() {
    let db = ten("first_last_pages").await;
    let q = || db.query(Score::partition("g"));
    let top = q().last(3).send().await.expect("top");
    let next = q()
        .last(3)
        .after(top.cursor.expect("more"))
        .send()
        .await
        .expect("next");
    assert_eq!(scores(&next.items), [7, 6, 5]);
    let bottom = q().first(4).send().await.expect("bottom");
    let next = q()
        .first(4)
        .after(bottom.cursor.expect("more"))
        .send()
        .await
        .expect("next");
    assert_eq!(scores(&next.items), [5, 6, 7, 8]);
    // A first-page cursor is not a last-page cursor: the direction differs.
    let first_cursor = q()
        .first(2)
        .send()
        .await
        .expect("page")
        .cursor
        .expect("more");
    let err = q()
        .last(2)
        .after(first_cursor)
        .send()
        .await
        .expect_err("other direction");
    assert!(matches!(err, Error::InvalidCursor { .. }), "{err:?}");
}

#[tokio::test]
async fn count_refuses_a_limit_and_counts_everything_else() {
    let db = ten("first_last_count").await;
    let q = || db.query(Score::partition("g"));
    assert_eq!(q().count().await.expect("count"), 10);
    assert_eq!(q().sk_ge((4i64,)).count().await.expect("count"), 7);
    for query in [q().limit(3), q().first(3), q().last(3)] {
        let err = query.count().await.expect_err("a limited count");
        assert!(matches!(err, Error::Unsupported { .. }), "{err:?}");
    }
}

#[tokio::test]
async fn limit_with_first_or_last_is_refused_in_either_order_before_sending() {
    let db = ten("first_last_with_limit").await;
    // Any request this client sent would fail with a service error.
    let offline = crate::offline(&db);
    let q = || offline.query(Score::partition("g"));
    let combinations = [
        ("limit(3).last(5)", q().limit(3).last(5), "limit(3)"),
        ("last(5).limit(3)", q().last(5).limit(3), "limit(3)"),
        ("limit(3).first(5)", q().limit(3).first(5), "limit(3)"),
        ("first(5).limit(3)", q().first(5).limit(3), "limit(3)"),
        ("first(3).last(3)", q().first(3).last(3), "keep one"),
        ("last(3).first(3)", q().last(3).first(3), "keep one"),
    ];
    for (what, query, says) in combinations {
        for err in [
            page(query.clone()).await.expect_err(what),
            query.clone().all().await.expect_err(what),
            query
                .stream()
                .try_collect::<Vec<_>>()
                .await
                .expect_err(what),
        ] {
            assert!(
                matches!(&err, Error::Unsupported { reason, .. } if reason.contains(says)),
                "{what}: {err:?}"
            );
        }
    }
    // Each alone still reads its page, and `first`/`last` still refuse a size of 0.
    assert_eq!(
        page(db.query(Score::partition("g")).last(5))
            .await
            .expect("last"),
        [10, 9, 8, 7, 6]
    );
    let err = page(q().last(0)).await.expect_err("empty page");
    assert!(
        matches!(
            err,
            Error::InvalidSetting {
                setting: "last",
                ..
            }
        ),
        "{err:?}"
    );
}
