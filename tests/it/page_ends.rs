//! A query page has a cursor exactly when more matching items follow: a page that ends the
//! results has none, whatever the limit, the filter, the direction, the index or the types
//! decoded, so a cursor never leads to an empty page.

use dynamap::query::{Page, Query};
use dynamap::{Db, Entity};

use crate::fresh_db;
use crate::models::{App, Reading, Score, Sensor, SensorItem, SensorKind, sensor};

/// Scores 0 to `n - 1` of one game; the users of 5, 15, 25, ... (a tenth of them) are
/// "keep", so in either direction the last match is followed by items the filter drops.
async fn scored(test: &str, n: i64) -> Db<App> {
    let db = fresh_db::<App>(test).await;
    let scores: Vec<Score> = (0..n)
        .map(|score| Score {
            game: "g".into(),
            score,
            user: if score % 10 == 5 { "keep" } else { "drop" }.into(),
        })
        .collect();
    let report = db.put_all(&scores).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    db
}

fn kept(n: i64, descending: bool) -> Vec<i64> {
    let mut kept: Vec<i64> = (0..n).filter(|s| s % 10 == 5).collect();
    if descending {
        kept.reverse();
    }
    kept
}

/// Every page of `query` (built afresh for each page), checking that no cursor leads to an
/// empty page.
async fn walk<T, S>(query: impl Fn() -> Query<T, S>) -> Vec<Page<T>>
where
    T: dynamap::query::Decode,
{
    let mut pages: Vec<Page<T>> = Vec::new();
    loop {
        let mut next = query();
        if let Some(cursor) = pages.last().and_then(|p| p.cursor.clone()) {
            next = next.after(cursor);
        } else if !pages.is_empty() {
            return pages;
        }
        let page = next.send().await.expect("page");
        assert!(
            pages.is_empty() || !page.is_empty(),
            "page {} is empty: the cursor before it promised more",
            pages.len() + 1
        );
        pages.push(page);
    }
}

fn scores(pages: &[Page<Score>]) -> Vec<i64> {
    pages.iter().flatten().map(|s| s.score).collect()
}

#[tokio::test]
async fn a_filtered_page_that_ends_on_the_last_match_has_no_cursor() {
    // The case: 1,000 items, 100 matches, a limit of 100.
    let db = scored("page_ends_filtered", 1000).await;
    for descending in [false, true] {
        let mut query = db
            .query(Score::partition("g"))
            .filter(Score::USER.eq("keep"))
            .limit(100);
        if descending {
            query = query.descending();
        }
        let page = query.send().await.expect("page");
        assert_eq!(scores(std::slice::from_ref(&page)), kept(1000, descending));
        assert!(
            page.cursor.is_none(),
            "descending {descending}: the page holds every match"
        );
    }
}

#[tokio::test]
async fn pages_of_every_size_end_with_the_results_in_both_directions() {
    let db = scored("page_ends_sizes", 200).await;
    for descending in [false, true] {
        for limit in [1, 3, 19, 20, 21] {
            let query = || {
                let query = db
                    .query(Score::partition("g"))
                    .filter(Score::USER.eq("keep"))
                    .limit(limit);
                if descending {
                    query.descending()
                } else {
                    query
                }
            };
            let pages = walk(query).await;
            assert_eq!(scores(&pages), kept(200, descending), "limit {limit}");
            assert_eq!(pages.len(), 20usize.div_ceil(limit), "limit {limit}");
        }
        // Without a filter, a limit of exactly every item is one page.
        let query = || {
            let query = db.query(Score::partition("g")).limit(200);
            if descending {
                query.descending()
            } else {
                query
            }
        };
        let pages = walk(query).await;
        assert_eq!((pages.len(), pages[0].len()), (1, 200));
    }
}

#[tokio::test]
async fn index_pages_end_with_the_results() {
    let db = fresh_db::<App>("page_ends_index").await;
    // 40 sensors in one city; the gas ones are rooms 10 to 12 of 0 to 39, so the last gas
    // sensor is followed by others in either direction.
    let sensors: Vec<Sensor> = (0..40)
        .map(|n| Sensor {
            room: Some(format!("{n:02}")),
            kind: if (10..13).contains(&n) {
                SensorKind::Gas
            } else {
                SensorKind::Humidity
            },
            ..sensor(&format!("S{n:02}"))
        })
        .collect();
    let report = db.put_all(&sensors).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    for descending in [false, true] {
        let mut query = db
            .query(Sensor::gsi1("Poznań"))
            .filter(Sensor::KIND.eq(SensorKind::Gas))
            .limit(3);
        if descending {
            query = query.descending();
        }
        let page = query.send().await.expect("page");
        assert_eq!(page.len(), 3);
        assert!(page.cursor.is_none(), "descending {descending}");
    }
}

/// An entity type `SensorItem` does not list, stored after the sensor in its partition.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Calibration", pk = "SENSOR#{sensor_id}", sk = "ZCAL#{n}")]
struct Calibration {
    sensor_id: String,
    n: u32,
}

#[tokio::test]
async fn a_mixed_page_followed_only_by_skipped_types_has_no_cursor() {
    let db = fresh_db::<App>("page_ends_mixed").await;
    db.put(&sensor("S1")).await.expect("sensor");
    let start = time::macros::datetime!(2024-01-01 00:00 UTC);
    for minute in 0..4 {
        db.put(&Reading {
            sensor_id: "S1".into(),
            at: start + time::Duration::minutes(minute),
            value: minute as f64,
        })
        .await
        .expect("reading");
    }
    for n in 0..5 {
        db.put(&Calibration {
            sensor_id: "S1".into(),
            n,
        })
        .await
        .expect("calibration");
    }
    // Four readings and the sensor, then calibrations that decoding skips.
    let page = db
        .query(Reading::partition("S1"))
        .decode_as::<SensorItem>()
        .limit(5)
        .send()
        .await
        .expect("page");
    assert_eq!(page.len(), 5);
    assert!(matches!(page.items[4], SensorItem::Sensor(_)));
    assert!(page.cursor.is_none(), "only skipped items follow");
}
