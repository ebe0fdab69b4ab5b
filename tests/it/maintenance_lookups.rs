//! Maintenance jobs over an entity with lookup items, on DynamoDB Local: lookup items move
//! with their owner's new key, follow a changed lookup field, go with a deleted owner, stay
//! put when the new key is another item's, and stay right when a writer races the job.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use dynamap::codec::AttributeValue::S;
use dynamap::maintain::{Change, FindingKind};
use dynamap::{Db, Entity, Error, Table};

use crate::fresh_db;
use crate::maintenance::raw_items;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Club;

/// A member as the code renders it now: its key and its e-mail lookup's template changed.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Club, entity = "Member", pk = "MEMBER#{id}", sk = "MEMBER",
          lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
struct Member {
    id: String,
    email: String,
    visits: u64,
}

/// The same member as an earlier release wrote it.
mod before {
    use dynamap::Entity;

    #[derive(Entity, Debug, Clone, PartialEq)]
    #[dynamap(table = super::Club, entity = "Member", pk = "M#{id}", sk = "MEMBER",
              lookup(name = "email", pk = "MAIL#{email}", sk = "EMAIL"))]
    pub(super) struct Member {
        pub(super) id: String,
        pub(super) email: String,
        pub(super) visits: u64,
    }
}

fn email(id: &str) -> String {
    format!("{id}@example.com")
}

/// The raw items of the table: (partition key, sort key) → (entity type, `_owner_pk`).
async fn layout<L: dynamap::Table>(db: &Db<L>) -> Vec<(String, String, String, Option<String>)> {
    let text = |item: &dynamap::codec::Item, name: &str| match item.get(name) {
        Some(S(s)) => Some(s.clone()),
        _ => None,
    };
    raw_items(db)
        .await
        .into_iter()
        .filter(|(_, item)| text(item, "_type") != Some("_dynamap.checkpoint".into()))
        .map(|((pk, sk), item)| {
            let kind = text(&item, "_type").unwrap_or_default();
            (pk, sk, kind, text(&item, "_owner_pk"))
        })
        .collect()
}

#[tokio::test]
async fn moved_owners_take_their_lookup_items_along() {
    moved_owners_take_their_lookups("maintain_lookups_move", false).await;
}

/// In the offline mode too: an item whose lookup items change is written in a transaction.
#[tokio::test]
async fn offline_moved_owners_take_their_lookup_items_along() {
    moved_owners_take_their_lookups("maintain_lookups_offline", true).await;
}

async fn moved_owners_take_their_lookups(test: &str, offline: bool) {
    let db = fresh_db::<Club>(test).await;
    for i in 0..6 {
        let id = i.to_string();
        db.put(&before::Member {
            email: email(&id),
            id,
            visits: 0,
        })
        .await
        .expect("old member");
    }
    // Member 5's e-mail, in the new layout, already belongs to another member.
    db.put(&Member {
        id: "other".into(),
        email: email("5"),
        visits: 0,
    })
    .await
    .expect("new member");

    let mut job = db.maintain::<Member>("rekey").rekey().segments(2);
    if offline {
        job = job.offline_nothing_else_writes();
    }
    let report = job.send().await.expect("job");
    // `other` is unchanged; a moved member met again at its new key is counted apart.
    assert_eq!(report.moved, 5, "{report:?}");
    assert_eq!(report.unchanged, 1, "{report:?}");
    assert_eq!(
        report.scanned,
        report.moved + report.unchanged + report.failed_count,
        "{report:?}"
    );
    assert_eq!(report.failed.len(), 1, "{report:?}");
    assert_eq!(report.failed[0].key.pk, "M#5");
    assert!(
        matches!(
            report.failed[0].error,
            Error::LookupTaken {
                lookup: "email",
                ..
            }
        ),
        "{:?}",
        report.failed[0].error
    );

    let mut expected = Vec::new();
    for i in 0..5 {
        let id = i.to_string();
        expected.push((
            format!("EMAIL#{}", email(&id)),
            "EMAIL".to_owned(),
            "Member.email".to_owned(),
            Some(format!("MEMBER#{id}")),
        ));
        expected.push((
            format!("MEMBER#{id}"),
            "MEMBER".to_owned(),
            "Member".to_owned(),
            None,
        ));
    }
    // The other member, and member 5 left as it was, with its old lookup item.
    expected.push((
        format!("EMAIL#{}", email("5")),
        "EMAIL".into(),
        "Member.email".into(),
        Some("MEMBER#other".into()),
    ));
    expected.push((
        "MEMBER#other".into(),
        "MEMBER".into(),
        "Member".into(),
        None,
    ));
    expected.push(("M#5".into(), "MEMBER".into(), "Member".into(), None));
    expected.push((
        format!("MAIL#{}", email("5")),
        "EMAIL".into(),
        "Member.email".into(),
        Some("M#5".into()),
    ));
    expected.sort();
    assert_eq!(layout(&db).await, expected);

    // The moved lookups guard their e-mails in the new layout.
    let taken = db
        .put(&Member {
            id: "late".into(),
            email: email("3"),
            visits: 0,
        })
        .await;
    assert!(matches!(taken, Err(Error::LookupTaken { .. })), "{taken:?}");

    // Only member 5 is left to re-key.
    let audit = db.audit().entity::<Member>().send().await.expect("audit");
    assert_eq!(audit.key_drift, 1, "{audit}");
    assert_eq!(audit.findings.len(), 1, "{audit}");
    assert_eq!(audit.findings[0].key.pk, "M#5");
}

#[tokio::test]
async fn a_changed_lookup_field_moves_its_item_and_a_delete_releases_it() {
    let db = fresh_db::<Club>("maintain_lookups_map").await;
    for i in 0..6 {
        let id = i.to_string();
        db.put(&Member {
            email: email(&id),
            id,
            visits: 0,
        })
        .await
        .expect("member");
    }
    let report = db
        .maintain::<Member>("emails")
        .map(|member| match member.id.parse::<u32>() {
            Ok(n) if n % 2 == 0 => Change::Delete,
            _ => Change::Write(Member {
                email: format!("new-{}", member.email),
                ..member.clone()
            }),
        })
        .send()
        .await
        .expect("job");
    assert_eq!((report.deleted, report.mapped), (3, 3), "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);

    let mut expected = Vec::new();
    for id in ["1", "3", "5"] {
        expected.push((
            format!("EMAIL#new-{}", email(id)),
            "EMAIL".to_owned(),
            "Member.email".to_owned(),
            Some(format!("MEMBER#{id}")),
        ));
        expected.push((
            format!("MEMBER#{id}"),
            "MEMBER".to_owned(),
            "Member".to_owned(),
            None,
        ));
    }
    expected.sort();
    assert_eq!(
        layout(&db).await,
        expected,
        "deleted members' and old e-mails' lookup items are gone"
    );
    let audit = db.audit().entity::<Member>().send().await.expect("audit");
    assert!(audit.is_clean(), "{audit}");

    // A freed e-mail can be taken again.
    db.put(&Member {
        id: "9".into(),
        email: email("1"),
        visits: 0,
    })
    .await
    .expect("the old e-mail is free");
}

/// A writer changes a member's e-mail between the job's read and its write: the job's
/// transaction fails, the job reads the member again and moves it with the new e-mail's
/// lookup; nothing of the old e-mail is left behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lookup_changed_during_the_job_is_redone_from_a_fresh_read() {
    let db = fresh_db::<Club>("maintain_lookups_race").await;
    for i in 0..3 {
        let id = i.to_string();
        db.put(&before::Member {
            email: email(&id),
            id,
            visits: 0,
        })
        .await
        .expect("old member");
    }
    let (read_tx, read_rx) = mpsc::channel::<()>();
    let (written_tx, written_rx) = mpsc::channel::<()>();
    let writer = {
        let db = db.clone();
        tokio::spawn(async move {
            tokio::task::spawn_blocking(move || read_rx.recv())
                .await
                .expect("joined")
                .expect("the job read member 1");
            db.put(&before::Member {
                id: "1".into(),
                email: "changed@example.com".into(),
                visits: 7,
            })
            .await
            .expect("a concurrent change of e-mail");
            written_tx.send(()).expect("signal");
        })
    };
    let (read_tx, written_rx) = (Mutex::new(read_tx), Mutex::new(written_rx));
    let once = Arc::new(AtomicBool::new(false));
    let report = db
        .maintain::<Member>("race")
        .rekey()
        .map(move |member| {
            if member.id == "1" && !once.swap(true, Ordering::SeqCst) {
                read_tx.lock().expect("lock").send(()).expect("signal");
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
    assert_eq!(report.moved, 3, "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);

    let member = db
        .get(Member::key("1"))
        .consistent()
        .await
        .expect("get")
        .expect("moved");
    assert_eq!(
        (member.email.as_str(), member.visits),
        ("changed@example.com", 7)
    );
    let lookups: Vec<_> = layout(&db)
        .await
        .into_iter()
        .filter(|(_, _, kind, _)| kind == "Member.email")
        .map(|(pk, _, _, owner)| (pk, owner.unwrap_or_default()))
        .collect();
    assert_eq!(
        lookups,
        [
            ("EMAIL#0@example.com".into(), "MEMBER#0".into()),
            ("EMAIL#2@example.com".into(), "MEMBER#2".into()),
            ("EMAIL#changed@example.com".into(), "MEMBER#1".into()),
        ]
    );
    let audit = db.audit().entity::<Member>().send().await.expect("audit");
    assert!(audit.is_clean(), "{audit}");
    assert!(
        !audit
            .findings
            .iter()
            .any(|f| matches!(f.kind, FindingKind::OrphanLookup { .. })),
        "{audit}"
    );
}
