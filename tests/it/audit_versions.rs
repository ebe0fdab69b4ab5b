//! The audit tells an item of a newer schema version (written by newer code) apart from an
//! item that does not decode: each is counted and reported as its own kind.

use dynamap::codec::AttributeValue::{N, S};
use dynamap::maintain::FindingKind;
use dynamap::{Entity, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Library;

/// At schema version 2; version 1 had no title.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Library, entity = "Book", pk = "BOOK#{id}", sk = "BOOK",
          schema_version = 2, upgrade(from = 1, via = BookV1))]
struct Book {
    id: String,
    title: String,
}

#[derive(serde::Deserialize)]
struct BookV1 {
    id: String,
}

impl From<BookV1> for Book {
    fn from(old: BookV1) -> Self {
        Book {
            id: old.id,
            title: String::new(),
        }
    }
}

#[tokio::test]
async fn the_audit_reports_a_newer_schema_version_as_its_own_kind() {
    let db = fresh_db::<Library>("audit_newer_version").await;
    db.put(&Book {
        id: "b1".into(),
        title: "current".into(),
    })
    .await
    .expect("current book");
    let raw = |id: &str| {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(format!("BOOK#{id}")))
            .item("SK", S("BOOK".into()))
            .item("_type", S("Book".into()))
            .item("id", S(id.into()))
    };
    // Written by a build that knows version 3: whole, and not this build's to read.
    raw("b2")
        .item("title", S("from the future".into()))
        .item("_schema", N("3".into()))
        .send()
        .await
        .expect("newer book");
    // At the current version but missing a field: does not decode.
    raw("b3")
        .item("_schema", N("2".into()))
        .send()
        .await
        .expect("broken book");

    let report = db.audit().entity::<Book>().send().await.expect("audit");
    assert_eq!(report.scanned, 3, "{report}");
    assert_eq!(
        (
            report.newer_versions,
            report.undecodable,
            report.older_versions
        ),
        (1, 1, 0),
        "{report}"
    );
    assert!(!report.is_clean());
    let at = |pk: &str| {
        report
            .findings
            .iter()
            .find(|f| f.key.pk == pk)
            .map(|f| f.kind.clone())
            .expect("a finding for the item")
    };
    match at("BOOK#b2") {
        FindingKind::NewerVersion {
            entity,
            version,
            current,
        } => assert_eq!((entity, version, current), ("Book", 3, 2)),
        other => panic!("the newer item reported as {other:?}"),
    }
    assert!(
        matches!(at("BOOK#b3"), FindingKind::Undecodable { .. }),
        "{report}"
    );
    assert_eq!(
        at("BOOK#b2").to_string(),
        "Book: schema version 3, newer than version 2 this code knows"
    );
    assert!(
        report.to_string().starts_with(
            "3 items: 0 key drift, 0 unknown type, 0 orphan lookups, 0 older versions, \
             1 newer versions, 1 undecodable"
        ),
        "{report}"
    );
}
