//! The row layout, fields that appear later, range reads, and refused entities.

use dynamap::Error;
use dynamap::codec::{AttributeValue, Item};
use dynamap::timeseries::rows::{WritePath, WriteStatus};
use futures_util::TryStreamExt;

use super::{CarEvent, CarEventV1, Iot, PK, Versioned, event};
use crate::{fresh_db, raw_item};

#[tokio::test]
async fn a_row_is_an_id_list_and_one_map_per_field() {
    let db = fresh_db::<Iot>("rows_layout").await;
    let rows = db.event_rows::<CarEvent>();
    let first = rows.write(&event(1, 1)).await.expect("write");
    let second = rows.write(&event(1, 3)).await.expect("write");
    let (a, b) = (first.id.to_string(), second.id.to_string());

    let row = raw_item(&db, PK, "0000000000000000001").await.expect("row");
    let s = |v: &str| AttributeValue::S(v.to_owned());
    let n = |v: &str| AttributeValue::N(v.to_owned());
    let map = |pairs: &[(&str, AttributeValue)]| {
        AttributeValue::M(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    };
    let expected: Item = [
        ("PK", s(PK)),
        ("SK", s("0000000000000000001")),
        ("_type", s("CarEvent")),
        ("tenant", s("n111")),
        ("car", s("a_table")),
        ("at", n("1")),
        ("_ids", AttributeValue::L(vec![s(&a), s(&b)])),
        ("_cap", n("250")),
        ("speed", map(&[(&a, n("1.5")), (&b, n("4.5"))])),
        ("seq", map(&[(&a, n("1")), (&b, n("3"))])),
        // `None` for the first event: no entry, but the map exists for later events.
        ("door", map(&[(&b, s("door-3"))])),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(row, expected);
    let stored = rows
        .at(CarEvent::key("n111", "a_table", 1i64))
        .await
        .expect("at");
    assert_eq!(stored, [event(1, 1), event(1, 3)]);
}

#[tokio::test]
async fn a_field_the_row_lacks_is_added_when_an_event_has_it() {
    let db = fresh_db::<Iot>("rows_new_field").await;
    // Rows written before the struct had `door`: they have no `door` map.
    let old = db.event_rows::<CarEventV1>();
    let v1 = CarEventV1 {
        tenant: "n111".into(),
        car: "a_table".into(),
        at: 42,
        speed: 1.0,
        seq: 1,
    };
    old.write(&v1).await.expect("write");
    let sk = "0000000000000000042";
    assert!(
        !raw_item(&db, PK, sk)
            .await
            .expect("row")
            .contains_key("door")
    );

    let rows = db.event_rows::<CarEvent>().write_path(WritePath::MapFirst);
    let new = event(42, 3);
    let outcome = rows.write(&new).await.expect("write");
    assert_eq!((outcome.status, outcome.row), (WriteStatus::Stored, 0));
    // The add, refused for the missing map; the map added; the add again.
    assert_eq!(outcome.requests, 4);
    let stored = rows
        .at(CarEvent::key("n111", "a_table", 42i64))
        .await
        .expect("at");
    let old_as_new = CarEvent {
        door: None,
        ..event(42, 1)
    };
    assert_eq!(
        stored,
        [
            CarEvent {
                speed: 1.0,
                ..old_as_new
            },
            new
        ]
    );
}

#[tokio::test]
async fn ranges_stream_in_time_order() {
    let db = fresh_db::<Iot>("rows_range").await;
    let rows = db.event_rows::<CarEvent>().consistent();
    let events = [
        event(30, 1),
        event(10, 2),
        event(20, 3),
        event(20, 4),
        event(40, 5),
    ];
    for e in &events {
        rows.write(e).await.expect("write");
    }
    // Another car's events are in another partition.
    rows.write(&CarEvent {
        car: "other".into(),
        ..event(20, 9)
    })
    .await
    .expect("write");

    let partition = || CarEvent::partition("n111", "a_table");
    let read = |from: i64, to: i64| {
        rows.range(partition(), (from,), (to,))
            .try_collect::<Vec<CarEvent>>()
    };
    let got = read(15, 30).await.expect("range");
    assert_eq!(
        got.iter().map(|e| (e.at, e.seq)).collect::<Vec<_>>(),
        [(20, 3), (20, 4), (30, 1)]
    );
    let all = read(i64::MIN, i64::MAX).await.expect("range");
    assert_eq!(
        all.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [2, 3, 4, 1, 5]
    );
    assert!(read(30, 10).await.expect("empty range").is_empty());
    assert!(read(11, 19).await.expect("gap").is_empty());
}

#[tokio::test]
async fn entities_with_versions_are_refused() {
    let db = fresh_db::<Iot>("rows_refused").await;
    let rows = db.event_rows::<Versioned>();
    let err = rows
        .write(&Versioned {
            id: "a".into(),
            at: 1,
            version: 0,
        })
        .await
        .expect_err("refused");
    assert!(
        matches!(
            err,
            Error::EventRowUnsupported {
                entity: "Versioned",
                ..
            }
        ),
        "{err:?}"
    );
    let err = rows
        .at(Versioned::key("a", 1i64))
        .await
        .expect_err("refused");
    assert!(matches!(err, Error::EventRowUnsupported { .. }), "{err:?}");
    let err = db
        .event_rows::<CarEvent>()
        .cap(0)
        .write(&event(1, 1))
        .await
        .expect_err("cap 0");
    assert!(
        matches!(err, Error::InvalidSetting { setting: "cap", .. }),
        "{err:?}"
    );
}
