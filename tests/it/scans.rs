//! Scans, sequential and in parallel segments.

use std::collections::BTreeSet;

use dynamap::Error;

use crate::fresh_db;
use crate::models::{App, Reading, Score, Sensor, SensorItem, sensor};

/// A fresh table with `n` scores spread over `games` games, and one sensor (another entity
/// type, which a scan of scores leaves out).
async fn scores(test: &str, n: i64, games: i64) -> dynamap::Db<App> {
    let db = fresh_db::<App>(test).await;
    for i in 0..n {
        db.put(&Score {
            game: format!("g{}", i % games),
            score: i,
            user: format!("u{i}"),
        })
        .await
        .expect("put");
    }
    db.put(&sensor("S1")).await.expect("put");
    db
}

#[tokio::test]
async fn parallel_segments_read_every_item_once() {
    let db = scores("scan_segments", 60, 7).await;

    for segments in [1, 4] {
        let scores = db
            .scan::<Score>()
            .segments(segments)
            .consistent()
            .all()
            .await
            .expect("scan");
        assert_eq!(
            scores.len(),
            60,
            "{segments} segments: other entity types are filtered out"
        );
        let distinct: BTreeSet<i64> = scores.iter().map(|s| s.score).collect();
        assert_eq!(
            distinct,
            (0..60).collect(),
            "{segments} segments: each item once"
        );
        assert_eq!(
            db.scan::<Score>()
                .segments(segments)
                .count()
                .await
                .expect("count"),
            60
        );
    }
    let high = db
        .scan::<Score>()
        .filter(Score::SCORE.ge(50i64))
        .segments(3)
        .count()
        .await
        .expect("count");
    assert_eq!(high, 10);

    let err = db
        .scan::<Score>()
        .segments(0)
        .all()
        .await
        .expect_err("no segments");
    assert!(
        matches!(
            err,
            Error::InvalidSetting {
                setting: "segments",
                ..
            }
        ),
        "{err:?}"
    );

    let err = db
        .scan::<Score>()
        .index("NoSuchIndex")
        .all()
        .await
        .expect_err("unknown index");
    assert!(
        matches!(&err, Error::UnknownIndex { table: "App", index, .. } if index == "NoSuchIndex"),
        "{err:?}"
    );
    let err = db
        .scan::<Score>()
        .index("GSI1")
        .consistent()
        .count()
        .await
        .expect_err("consistent global index");
    assert!(
        matches!(
            err,
            Error::Unsupported {
                operation: "Scan",
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_scan_into_an_enum_reads_every_known_type() {
    let db = fresh_db::<App>("scan_enum").await;
    db.put(&sensor("S1")).await.expect("put");
    let at = time::macros::datetime!(2020-03-01 12:00 UTC);
    db.put(&Reading {
        sensor_id: "S1".into(),
        at,
        value: 1.0,
    })
    .await
    .expect("put");
    db.put(&Score {
        game: "g".into(),
        score: 1,
        user: "u".into(),
    })
    .await
    .expect("put");
    let items = db.scan::<SensorItem>().all().await.expect("scan");
    assert_eq!(
        items.len(),
        2,
        "the score is skipped: SensorItem does not know it"
    );
    assert!(items.contains(&SensorItem::Sensor(sensor("S1"))));
    let sensors = db
        .scan::<Sensor>()
        .index("GSI1")
        .all()
        .await
        .expect("index scan");
    assert_eq!(sensors, [sensor("S1")]);
}

#[tokio::test]
async fn a_stream_a_limit_and_a_concurrency_cap_read_what_all_reads() {
    use futures_util::TryStreamExt;

    let db = scores("scan_stream", 40, 9).await;
    let scan = db.scan::<Score>().segments(8).consistent();
    let all = scan.clone().all().await.expect("scan");
    assert_eq!(all.len(), 40);

    // Page after page, segment after segment: the same items in the same order.
    let streamed: Vec<Score> = scan.clone().stream().try_collect().await.expect("stream");
    assert_eq!(streamed, all);

    // One segment at a time reads the same.
    let capped = scan.clone().concurrency(1).all().await.expect("capped");
    assert_eq!(capped, all);

    // A limit keeps the first items in segment order, whichever way they are read.
    let first = scan.clone().limit(5).all().await.expect("limited");
    assert_eq!(first, all[..5]);
    let streamed: Vec<Score> = scan
        .clone()
        .limit(5)
        .stream()
        .try_collect()
        .await
        .expect("limited stream");
    assert_eq!(streamed, all[..5]);
    assert_eq!(
        scan.clone().limit(5).count().await.expect("count"),
        40,
        "count ignores the limit"
    );

    // A mistake found before sending ends the stream with that error.
    let err = db
        .scan::<Score>()
        .segments(0)
        .stream()
        .try_collect::<Vec<Score>>()
        .await
        .expect_err("no segments");
    assert!(
        matches!(
            err,
            Error::InvalidSetting {
                setting: "segments",
                ..
            }
        ),
        "{err:?}"
    );
}

/// Pages a scan with `send` and `after` to its end, checking that every page with a cursor
/// is followed by a non-empty one: a cursor means more matches follow.
async fn pages(scan: impl Fn() -> dynamap::query::Scan<Score>) -> Vec<Vec<i64>> {
    let mut pages = Vec::new();
    let mut cursor = None;
    loop {
        let mut request = scan();
        if let Some(after) = cursor.take() {
            request = request.after(after);
        }
        let page = request.send().await.expect("page");
        let scores: Vec<i64> = page.items.iter().map(|s| s.score).collect();
        if !pages.is_empty() {
            assert!(!scores.is_empty(), "a cursor led to an empty page");
        }
        pages.push(scores);
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => return pages,
        }
    }
}

#[tokio::test]
async fn pages_with_cursors_read_every_match_once_and_end_without_a_cursor() {
    let db = scores("scan_pages", 60, 7).await;
    for segments in [1, 3] {
        for limit in [1, 7, 10, 59, 60, 100] {
            let pages = pages(|| db.scan::<Score>().segments(segments).limit(limit)).await;
            let mut all: Vec<i64> = pages.iter().flatten().copied().collect();
            assert!(pages.iter().all(|p| p.len() <= limit), "{segments}/{limit}");
            assert_eq!(
                pages.len(),
                60usize.div_ceil(limit),
                "{segments}/{limit}: pages"
            );
            all.sort_unstable();
            assert_eq!(
                all,
                (0..60).collect::<Vec<_>>(),
                "{segments}/{limit}: each once"
            );
        }
        // A filter keeping 10 items: a page of 10 is the whole result, with no cursor.
        let high = || {
            db.scan::<Score>()
                .segments(segments)
                .filter(Score::SCORE.ge(50i64))
        };
        let pages_of_ten = pages(|| high().limit(10)).await;
        assert_eq!(pages_of_ten.len(), 1, "{segments}: one page, no cursor");
        assert_eq!(pages_of_ten[0].len(), 10);
        let pages_of_five = pages(|| high().limit(5)).await;
        assert_eq!(
            pages_of_five.iter().map(Vec::len).collect::<Vec<_>>(),
            [5, 5]
        );
        // Without a limit, pages are whole responses, and the last has no cursor either.
        let unlimited: usize = pages(|| db.scan::<Score>().segments(segments))
            .await
            .iter()
            .map(Vec::len)
            .sum();
        assert_eq!(unlimited, 60);
    }
}

#[tokio::test]
async fn a_scan_cursor_resumes_only_the_scan_that_made_it() {
    let db = scores("scan_cursor_binding", 20, 3).await;
    let page = db
        .scan::<Score>()
        .segments(2)
        .limit(5)
        .send()
        .await
        .expect("page");
    let cursor = page.cursor.expect("more follow");

    let refused = |result: dynamap::Result<dynamap::query::Page<_>>, what: &str| {
        let err = result.map(|_| ()).expect_err(what);
        assert!(
            matches!(err, Error::InvalidCursor { .. }),
            "{what}: {err:?}"
        );
    };
    let scan = || db.scan::<Score>().segments(2);
    refused(
        scan()
            .filter(Score::SCORE.ge(3i64))
            .after(cursor.clone())
            .send()
            .await,
        "another filter",
    );
    refused(
        db.scan::<Score>()
            .segments(3)
            .after(cursor.clone())
            .send()
            .await,
        "another number of segments",
    );
    let other_entity = db
        .scan::<Sensor>()
        .segments(2)
        .after(cursor.clone())
        .send()
        .await;
    assert!(
        matches!(other_entity, Err(Error::InvalidCursor { .. })),
        "another entity: {other_entity:?}"
    );

    let query_cursor = db
        .query(Score::partition("g0"))
        .limit(2)
        .send()
        .await
        .expect("query page")
        .cursor
        .expect("more follow");
    refused(scan().after(query_cursor).send().await, "a query's cursor");

    let resumed = db
        .scan::<Score>()
        .segments(2)
        .limit(100)
        .after(cursor)
        .send()
        .await
        .expect("the same scan resumes");
    assert_eq!(resumed.items.len(), 15);
    assert!(resumed.cursor.is_none());
}
