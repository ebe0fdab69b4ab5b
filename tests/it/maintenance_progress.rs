//! What a job's progress tells as it goes: items read of every type against the table's
//! count, an ETA, and the capacity consumed (under a budget), checkpoints included.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dynamap::maintain::Budget;

use crate::maintenance::{Ticket, old_desk};

#[tokio::test]
async fn progress_counts_what_was_read_and_consumed_and_ends_with_no_time_left() {
    let db = old_desk("maintain_progress", 60, 20).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let report = db
        .maintain::<Ticket>("progress")
        .rekey()
        .segments(2)
        .page_size(10)
        .budget(Budget::UNLIMITED.reads(10_000.0).writes(10_000.0))
        .on_progress(move |p| record.lock().expect("lock").push(p))
        .send()
        .await
        .expect("job");
    let seen = seen.lock().expect("lock").clone();
    let last = *seen.last().expect("progress after every page");

    assert_eq!(last.scanned, 60, "{last:?}");
    assert_eq!(last.items_read, 80, "tickets and agents are read: {last:?}");
    assert_eq!(
        last.items_expected,
        Some(80),
        "the table's item count, before the job's checkpoints"
    );
    assert_eq!(last.eta(), Some(Duration::ZERO));
    let early = seen
        .iter()
        .find(|p| p.items_read > 0 && p.segments_done < p.segments)
        .expect("a page before the end");
    assert!(early.eta().is_some(), "{early:?}");

    // The progress adds up what the report does; the checkpoints' writes are counted.
    assert_eq!(last.write_units, report.write_units);
    assert_eq!(last.read_units, report.read_units);
    let pages = seen.len() as f64;
    assert!(
        report.write_units >= report.rekeyed as f64 + pages,
        "{} units for {} rewrites and {pages} checkpoints",
        report.write_units,
        report.rekeyed
    );
}

#[tokio::test]
async fn without_a_budget_no_capacity_is_asked_for_or_counted() {
    let db = old_desk("maintain_progress_free", 30, 10).await;
    let report = db
        .maintain::<Ticket>("free")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!(report.rekeyed, 30, "{report:?}");
    assert_eq!((report.read_units, report.write_units), (0.0, 0.0));
}
