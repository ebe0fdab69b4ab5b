//! Constant attributes (`const_attr(name, value)`), as another mapper writes them
//! (ElectroDB's `__edb_v__ = "1"`): on every write path that creates an item (put, batch,
//! transaction, upsert, an update that creates), and checked on every whole read, naming
//! the item when one is missing or different. Projections do not fetch it, so do not check.

use dynamap::codec::AttributeValue::S;
use dynamap::{Entity, EntityProjection, Error, Table};

use crate::{fresh_db, put_raw};

#[derive(Table)]
#[dynamap(pk = "pk", sk = "sk", entity_type = "__edb_e__")]
struct Peer;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "task", pk = "$app#task_{id}", sk = "$task",
          const_attr(name = "__edb_v__", value = "1"))]
struct Task {
    id: String,
    title: String,
    done: Option<bool>,
}

#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Task)]
struct TaskTitle {
    title: String,
}

fn task(id: &str) -> Task {
    Task {
        id: id.into(),
        title: format!("task {id}"),
        done: None,
    }
}

async fn constant(db: &dynamap::Db<Peer>, id: &str) -> Option<dynamap::codec::AttributeValue> {
    let key = Task::key(id);
    let (pk, sk) = key.values().expect("renders");
    // The table's key attributes are `pk` and `sk`, as the peer names them.
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("pk", S(pk.into()))
        .key("sk", S(sk.expect("sk").into()))
        .consistent_read(true)
        .send()
        .await
        .expect("raw get")
        .item
        .and_then(|mut item| item.remove("__edb_v__"))
}

#[tokio::test]
async fn every_write_stores_the_constant() {
    let db = fresh_db::<Peer>("const_writes").await;
    db.put(&task("put")).await.expect("put");
    let report = db.put_all([task("batch")]).await.expect("batch");
    assert!(report.is_complete(), "{report}");
    db.transaction()
        .put(&task("tx"))
        .send()
        .await
        .expect("transaction");
    db.upsert(&task("upsert")).await.expect("upsert");
    db.update(Task::key("update"))
        .set(Task::TITLE, "created by an update")
        .create_if_missing()
        .await
        .expect("update that creates");
    for id in ["put", "batch", "tx", "upsert", "update"] {
        assert_eq!(
            constant(&db, id).await,
            Some(S("1".into())),
            "written by {id}"
        );
    }
    let read = db
        .get(Task::key("update"))
        .await
        .expect("reads")
        .expect("found");
    assert_eq!(read.title, "created by an update");
}

#[tokio::test]
async fn a_missing_or_different_constant_fails_the_read_naming_the_item() {
    let db = fresh_db::<Peer>("const_reads").await;
    db.put(&task("good")).await.expect("put");
    let item = |id: &str, constant: Option<&str>| {
        let key = Task::key(id);
        let (pk, sk) = key.values().expect("renders");
        let mut item = dynamap::codec::Item::from_iter(
            [
                ("pk", S(pk.into())),
                ("sk", S(sk.expect("sk").into())),
                ("__edb_e__", S("task".into())),
                ("id", S(id.into())),
                ("title", S("x".into())),
            ]
            .map(|(name, value)| (name.to_owned(), value)),
        );
        if let Some(constant) = constant {
            item.insert("__edb_v__".into(), S(constant.into()));
        }
        item
    };
    put_raw(&db, item("newer", Some("2"))).await;
    put_raw(&db, item("bare", None)).await;

    let err = db.get(Task::key("newer")).await.expect_err("version 2");
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
        err.item_key().is_some_and(|key| key.pk.contains("newer")),
        "{err}"
    );
    let err = db.get(Task::key("bare")).await.expect_err("no constant");
    assert!(
        matches!(
            err,
            Error::MissingAttribute {
                attribute: "__edb_v__",
                ..
            }
        ),
        "{err:?}"
    );

    let good = db
        .get(Task::key("good"))
        .await
        .expect("reads")
        .expect("found");
    assert_eq!(good, task("good"));
    // A projection does not fetch the constant, so it reads every item.
    let titles = db
        .query(Task::partition("bare"))
        .project_as::<TaskTitle>()
        .all()
        .await
        .expect("projection");
    assert_eq!(titles, [TaskTitle { title: "x".into() }]);
}
