//! Key formats other mappers write (`key_format(...)` on a table, an entity or a field):
//! every path that renders a key (put, batch, transaction, upsert, updates that re-render
//! index and lookup keys, partition and sort-prefix queries, cursors) writes the declared
//! form, parse-back reads it, and a verbatim part holding `#` is refused before sending.

use dynamap::codec::AttributeValue;
use dynamap::key::{KeyErrorKind, KeyPartError};
use dynamap::{Db, Entity, Error, Table};

use crate::{fresh_db, raw_item};

/// As ElectroDB writes by default: values as they are, lower-cased, numbers unpadded.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    key_format(verbatim, lowercase, numbers = "plain")
)]
struct Peer;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "employee",
          pk = "$org#employee_{name}", sk = "$employee#level_{level}#team_{team}",
          index(name = "GSI1", pk = "$org#status_{status}", sk = "$employee#name_{name}"))]
struct Employee {
    name: String,
    level: u32,
    team: String,
    status: String,
}

/// An entity with a lookup item, kept in sync in the table's format.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "account", pk = "$org#account_{id}", sk = "$account",
          lookup(name = "email", pk = "$org#email_{email}", sk = "$lookup"))]
struct Account {
    id: String,
    email: String,
}

/// An entity of the same table that keeps dynamap's own form, with one field padded.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Peer, entity = "Ticket", pk = "TICKET#{queue}", sk = "N#{number}",
          key_format(escaped, keep_case))]
struct Ticket {
    queue: String,
    #[dynamap(key_format(padded(width = 4, pad = '0')))]
    number: u32,
}

fn employee(name: &str, level: u32, team: &str) -> Employee {
    Employee {
        name: name.to_owned(),
        level,
        team: team.to_owned(),
        status: "Active".to_owned(),
    }
}

async fn stored(db: &Db<Peer>, pk: &str, sk: &str, attribute: &str) -> Option<String> {
    let item = raw_item(db, pk, sk).await?;
    item.get(attribute)
        .and_then(|v| v.as_s().ok())
        .map(ToOwned::to_owned)
}

#[tokio::test]
async fn every_write_path_stores_the_declared_form() {
    let db = fresh_db::<Peer>("key_formats_writes").await;
    db.put(&employee("Mary Ann", 4, "Ops 1"))
        .await
        .expect("put");
    let report = db
        .put_all([employee("Bob", 10, "Ops 1")])
        .await
        .expect("batch");
    assert!(report.is_complete(), "{report}");
    db.transaction()
        .put(&employee("Eve", 2, "Sec"))
        .send()
        .await
        .expect("transaction");
    db.upsert(&employee("Zoë O'Neil", 7, "R&D 100%"))
        .await
        .expect("upsert");
    for (pk, sk, status_pk, gsi1sk) in [
        (
            "$org#employee_mary ann",
            "$employee#level_4#team_ops 1",
            "$org#status_active",
            "$employee#name_mary ann",
        ),
        (
            "$org#employee_bob",
            "$employee#level_10#team_ops 1",
            "$org#status_active",
            "$employee#name_bob",
        ),
        (
            "$org#employee_eve",
            "$employee#level_2#team_sec",
            "$org#status_active",
            "$employee#name_eve",
        ),
        (
            "$org#employee_zoë o'neil",
            "$employee#level_7#team_r&d 100%",
            "$org#status_active",
            "$employee#name_zoë o'neil",
        ),
    ] {
        assert_eq!(
            stored(&db, pk, sk, "GSI1PK").await.as_deref(),
            Some(status_pk),
            "{pk}"
        );
        assert_eq!(
            stored(&db, pk, sk, "GSI1SK").await.as_deref(),
            Some(gsi1sk),
            "{pk}"
        );
    }
    // Values are stored as given: only the keys are lower-cased.
    let mary = db
        .get(Employee::key("Mary Ann", 4u32, "Ops 1"))
        .await
        .expect("get")
        .expect("found");
    assert_eq!(mary, employee("Mary Ann", 4, "Ops 1"));
    let same = db
        .get(Employee::key("mary ann", 4u32, "ops 1"))
        .await
        .expect("get");
    assert_eq!(same, Some(mary), "keys differing only in case are one key");

    db.put(&Ticket {
        queue: "Mary Ann".into(),
        number: 42,
    })
    .await
    .expect("ticket");
    assert!(
        raw_item(&db, "TICKET#Mary%20Ann", "N#0042").await.is_some(),
        "the entity's own format (escaped, case kept) and the field's padding"
    );
}

#[tokio::test]
async fn parse_back_queries_prefixes_and_cursors_follow_the_format() {
    let db = fresh_db::<Peer>("key_formats_reads").await;
    let levels = [1u32, 4, 40, 400, 4];
    let teams = ["a", "a", "a", "a", "b"];
    for (level, team) in levels.iter().zip(teams) {
        db.put(&employee("Mary Ann", *level, team))
            .await
            .expect("put");
    }
    let (pk, sk) = Employee::key("Mary Ann", 40u32, "a")
        .into_values()
        .expect("renders");
    assert_eq!(
        Employee::parse_key(&pk, sk.as_deref()).expect("parses"),
        ("mary ann".to_owned(), 40, "a".to_owned()),
        "parse-back reads the lower-cased text"
    );

    let mine = || db.query(Employee::partition("Mary Ann"));
    let level_4 = mine().sk_prefix((4u32,)).all().await.expect("level 4");
    let mut got: Vec<(u32, String)> = level_4.iter().map(|e| (e.level, e.team.clone())).collect();
    got.sort();
    assert_eq!(
        got,
        [(4, "a".to_owned()), (4, "b".to_owned())],
        "a prefix on a plain number stops at the part's end: not 40 or 400"
    );
    assert_eq!(mine().count().await.expect("count"), 5);

    // Cursors carry the stored keys as they are.
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = mine().limit(2);
        if let Some(after) = cursor.take() {
            query = query.after(after);
        }
        let page = query.send().await.expect("page");
        seen.extend(page.items.iter().map(|e| (e.level, e.team.clone())));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    // Plain numbers sort as text, as the docs say: 1, 4, 40, 400.
    let levels: Vec<u32> = seen.iter().map(|(level, _)| *level).collect();
    assert_eq!(levels, [1, 4, 4, 40, 400]);
    let active = db
        .query(Employee::gsi1("Active"))
        .all()
        .await
        .expect("index");
    assert_eq!(active.len(), 5);
}

#[tokio::test]
async fn updates_re_render_index_and_lookup_keys_in_the_format() {
    let db = fresh_db::<Peer>("key_formats_updates").await;
    let mary = employee("Mary Ann", 4, "Ops");
    db.put(&mary).await.expect("put");
    let key = || Employee::key("Mary Ann", 4u32, "Ops");
    db.update(key())
        .set(Employee::STATUS, "In Progress")
        .await
        .expect("update");
    let (pk, sk) = ("$org#employee_mary ann", "$employee#level_4#team_ops");
    assert_eq!(
        stored(&db, pk, sk, "GSI1PK").await.as_deref(),
        Some("$org#status_in progress"),
        "the peer's own status query finds it"
    );
    let found = db
        .query(Employee::gsi1("in progress"))
        .all()
        .await
        .expect("index");
    assert_eq!(found.len(), 1);
    db.transaction()
        .update(db.update(key()).set(Employee::STATUS, "Done"))
        .send()
        .await
        .expect("transaction update");
    assert_eq!(
        stored(&db, pk, sk, "GSI1PK").await.as_deref(),
        Some("$org#status_done")
    );

    db.put(&Account {
        id: "A1".into(),
        email: "Mary.Ann@Example.com".into(),
    })
    .await
    .expect("account");
    assert!(
        raw_item(&db, "$org#email_mary.ann@example.com", "$lookup")
            .await
            .is_some()
    );
    db.update(Account::key("A1"))
        .set(Account::EMAIL, "MA@Example.com")
        .await
        .expect("a new email moves the lookup");
    assert!(
        raw_item(&db, "$org#email_ma@example.com", "$lookup")
            .await
            .is_some()
    );
    assert!(
        raw_item(&db, "$org#email_mary.ann@example.com", "$lookup")
            .await
            .is_none()
    );
    let err = db
        .update(Account::key("A1"))
        .set(Account::EMAIL, "a#b@example.com")
        .await
        .expect_err("a lookup key holding the delimiter");
    assert!(is_not_verbatim(&err, "a#b@example.com"), "{err:?}");
}

fn is_not_verbatim(err: &Error, text: &str) -> bool {
    matches!(err, Error::Key(key) if key.kind == KeyErrorKind::Part(KeyPartError::NotVerbatim { text: text.to_owned() }))
}

#[tokio::test]
async fn a_verbatim_part_holding_the_delimiter_is_refused_before_sending_on_every_path() {
    let db = fresh_db::<Peer>("key_formats_refusals").await;
    let forged = employee("ops#1", 1, "a");
    let err = db.put(&forged).await.expect_err("put");
    assert!(is_not_verbatim(&err, "ops#1"), "{err:?}");
    let report = db.put_all([forged.clone()]).await.expect("a batch reports");
    assert_eq!((report.written, report.calls), (0, 0), "{report}");
    let failed = report.failed.first().expect("the refused put");
    assert!(is_not_verbatim(&failed.error, "ops#1"), "{report}");
    let err = db
        .transaction()
        .put(&forged)
        .send()
        .await
        .expect_err("transaction");
    assert!(is_not_verbatim(&err, "ops#1"), "{err:?}");
    let err = db.upsert(&forged).await.expect_err("upsert");
    assert!(is_not_verbatim(&err, "ops#1"), "{err:?}");
    let err = db
        .get(Employee::key("ops#1", 1u32, "a"))
        .await
        .expect_err("get");
    assert!(is_not_verbatim(&err, "ops#1"), "{err:?}");
    let err = db
        .query(Employee::partition("a#b"))
        .all()
        .await
        .expect_err("query");
    assert!(is_not_verbatim(&err, "a#b"), "{err:?}");
    let err = db
        .query(Employee::partition("a"))
        .sk_prefix((1u32, "x#y"))
        .all()
        .await
        .expect_err("sort prefix");
    assert!(is_not_verbatim(&err, "x#y"), "{err:?}");

    db.put(&employee("Mary Ann", 4, "Ops")).await.expect("put");
    let err = db
        .update(Employee::key("Mary Ann", 4u32, "Ops"))
        .set(Employee::STATUS, "a#b")
        .await
        .expect_err("an update re-rendering the index key");
    assert!(is_not_verbatim(&err, "a#b"), "{err:?}");
    let stored_status = raw_item(&db, "$org#employee_mary ann", "$employee#level_4#team_ops")
        .await
        .expect("kept")["status"]
        .clone();
    assert_eq!(
        stored_status,
        AttributeValue::S("Active".into()),
        "nothing was written"
    );
    let scan = db.scan::<Employee>().all().await.expect("scan");
    assert_eq!(scan.len(), 1, "no refused item was stored");
}
