//! Maintenance jobs on DynamoDB Local: re-keying, moving, upgrading and mapping the items of
//! one entity across a table, under concurrent writes, stopped and resumed, split across
//! runs, and as a dry run.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dynamap::codec::AttributeValue::{N, S};
use dynamap::codec::Item;
use dynamap::maintain::{Budget, Change};
use dynamap::{Db, Entity, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub(crate) struct Desk;

/// A ticket as the code renders it now: its status index was added (or its template
/// changed) after many tickets were written.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Ticket", pk = "TICKET#{id}", sk = "TICKET",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "TICKET#{id}"))]
pub(crate) struct Ticket {
    pub(crate) id: String,
    pub(crate) status: String,
    pub(crate) touches: u64,
    #[dynamap(version)]
    pub(crate) version: u64,
}

/// Another entity of the table, which a job over tickets never touches.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Agent", pk = "AGENT#{id}", sk = "AGENT",
          index(name = "GSI1", pk = "TEAM#{team}", sk = "AGENT#{id}"))]
pub(crate) struct Agent {
    pub(crate) id: String,
    pub(crate) team: String,
}

/// A user whose primary key template changed from `U#{id}` to `USER#{id}`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "User", pk = "USER#{id}", sk = "PROFILE")]
pub(crate) struct User {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// Every item of the table, raw, by primary key.
pub(crate) async fn raw_items<L: dynamap::Table>(db: &Db<L>) -> BTreeMap<(String, String), Item> {
    let mut items = BTreeMap::new();
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("raw scan");
        for item in out.items.unwrap_or_default() {
            let text = |name: &str| {
                item.get(name)
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .unwrap_or_default()
            };
            items.insert((text("PK"), text("SK")), item);
        }
        match out.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return items,
        }
    }
}

/// `tickets` tickets written the old way (the first half with no index keys, the rest with
/// an old status key format), and `agents` agents written normally.
pub(crate) async fn old_desk(test: &str, tickets: usize, agents: usize) -> Db<Desk> {
    let db = fresh_db::<Desk>(test).await;
    let mut batch = db.batch_write();
    let mut raw = Vec::new();
    for i in 0..tickets {
        let mut item = Item::new();
        item.insert("PK".into(), S(format!("TICKET#{i:05}")));
        item.insert("SK".into(), S("TICKET".into()));
        item.insert("_type".into(), S("Ticket".into()));
        item.insert("id".into(), S(format!("{i:05}")));
        item.insert(
            "status".into(),
            S(if i % 3 == 0 { "open" } else { "closed" }.into()),
        );
        item.insert("touches".into(), N("0".into()));
        item.insert("version".into(), N("1".into()));
        if i >= tickets / 2 {
            item.insert("GSI1PK".into(), S(format!("S#{}", i % 3)));
            item.insert("GSI1SK".into(), S(format!("T#{i:05}")));
        }
        raw.push(item);
    }
    for chunk in raw.chunks(25) {
        let requests = chunk
            .iter()
            .map(|item| {
                dynamap::aws_sdk_dynamodb::types::WriteRequest::builder()
                    .put_request(
                        dynamap::aws_sdk_dynamodb::types::PutRequest::builder()
                            .set_item(Some(item.clone()))
                            .build()
                            .expect("put request"),
                    )
                    .build()
            })
            .collect();
        db.client()
            .batch_write_item()
            .request_items(db.table_name(), requests)
            .send()
            .await
            .expect("raw batch");
    }
    let agents: Vec<Agent> = (0..agents)
        .map(|i| Agent {
            id: format!("a{i}"),
            team: format!("t{}", i % 4),
        })
        .collect();
    for agent in &agents {
        batch = batch.put(agent);
    }
    assert!(batch.await.expect("agents").is_complete());
    db
}

/// True when every ticket's stored item is what the entity renders from it.
async fn every_ticket_rendered(db: &Db<Desk>) -> usize {
    let mut tickets = 0;
    for item in raw_items(db).await.into_values() {
        if item.get("_type") == Some(&S("Ticket".into())) {
            let ticket = Ticket::from_item(item.clone()).expect("decodes");
            let rendered = ticket.to_item().expect("renders");
            for (name, value) in &rendered {
                assert_eq!(
                    item.get(name),
                    Some(value),
                    "{name} of ticket {}",
                    ticket.id
                );
            }
            tickets += 1;
        }
    }
    tickets
}

#[tokio::test]
async fn a_rekey_brings_every_item_to_its_templates_and_touches_nothing_else() {
    let db = old_desk("maintain_rekey", 200, 30).await;
    let before = raw_items(&db).await;

    let preview = db
        .maintain::<Ticket>("rekey")
        .rekey()
        .segments(4)
        .dry_run()
        .send()
        .await
        .expect("dry run");
    assert_eq!(raw_items(&db).await, before, "a dry run writes nothing");
    assert_eq!(
        (preview.scanned, preview.rekeyed, preview.unchanged),
        (200, 200, 0)
    );
    assert!(!preview.samples.is_empty());

    let report = db
        .maintain::<Ticket>("rekey")
        .rekey()
        .segments(4)
        .page_size(17)
        .send()
        .await
        .expect("job");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(
        (report.scanned, report.rekeyed, report.segments_done),
        (preview.scanned, preview.rekeyed, 4),
        "the dry run counted what the job did"
    );
    assert_eq!(every_ticket_rendered(&db).await, 200);
    let after = raw_items(&db).await;
    for (key, item) in &before {
        if item.get("_type") != Some(&S("Ticket".into())) {
            assert_eq!(
                after.get(key),
                Some(item),
                "{key:?} is not a ticket: untouched"
            );
        } else {
            let old = item.get("version").and_then(|v| v.as_n().ok()).cloned();
            let new = after[key]
                .get("version")
                .and_then(|v| v.as_n().ok())
                .cloned();
            assert_eq!(
                (old.as_deref(), new.as_deref()),
                (Some("1"), Some("2")),
                "rewritten once"
            );
        }
    }
    let open = db
        .query(Ticket::gsi1("open"))
        .all()
        .await
        .expect("the index works");
    assert_eq!(open.len(), 67);

    // Finished: running it again reads nothing; cleared, it finds nothing to change.
    let again = db
        .maintain::<Ticket>("rekey")
        .rekey()
        .segments(4)
        .send()
        .await
        .expect("again");
    assert_eq!((again.scanned, again.segments_skipped), (0, 4));
    db.maintain::<Ticket>("rekey")
        .segments(4)
        .clear_checkpoints()
        .await
        .expect("cleared");
    let fresh = db
        .maintain::<Ticket>("rekey")
        .rekey()
        .segments(4)
        .send()
        .await
        .expect("anew");
    assert_eq!(
        (fresh.scanned, fresh.unchanged, fresh.changed()),
        (200, 200, 0)
    );
}

#[tokio::test]
async fn a_job_split_across_runs_and_stopped_half_way_finishes_once() {
    let db = old_desk("maintain_resume", 300, 0).await;
    let job = || {
        db.maintain::<Ticket>("resume")
            .rekey()
            .segments(8)
            .page_size(10)
    };

    // Stopped: the future dropped once its first page is done (a tight write budget keeps
    // the rest of the share from finishing first).
    let started = Arc::new(AtomicBool::new(false));
    let (seen, watched) = (Arc::clone(&started), Arc::clone(&started));
    tokio::select! {
        report = job()
            .only_segments(0..4)
            .budget(Budget::UNLIMITED.writes(20.0))
            .on_progress(move |_| seen.store(true, Ordering::SeqCst))
            .send() => panic!("the job finished before it was stopped: {report:?}"),
        () = async move {
            while !watched.load(Ordering::SeqCst) {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        } => {}
    }

    // Another process's share, then the first share again from its checkpoints.
    let second = job().only_segments(4..8).send().await.expect("second half");
    let first = job()
        .only_segments(0..4)
        .send()
        .await
        .expect("first half, resumed");
    assert!(first.failed.is_empty() && second.failed.is_empty());
    assert_eq!(every_ticket_rendered(&db).await, 300);
    let tickets = raw_items(&db)
        .await
        .into_values()
        .filter(|item| item.get("_type") == Some(&S("Ticket".into())));
    for item in tickets {
        assert_eq!(
            item.get("version"),
            Some(&N("2".into())),
            "no item written twice: {item:?}"
        );
    }
}

#[tokio::test]
async fn checkpoints_saved_under_the_earlier_attribute_names_still_resume() {
    let db = old_desk("maintain_old_checkpoints", 20, 0).await;
    let job = || db.maintain::<Ticket>("old-names").rekey().segments(2);
    job().send().await.expect("job");
    // Each segment's checkpoint as an earlier release wrote it: `done`, not `_job_done`.
    for segment in 0..2 {
        let pk = format!("_dynamap#job#Ticket#old-names#{segment}/2");
        db.client()
            .update_item()
            .table_name(db.table_name())
            .key("PK", S(pk))
            .key("SK", S("_dynamap#checkpoint".into()))
            .update_expression("SET done = :yes REMOVE #now")
            .expression_attribute_names("#now", "_job_done")
            .expression_attribute_values(":yes", dynamap::codec::AttributeValue::Bool(true))
            .condition_expression("attribute_exists(#now)")
            .send()
            .await
            .expect("renamed");
    }
    let again = job().send().await.expect("again");
    assert_eq!((again.scanned, again.segments_skipped), (0, 2));
}

#[tokio::test]
async fn live_updates_during_a_job_all_survive() {
    let db = old_desk("maintain_live", 200, 0).await;
    let writers: Vec<_> = (0..10)
        .map(|w| {
            let db = db.clone();
            tokio::spawn(async move {
                for round in 0..10 {
                    let id = format!("{:05}", (w * 20 + round * 2) % 200);
                    db.update(Ticket::key(id.as_str()))
                        .increment(Ticket::TOUCHES, 1u64)
                        .await
                        .expect("update");
                }
            })
        })
        .collect();
    let report = db
        .maintain::<Ticket>("live")
        .rekey()
        .segments(4)
        .page_size(5)
        .send()
        .await
        .expect("job");
    for writer in writers {
        writer.await.expect("writer");
    }
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(every_ticket_rendered(&db).await, 200);
    let touches: u64 = raw_items(&db)
        .await
        .values()
        .filter_map(|item| item.get("touches")?.as_n().ok()?.parse::<u64>().ok())
        .sum();
    assert_eq!(
        touches, 100,
        "every concurrent update survived the job's writes"
    );
}

#[tokio::test]
async fn a_new_primary_key_moves_items_and_a_function_rewrites_or_deletes() {
    let db = fresh_db::<Desk>("maintain_move").await;
    for i in 0..20 {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(format!("U#{i}")))
            .item("SK", S("PROFILE".into()))
            .item("_type", S("User".into()))
            .item("id", S(i.to_string()))
            .item("name", S(format!("user {i}")))
            .item("theirs", S("kept".into()))
            .item(
                "tags",
                dynamap::codec::AttributeValue::L(vec![S("a".into()), N(i.to_string())]),
            )
            .item(
                "prefs",
                dynamap::codec::AttributeValue::M(
                    [(
                        "dark".to_owned(),
                        dynamap::codec::AttributeValue::Bool(true),
                    )]
                    .into(),
                ),
            )
            .item("gone", dynamap::codec::AttributeValue::Null(true))
            .send()
            .await
            .expect("raw put");
    }
    let report = db
        .maintain::<User>("move")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!((report.moved, report.failed_count), (20, 0));
    let items: BTreeMap<_, _> = raw_items(&db)
        .await
        .into_iter()
        .filter(|(_, item)| item.get("_type") == Some(&S("User".into())))
        .collect();
    assert_eq!(items.len(), 20, "checkpoints aside, the moved users only");
    for ((pk, _), item) in &items {
        assert!(pk.starts_with("USER#"), "{pk}");
        assert_eq!(
            item.get("theirs"),
            Some(&S("kept".into())),
            "other attributes move along"
        );
    }

    let report = db
        .maintain::<User>("rename")
        .map(|user| match user.id.parse::<u32>() {
            Ok(n) if n % 2 == 0 => Change::Delete,
            _ => Change::Write(User {
                name: user.name.to_uppercase(),
                ..user.clone()
            }),
        })
        .send()
        .await
        .expect("job");
    assert_eq!((report.deleted, report.mapped), (10, 10));
    let users = db.scan::<User>().all().await.expect("scan");
    assert_eq!(users.len(), 10);
    assert!(
        users.iter().all(|u| u.name.starts_with("USER ")),
        "{users:?}"
    );
}

/// A write between the job's read of an item and its write: the job's write fails its
/// condition, the job reads the item again and redoes it, and the other write survives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_between_read_and_write_is_redone_from_a_fresh_read() {
    let db = old_desk("maintain_race", 6, 0).await;
    let (read_tx, read_rx) = std::sync::mpsc::channel::<()>();
    let (written_tx, written_rx) = std::sync::mpsc::channel::<()>();
    let (read_rx, written_tx) = (
        Arc::new(std::sync::Mutex::new(read_rx)),
        Arc::new(std::sync::Mutex::new(written_tx)),
    );
    let written_rx = std::sync::Mutex::new(written_rx);
    let once = AtomicBool::new(false);
    let writer = {
        let db = db.clone();
        let read_rx = Arc::clone(&read_rx);
        let written_tx = Arc::clone(&written_tx);
        tokio::spawn(async move {
            let read = tokio::task::spawn_blocking(move || read_rx.lock().expect("lock").recv());
            read.await
                .expect("joined")
                .expect("the job read ticket 00003");
            db.update(Ticket::key("00003"))
                .increment(Ticket::TOUCHES, 5u64)
                .await
                .expect("a concurrent update");
            written_tx.lock().expect("lock").send(()).expect("signal");
        })
    };
    let report = db
        .maintain::<Ticket>("race")
        .rekey()
        .map(move |ticket| {
            // The first time the job reads ticket 00003, let the writer go first.
            if ticket.id == "00003" && !once.swap(true, Ordering::SeqCst) {
                read_tx.send(()).expect("signal");
                written_rx
                    .lock()
                    .expect("lock")
                    .recv()
                    .expect("the writer wrote");
            }
            Change::Keep
        })
        .send()
        .await
        .expect("job");
    writer.await.expect("writer");
    assert_eq!(report.conflicts_redone, 1, "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let ticket = db
        .get(Ticket::key("00003"))
        .consistent()
        .await
        .expect("get")
        .expect("there");
    assert_eq!(ticket.touches, 5, "the concurrent update survived");
    assert_eq!(every_ticket_rendered(&db).await, 6);
}

/// A write budget holds the job back: 30 rewrites of a unit or more each, at 10 units a
/// second, cannot finish before the units beyond the first two seconds' worth are paid
/// (the first second's are there up front; another second's allows for the running
/// estimate of a write's cost); without a budget the same job takes about a second here.
#[tokio::test]
async fn a_write_budget_paces_the_job() {
    let db = old_desk("maintain_budget", 30, 0).await;
    let started = std::time::Instant::now();
    let report = db
        .maintain::<Ticket>("budget")
        .rekey()
        .segments(4)
        .budget(Budget::UNLIMITED.writes(10.0))
        .send()
        .await
        .expect("job");
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(report.rekeyed, 30);
    assert!(
        report.write_units >= 60.0,
        "DynamoDB reported the units: {report:?}"
    );
    let floor = (report.write_units - 20.0) / 10.0;
    assert!(
        elapsed >= floor,
        "{elapsed}s for {} units: the budget held",
        report.write_units
    );
}

/// A member whose e-mail is unique: a lookup item kept with it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Member", pk = "MEMBER#{id}", sk = "MEMBER",
          lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
struct Member {
    id: String,
    email: String,
}

/// A note at schema version 2; version 1 had its text under another name.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Note", pk = "NOTE#{id}", sk = "NOTE",
          schema_version = 2, upgrade(from = 1, via = NoteV1))]
struct Note {
    id: String,
    text: String,
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
        }
    }
}

#[tokio::test]
async fn the_audit_reports_each_kind_of_drift_exactly() {
    let db = old_desk("maintain_audit", 0, 3).await;
    let raw = |pk: &str, sk: &str, kind: &str| {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(pk.into()))
            .item("SK", S(sk.into()))
            .item("_type", S(kind.into()))
    };
    let audit = || {
        db.audit()
            .entity::<Ticket>()
            .entity::<Agent>()
            .entity::<Member>()
            .entity::<Note>()
            .segments(2)
    };
    db.put(&Member {
        id: "m1".into(),
        email: "ada@example.com".into(),
    })
    .await
    .expect("member");
    db.put(&Note {
        id: "n1".into(),
        text: "current".into(),
    })
    .await
    .expect("note");
    db.put(&Ticket {
        id: "t1".into(),
        status: "open".into(),
        touches: 0,
        version: 0,
    })
    .await
    .expect("ticket");
    let clean = audit().send().await.expect("audit");
    assert!(clean.is_clean(), "{clean}");
    assert_eq!(
        clean.scanned,
        3 + 2 + 1 + 1,
        "agents, the member and its lookup, a note, a ticket"
    );

    // One item of each kind of drift.
    raw("TICKET#t2", "TICKET", "Ticket")
        .item("id", S("t2".into()))
        .item("status", S("open".into()))
        .item("touches", N("0".into()))
        .item("version", N("1".into()))
        .item("GSI1PK", S("OLD#open".into()))
        .send()
        .await
        .expect("drifted keys");
    raw("GHOST#1", "GHOST", "Ghost")
        .send()
        .await
        .expect("unknown type");
    raw("EMAIL#gone@example.com", "EMAIL", "Member.email")
        .item("_owner_pk", S("MEMBER#m9".into()))
        .item("_owner_sk", S("MEMBER".into()))
        .send()
        .await
        .expect("orphan lookup");
    raw("NOTE#n2", "NOTE", "Note")
        .item("id", S("n2".into()))
        .item("body", S("old".into()))
        .send()
        .await
        .expect("older version");
    raw("TICKET#t3", "TICKET", "Ticket")
        .item("id", S("t3".into()))
        .send()
        .await
        .expect("undecodable");

    let report = audit().send().await.expect("audit");
    assert_eq!(
        (
            report.key_drift,
            report.unknown_type,
            report.orphan_lookups,
            report.older_versions,
            report.undecodable
        ),
        (1, 1, 1, 1, 1),
        "{report}"
    );
    assert_eq!(report.scanned, 7 + 5);
    let at = |pk: &str| {
        report
            .findings
            .iter()
            .find(|f| f.key.pk == pk)
            .map(|f| f.kind.to_string())
            .unwrap_or_default()
    };
    assert!(at("TICKET#t2").contains("GSI1PK"), "{report}");
    assert!(at("GHOST#1").contains("Ghost"), "{report}");
    assert!(
        at("EMAIL#gone@example.com").contains("owner does not exist"),
        "{report}"
    );
    assert!(at("NOTE#n2").contains("schema version 1"), "{report}");
    assert!(at("TICKET#t3").contains("Ticket"), "{report}");

    // The job fixes what it can: the drifted key and the older note; the audit then
    // reports only the rest.
    db.maintain::<Ticket>("fix")
        .rekey()
        .send()
        .await
        .expect("rekey");
    db.maintain::<Note>("fix")
        .upgrade()
        .send()
        .await
        .expect("upgrade");
    let after = audit().send().await.expect("audit");
    assert_eq!(
        (
            after.key_drift,
            after.older_versions,
            after.unknown_type,
            after.orphan_lookups,
            after.undecodable
        ),
        (0, 0, 1, 1, 1),
        "{after}"
    );
}

/// Users another mapper wrote (its own keys and type attribute) adopted in dynamap's form:
/// moved to their new keys, the old items gone, one the function refuses reported by key.
#[tokio::test]
async fn items_another_mapper_wrote_are_adopted() {
    use dynamap::codec::AttributeError;
    let db = fresh_db::<Desk>("maintain_adopt").await;
    for i in 0..12 {
        let mut put = db
            .client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(format!("$desk#user_{i}")))
            .item("SK", S("$user_1".into()))
            .item("__edb_e__", S("user".into()))
            .item("id", S(i.to_string()));
        if i != 7 {
            put = put.item("name", S(format!("user {i}")));
        }
        put.send().await.expect("foreign item");
    }
    let build = |item: Item| -> Result<User, AttributeError> {
        let text = |name: &str| match item.get(name) {
            Some(S(value)) => Ok(value.clone()),
            _ => Err(AttributeError::new(format!("no `{name}`"))),
        };
        Ok(User {
            id: text("id")?,
            name: text("name")?,
        })
    };
    let foreign = |item: &Item| item.get("__edb_e__") == Some(&S("user".into()));
    let preview = db
        .maintain::<User>("adopt")
        .adopt(foreign, build)
        .dry_run()
        .send()
        .await
        .expect("dry run");
    assert_eq!(
        (preview.scanned, preview.moved, preview.failed_count),
        (12, 11, 1)
    );

    let report = db
        .maintain::<User>("adopt")
        .adopt(foreign, build)
        .segments(2)
        .send()
        .await
        .expect("job");
    // A moved item (it keeps the other mapper's attributes) may be met again in a segment
    // read later: it is then already in form, and left unchanged.
    assert_eq!((report.moved, report.failed_count), (11, 1), "{report:?}");
    assert_eq!(report.scanned, 12 + report.unchanged, "{report:?}");
    assert_eq!(report.failed[0].key.pk, "$desk#user_7");
    assert!(
        matches!(report.failed[0].error, dynamap::Error::Adopt { .. }),
        "{report:?}"
    );
    let mut users = db.scan::<User>().all().await.expect("scan");
    users.sort_by_key(|u| u.id.parse::<u32>().unwrap_or(0));
    assert_eq!(users.len(), 11);
    assert_eq!(
        users[0],
        User {
            id: "0".into(),
            name: "user 0".into()
        }
    );
    let left: Vec<_> = raw_items(&db)
        .await
        .into_keys()
        .filter(|(pk, _)| pk.starts_with("$desk#"))
        .collect();
    assert_eq!(
        left,
        [("$desk#user_7".to_owned(), "$user_1".to_owned())],
        "only the refused one stays"
    );
}

/// An item of hundreds of attributes cannot be checked attribute by attribute within
/// DynamoDB's 4 KB expression limit: without a version it fails alone, with a clear error;
/// a versioned one is checked by its version and re-keyed.
#[tokio::test]
async fn an_item_too_wide_to_check_attribute_by_attribute_needs_a_version() {
    let db = old_desk("maintain_wide", 0, 0).await;
    let wide = |pk: &str, sk: &str, kind: &str| {
        let mut item: Item = (0..300)
            .map(|i| (format!("extra_{i:03}"), N(i.to_string())))
            .collect();
        item.insert("PK".into(), S(pk.into()));
        item.insert("SK".into(), S(sk.into()));
        item.insert("_type".into(), S(kind.into()));
        item
    };
    let mut user = wide("U#1", "PROFILE", "User");
    user.insert("id".into(), S("1".into()));
    user.insert("name".into(), S("wide".into()));
    let mut ticket = wide("TICKET#00001", "TICKET", "Ticket");
    ticket.insert("id".into(), S("00001".into()));
    ticket.insert("status".into(), S("open".into()));
    ticket.insert("touches".into(), N("0".into()));
    ticket.insert("version".into(), N("4".into()));
    for item in [user, ticket] {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .expect("raw put");
    }

    let users = db
        .maintain::<User>("wide")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!((users.moved, users.failed_count), (0, 1), "{users:?}");
    let message = users.failed[0].error.to_string();
    assert!(
        matches!(users.failed[0].error, dynamap::Error::Unsupported { .. })
            && message.contains("4096")
            && message.contains("version"),
        "{message}"
    );

    let tickets = db
        .maintain::<Ticket>("wide")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!(
        (tickets.rekeyed, tickets.failed_count),
        (1, 0),
        "{tickets:?}"
    );
    assert_eq!(every_ticket_rendered(&db).await, 1);
}
