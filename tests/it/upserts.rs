//! Upsert (create or merge, keeping unknown attributes), patch, automatic timestamps and
//! nested paths in updates and conditions.

use std::collections::HashMap;

use dynamap::codec::AttributeValue;
use dynamap::{Entity, Error};
use time::OffsetDateTime;

use crate::models::App;
use crate::{fresh_db, raw_item};

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
struct Address {
    city: String,
    zip: String,
}

/// A customer with nested values, a sparse index, a version and automatic timestamps.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT",
          index(name = "GSI1", pk = "PLAN#{plan}", sk = "ACCOUNT#{id}"))]
struct Account {
    id: String,
    name: String,
    plan: Option<String>,
    address: Address,
    reactions: HashMap<String, u32>,
    tags: Vec<String>,
    #[dynamap(version)]
    version: u64,
    #[dynamap(created_at, with = "dynamap::codec::timestamp::option")]
    created_at: Option<OffsetDateTime>,
    #[dynamap(updated_at, with = "dynamap::codec::timestamp::option")]
    updated_at: Option<OffsetDateTime>,
}

fn account() -> Account {
    Account {
        id: "a1".into(),
        name: "Ada".into(),
        plan: Some("pro".into()),
        address: Address {
            city: "Poznań".into(),
            zip: "60-001".into(),
        },
        reactions: HashMap::from([("Heart".to_owned(), 1)]),
        tags: vec!["new".into()],
        version: 0,
        created_at: None,
        updated_at: None,
    }
}

async fn stored(db: &dynamap::Db<App>) -> Account {
    db.get(Account::key("a1"))
        .consistent()
        .await
        .expect("get")
        .expect("stored")
}

#[tokio::test]
async fn upsert_creates_then_merges_keeping_unknown_attributes() {
    let db = fresh_db::<App>("upsert_merge").await;
    db.upsert(&account()).await.expect("creates");
    let first = stored(&db).await;
    assert_eq!(first.version, 1);
    let created = first.created_at.expect("stamped on create");
    assert_eq!(first.updated_at, Some(created));

    // Another writer adds an attribute the model does not know.
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", AttributeValue::S("ACCOUNT#a1".into()))
        .key("SK", AttributeValue::S("ACCOUNT".into()))
        .update_expression("SET extra = :v")
        .expression_attribute_values(":v", AttributeValue::S("kept".into()))
        .send()
        .await
        .expect("raw update");

    // A put would drop `extra`; an upsert keeps it, removes the `None` plan and its
    // sparse index keys, bumps the version and keeps `created_at`.
    let changed = Account {
        name: "Ada L.".into(),
        plan: None,
        version: first.version,
        created_at: None,
        ..account()
    };
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    db.upsert(&changed).await.expect("merges");
    let raw = raw_item(&db, "ACCOUNT#a1", "ACCOUNT")
        .await
        .expect("stored");
    assert_eq!(raw["extra"], AttributeValue::S("kept".into()));
    assert!(
        !raw.contains_key("plan") && !raw.contains_key("GSI1PK"),
        "{raw:?}"
    );
    let second = stored(&db).await;
    assert_eq!((second.name.as_str(), second.version), ("Ada L.", 2));
    assert_eq!(second.created_at, Some(created));
    assert!(second.updated_at.expect("stamped") > created);

    // A stale version is refused.
    let err = db.upsert(&changed).await.expect_err("stale");
    assert!(
        matches!(err, Error::VersionConflict { expected: 1, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn update_fails_on_a_missing_item_and_stamps_updated_at() {
    let db = fresh_db::<App>("upsert_patch").await;
    let err = db
        .update(Account::key("a1"))
        .set(Account::NAME, "x")
        .await
        .expect_err("missing");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(raw_item(&db, "ACCOUNT#a1", "ACCOUNT").await, None);

    db.put(&account()).await.expect("put");
    let put = stored(&db).await;
    let created = put
        .created_at
        .expect("put stamps created_at when the value has none");
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    db.update(Account::key("a1"))
        .set(Account::NAME, "Grace")
        .await
        .expect("patch");
    let patched = stored(&db).await;
    assert_eq!(patched.name, "Grace");
    assert_eq!(patched.created_at, Some(created), "kept by if_not_exists");
    assert!(patched.updated_at > put.updated_at);
    // The timestamp is stored through the field's codec, as a put stores it.
    let raw = raw_item(&db, "ACCOUNT#a1", "ACCOUNT")
        .await
        .expect("stored");
    let text = raw["updated_at"].as_s().expect("an RFC 3339 string");
    assert!(text.ends_with('Z') && text.len() == 30, "{text}");

    // So are values set and compared through the field's constant.
    let moment = time::macros::datetime!(2020-02-29 12:00 UTC);
    db.update(Account::key("a1"))
        .set(Account::CREATED_AT, moment)
        .condition(Account::CREATED_AT.eq(created))
        .await
        .expect("set through the codec");
    assert_eq!(stored(&db).await.created_at, Some(moment));
    let raw = raw_item(&db, "ACCOUNT#a1", "ACCOUNT")
        .await
        .expect("stored");
    assert_eq!(
        raw["created_at"],
        AttributeValue::S("2020-02-29T12:00:00.000000000Z".into())
    );
}

#[tokio::test]
async fn nested_paths_in_updates_and_conditions() {
    let db = fresh_db::<App>("upsert_nested").await;
    db.put(&account()).await.expect("put");
    db.update(Account::key("a1"))
        .increment(Account::REACTIONS.key("Heart"), 2u32)
        .set(Account::REACTIONS.key("Rocket"), 1u32)
        .set(Account::ADDRESS.at::<String>("city"), "Kraków")
        .set(Account::TAGS.index(0), "vip")
        .condition(Account::ADDRESS.at::<String>("zip").eq("60-001"))
        .condition(Account::REACTIONS.key("Heart").lt(10u32))
        .await
        .expect("nested update");
    let after = stored(&db).await;
    assert_eq!(after.reactions["Heart"], 3);
    assert_eq!(after.reactions["Rocket"], 1);
    assert_eq!(after.address.city, "Kraków");
    assert_eq!(after.address.zip, "60-001");
    assert_eq!(after.tags, ["vip"]);

    let err = db
        .update(Account::key("a1"))
        .remove(Account::REACTIONS.key("Heart"))
        .condition(Account::REACTIONS.key("Heart").gt(100u32))
        .await
        .expect_err("condition on a nested value");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    db.update(Account::key("a1"))
        .remove(Account::REACTIONS.key("Heart"))
        .await
        .expect("remove a map entry");
    assert!(!stored(&db).await.reactions.contains_key("Heart"));

    // Filters take paths too.
    let found = db
        .query(Account::gsi1("pro"))
        .filter(Account::ADDRESS.at::<String>("city").eq("Kraków"))
        .count()
        .await
        .expect("filter");
    assert_eq!(found, 1);
}

/// Timestamps without a version, so batches can write it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Note", pk = "NOTE#{id}", sk = "NOTE")]
struct Note {
    id: String,
    #[dynamap(created_at, with = "dynamap::codec::timestamp")]
    created_at: OffsetDateTime,
    #[dynamap(updated_at, with = "dynamap::codec::timestamp::option")]
    updated_at: Option<OffsetDateTime>,
}

#[tokio::test]
async fn transactions_and_batches_stamp_timestamps() {
    let db = fresh_db::<App>("upsert_stamps").await;
    db.transaction()
        .put(&account())
        .send()
        .await
        .expect("tx put");
    let got = stored(&db).await;
    assert!(got.created_at.is_some() && got.updated_at.is_some());

    // A plain `created_at` holds the value the entity has: the write keeps it.
    let written = OffsetDateTime::UNIX_EPOCH;
    let note = Note {
        id: "n1".into(),
        created_at: written,
        updated_at: None,
    };
    // Borrowed entities can be batch-written, as `put(&e)` takes a reference.
    let notes = [note];
    db.batch_write()
        .put_all(notes.iter())
        .send()
        .await
        .expect("batch")
        .into_result()
        .expect("batch put");
    let got = db
        .get(Note::key("n1"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(got.created_at, written);
    assert!(got.updated_at.expect("stamped") > written);
    db.transaction()
        .update(db.update(Account::key("a1")).set(Account::NAME, "T"))
        .send()
        .await
        .expect("tx update");
    let raw = raw_item(&db, "ACCOUNT#a1", "ACCOUNT")
        .await
        .expect("stored");
    assert!(raw.contains_key("updated_at"));
}
