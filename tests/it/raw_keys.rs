//! Keys named by hand (`Key::from_raw`): an item another service wrote under a key the
//! entity's template would render differently is read, updated and deleted through its
//! stored key; keys that do not fit the table's key schema are refused before sending.

use dynamap::codec::AttributeValue::S;
use dynamap::key::{KeyErrorKind, KeyPartError};
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
