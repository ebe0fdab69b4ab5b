//! Reading entities in part on DynamoDB Local: projection types (`project_as`), field
//! constants on entities that decode with any field left out (`project`), and primary-key
//! fields read back from the key when their attributes are not in the item.

use dynamap::codec::AttributeValue;
use dynamap::{Db, Entity, EntityProjection, Error, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct Tracker;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Tracker,
    entity = "Issue",
    pk = "REPO#{owner}#{repo}",
    sk = "ISSUE#{number}",
    index(name = "GSI1", pk = "ASSIGNEE#{assignee}", sk = "ISSUE#{number}")
)]
struct Issue {
    owner: String,
    repo: String,
    number: u64,
    title: String,
    body: String,
    assignee: Option<String>,
    #[dynamap(default)]
    labels: Vec<String>,
    #[dynamap(rename = "state")]
    open: bool,
}

/// What an issue list shows: a key field, a renamed one, an optional one.
#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Issue)]
struct IssueRow {
    number: u64,
    title: String,
    open: bool,
    assignee: Option<String>,
}

/// Only key fields and a defaulted one.
#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Issue)]
struct IssueRef {
    owner: String,
    repo: String,
    number: u64,
    labels: Vec<String>,
}

/// Every field an `Option`, a default or in the primary key: `project` with field
/// constants compiles for it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Tracker,
    entity = "Comment",
    pk = "REPO#{owner}#{repo}",
    sk = "ISSUE#{number}#COMMENT#{at}"
)]
struct Comment {
    owner: String,
    repo: String,
    number: u64,
    at: i64,
    text: Option<String>,
    #[dynamap(default)]
    reactions: u32,
}

fn issue(number: u64, assignee: Option<&str>) -> Issue {
    Issue {
        owner: "dynamap".into(),
        repo: "dynamap".into(),
        number,
        title: format!("issue {number}"),
        body: "a long body no list needs".repeat(20),
        assignee: assignee.map(Into::into),
        labels: vec!["bug".into()],
        open: number % 2 == 1,
    }
}

async fn issues_db(test: &str) -> Db<Tracker> {
    let db = fresh_db::<Tracker>(test).await;
    for (number, assignee) in [(1, Some("ada")), (2, None), (3, Some("ada"))] {
        db.put(&issue(number, assignee)).await.expect("put");
    }
    db
}

#[tokio::test]
async fn a_projection_type_reads_only_its_fields() {
    let db = issues_db("projection_type").await;
    let query = db
        .query(Issue::partition("dynamap", "dynamap"))
        .project_as::<IssueRow>();
    // The fields' attributes, `open` under its stored name; no `body`.
    let described = format!("{query:?}");
    assert!(
        described.contains(r#"projection: ["number", "title", "state", "assignee"]"#),
        "{described}"
    );
    let rows: Vec<IssueRow> = query.all().await.expect("projected");
    let expected: Vec<IssueRow> = [(1, Some("ada")), (2, None), (3, Some("ada"))]
        .into_iter()
        .map(|(number, assignee)| {
            let i = issue(number, assignee);
            IssueRow {
                number: i.number,
                title: i.title,
                open: i.open,
                assignee: i.assignee,
            }
        })
        .collect();
    assert_eq!(rows, expected);
}

#[tokio::test]
async fn a_projection_type_keeps_filters_limits_and_indexes() {
    let db = issues_db("projection_settings").await;
    let open: Vec<IssueRow> = db
        .query(Issue::partition("dynamap", "dynamap"))
        .filter(Issue::OPEN.eq(true))
        .descending()
        .project_as::<IssueRow>()
        .all()
        .await
        .expect("filtered");
    assert_eq!(open.iter().map(|r| r.number).collect::<Vec<_>>(), [3, 1]);

    let first = db
        .query(Issue::partition("dynamap", "dynamap"))
        .limit(1)
        .project_as::<IssueRow>()
        .send()
        .await
        .expect("one page");
    assert_eq!(first.items.len(), 1);
    assert!(first.cursor.is_some());

    let assigned: Vec<IssueRef> = db
        .query(Issue::gsi1("ada"))
        .project_as::<IssueRef>()
        .all()
        .await
        .expect("through the index");
    assert_eq!(
        assigned,
        [1, 3].map(|number| IssueRef {
            owner: "dynamap".into(),
            repo: "dynamap".into(),
            number,
            labels: vec!["bug".into()],
        })
    );
}

/// Removes attributes from a stored item behind dynamap's back, as another writer might
/// have left it.
async fn remove_attributes(db: &Db<Tracker>, number: u64, attributes: &[&str]) {
    let key = Issue::key("dynamap", "dynamap", number);
    let (pk, sk) = key.values().expect("key renders");
    let sk = sk.expect("the table has a sort key");
    let mut update = db
        .client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", AttributeValue::S(pk.into()))
        .key("SK", AttributeValue::S(sk.into()));
    let mut names = Vec::new();
    for (i, attribute) in attributes.iter().enumerate() {
        update = update.expression_attribute_names(format!("#a{i}"), *attribute);
        names.push(format!("#a{i}"));
    }
    update
        .update_expression(format!("REMOVE {}", names.join(", ")))
        .send()
        .await
        .expect("raw update");
}

#[tokio::test]
async fn key_fields_missing_from_the_item_read_from_its_key() {
    let db = issues_db("key_recovery").await;
    let stored = issue(1, Some("ada"));
    remove_attributes(&db, 1, &["owner", "repo", "number", "labels"]).await;
    // A whole read: the key fields come from the key, `labels` from its default.
    let read = db
        .get(Issue::key("dynamap", "dynamap", 1u64))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(
        read,
        Issue {
            labels: Vec::new(),
            ..stored.clone()
        }
    );
    // A projection listing the key fields: their attributes are gone, the key is not.
    let refs: Vec<IssueRef> = db
        .query(Issue::partition("dynamap", "dynamap"))
        .sk_eq((1u64,))
        .project_as::<IssueRef>()
        .all()
        .await
        .expect("projected");
    assert_eq!(
        refs,
        [IssueRef {
            owner: "dynamap".into(),
            repo: "dynamap".into(),
            number: 1,
            labels: Vec::new(),
        }]
    );
}

#[tokio::test]
async fn a_required_field_missing_from_the_item_is_named() {
    let db = issues_db("projection_missing").await;
    remove_attributes(&db, 2, &["title"]).await;
    let err = db
        .query(Issue::partition("dynamap", "dynamap"))
        .project_as::<IssueRow>()
        .all()
        .await
        .expect_err("title missing");
    assert!(
        matches!(
            err,
            Error::MissingAttribute {
                entity: "Issue",
                attribute: "title",
                ..
            }
        ),
        "{err:?}"
    );
    // A projection without `title` does not need it.
    let refs: Vec<IssueRef> = db
        .query(Issue::partition("dynamap", "dynamap"))
        .project_as::<IssueRef>()
        .all()
        .await
        .expect("title not read");
    assert_eq!(refs.len(), 3);
}

#[tokio::test]
async fn field_constants_project_an_entity_that_needs_no_field() {
    let db = fresh_db::<Tracker>("partial_entity").await;
    let comment = Comment {
        owner: "dynamap".into(),
        repo: "dynamap".into(),
        number: 24,
        at: 1_700_000_000,
        text: Some("typed projections, please".into()),
        reactions: 3,
    };
    db.put(&comment).await.expect("put");
    db.put(&issue(24, None)).await.expect("put");
    // The issue's items are other entities of the same partition, left out by type.
    let read = db
        .query(Comment::partition("dynamap", "dynamap"))
        .project(Comment::TEXT)
        .all()
        .await
        .expect("projected");
    // Every key field comes back from the key; `reactions` was not read.
    assert_eq!(
        read,
        [Comment {
            reactions: 0,
            ..comment
        }]
    );
}

/// A note at schema version 2; version 1 stored its text as `body`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Tracker, entity = "Note", pk = "NOTE#{id}", sk = "NOTE",
          schema_version = 2, upgrade(from = 1, via = NoteV1))]
struct Note {
    id: String,
    text: String,
    #[dynamap(default)]
    pinned: bool,
}

#[derive(serde::Deserialize)]
struct NoteV1 {
    id: String,
    body: String,
}

impl From<NoteV1> for Note {
    fn from(old: NoteV1) -> Self {
        Note {
            id: old.id,
            text: old.body,
            pinned: false,
        }
    }
}

#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Note)]
struct NoteText {
    id: String,
    text: String,
}

#[tokio::test]
async fn an_older_item_reads_through_its_upgrade_which_sees_only_the_projection() {
    let db = fresh_db::<Tracker>("projection_upgrade").await;
    let current = Note {
        id: "n2".into(),
        text: "current".into(),
        pinned: true,
    };
    db.put(&current).await.expect("put");
    let projected: Vec<NoteText> = db
        .query(Note::partition("n2"))
        .project_as::<NoteText>()
        .all()
        .await
        .expect("current shape");
    assert_eq!(
        projected,
        [NoteText {
            id: "n2".into(),
            text: "current".into()
        }]
    );

    // Version 1 (no `_schema`): its text is under `body`, which the projection does not
    // read, so the upgrade fails rather than invent a value.
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", AttributeValue::S("NOTE#n1".into()))
        .item("SK", AttributeValue::S("NOTE".into()))
        .item("_type", AttributeValue::S("Note".into()))
        .item("id", AttributeValue::S("n1".into()))
        .item("body", AttributeValue::S("older".into()))
        .send()
        .await
        .expect("raw put");
    let err = db
        .query(Note::partition("n1"))
        .project_as::<NoteText>()
        .all()
        .await
        .expect_err("the upgrade needs `body`");
    assert!(matches!(err, Error::Upgrade { .. }), "{err:?}");
    // Read whole, the same item upgrades.
    let whole = db.query(Note::partition("n1")).all().await.expect("whole");
    assert_eq!(whole[0].text, "older");
}
