//! Compressed fields against DynamoDB Local: stored as one binary attribute with its codec
//! recorded, read back after the codec changes, refused over budget, and corrupt data
//! reported as errors.

use dynamap::Error;
use dynamap::codec::{AttributeValue, Codec, CodecError, Format, Header};

use crate::codec_models::{
    ColumnEvent, Event, Night, NightColumns, NightV1, SleepApp, Summary, Tight, Wide,
};
use crate::{fresh_db, raw_item};

fn night_events() -> Vec<Event> {
    (0..1440)
        .flat_map(|minute| {
            ["MOTION", "NOISE", "LIGHT"].map(|kind| Event {
                minute,
                kind: kind.into(),
                level: f64::from((minute * 7 + kind.len() as u32) % 50) / 10.0,
            })
        })
        .collect()
}

fn header(item: &dynamap::codec::Item, attribute: &str) -> Header {
    let bytes = item[attribute].as_b().expect("a binary attribute");
    Header::read(bytes.as_ref()).expect("a header").0
}

#[tokio::test]
async fn a_night_is_one_binary_attribute_with_its_codec_recorded() {
    let db = fresh_db::<SleepApp>("compressed_night").await;
    let night = Night {
        account_id: "A1".into(),
        night: "2026-11-21".into(),
        events: night_events(),
        summary: Some(Summary {
            score: 81,
            notes: vec!["restless at 3am".into()],
        }),
    };
    db.put(&night).await.expect("put");

    let raw = raw_item(&db, "ACCOUNT#A1", "NIGHT#2026-11-21")
        .await
        .expect("stored");
    let events = header(&raw, "events");
    assert_eq!(
        (events.format, events.codec),
        (Format::Columnar, Codec::DEFAULT)
    );
    assert!(events.stored_bytes < 32 * 1024, "{events}");
    let summary = header(&raw, "summary");
    assert_eq!(
        (summary.format, summary.codec),
        (Format::Row, Codec::Snappy)
    );

    let read = db.get(Night::key("A1", "2026-11-21")).await.expect("get");
    assert_eq!(read, Some(night));
}

#[tokio::test]
async fn items_written_with_the_old_codec_read_after_the_default_changes() {
    let db = fresh_db::<SleepApp>("compressed_codec_change").await;
    let old = NightV1 {
        account_id: "A1".into(),
        night: "2026-11-20".into(),
        events: night_events(),
        summary: Some(Summary {
            score: 64,
            notes: vec![],
        }),
    };
    db.put(&old).await.expect("put with the old codecs");
    let raw = raw_item(&db, "ACCOUNT#A1", "NIGHT#2026-11-20")
        .await
        .expect("stored");
    assert_eq!(header(&raw, "events").codec.name(), "bzip2");
    assert_eq!(header(&raw, "summary").format, Format::Json);

    // The new struct writes zstd and snappy, but reads whatever each item says.
    let read = db
        .get(Night::key("A1", "2026-11-20"))
        .await
        .expect("get")
        .expect("found");
    assert_eq!((read.events, read.summary), (old.events, old.summary));

    // Reprocessing overwrites the night wholesale, now with the new codecs.
    let mut reprocessed = read_back(&db).await;
    reprocessed.events.truncate(10);
    db.put(&reprocessed).await.expect("overwrite");
    let raw = raw_item(&db, "ACCOUNT#A1", "NIGHT#2026-11-20")
        .await
        .expect("stored");
    assert_eq!(header(&raw, "events").codec, Codec::DEFAULT);
    assert_eq!(read_back(&db).await, reprocessed);
}

#[tokio::test]
async fn lists_of_columnar_types_are_written_by_generated_code_and_old_items_read() {
    let db = fresh_db::<SleepApp>("compressed_generated").await;
    let old = NightV1 {
        account_id: "A1".into(),
        night: "2026-11-19".into(),
        events: night_events(),
        summary: None,
    };
    db.put(&old).await.expect("put through serde");
    let as_columns = |events: &[Event]| -> Vec<ColumnEvent> {
        events
            .iter()
            .map(|e| ColumnEvent {
                minute: e.minute,
                kind: e.kind.clone(),
                level: e.level,
            })
            .collect()
    };
    let read = db
        .get(NightColumns::key("A1", "2026-11-19"))
        .await
        .expect("get")
        .expect("found");
    assert_eq!(
        read.events,
        as_columns(&old.events),
        "an item written through serde reads"
    );

    let night = NightColumns {
        highlights: Some(read.events[..5].to_vec()),
        ..read
    };
    db.put(&night).await.expect("put column by column");
    let raw = raw_item(&db, "ACCOUNT#A1", "NIGHT#2026-11-19")
        .await
        .expect("stored");
    let events = header(&raw, "events");
    assert_eq!(
        (events.format, events.version),
        (Format::Columnar, 3),
        "{events}"
    );
    assert!(events.stored_bytes < 4096, "{events}");
    let highlights = header(&raw, "highlights");
    assert_eq!((highlights.format, highlights.version), (Format::Json, 1));
    let read = db
        .get(NightColumns::key("A1", "2026-11-19"))
        .await
        .expect("get");
    assert_eq!(read, Some(night));
}

async fn read_back(db: &dynamap::Db<SleepApp>) -> Night {
    db.get(Night::key("A1", "2026-11-20"))
        .consistent()
        .await
        .expect("get")
        .expect("found")
}

#[tokio::test]
async fn a_value_over_its_budget_is_refused_before_writing() {
    let db = fresh_db::<SleepApp>("compressed_budget").await;
    // A xorshift sequence: no difference, common factor or dictionary helps.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let values = (0..500)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        })
        .collect();
    let tight = Tight {
        id: "t".into(),
        values,
    };
    let err = db.put(&tight).await.expect_err("over budget");
    match err {
        Error::CompressedTooLarge {
            entity,
            attribute,
            size,
            budget,
            ..
        } => {
            assert_eq!((entity, attribute, budget), ("Tight", "values", 64));
            assert!(size > 64);
        }
        other => panic!("expected CompressedTooLarge, got {other:?}"),
    }
    assert!(
        db.get(Tight::key("t")).await.expect("get").is_none(),
        "nothing was written"
    );

    let small = Tight {
        id: "t".into(),
        values: vec![1, 2, 3],
    };
    db.put(&small).await.expect("a small value fits");
}

#[tokio::test]
async fn compressed_fields_still_count_toward_the_item_limit() {
    let db = fresh_db::<SleepApp>("compressed_item_limit").await;
    let mut state = 7u64;
    let mut noise = |n: usize| -> Vec<u64> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            })
            .collect()
    };
    let wide = Wide {
        id: "w".into(),
        left: noise(27_000),
        right: noise(27_000),
    };
    let err = db.put(&wide).await.expect_err("over 400 KB");
    assert!(
        matches!(err, Error::ItemTooLarge { entity: "Wide", .. }),
        "{err:?}"
    );
    assert!(db.get(Wide::key("w")).await.expect("get").is_none());
}

#[tokio::test]
async fn corrupt_stored_values_are_typed_errors() {
    let db = fresh_db::<SleepApp>("compressed_corrupt").await;
    let night = Night {
        account_id: "A1".into(),
        night: "n".into(),
        events: night_events(),
        summary: None,
    };
    db.put(&night).await.expect("put");
    let raw = raw_item(&db, "ACCOUNT#A1", "NIGHT#n")
        .await
        .expect("stored");
    let good = raw["events"].as_b().expect("binary").as_ref().to_vec();

    let truncated = good[..good.len() / 2].to_vec();
    let mut unknown_codec = good.clone();
    unknown_codec[4] = 200;
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x5a;
    let cases = [
        ("truncated", AttributeValue::B(truncated.into())),
        ("unknown codec", AttributeValue::B(unknown_codec.into())),
        ("flipped byte", AttributeValue::B(flipped.into())),
        (
            "no header",
            AttributeValue::B(b"plain bytes".to_vec().into()),
        ),
        ("not binary", AttributeValue::S("events".into())),
    ];
    for (case, value) in cases {
        let mut item = raw.clone();
        item.insert("events".into(), value);
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .expect("raw put");
        let err = db.get(Night::key("A1", "n")).await.expect_err(case);
        match &err {
            Error::Compressed {
                entity: "Night",
                attribute: "events",
                source,
                ..
            } => {
                if case == "unknown codec" {
                    assert_eq!(source, &CodecError::UnknownCodec(200));
                }
            }
            other => panic!("{case}: expected a Compressed error, got {other:?}"),
        }
        assert!(err.to_string().contains("events"), "{case}: {err}");
    }
}
