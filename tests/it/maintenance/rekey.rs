//! Re-keying every item of one entity to its templates: in one run, split across runs and
//! stopped half way, and resumed from checkpoints of an earlier release.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dynamap::codec::AttributeValue::{N, S};
use dynamap::maintain::Budget;

use super::{Ticket, every_ticket_rendered, old_desk, raw_items};

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
