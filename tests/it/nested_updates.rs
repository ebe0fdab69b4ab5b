//! Updates inside a map the stored item does not have (written before the field existed):
//! a typed error naming the paths and the missing parents, on every update path, and the
//! documented way out.

use std::collections::HashMap;

use dynamap::{Db, Entity, Error, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Tallies;

/// Per-kind counts, a field added after items were stored.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Tallies, entity = "Tally", pk = "TALLY#{id}", sk = "TALLY")]
struct Tally {
    id: String,
    total: u64,
    #[dynamap(default)]
    counts: HashMap<String, u64>,
}

/// A tally stored before `counts` existed.
async fn old_tally(db: &Db<Tallies>, id: &str) {
    let mut item = Tally {
        id: id.into(),
        total: 1,
        counts: HashMap::new(),
    }
    .to_item()
    .expect("to_item");
    item.remove("counts").expect("rendered");
    crate::put_raw(db, item).await;
}

fn assert_missing_parent(err: &Error) {
    match err {
        Error::MissingParent {
            entity,
            paths,
            parents,
            ..
        } => {
            assert_eq!(*entity, "Tally");
            assert_eq!(paths, &["counts.alarm"]);
            assert_eq!(parents, &["counts"]);
        }
        other => panic!("expected MissingParent, got {other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains("set_if_not_exists"), "{message}");
}

#[tokio::test]
async fn a_nested_change_without_its_parent_map_is_a_typed_error_on_every_path() {
    let db = fresh_db::<Tallies>("nested_missing_parent").await;
    old_tally(&db, "t1").await;
    let alarm = || Tally::COUNTS.key("alarm");

    let err = db
        .update(Tally::key("t1"))
        .increment(alarm(), 1u64)
        .await
        .expect_err("no `counts` map");
    assert_missing_parent(&err);

    let err = db
        .update(Tally::key("t1"))
        .set(alarm(), 5u64)
        .returning_new()
        .await
        .expect_err("no `counts` map");
    assert_missing_parent(&err);

    let err = db
        .transaction()
        .update(db.update(Tally::key("t1")).increment(alarm(), 1u64))
        .send()
        .await
        .expect_err("no `counts` map");
    assert_missing_parent(&err);

    // Nothing was written.
    let stored = db.get(Tally::key("t1")).consistent().await.expect("get");
    assert_eq!(stored.map(|t| (t.total, t.counts.len())), Some((1, 0)));
}

#[tokio::test]
async fn creating_the_parent_first_then_updating_inside_it_works_under_concurrency() {
    let db = fresh_db::<Tallies>("nested_parent_created").await;
    old_tally(&db, "t2").await;
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move {
                db.update(Tally::key("t2"))
                    .set_if_not_exists(Tally::COUNTS, HashMap::new())
                    .await?;
                db.update(Tally::key("t2"))
                    .increment(Tally::COUNTS.key("alarm"), 1u64)
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("joined").expect("both updates");
    }
    let stored = db
        .get(Tally::key("t2"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(stored.counts.get("alarm"), Some(&10), "no increment lost");
}
