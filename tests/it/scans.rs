//! Scans, sequential and in parallel segments.

use std::collections::BTreeSet;

use dynamap::Error;

use crate::fresh_db;
use crate::models::{App, Reading, Score, Sensor, SensorItem, sensor};

#[tokio::test]
async fn parallel_segments_read_every_item_once() {
    let db = fresh_db::<App>("scan_segments").await;
    for i in 0..60i64 {
        db.put(&Score {
            game: format!("g{}", i % 7),
            score: i,
            user: format!("u{i}"),
        })
        .await
        .expect("put");
    }
    db.put(&sensor("S1")).await.expect("put");

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
