//! Adoption that finishes: the other mapper's marker and version attributes are dropped
//! from adopted items, and the scan's filter asks DynamoDB only for items still marked, so
//! a rerun reads the table but decodes nothing it already adopted.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dynamap::codec::AttributeValue::S;
use dynamap::codec::{AttributeError, Item};

use super::{Desk, User, raw_items};
use crate::fresh_db;

/// ElectroDB's users: 10 at its own keys, 2 already at the keys dynamap renders (adopted in
/// place), and 3 of another ElectroDB entity that the filter leaves out.
async fn foreign_users(db: &dynamap::Db<Desk>) {
    let put = |pk: String, sk: &str, entity: &str, id: usize| {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(pk))
            .item("SK", S(sk.to_owned()))
            .item("__edb_e__", S(entity.to_owned()))
            .item("__edb_v__", S("1".into()))
            .item("id", S(id.to_string()))
            .item("name", S(format!("user {id}")))
            .item("theirs", S("kept".into()))
            .send()
    };
    for i in 0..10 {
        put(format!("$desk#user_{i}"), "$user_1", "user", i)
            .await
            .expect("foreign user");
    }
    for i in 10..12 {
        put(format!("USER#{i}"), "PROFILE", "user", i)
            .await
            .expect("foreign user at its dynamap key");
    }
    for i in 0..3 {
        put(format!("$desk#team_{i}"), "$team_1", "team", i)
            .await
            .expect("foreign team");
    }
}

#[tokio::test]
async fn a_finished_adoption_is_not_decoded_again() {
    let db = fresh_db::<Desk>("maintain_adopt_finish").await;
    foreign_users(&db).await;
    let decoded = Arc::new(AtomicU64::new(0));
    let job = || {
        let decoded = Arc::clone(&decoded);
        db.maintain::<User>("adopt-finish")
            .adopt(
                |_| true,
                move |item: Item| -> Result<User, AttributeError> {
                    decoded.fetch_add(1, Ordering::Relaxed);
                    let text = |name: &str| match item.get(name) {
                        Some(S(value)) => Ok(value.clone()),
                        _ => Err(AttributeError::new(format!("no `{name}`"))),
                    };
                    Ok(User {
                        id: text("id")?,
                        name: text("name")?,
                    })
                },
            )
            .only_marked("__edb_e__", "user")
            .dropping(["__edb_v__"])
            .segments(3)
    };

    let report = job().send().await.expect("job");
    assert_eq!(
        (report.scanned, report.moved, report.failed_count),
        (12, 10, 0),
        "{report:?}"
    );
    assert_eq!(
        report.changed(),
        12,
        "the two in place are rewritten: {report:?}"
    );
    // Adopted items no longer match the filter: none was read back at its new key.
    assert_eq!(decoded.load(Ordering::Relaxed), 12);
    let items = raw_items(&db).await;
    let users: Vec<_> = items
        .values()
        .filter(|item| item.get("_type") == Some(&S("User".into())))
        .collect();
    assert_eq!(users.len(), 12);
    for user in users {
        assert!(
            !user.contains_key("__edb_e__") && !user.contains_key("__edb_v__"),
            "{user:?}"
        );
        assert_eq!(user.get("theirs"), Some(&S("kept".into())), "{user:?}");
    }
    let teams = items
        .values()
        .filter(|item| item.get("__edb_e__") == Some(&S("team".into())))
        .count();
    assert_eq!(teams, 3, "the other entity is not touched");
    assert!(!items.keys().any(|(pk, _)| pk.starts_with("$desk#user_")));

    // Run anew: the scan reads every item of the table, DynamoDB sends back none.
    job().clear_checkpoints().await.expect("cleared");
    let items_read = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&items_read);
    let again = job()
        .on_progress(move |p| {
            seen.fetch_max(p.items_read, Ordering::Relaxed);
        })
        .send()
        .await
        .expect("rerun");
    assert_eq!((again.scanned, again.changed()), (0, 0), "{again:?}");
    assert_eq!(
        decoded.load(Ordering::Relaxed),
        12,
        "the rerun decodes 0 items"
    );
    assert!(
        items_read.load(Ordering::Relaxed) >= 15,
        "the rerun scans the table: {} items read",
        items_read.load(Ordering::Relaxed)
    );
}

#[tokio::test]
async fn dropping_or_a_marker_without_adopt_is_refused() {
    let db = fresh_db::<Desk>("maintain_adopt_refused").await;
    for job in [
        db.maintain::<User>("x").rekey().dropping(["__edb_v__"]),
        db.maintain::<User>("x")
            .rekey()
            .only_marked("__edb_e__", "user"),
    ] {
        let refused = job.send().await;
        assert!(
            matches!(refused, Err(dynamap::Error::InvalidSetting { .. })),
            "{refused:?}"
        );
    }
}
