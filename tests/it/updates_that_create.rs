//! Updates that create their item when it is missing (`create_if_missing`): on every path an
//! update takes (UpdateItem, `returning_new`, a transaction action, the lookup transaction),
//! the item created reads back as the entity and holds what a put would write; concurrent
//! creators leave one item with every increment; an update that would create an unreadable
//! item is refused before sending.

use dynamap::codec::AttributeValue::{N, S};
use dynamap::{Entity, Error, ErrorKind, Table};

use crate::{fresh_db, raw_item};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct Shop;

/// An aggregate item: a count and the names behind it, per day.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "BrandList", pk = "BRANDS", sk = "DAY#{day}")]
struct BrandList {
    day: String,
    count: u64,
    names: Vec<String>,
    note: Option<String>,
    #[dynamap(version)]
    version: u64,
}

/// An entity with an index template and a lookup.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Brand", pk = "BRAND#{id}", sk = "BRAND",
          index(name = "GSI1", pk = "CATEGORY#{category}", sk = "BRAND#{id}"),
          lookup(name = "slug", pk = "SLUG#{slug}", sk = "SLUG"))]
struct Brand {
    id: String,
    category: String,
    slug: String,
    likes: i64,
}

#[tokio::test]
async fn thirty_concurrent_creating_updates_leave_one_item_with_every_increment() {
    let db = fresh_db::<Shop>("create_concurrent").await;
    let updates = (1..=30u64).map(|n| {
        let db = db.clone();
        tokio::spawn(async move {
            db.update(BrandList::key("2026-11-26"))
                .increment(BrandList::COUNT, n)
                .append(BrandList::NAMES, [format!("brand-{n}")])
                .create_if_missing()
                .await
        })
    });
    for update in futures_util::future::join_all(updates).await {
        update
            .expect("joined")
            .expect("every creating update succeeds");
    }
    let list = db
        .get(BrandList::key("2026-11-26"))
        .consistent()
        .await
        .expect("read")
        .expect("created");
    assert_eq!(
        list.count,
        (1..=30).sum::<u64>(),
        "every increment counted once"
    );
    assert_eq!(list.names.len(), 30);
    assert_eq!(list.version, 30, "created at 1, then one per update");
    assert_eq!(list.day, "2026-11-26");

    let raw = raw_item(&db, "BRANDS", "DAY#2026-11-26")
        .await
        .expect("stored");
    assert_eq!(
        raw["_type"],
        S("BrandList".into()),
        "the entity type, as a put writes it"
    );
    assert_eq!(
        raw["day"],
        S("2026-11-26".into()),
        "the key field, as a put writes it"
    );
    let items = db.scan::<BrandList>().all().await.expect("scan");
    assert_eq!(items.len(), 1, "one item");
}

#[tokio::test]
async fn an_update_that_would_create_an_unreadable_item_is_refused_before_sending() {
    let db = fresh_db::<Shop>("create_refused").await;
    let err = db
        .update(BrandList::key("2026-11-27"))
        .increment(BrandList::COUNT, 1u64)
        .create_if_missing()
        .await
        .expect_err("`names` is neither optional nor defaulted");
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert!(
        err.to_string().contains("`names` is not set"),
        "names the field: {err}"
    );
    assert!(raw_item(&db, "BRANDS", "DAY#2026-11-27").await.is_none());

    // Without `create_if_missing`, a missing item still fails the update's condition.
    let err = db
        .update(BrandList::key("2026-11-27"))
        .increment(BrandList::COUNT, 1u64)
        .await
        .expect_err("missing");
    assert!(err.is_conditional_check_failed(), "{err:?}");
}

#[tokio::test]
async fn an_existing_item_is_updated_as_without_create_if_missing() {
    let db = fresh_db::<Shop>("create_existing").await;
    let mut list = BrandList {
        day: "2026-11-28".into(),
        count: 5,
        names: vec!["Acme".into()],
        note: Some("kept".into()),
        version: 0,
    };
    db.save(&mut list).await.expect("stored");
    let list = db
        .update(BrandList::key("2026-11-28"))
        .increment(BrandList::COUNT, 2u64)
        .set(BrandList::NAMES, vec!["Acme".to_owned(), "Zeta".to_owned()])
        .create_if_missing()
        .expect_version(1)
        .returning_new()
        .await
        .expect("updated");
    assert_eq!(list.count, 7);
    assert_eq!(
        list.note.as_deref(),
        Some("kept"),
        "fields not set are kept"
    );
    assert_eq!(list.version, 2);

    let stale = db
        .update(BrandList::key("2026-11-28"))
        .increment(BrandList::COUNT, 1u64)
        .set(BrandList::NAMES, Vec::<String>::new())
        .create_if_missing()
        .expect_version(1)
        .await
        .expect_err("the version is 2");
    assert!(matches!(stale, Error::VersionConflict { .. }), "{stale:?}");
}

#[tokio::test]
async fn a_transaction_update_creates_its_item() {
    let db = fresh_db::<Shop>("create_transaction").await;
    db.transaction()
        .update(
            db.update(BrandList::key("2026-11-29"))
                .increment(BrandList::COUNT, 3u64)
                .set(BrandList::NAMES, vec!["Acme".to_owned()])
                .create_if_missing(),
        )
        .send()
        .await
        .expect("transaction");
    let list = db
        .get(BrandList::key("2026-11-29"))
        .await
        .expect("read")
        .expect("created by the transaction");
    assert_eq!((list.count, list.version), (3, 1));
}

#[tokio::test]
async fn a_created_item_gets_its_index_keys_and_its_lookup() {
    let db = fresh_db::<Shop>("create_lookup").await;
    let brand = db
        .update(Brand::key("b1"))
        .set(Brand::CATEGORY, "shoes")
        .set(Brand::SLUG, "acme-shoes")
        .increment(Brand::LIKES, 1i64)
        .create_if_missing()
        .returning_new()
        .await
        .expect("created, with its lookup, in one transaction");
    assert_eq!(
        brand,
        Brand {
            id: "b1".into(),
            category: "shoes".into(),
            slug: "acme-shoes".into(),
            likes: 1
        }
    );
    let raw = raw_item(&db, "BRAND#b1", "BRAND").await.expect("stored");
    assert_eq!(raw["GSI1PK"], S("CATEGORY#shoes".into()));
    assert_eq!(raw["GSI1SK"], S("BRAND#b1".into()));
    assert_eq!(raw["likes"], N("1".into()));
    let lookup = raw_item(&db, "SLUG#acme-shoes", "SLUG").await;
    assert!(lookup.is_some(), "the lookup item was created with it");
    let by_category = db
        .query(Brand::gsi1("shoes"))
        .all()
        .await
        .expect("index query");
    assert_eq!(by_category, [brand]);
}
