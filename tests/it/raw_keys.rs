//! Keys named by hand (`Key::from_raw`, `PartitionKey::from_raw`): an item another service
//! wrote under a key the entity's template would render differently is read, updated and
//! deleted through its stored key, and its partition queried through its stored value; keys
//! that do not fit the table's key schema are refused before sending.

use dynamap::codec::AttributeValue::S;
use dynamap::key::{KeyErrorKind, KeyPartError, PartitionKey};
use dynamap::{Entity, Error, Key, Table};

use crate::{fresh_db, put_raw, raw_item};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Shared;

#[derive(Entity, Debug, PartialEq)]
#[dynamap(table = Shared, entity = "User", pk = "USER#{name}", sk = "PROFILE")]
struct User {
    name: String,
    status: String,
}

/// Orders of a tenant, whose name another service stores unescaped: `TENANT#acme#eu`.
#[derive(Entity, Debug, PartialEq)]
#[dynamap(table = Shared, entity = "Order", pk = "TENANT#{tenant}", sk = "ORDER#{day}#{id}")]
struct Order {
    tenant: String,
    day: String,
    id: String,
}

#[derive(Table)]
#[dynamap(pk = "PK")]
struct Flat;

#[derive(Entity, Debug)]
#[dynamap(table = Flat, entity = "Flag", pk = "FLAG#{name}")]
struct Flag {
    name: String,
}

fn refusal<E: Entity>(key: &Key<E>) -> (&'static str, KeyErrorKind) {
    let err = key.values().expect_err("refused");
    (err.attribute, err.kind)
}

#[tokio::test]
async fn an_item_under_a_key_the_template_would_escape_is_reached_by_its_stored_key() {
    let db = fresh_db::<Shared>("raw_keys").await;
    // As another mapper stores it: the name as it is, space and all.
    put_raw(
        &db,
        dynamap::codec::Item::from_iter(
            [
                ("PK", S("USER#Mary Ann".into())),
                ("SK", S("PROFILE".into())),
                ("_type", S("User".into())),
                ("name", S("Mary Ann".into())),
                ("status", S("new".into())),
            ]
            .map(|(name, value)| (name.to_owned(), value)),
        ),
    )
    .await;
    let rendered = User::key("Mary Ann");
    assert_ne!(rendered.values().expect("renders").0, "USER#Mary Ann");
    assert!(
        db.get(rendered).await.expect("read").is_none(),
        "the template escapes"
    );

    let key = || Key::<User>::from_raw("USER#Mary Ann", Some("PROFILE"));
    let user = db.get(key()).await.expect("read").expect("found");
    assert_eq!(user.status, "new");
    db.update(key())
        .set(User::STATUS, "active")
        .await
        .expect("updated in place");
    let raw = raw_item(&db, "USER#Mary Ann", "PROFILE")
        .await
        .expect("kept");
    assert_eq!(raw["status"], S("active".into()));
    db.delete(key()).await.expect("deleted");
    assert!(raw_item(&db, "USER#Mary Ann", "PROFILE").await.is_none());
}

#[tokio::test]
async fn a_raw_key_that_does_not_fit_the_table_is_refused_before_sending() {
    let db = fresh_db::<Shared>("raw_keys_refused").await;
    assert_eq!(
        refusal(&Key::<User>::from_raw("USER#a", None)),
        (
            "SK",
            KeyErrorKind::SortKeyPresence {
                table_has_one: true
            }
        )
    );
    assert_eq!(
        refusal(&Key::<Flag>::from_raw("FLAG#a", Some("X"))),
        (
            "PK",
            KeyErrorKind::SortKeyPresence {
                table_has_one: false
            }
        )
    );
    assert_eq!(
        refusal(&Key::<User>::from_raw("", Some("PROFILE"))),
        ("PK", KeyErrorKind::Part(KeyPartError::Empty))
    );
    assert_eq!(
        refusal(&Key::<User>::from_raw("USER#a", Some(&"s".repeat(1025)))),
        (
            "SK",
            KeyErrorKind::TooLong {
                len: 1025,
                limit: 1024
            }
        )
    );
    let err = db
        .get(Key::<User>::from_raw("USER#a", None))
        .await
        .expect_err("refused");
    assert!(matches!(err, Error::Key(_)), "{err:?}");
    assert!(err.to_string().contains("has a sort key"), "{err}");
}

/// An order as the other service stores it: the partition key holds the tenant's `#` raw.
fn raw_order(day: &str, id: &str) -> dynamap::codec::Item {
    dynamap::codec::Item::from_iter(
        [
            ("PK", S("TENANT#acme#eu".into())),
            ("SK", S(format!("ORDER#{day}#{id}"))),
            ("_type", S("Order".into())),
            ("tenant", S("acme#eu".into())),
            ("day", S(day.into())),
            ("id", S(id.into())),
        ]
        .map(|(name, value)| (name.to_owned(), value)),
    )
}

fn ids(orders: &[Order]) -> Vec<&str> {
    orders.iter().map(|o| o.id.as_str()).collect()
}

#[tokio::test]
async fn a_partition_whose_value_holds_the_delimiter_is_queried_by_its_stored_value() {
    let db = fresh_db::<Shared>("raw_partitions").await;
    for (day, id) in [
        ("2026-04-30", "o1"),
        ("2026-05-01", "o2"),
        ("2026-05-20", "o3"),
    ] {
        put_raw(&db, raw_order(day, id)).await;
    }
    // The same tenant written through the template: escaped, another partition.
    db.put(&Order {
        tenant: "acme#eu".into(),
        day: "2026-05-01".into(),
        id: "escaped".into(),
    })
    .await
    .expect("put");

    let raw = || db.query(PartitionKey::<Order, _>::from_raw("TENANT#acme#eu"));
    assert_eq!(ids(&raw().all().await.expect("whole")), ["o1", "o2", "o3"]);
    let may = raw()
        .sk_ge(Order::sk().day("2026-05-01"))
        .all()
        .await
        .expect("sort condition by name");
    assert_eq!(ids(&may), ["o2", "o3"]);
    let one_day = raw()
        .sk_prefix(Order::sk().day("2026-05-20"))
        .all()
        .await
        .expect("prefix");
    assert_eq!(ids(&one_day), ["o3"]);
    let generated = db
        .query(Order::partition("acme#eu"))
        .all()
        .await
        .expect("escaped partition");
    assert_eq!(ids(&generated), ["escaped"], "the template escapes `#`");
}

#[tokio::test]
async fn a_raw_partition_that_is_no_key_value_is_refused_before_sending() {
    let db = fresh_db::<Shared>("raw_partitions_refused").await;
    let offline = crate::offline(&db);
    let err = offline
        .query(PartitionKey::<Order, _>::from_raw(""))
        .all()
        .await
        .expect_err("refused");
    match err {
        Error::Key(err) => assert_eq!(
            (err.attribute, err.kind),
            ("PK", KeyErrorKind::Part(KeyPartError::Empty))
        ),
        other => panic!("expected a key error, got {other:?}"),
    }
    let long = "T".repeat(2049);
    let err = PartitionKey::<Order, _>::from_raw(&long)
        .value()
        .expect_err("too long");
    assert_eq!(
        err.kind,
        KeyErrorKind::TooLong {
            len: 2049,
            limit: 2048
        }
    );
}
