//! The offline mode (`offline_nothing_else_writes`): the same jobs written with
//! `BatchWriteItem`, no condition. Items end as the conditioned mode leaves them; every
//! tenth page is checkpointed once written (and the last), so a second run does nothing and
//! a stopped one redoes fewer than ten pages.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

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

#[tokio::test]
async fn offline_checkpoints_every_ten_pages_and_a_stopped_job_redoes_fewer() {
    let db = old_desk("maintain_offline_resume", 120, 0).await;
    let job = || {
        db.maintain::<Ticket>("offline-resume")
            .rekey()
            .page_size(5)
            .offline_nothing_else_writes()
    };

    // Stopped after twelve of its 24 pages (a write budget paces it, about ten pages a
    // second, so that the watcher sees the count before the job ends).
    let pages = Arc::new(AtomicU32::new(0));
    let (seen, watched) = (Arc::clone(&pages), Arc::clone(&pages));
    tokio::select! {
        report = job()
            .budget(Budget::UNLIMITED.writes(100.0))
            .on_progress(move |_| { seen.fetch_add(1, Ordering::SeqCst); })
            .send() => panic!("the job finished before it was stopped: {report:?}"),
        () = async move {
            while watched.load(Ordering::SeqCst) < 12 {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        } => {}
    }
    let stopped_after = pages.load(Ordering::SeqCst);
    assert!((12..24).contains(&stopped_after), "{stopped_after}");

    let resumed = job().send().await.expect("resumed");
    assert_eq!(resumed.failed_count, 0, "{resumed:?}");
    // Resumed from the checkpoint after page ten (or twenty): not from the page it stopped
    // at, and not from the start.
    let skipped = 120 - resumed.scanned;
    assert!(skipped % 50 == 0 && skipped >= 50, "{resumed:?}");
    assert!(skipped <= 5 * u64::from(stopped_after), "{resumed:?}");
    // The redone pages' items read as rewritten (and the page in flight when the job was
    // stopped may have been written too).
    let redone = 5 * u64::from(stopped_after) - skipped;
    assert!(
        (redone..=redone + 5).contains(&resumed.unchanged),
        "{redone} redone: {resumed:?}"
    );
    assert_eq!(every_ticket_rendered(&db).await, 120);
}
