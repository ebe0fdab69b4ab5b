//! The migrations guide's live primary-key move, run with live writers: customers move from
//! `CUST#{id}` to `CUSTOMER#{id}` while eight tasks keep adding tickets, creating customers
//! and reading them back through the application code the `live_rekey` example runs
//! (`example_support::live_rekey`). Nothing is lost or doubled, and no old key is left.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dynamap::codec::AttributeValue::{N, S};
use example_support::live_rekey::{Customer, id, job, run_writers, seed};
use example_support::tables::HelpDesk;

use super::raw_items;
use crate::fresh_db;

const CUSTOMERS: usize = 200;

#[tokio::test]
async fn a_primary_key_moves_while_the_application_writes() {
    let db = fresh_db::<HelpDesk>("live_rekey").await;
    seed(&db, CUSTOMERS).await.expect("seeded");

    // Step 1 is deployed: every writer runs the code that reads both layouts. Step 2, the
    // job, runs while they write, with small pages so that they meet it on every page.
    let stop = Arc::new(AtomicBool::new(false));
    let moved = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let report = job(&db).page_size(20).send().await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        stop.store(true, Ordering::Relaxed);
        report
    };
    let (report, tally) = tokio::join!(moved, run_writers(&db, 8, CUSTOMERS, Arc::clone(&stop)));
    let report = report.expect("the job runs");
    let tally = tally.expect("no writer fails, and none reads a customer as missing");
    assert_eq!(report.failed_count, 0, "{:?}", report.failed);
    assert_eq!(
        report.moved, CUSTOMERS as u64,
        "each old customer moved once: {report:?}"
    );
    let added: u64 = tally.tickets.values().sum();
    assert!(added > 0 && tally.reads > 0, "the writers wrote: {tally:?}");
    eprintln!(
        "live re-key: {} moved, {} moves redone after a race, {added} tickets added and {} \
         customers created meanwhile",
        report.moved,
        report.conflicts_redone,
        tally.created.len()
    );

    // Nothing lost or doubled: one item per customer, at its new key, with every ticket
    // the writers were told they added; no item left at an old key.
    let items = raw_items(&db).await;
    let customers: Vec<_> = items
        .iter()
        .filter(|(_, item)| item.get("_type") == Some(&S("Customer".into())))
        .collect();
    assert!(
        !customers.iter().any(|((pk, _), _)| pk.starts_with("CUST#")),
        "an old key is left"
    );
    let ids: BTreeSet<String> = customers
        .iter()
        .map(|(_, item)| item["id"].as_s().expect("an id").clone())
        .collect();
    let expected: BTreeSet<String> = (0..CUSTOMERS)
        .map(id)
        .chain(tally.created.iter().cloned())
        .collect();
    assert_eq!(customers.len(), expected.len(), "one item per customer");
    assert_eq!(ids, expected);
    for ((pk, _), item) in &customers {
        let customer = item["id"].as_s().expect("an id");
        assert_eq!(pk, &format!("CUSTOMER#{customer}"));
        let tickets = tally.tickets.get(customer).copied().unwrap_or(0);
        assert_eq!(
            item.get("tickets"),
            Some(&N(tickets.to_string())),
            "{customer}: every ticket added, once"
        );
    }
    // Step 3's check: the audit of the new layout finds nothing to move.
    let audit = db.audit().entity::<Customer>().send().await.expect("audit");
    assert!(audit.is_clean(), "{audit}");
}
