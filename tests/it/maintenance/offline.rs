//! The offline mode (`offline_nothing_else_writes`): the same jobs written with
//! `BatchWriteItem`, no condition. Items end as the conditioned mode leaves them; pages are
//! checkpointed once written, so a second run does nothing.

use dynamap::codec::AttributeValue::S;
use dynamap::maintain::Budget;

use super::{Ticket, User, every_ticket_rendered, old_desk, old_users, raw_items};

#[tokio::test]
async fn offline_moves_items_in_batches_and_a_second_run_does_nothing() {
    let db = old_users("maintain_offline_move", 120).await;
    let job = || {
        db.maintain::<User>("offline-move")
            .rekey()
            .segments(3)
            .page_size(25)
            .offline_nothing_else_writes()
    };
    let report = job().send().await.expect("job");
    assert_eq!((report.moved, report.failed_count), (120, 0), "{report:?}");
    assert_eq!(report.scanned, 120, "met again at new keys: {report:?}");
    assert_eq!(report.unchanged, 0, "{report:?}");
    assert!(
        report.write_units >= 240.0,
        "a put and a delete each: {report:?}"
    );
    let users: Vec<_> = raw_items(&db)
        .await
        .into_iter()
        .filter(|(_, item)| item.get("_type") == Some(&S("User".into())))
        .collect();
    assert_eq!(users.len(), 120, "no old key left, no item lost");
    for ((pk, _), item) in &users {
        assert!(pk.starts_with("USER#"), "{pk}");
        assert_eq!(item.get("theirs"), Some(&S("kept".into())), "{pk}");
    }
    let again = job().send().await.expect("second run");
    assert_eq!((again.scanned, again.segments_skipped), (0, 3), "{again:?}");
}

#[tokio::test]
async fn offline_rekeys_in_place_within_the_budget_and_counts_a_dry_run_alike() {
    let db = old_desk("maintain_offline_rekey", 90, 10).await;
    let preview = db
        .maintain::<Ticket>("offline-rekey")
        .rekey()
        .offline_nothing_else_writes()
        .dry_run()
        .send()
        .await
        .expect("dry run");
    assert_eq!(preview.rekeyed, 90);
    let report = db
        .maintain::<Ticket>("offline-rekey")
        .rekey()
        .segments(2)
        .page_size(30)
        .budget(Budget::UNLIMITED.writes(1_000.0))
        .offline_nothing_else_writes()
        .send()
        .await
        .expect("job");
    assert_eq!((report.rekeyed, report.failed_count), (90, 0), "{report:?}");
    assert!(report.write_units >= 180.0, "{report:?}");
    assert_eq!(every_ticket_rendered(&db).await, 90);
}
