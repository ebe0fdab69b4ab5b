//! Writes that land while a job runs: live updates all survive, and a write between the
//! job's read and write makes the job redo the item from a fresh read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dynamap::maintain::Change;

use super::{Ticket, every_ticket_rendered, old_desk, raw_items};

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
