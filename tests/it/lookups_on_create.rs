//! Every path that can create an owner writes its lookup items with it, or refuses: an
//! update that creates its item (`create_if_missing`) must set the fields of every lookup
//! and writes the lookups made of key fields alone; a value `create` refuses as a key part
//! (an empty string, a field's default) is refused on every path.

use dynamap::{Entity, Error, ErrorKind};

use crate::models::App;
use crate::{fresh_db, offline, raw_item};

/// A player whose unique handle is a defaulted field: an item stored without it reads
/// back with an empty handle.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Player", pk = "PLAYER#{id}", sk = "PLAYER",
          lookup(name = "handle", pk = "HANDLE#{handle}", sk = "HANDLE"))]
struct Player {
    id: String,
    #[dynamap(default)]
    handle: String,
    score: u32,
}

fn anon() -> String {
    "anon".into()
}

/// A guest whose unique handle defaults to `"anon"`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Guest", pk = "GUEST#{id}", sk = "GUEST",
          lookup(name = "handle", pk = "GUEST_HANDLE#{handle}", sk = "HANDLE"))]
struct Guest {
    id: String,
    #[dynamap(default = "anon")]
    handle: String,
    visits: u32,
}

/// A tagged item with a lookup of a field and one made of its key field alone.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Tagged", pk = "TAGGED#{id}", sk = "TAGGED",
          lookup(name = "tag", pk = "TAG#{tag}", sk = "TAG"),
          lookup(name = "code", pk = "CODE#{id}", sk = "CODE"))]
struct Tagged {
    id: String,
    tag: String,
    hits: u32,
}

fn refused_for(err: &Error, field: &str) {
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err:?}");
    assert!(err.to_string().contains(field), "names `{field}`: {err}");
}

#[tokio::test]
async fn an_update_that_creates_must_set_a_defaulted_lookup_field() {
    let db = fresh_db::<App>("create_lookup_defaulted").await;
    let err = db
        .update(Player::key("a"))
        .increment(Player::SCORE, 1u32)
        .create_if_missing()
        .await
        .expect_err("the handle would be empty and have no lookup");
    let Error::IncompleteKeyUpdate { missing, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(missing, &["handle"]);
    refused_for(&err, "handle");
    assert!(raw_item(&db, "PLAYER#a", "PLAYER").await.is_none());

    // The same update inside a transaction is refused too.
    let err = db
        .transaction()
        .update(
            db.update(Player::key("a"))
                .increment(Player::SCORE, 1u32)
                .create_if_missing(),
        )
        .send()
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err:?}");
    assert!(raw_item(&db, "PLAYER#a", "PLAYER").await.is_none());

    // Setting it creates the owner with its lookup.
    db.update(Player::key("a"))
        .set(Player::HANDLE, "ace")
        .increment(Player::SCORE, 1u32)
        .create_if_missing()
        .await
        .expect("created with its lookup");
    let lookup = raw_item(&db, "HANDLE#ace", "HANDLE").await.expect("lookup");
    assert_eq!(
        lookup["_owner_pk"],
        dynamap::codec::AttributeValue::S("PLAYER#a".into())
    );
}

#[tokio::test]
async fn an_empty_lookup_value_is_refused_on_every_path() {
    let db = fresh_db::<App>("create_lookup_empty").await;
    let sent = offline(&db);
    let empty = Player {
        id: "e".into(),
        handle: String::new(),
        score: 0,
    };
    let results = [
        ("create", sent.create(&empty).await),
        ("put", sent.put(&empty).await),
        ("upsert", sent.upsert(&empty).await),
        (
            "update",
            sent.update(Player::key("e")).set(Player::HANDLE, "").await,
        ),
        (
            "create_if_missing",
            sent.update(Player::key("e"))
                .set(Player::HANDLE, "")
                .set(Player::SCORE, 0u32)
                .create_if_missing()
                .await,
        ),
        (
            "transaction",
            sent.transaction().create(&empty).send().await,
        ),
    ];
    for (path, result) in results {
        let err = result.expect_err(path);
        assert!(
            matches!(&err, Error::Key(key) if key.to_string().contains("cannot be empty")),
            "{path}: {err:?}"
        );
    }
}

#[tokio::test]
async fn a_function_default_cannot_give_two_owners_one_handle() {
    let db = fresh_db::<App>("create_lookup_fn_default").await;
    let err = db
        .update(Guest::key("b"))
        .increment(Guest::VISITS, 1u32)
        .create_if_missing()
        .await
        .expect_err("b would read back as `anon` without holding it");
    refused_for(&err, "handle");
    assert!(raw_item(&db, "GUEST#b", "GUEST").await.is_none());

    db.update(Guest::key("b"))
        .set(Guest::HANDLE, "anon")
        .increment(Guest::VISITS, 1u32)
        .create_if_missing()
        .await
        .expect("b holds `anon`");
    let c = Guest {
        id: "c".into(),
        handle: "anon".into(),
        visits: 0,
    };
    let err = db.create(&c).await.expect_err("`anon` is b's");
    assert!(
        matches!(
            err,
            Error::LookupTaken {
                lookup: "handle",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(raw_item(&db, "GUEST#c", "GUEST").await.is_none());
}

#[tokio::test]
async fn an_update_that_creates_writes_the_lookups_of_key_fields() {
    let db = fresh_db::<App>("create_lookup_key_only").await;
    db.update(Tagged::key("t1"))
        .set(Tagged::TAG, "t1")
        .increment(Tagged::HITS, 1u32)
        .create_if_missing()
        .await
        .expect("created");
    assert!(raw_item(&db, "TAG#t1", "TAG").await.is_some());
    let code = raw_item(&db, "CODE#t1", "CODE")
        .await
        .expect("the key field's lookup is created with the owner");
    assert_eq!(
        code["_owner_pk"],
        dynamap::codec::AttributeValue::S("TAGGED#t1".into())
    );
    let owner = raw_item(&db, "TAGGED#t1", "TAGGED").await.expect("owner");
    assert_eq!(
        owner["_lookup_code_pk"],
        dynamap::codec::AttributeValue::S("CODE#t1".into())
    );
    // Again on the existing item: nothing moves, both lookups stay.
    db.update(Tagged::key("t1"))
        .set(Tagged::TAG, "t1")
        .increment(Tagged::HITS, 1u32)
        .create_if_missing()
        .await
        .expect("updated");
    assert!(raw_item(&db, "CODE#t1", "CODE").await.is_some());
    assert!(raw_item(&db, "TAG#t1", "TAG").await.is_some());
    // An update that cannot create the item stays one UpdateItem, allowed in a transaction.
    db.transaction()
        .update(db.update(Tagged::key("t1")).increment(Tagged::HITS, 1u32))
        .send()
        .await
        .expect("no lookup moves");
    let tagged = db.get(Tagged::key("t1")).consistent().await.expect("read");
    assert_eq!(tagged.map(|t| t.hits), Some(3));
}

/// An owner an earlier release created without its lookup items (an update that created it
/// wrote none) is given them by a maintenance job that re-renders keys.
#[tokio::test]
async fn a_rekey_job_writes_the_lookups_an_earlier_update_left_out() {
    let db = fresh_db::<App>("create_lookup_heal").await;
    let tagged = Tagged {
        id: "t9".into(),
        tag: "red".into(),
        hits: 1,
    };
    crate::put_raw(&db, tagged.to_item().expect("item")).await;
    assert!(raw_item(&db, "CODE#t9", "CODE").await.is_none());
    let report = db
        .maintain::<Tagged>("heal")
        .rekey()
        .send()
        .await
        .expect("job");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert!(raw_item(&db, "CODE#t9", "CODE").await.is_some());
    assert!(raw_item(&db, "TAG#red", "TAG").await.is_some());
}
