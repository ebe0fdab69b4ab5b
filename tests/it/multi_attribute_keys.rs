//! Multi-attribute index keys: a GSI whose partition and sort keys are each several of the
//! item's own attributes (the "GitHub" model: issues by repository, status and number).
//! `create_table` declares them, queries take typed conditions on a leading run of the
//! sort attributes (given by name), updates move items, and a missing attribute keeps an
//! item out.

use dynamap::{Entity, KeyPart, Table};
use serde::{Deserialize, Serialize};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(
        name = "IssuesByStatus",
        pk("owner", "repo"),
        sk("status", "number"),
        sk_type("S", "N")
    ),
    index(
        name = "ByAssignee",
        pk("assignee", "repo"),
        sk("number"),
        sk_type("N")
    )
)]
pub(crate) struct Hub;

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Status {
    Closed,
    Open,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Hub, entity = "Issue", pk = "REPO#{owner}#{repo}", sk = "ISSUE#{number}",
          index(name = "IssuesByStatus", pk = fields(owner, repo), sk = fields(status, number)),
          index(name = "ByAssignee", pk = fields(assignee, repo), sk = field(number)))]
pub(crate) struct Issue {
    owner: String,
    repo: String,
    number: u64,
    status: Status,
    assignee: Option<String>,
    title: String,
}

fn issue(repo: &str, number: u64, status: Status) -> Issue {
    Issue {
        owner: "octo".into(),
        repo: repo.into(),
        number,
        status,
        assignee: number.is_multiple_of(2).then(|| "mona".to_owned()),
        title: format!("issue {number}"),
    }
}

/// The `IssuesByStatus` sort key's leading attributes, given by name: the builder's type is
/// generated beside `Issue`, and is the sort-key shape of `Issue::issues_by_status` queries.
fn sk() -> IssueIssuesByStatusSk {
    Issue::issues_by_status_sk()
}

fn numbers(issues: &[Issue]) -> Vec<u64> {
    issues.iter().map(|i| i.number).collect()
}

/// Issues 1..=10 of `hello`, odd ones open, and three of another repository.
async fn seeded(test: &str) -> dynamap::Db<Hub> {
    let db = fresh_db::<Hub>(test).await;
    let mut issues: Vec<Issue> = (1..=10)
        .map(|n| {
            let status = if n % 2 == 1 {
                Status::Open
            } else {
                Status::Closed
            };
            issue("hello", n, status)
        })
        .collect();
    issues.extend((1..=3).map(|n| issue("other", n, Status::Open)));
    let report = db.put_all(&issues).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    db
}

#[tokio::test]
async fn create_table_declares_every_key_attribute_in_order() {
    let db = fresh_db::<Hub>("multi_attr_create").await;
    let table = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .expect("describe")
        .table
        .expect("table");
    let index = table
        .global_secondary_indexes()
        .iter()
        .find(|i| i.index_name() == Some("IssuesByStatus"))
        .expect("index");
    let schema: Vec<(&str, &str)> = index
        .key_schema()
        .iter()
        .map(|k| (k.attribute_name(), k.key_type().as_str()))
        .collect();
    assert_eq!(
        schema,
        [
            ("owner", "HASH"),
            ("repo", "HASH"),
            ("status", "RANGE"),
            ("number", "RANGE")
        ]
    );
    let kind = |name: &str| {
        table
            .attribute_definitions()
            .iter()
            .find(|d| d.attribute_name() == name)
            .map(|d| d.attribute_type().as_str().to_owned())
    };
    assert_eq!(kind("number").as_deref(), Some("N"));
    assert_eq!(kind("status").as_deref(), Some("S"));
    assert_eq!(kind("assignee").as_deref(), Some("S"));
}

#[tokio::test]
async fn queries_take_a_leading_run_of_the_sort_attributes() {
    let db = seeded("multi_attr_queries").await;
    let repo = || Issue::issues_by_status("octo", "hello");

    // The whole partition, in (status, number) order: CLOSED before OPEN.
    let all = db.query(repo()).all().await.expect("all");
    assert_eq!(numbers(&all), [2, 4, 6, 8, 10, 1, 3, 5, 7, 9]);

    let open = db
        .query(repo())
        .sk_eq(sk().status(Status::Open))
        .all()
        .await
        .expect("open");
    assert_eq!(numbers(&open), [1, 3, 5, 7, 9]);
    assert!(
        open.iter()
            .all(|i| i.repo == "hello" && i.status == Status::Open)
    );

    let one = db
        .query(repo())
        .sk_eq(sk().status(Status::Open).number(5u64))
        .all()
        .await;
    assert_eq!(numbers(&one.expect("one")), [5]);

    let after = db
        .query(repo())
        .sk_gt(sk().status(Status::Open).number(5u64))
        .all()
        .await;
    assert_eq!(numbers(&after.expect("gt")), [7, 9]);
    let upto = db
        .query(repo())
        .sk_le(sk().status(Status::Closed).number(4u64))
        .all()
        .await;
    assert_eq!(numbers(&upto.expect("le")), [2, 4]);

    let range = db
        .query(repo())
        .sk_between(
            sk().status(Status::Open).number(3u64),
            sk().status(Status::Open).number(7u64),
        )
        .all()
        .await
        .expect("between");
    assert_eq!(numbers(&range), [3, 5, 7]);

    // A range on the first attribute alone compares statuses.
    let from_open = db
        .query(repo())
        .sk_ge(sk().status(Status::Open))
        .all()
        .await;
    assert_eq!(numbers(&from_open.expect("ge")), [1, 3, 5, 7, 9]);

    let newest_open = db
        .query(repo())
        .sk_eq(sk().status(Status::Open))
        .last(2)
        .all()
        .await;
    assert_eq!(numbers(&newest_open.expect("last")), [9, 7]);
    let down = db
        .query(repo())
        .sk_eq(sk().status(Status::Closed))
        .descending()
        .all()
        .await;
    assert_eq!(numbers(&down.expect("descending")), [10, 8, 6, 4, 2]);

    // Both partition attributes must match: the other repository stays out.
    let other = db
        .query(Issue::issues_by_status("octo", "other"))
        .all()
        .await;
    assert_eq!(numbers(&other.expect("other")), [1, 2, 3]);
}

#[tokio::test]
async fn a_missing_key_attribute_keeps_the_item_out_of_the_index() {
    let db = seeded("multi_attr_sparse").await;
    let mona = db
        .query(Issue::by_assignee("mona", "hello"))
        .sk_ge(6u64)
        .all()
        .await
        .expect("assigned");
    assert_eq!(numbers(&mona), [6, 8, 10]);
    let all_mona = db.query(Issue::by_assignee("mona", "hello")).count().await;
    assert_eq!(all_mona.expect("count"), 5, "odd issues have no assignee");
}

#[tokio::test]
async fn updating_a_key_attribute_moves_the_item_in_the_index() {
    let db = seeded("multi_attr_update").await;
    db.update(Issue::key("octo", "hello", 3u64))
        .set(Issue::STATUS, Status::Closed)
        .send()
        .await
        .expect("closed");
    let repo = || Issue::issues_by_status("octo", "hello");
    let open = db
        .query(repo())
        .sk_eq(sk().status(Status::Open))
        .all()
        .await;
    assert_eq!(numbers(&open.expect("open")), [1, 5, 7, 9]);
    let closed = db
        .query(repo())
        .sk_eq(sk().status(Status::Closed))
        .all()
        .await;
    assert_eq!(numbers(&closed.expect("closed")), [2, 3, 4, 6, 8, 10]);

    db.update(Issue::key("octo", "hello", 4u64))
        .remove(Issue::ASSIGNEE)
        .send()
        .await
        .expect("unassigned");
    let mona = db.query(Issue::by_assignee("mona", "hello")).all().await;
    assert_eq!(numbers(&mona.expect("mona")), [2, 6, 8, 10]);
}

#[tokio::test]
async fn cursors_page_through_a_multi_attribute_index() {
    let db = seeded("multi_attr_cursor").await;
    let query = || {
        db.query(Issue::issues_by_status("octo", "hello"))
            .sk_ge(sk().status(Status::Closed).number(4u64))
            .limit(3)
    };
    let mut seen = Vec::new();
    let mut page = query().send().await.expect("first page");
    loop {
        seen.extend(numbers(&page.items));
        match page.cursor {
            Some(cursor) => page = query().after(cursor).send().await.expect("next page"),
            None => break,
        }
    }
    // Equal on the status, a range on the number: closed issues from 4 on, in pages of 3.
    assert_eq!(seen, [4, 6, 8, 10]);

    let cursor = query().send().await.expect("page").cursor.expect("more");
    let reused = db
        .query(Issue::issues_by_status("octo", "hello"))
        .sk_ge(sk().status(Status::Open))
        .limit(3)
        .after(cursor.clone())
        .send()
        .await;
    assert!(
        matches!(reused, Err(dynamap::Error::InvalidCursor { .. })),
        "{reused:?}"
    );
    let other_partition = db
        .query(Issue::issues_by_status("octo", "other"))
        .sk_ge(sk().status(Status::Closed).number(4u64))
        .limit(3)
        .after(cursor)
        .send()
        .await;
    assert!(
        matches!(other_partition, Err(dynamap::Error::InvalidCursor { .. })),
        "{other_partition:?}"
    );
}

#[tokio::test]
async fn conditions_dynamodb_would_reject_are_refused_before_sending() {
    let db = crate::offline(&fresh_db::<Hub>("multi_attr_refused").await);
    let repo = || Issue::issues_by_status("octo", "hello");
    let mixed = db
        .query(repo())
        .sk_between(
            sk().status(Status::Closed).number(1u64),
            sk().status(Status::Open).number(5u64),
        )
        .all()
        .await;
    assert!(
        matches!(&mixed, Err(dynamap::Error::Unsupported { reason, .. }) if reason.contains("equal on the attributes before it")),
        "{mixed:?}"
    );
    let uneven = db
        .query(repo())
        .sk_between(
            sk().status(Status::Open),
            sk().status(Status::Open).number(5u64),
        )
        .all()
        .await;
    assert!(
        matches!(&uneven, Err(dynamap::Error::Unsupported { .. })),
        "{uneven:?}"
    );
    let number_prefix = db
        .query(repo())
        .sk_prefix(sk().status(Status::Open).number(5u64))
        .all()
        .await;
    assert!(
        matches!(&number_prefix, Err(dynamap::Error::Unsupported { .. })),
        "{number_prefix:?}"
    );
    let empty = db.query(Issue::issues_by_status("octo", "")).all().await;
    match empty {
        Err(dynamap::Error::Key(err)) => {
            assert_eq!((err.attribute, err.field), ("repo", Some("repo")));
        }
        other => panic!("expected a key error, got {other:?}"),
    }
}
