//! Every well-known field type is stored in the form dynamap chose for it, pinned here as
//! DynamoDB Local holds it; the guide's table of stored forms says the same; and items
//! holding the forms serde stored before (a build without and one with `time`'s
//! `serde-human-readable`) still read.

#[path = "../support/stored_forms.rs"]
mod fixture;

use dynamap::codec::AttributeValue;
use fixture::{FormsApp, Kinds, assert_pinned, item_with, pinned, sample};

use crate::{fresh_db, put_raw, raw_item};

#[tokio::test]
async fn every_type_is_stored_in_its_pinned_form() {
    let db = fresh_db::<FormsApp>("stored_forms_pinned").await;
    db.put(&sample("a")).await.expect("put");
    let stored = raw_item(&db, "KINDS#a", "KINDS").await.expect("stored");
    assert_pinned(&stored);
    let read = db
        .get(Kinds::key("a"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(read, sample("a"));
}

#[tokio::test]
async fn updates_and_conditions_use_the_same_forms() {
    let db = fresh_db::<FormsApp>("stored_forms_updates").await;
    let mut moved = sample("u");
    db.put(&moved).await.expect("put");
    moved.offset = time::macros::datetime!(2021-06-01 00:00 UTC);
    moved.std_duration = std::time::Duration::from_millis(250);
    db.update(Kinds::key("u"))
        .set(Kinds::OFFSET, moved.offset)
        .set(Kinds::STD_DURATION, moved.std_duration)
        .condition(Kinds::DATE.eq(sample("u").date))
        .await
        .expect("update");
    let stored = raw_item(&db, "KINDS#u", "KINDS").await.expect("stored");
    assert_eq!(
        stored["offset"],
        AttributeValue::S("2021-06-01T00:00:00.000000000Z".into())
    );
    assert_eq!(stored["std_duration"], AttributeValue::N("0.25".into()));
    let read = db
        .get(Kinds::key("u"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(read, moved);
}

/// A value set or compared through a path into a map field takes the map's form for its
/// type, not serde's (`{secs, nanos}` for a duration), so one map never mixes two forms.
#[tokio::test]
async fn values_reached_by_paths_take_the_same_forms() {
    let db = fresh_db::<FormsApp>("stored_forms_paths").await;
    db.put(&sample("p")).await.expect("put");
    db.update(Kinds::key("p"))
        .set(
            Kinds::WAITS.key("boot"),
            std::time::Duration::from_millis(250),
        )
        .condition(
            Kinds::WAITS
                .key("boot")
                .eq(std::time::Duration::from_millis(1500)),
        )
        .await
        .expect("the condition compares the stored form, and the update writes it");
    let stored = raw_item(&db, "KINDS#p", "KINDS").await.expect("stored");
    let waits = stored["waits"].as_m().expect("a map");
    assert_eq!(waits["boot"], AttributeValue::N("0.25".into()));
    let read = db
        .get(Kinds::key("p"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(read.waits["boot"], std::time::Duration::from_millis(250));
}

#[tokio::test]
async fn items_in_serdes_forms_still_read() {
    let db = fresh_db::<FormsApp>("stored_forms_old").await;
    put_raw(&db, item_with("plain", fixture::serde_forms())).await;
    put_raw(&db, item_with("human", fixture::human_readable_forms())).await;
    for id in ["plain", "human"] {
        let read = db.get(Kinds::key(id)).await.expect("reads").expect("there");
        assert_eq!(read, sample(id), "{id}");
    }
}

#[tokio::test]
async fn a_maintenance_job_rewrites_old_forms_in_the_current_ones() {
    let db = fresh_db::<FormsApp>("stored_forms_job").await;
    put_raw(&db, item_with("old", fixture::serde_forms())).await;
    db.put(&sample("new")).await.expect("put");
    let report = db
        .maintain::<Kinds>("stored-forms")
        .map(|kinds| dynamap::maintain::Change::Write(kinds.clone()))
        .send()
        .await
        .expect("job runs");
    assert_eq!((report.mapped, report.unchanged), (1, 1), "{report:?}");
    assert_pinned(&raw_item(&db, "KINDS#old", "KINDS").await.expect("stored"));
}

/// The table in `docs/guide/evolving-models.md`, "Stored forms": its rows, as (field
/// type, attribute type, stored text).
fn guide_rows() -> Vec<(String, String, String)> {
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/guide/evolving-models.md"
    ))
    .expect("the guide chapter");
    let section = guide
        .split("\n## ")
        .find(|section| section.starts_with("Stored forms\n"))
        .expect("a section \"Stored forms\"");
    let code = |cell: &str| {
        let cell = cell.trim();
        cell.split('`').nth(1).unwrap_or_default().to_owned()
    };
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
            assert_eq!(cells.len(), 4, "{line}");
            (code(cells[0]), code(cells[1]), code(cells[3]))
        })
        .collect()
}

#[test]
fn the_guides_table_of_stored_forms_is_what_is_stored() {
    let pinned = pinned();
    let rows = guide_rows();
    let listed: Vec<&str> = rows.iter().map(|(ty, _, _)| ty.as_str()).collect();
    let expected: Vec<&str> = fixture::GUIDE_TYPES.iter().map(|(ty, _)| *ty).collect();
    assert_eq!(listed, expected, "the guide lists every type, in order");
    for ((ty, kind, text), (_, field)) in rows.iter().zip(fixture::GUIDE_TYPES) {
        let (_, value) = pinned
            .iter()
            .find(|(name, _)| name == field)
            .expect("pinned");
        let (stored_kind, stored_text) = match value {
            AttributeValue::S(text) => ("S", text),
            AttributeValue::N(text) => ("N", text),
            other => panic!("{ty}: {other:?}"),
        };
        assert_eq!((kind.as_str(), text), (stored_kind, stored_text), "{ty}");
    }
}
