//! The audit: each kind of drift between stored items and what the code renders, reported
//! exactly.

use dynamap::Entity;
use dynamap::codec::AttributeValue::{N, S};

use super::{Agent, Desk, Ticket, old_desk};

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
