//! Items another mapper's model version wrote beside this entity's (ElectroDB's
//! `__edb_v__ = "2"` where the entity declares `"1"`, or none at all): a read fails on them by
//! default, naming the item; with `on_unknown(UnknownEntity::SkipMismatched)` queries, scans,
//! enum queries and lossy reads leave them out as ElectroDB does, and count them on each
//! page (`Page::skipped`), once over a paged read.

use dynamap::codec::AttributeValue::S;
use dynamap::query::{Page, UnknownEntity};
use dynamap::{Entity, EntityEnum, Error, Table};

use crate::{fresh_db, put_raw};

#[derive(Table)]
#[dynamap(pk = "pk", sk = "sk", entity_type = "__edb_e__")]
struct Peer;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "note", pk = "$app#list_{list}", sk = "$note#{id}",
          const_attr(name = "__edb_v__", value = "1"))]
struct Note {
    list: String,
    id: String,
    text: String,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "list", pk = "$app#list_{name}", sk = "$list")]
struct List {
    name: String,
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
enum ListItem {
    List(List),
    Note(Note),
}

fn note(id: &str) -> Note {
    Note {
        list: "l1".into(),
        id: id.into(),
        text: format!("note {id}"),
    }
}

/// Notes n1..=n6 of list `l1`, of which n2 was written by version 2 and n5 without the
/// version attribute; and the list itself.
async fn seeded(test: &str) -> dynamap::Db<Peer> {
    let db = fresh_db::<Peer>(test).await;
    db.put(&List { name: "l1".into() }).await.expect("list");
    for id in ["n1", "n2", "n3", "n4", "n5", "n6"] {
        let mut item = note(id).to_item().expect("to_item");
        match id {
            "n2" => drop(item.insert("__edb_v__".into(), S("2".into()))),
            "n5" => drop(item.remove("__edb_v__")),
            _ => {}
        }
        put_raw(&db, item).await;
    }
    db
}

const KEPT: [&str; 4] = ["n1", "n3", "n4", "n6"];

fn ids(notes: &[Note]) -> Vec<&str> {
    notes.iter().map(|n| n.id.as_str()).collect()
}

#[tokio::test]
async fn by_default_an_item_of_another_version_fails_the_read() {
    let db = seeded("const_mismatch_strict").await;
    let err = db
        .query(Note::partition("l1"))
        .all()
        .await
        .expect_err("version 2");
    assert!(
        matches!(
            err,
            Error::InvalidAttribute {
                attribute: "__edb_v__",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.item_key()
            .is_some_and(|key| key.sk.as_deref() == Some("$note#n2")),
        "{err}"
    );
    let err = db
        .scan::<Note>()
        .on_unknown(UnknownEntity::Skip)
        .send()
        .await
        .expect_err("skipping unknown types keeps constants strict");
    assert!(matches!(err, Error::InvalidAttribute { .. }), "{err:?}");
}

#[tokio::test]
async fn skip_mismatched_leaves_items_of_another_version_out_and_counts_them() {
    let db = seeded("const_mismatch_skip").await;
    let notes = || {
        db.query(Note::partition("l1"))
            .on_unknown(UnknownEntity::SkipMismatched)
    };

    let page = notes().send().await.expect("one page");
    assert_eq!((ids(&page.items), page.skipped), (KEPT.to_vec(), 2));
    let all = notes().all().await.expect("all");
    assert_eq!(ids(&all), KEPT);

    // Paged: every kept note once, every skipped one counted once.
    let mut pages: Vec<Page<Note>> = Vec::new();
    loop {
        let mut query = notes().limit(1);
        if let Some(cursor) = pages.last().and_then(|p| p.cursor.clone()) {
            query = query.after(cursor);
        }
        let page = query.send().await.expect("page");
        let more = page.has_more();
        pages.push(page);
        if !more {
            break;
        }
    }
    let read: Vec<&str> = pages.iter().flat_map(|p| ids(&p.items)).collect();
    assert_eq!(read, KEPT);
    assert_eq!(
        pages.iter().map(|p| p.skipped).sum::<usize>(),
        2,
        "{pages:?}"
    );

    let scanned = db
        .scan::<Note>()
        .on_unknown(UnknownEntity::SkipMismatched)
        .send()
        .await
        .expect("scan");
    assert_eq!((ids(&scanned.items), scanned.skipped), (KEPT.to_vec(), 2));

    let lossy = notes().lossy().all().await.expect("lossy");
    assert!(lossy.iter().all(Result::is_ok), "{lossy:?}");
    assert_eq!(lossy.len(), KEPT.len());
}

#[tokio::test]
async fn an_enum_query_leaves_them_out_with_unknown_types() {
    let db = seeded("const_mismatch_enum").await;
    let page = db
        .query(List::partition("l1"))
        .decode_as::<ListItem>()
        .on_unknown(UnknownEntity::SkipMismatched)
        .send()
        .await
        .expect("mixed");
    let notes: Vec<&str> = page
        .items
        .iter()
        .filter_map(|item| match item {
            ListItem::Note(note) => Some(note.id.as_str()),
            ListItem::List(_) => None,
        })
        .collect();
    assert_eq!((notes, page.skipped), (KEPT.to_vec(), 2));
    assert!(
        page.items
            .contains(&ListItem::List(List { name: "l1".into() })),
        "{page:?}"
    );
    let strict = db
        .query(List::partition("l1"))
        .decode_as::<ListItem>()
        .all()
        .await;
    assert!(strict.is_err(), "the default stays strict: {strict:?}");
}
