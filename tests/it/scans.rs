//! Scans, sequential and in parallel segments.

use std::collections::BTreeSet;

use dynamap::Error;

use crate::fresh_db;
use crate::models::{App, Reading, Score, Sensor, SensorItem, sensor};

/// A fresh table with `n` scores spread over `games` games, and one sensor (another entity
/// type, which a scan of scores leaves out).
async fn scores(test: &str, n: i64, games: i64) -> dynamap::Db {
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
    assert!(matches!(err, Error::InvalidRequest { .. }), "{err:?}");
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
    assert!(matches!(err, Error::InvalidRequest { .. }), "{err:?}");
}
