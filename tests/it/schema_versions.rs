//! Schema versions: items of three shapes of one entity, read through every read path, each
//! upgraded to the current shape; an item of a newer shape refused with its key.

use dynamap::admin::StreamView;
use dynamap::codec::AttributeError;
use dynamap::codec::AttributeValue::{N, S};
use dynamap::query::UnknownEntity;
use dynamap::streams::decode;
use dynamap::{Db, Entity, EntityEnum, Error, Table};
use dynamap_local::DynamoLocal;
use futures_util::TryStreamExt;
use serde::Deserialize;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Shop;

/// Version 3: a tier was added to version 2's first and last names.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Customer", pk = "CUSTOMER#{id}", sk = "PROFILE",
          schema_version = 3,
          upgrade(from = 1, via = CustomerV1),
          upgrade(from = 2, with = "customer_v2"))]
struct Customer {
    id: String,
    first: String,
    last: String,
    tier: u8,
}

/// Version 1 (written before versions were declared, so without the attribute): one name.
#[derive(Deserialize)]
struct CustomerV1 {
    id: String,
    name: String,
}

impl From<CustomerV1> for Customer {
    fn from(old: CustomerV1) -> Self {
        let (first, last) = old.name.split_once(' ').unwrap_or((&old.name, ""));
        Customer {
            id: old.id,
            first: first.to_owned(),
            last: last.to_owned(),
            tier: 0,
        }
    }
}

/// Version 2, read by hand from the stored attributes.
fn customer_v2(item: dynamap::codec::Item) -> Result<Customer, AttributeError> {
    let text = |name: &str| match item.get(name) {
        Some(S(value)) => Ok(value.clone()),
        _ => Err(AttributeError::new(format!("no `{name}` string"))),
    };
    Ok(Customer {
        id: text("id")?,
        first: text("first")?,
        last: text("last")?,
        tier: 1,
    })
}

/// Another entity of the partition's table, for mixed reads.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{n}")]
struct Order {
    customer: String,
    n: u32,
}

#[derive(EntityEnum, Debug)]
enum ShopItem {
    Customer(Customer),
    Order(Order),
}

fn current(id: &str) -> Customer {
    Customer {
        id: id.into(),
        first: "Grace".into(),
        last: "Hopper".into(),
        tier: 3,
    }
}

/// What the three stored shapes read as.
fn expected() -> Vec<Customer> {
    vec![
        Customer {
            id: "c1".into(),
            first: "Ada".into(),
            last: "Lovelace".into(),
            tier: 0,
        },
        Customer {
            id: "c2".into(),
            first: "Alan".into(),
            last: "Turing".into(),
            tier: 1,
        },
        current("c3"),
    ]
}

/// A fresh table (with a stream) holding a customer of each version, and an order.
async fn three_versions(name: &str) -> Db<Shop> {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let db = Db::new(
        local.client(),
        format!("{name}-{}", uuid::Uuid::new_v4().simple()),
    );
    db.create_table()
        .stream(StreamView::NewImage)
        .await
        .expect("created");
    let raw = |id: &str| {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(format!("CUSTOMER#{id}")))
            .item("SK", S("PROFILE".into()))
            .item("_type", S("Customer".into()))
            .item("id", S(id.into()))
    };
    raw("c1")
        .item("name", S("Ada Lovelace".into()))
        .send()
        .await
        .expect("version 1");
    raw("c2")
        .item("_schema", N("2".into()))
        .item("first", S("Alan".into()))
        .item("last", S("Turing".into()))
        .send()
        .await
        .expect("version 2");
    db.put(&current("c3")).await.expect("version 3");
    db.put(&Order {
        customer: "c1".into(),
        n: 1,
    })
    .await
    .expect("order");
    db
}

fn keys() -> Vec<dynamap::Key<Customer>> {
    ["c1", "c2", "c3"].map(Customer::key).to_vec()
}

#[tokio::test]
async fn every_read_path_upgrades_older_items() {
    let db = three_versions("schema-reads").await;
    let want = expected();

    // get
    for (key, want) in keys().into_iter().zip(&want) {
        assert_eq!(
            db.get(key).consistent().await.expect("get").as_ref(),
            Some(want)
        );
    }
    // typed query, and a mixed one into an enum
    for want in &want {
        let found = db
            .query(Customer::partition(want.id.as_str()))
            .all()
            .await
            .expect("query");
        assert_eq!(found, std::slice::from_ref(want));
    }
    let mixed = db
        .query(Customer::partition("c1"))
        .decode_as::<ShopItem>()
        .on_unknown(UnknownEntity::Error)
        .all()
        .await
        .expect("mixed query");
    assert!(
        matches!(&mixed[..], [ShopItem::Order(o), ShopItem::Customer(c)] if o.n == 1 && *c == want[0]),
        "{mixed:?}"
    );
    // batch get, typed and into an enum
    let report = db.batch_get(keys()).consistent().await.expect("batch get");
    assert!(report.is_complete(), "{:?}", report.failed);
    assert_eq!(report.into_found().collect::<Vec<_>>(), want);
    let report = db
        .batch_get(keys())
        .decode_as::<ShopItem>()
        .await
        .expect("batch get");
    assert_eq!(report.into_found().count(), 3);
    // read transaction
    let mut reads = db.transact_get();
    let slots: Vec<_> = keys().into_iter().map(|key| reads.get(key)).collect();
    let results = reads.await.expect("read transaction");
    for (slot, want) in slots.into_iter().zip(&want) {
        assert_eq!(results.get(slot).expect("decodes").as_ref(), Some(want));
    }
    // scan, whole and by pages, and as a stream
    let mut scanned = db.scan::<Customer>().segments(2).all().await.expect("scan");
    scanned.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(scanned, want);
    let streamed: Vec<Customer> = db
        .scan::<Customer>()
        .stream()
        .try_collect()
        .await
        .expect("stream");
    assert_eq!(streamed.len(), 3);
    // stream records
    let records = crate::streams::stream_records(&db).await;
    let mut changes: Vec<Customer> = records
        .iter()
        .filter_map(|record| decode::<Customer>(record).transpose())
        .map(|change| change.expect("decodes").new.expect("a new image"))
        .collect();
    changes.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(changes, want);
}

#[tokio::test]
async fn writes_store_the_current_version_and_read_back_unchanged() {
    let db = three_versions("schema-writes").await;
    let upgraded = db
        .get(Customer::key("c1"))
        .await
        .expect("get")
        .expect("there");
    db.put(&upgraded)
        .await
        .expect("written back in the current shape");
    let raw = crate::raw_item(&db, "CUSTOMER#c1", "PROFILE")
        .await
        .expect("stored");
    assert_eq!(raw.get("_schema"), Some(&N("3".into())));
    assert_eq!(raw.get("first"), Some(&S("Ada".into())));
    assert_eq!(
        db.get(Customer::key("c1")).await.expect("get"),
        Some(upgraded)
    );
}

#[tokio::test]
async fn an_item_of_a_newer_version_is_refused_naming_it() {
    let db = three_versions("schema-newer").await;
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", S("CUSTOMER#c9".into()))
        .item("SK", S("PROFILE".into()))
        .item("_type", S("Customer".into()))
        .item("_schema", N("4".into()))
        .item("id", S("c9".into()))
        .item("email", S("c9@example.com".into()))
        .send()
        .await
        .expect("raw put");
    let err = db.get(Customer::key("c9")).await.expect_err("newer");
    match &err {
        Error::NewerSchemaVersion {
            entity,
            pk,
            sk,
            found,
            known,
            ..
        } => {
            assert_eq!(
                (*entity, pk.as_str(), sk.as_deref()),
                ("Customer", "CUSTOMER#c9", Some("PROFILE"))
            );
            assert_eq!((*found, *known), (4, 3));
        }
        other => panic!("expected NewerSchemaVersion, got {other:?}"),
    }
    assert_eq!(err.kind(), dynamap::ErrorKind::Decode);
    // A batch reports it for that key and reads the others.
    let report = db
        .batch_get(["c1", "c9"].map(Customer::key))
        .await
        .expect("batch get");
    assert_eq!(report.failed.len(), 1);
    assert!(matches!(
        *report.failed[0].error,
        Error::NewerSchemaVersion { .. }
    ));
}

#[tokio::test]
async fn a_partial_update_applies_only_to_the_current_shape() {
    let db = three_versions("schema-updates").await;
    db.update(Customer::key("c3"))
        .set(Customer::TIER, 4u8)
        .await
        .expect("current shape");
    assert_eq!(
        db.get(Customer::key("c3"))
            .await
            .expect("get")
            .map(|c| c.tier),
        Some(4)
    );

    // An older item would mix shapes (a tier next to a single name): refused, unchanged.
    for (id, found) in [("c1", 1), ("c2", 2)] {
        let before = crate::raw_item(&db, &format!("CUSTOMER#{id}"), "PROFILE").await;
        let err = db
            .update(Customer::key(id))
            .set(Customer::TIER, 4u8)
            .await
            .expect_err("older shape");
        assert!(
            matches!(err, Error::OlderSchemaVersion { found: f, current: 3, .. } if f == found),
            "{err:?}"
        );
        assert_eq!(
            crate::raw_item(&db, &format!("CUSTOMER#{id}"), "PROFILE").await,
            before
        );
        let err = db
            .transaction()
            .update(db.update(Customer::key(id)).set(Customer::TIER, 4u8))
            .await
            .expect_err("older shape, in a transaction");
        assert!(err.is_conditional_check_failed(), "{err:?}");
    }

    // Read (upgraded) and written whole, it takes updates.
    let upgraded = db
        .get(Customer::key("c1"))
        .await
        .expect("get")
        .expect("there");
    db.put(&upgraded).await.expect("written whole");
    db.update(Customer::key("c1"))
        .set(Customer::TIER, 2u8)
        .await
        .expect("now current");
    // An upsert writes the whole current shape, so it merges into any version.
    db.upsert(&current("c2")).await.expect("upsert");
    assert_eq!(
        db.get(Customer::key("c2")).await.expect("get"),
        Some(current("c2"))
    );
}

#[tokio::test]
async fn a_maintenance_job_upgrades_older_items_in_the_table() {
    let db = three_versions("schema-job").await;
    let report = db
        .maintain::<Customer>("upgrade")
        .upgrade()
        .send()
        .await
        .expect("job");
    assert_eq!(
        (report.scanned, report.upgraded, report.unchanged),
        (3, 2, 1)
    );
    for id in ["c1", "c2", "c3"] {
        let raw = crate::raw_item(&db, &format!("CUSTOMER#{id}"), "PROFILE")
            .await
            .expect("stored");
        assert_eq!(raw.get("_schema"), Some(&N("3".into())), "{id}");
    }
    // Now in the current shape, the items take partial updates.
    db.update(Customer::key("c1"))
        .set(Customer::TIER, 2u8)
        .await
        .expect("current shape");
    let mut customers = db.scan::<Customer>().all().await.expect("scan");
    customers.sort_by(|a, b| a.id.cmp(&b.id));
    let mut want = expected();
    want[0].tier = 2;
    assert_eq!(customers, want);
}

/// `write_back` stores an upgraded item in the current shape, only on condition that it is
/// as read: 20 other writers adding attributes at the same time keep every one of them.
#[tokio::test]
async fn write_back_on_read_upgrades_the_item_and_loses_no_concurrent_write() {
    let db = three_versions("schema-write-back").await;
    let readers = (0..20).map(|_| {
        let db = db.clone();
        tokio::spawn(async move {
            db.get(Customer::key("c1"))
                .write_back()
                .await
                .expect("read")
                .expect("there")
        })
    });
    let writers = (0..20).map(|i| {
        let db = db.clone();
        tokio::spawn(async move {
            db.client()
                .update_item()
                .table_name(db.table_name())
                .key("PK", S("CUSTOMER#c1".into()))
                .key("SK", S("PROFILE".into()))
                .update_expression("SET #a = :v")
                .expression_attribute_names("#a", format!("note_{i}"))
                .expression_attribute_values(":v", N(i.to_string()))
                .send()
                .await
                .expect("another service's write");
        })
    });
    let readers: Vec<_> = readers.collect();
    let writers: Vec<_> = writers.collect();
    for reader in readers {
        assert_eq!(reader.await.expect("reader"), expected()[0]);
    }
    for writer in writers {
        writer.await.expect("writer");
    }
    // A last read writes back if every earlier attempt lost its race.
    db.get(Customer::key("c1"))
        .write_back()
        .await
        .expect("read");
    let raw = crate::raw_item(&db, "CUSTOMER#c1", "PROFILE")
        .await
        .expect("stored");
    assert_eq!(
        raw.get("_schema"),
        Some(&N("3".into())),
        "written back in the current shape"
    );
    assert_eq!(raw.get("first"), Some(&S("Ada".into())));
    for i in 0..20 {
        assert_eq!(
            raw.get(&format!("note_{i}")),
            Some(&N(i.to_string())),
            "write {i} survived"
        );
    }
    // An item already current is not written: its stored form is unchanged by the read.
    let before = crate::raw_item(&db, "CUSTOMER#c3", "PROFILE").await;
    db.get(Customer::key("c3"))
        .write_back()
        .await
        .expect("read");
    assert_eq!(crate::raw_item(&db, "CUSTOMER#c3", "PROFILE").await, before);
}
