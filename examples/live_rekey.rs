//! A primary-key move while the application keeps writing: the migrations guide's procedure
//! ("Moving primary keys under live traffic"), run. Customers move from `CUST#{id}` to
//! `CUSTOMER#{id}`: writer tasks running the application code of the move
//! (`support/live_rekey.rs`: read both layouts, the old first; change an item where it is;
//! create at the new key) keep adding tickets, creating customers and reading them back
//! while the job moves every customer; then every customer is read back and checked.
//!
//! ```text
//! cargo run --example live_rekey -- --customers 2000 --writers 16
//! ```
//!
//! The test suite runs the same application code with live writers
//! (`tests/it/maintenance/live_rekey.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dynamap::maintain::Report;
use example_support::example_db;
use example_support::live_rekey::{Customer, WriterError, id, job, read, run_writers, seed};
use example_support::tables::HelpDesk;

const USAGE: &str = "\
Move customers to a new primary key while writers keep writing.

Usage: live_rekey [--customers N] [--writers W]

Options:
  --customers N   customers written at their old keys first (default 1000)
  --writers W     tasks writing through the application code during the move (default 8)
  -h, --help      print this help";

#[tokio::main]
async fn main() -> Result<(), WriterError> {
    use lexopt::prelude::*;
    let (mut customers, mut writers) = (1000_usize, 8_usize);
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("customers") => customers = parser.value()?.parse()?,
            Long("writers") => writers = parser.value()?.parse()?,
            Short('h') | Long("help") => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => {
                return Err(
                    format!("{} (live_rekey --help lists the options)", arg.unexpected()).into(),
                );
            }
        }
    }
    // A table of its own each run: a move is done once.
    let started = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?;
    let db = example_db::<HelpDesk>(&format!("customers-{}", started.as_secs())).await?;
    seed(&db, customers).await?;
    println!("seeded {customers} customers at their old keys (CUST#<id>)");

    // Step 1 is deployed: the writers read both layouts. Step 2: the job, under their writes.
    let stop = Arc::new(AtomicBool::new(false));
    let moved = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let report = job(&db).send().await;
        stop.store(true, Ordering::Relaxed);
        report
    };
    let (report, tally) = tokio::join!(
        moved,
        run_writers(&db, writers, customers, Arc::clone(&stop))
    );
    let (report, tally): (Report, _) = (report?, tally?);
    let added: u64 = tally.tickets.values().sum();
    println!(
        "moved {} customers ({} moves redone after losing a race, {} failed) while {writers} \
         writers added {added} tickets and created {} customers",
        report.moved,
        report.conflicts_redone,
        report.failed_count,
        tally.created.len()
    );

    // Step 3's check before the old layout leaves the code: nothing left to move, and
    // every customer (read by the code after the move) holds every ticket added.
    let audit = db.audit().entity::<Customer>().send().await?;
    let mut kept = 0;
    for customer in (0..customers).map(id).chain(tally.created.iter().cloned()) {
        let stored = db.get(Customer::key(&customer)).consistent().await?;
        let added = tally.tickets.get(&customer).copied().unwrap_or(0);
        if stored.is_some_and(|c| c.tickets == added) {
            kept += 1;
        }
    }
    let total = customers + tally.created.len();
    println!(
        "at their new keys with every ticket: {kept} of {total}; audit: {}",
        audit.to_string().lines().next().unwrap_or_default()
    );
    // And the application's reads still find them (the old layout first, then the new).
    if read(&db, &id(0)).await?.is_none() || kept != total || !audit.is_clean() {
        return Err("the move lost or doubled something".into());
    }
    Ok(())
}
