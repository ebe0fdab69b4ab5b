//! A primary-key move while the application keeps writing: customers move from
//! `CUST#{id}` to `CUSTOMER#{id}`. This is the application code of the migrations guide's
//! procedure ("Moving primary keys under live traffic"), shared by the `live_rekey` example
//! and the test that runs it with live writers (`tests/it/maintenance/live_rekey.rs`).
//!
//! During the move the application reads both layouts, the old one first, and changes an
//! item where it found it, on condition of its version; it creates items at the new key.
//! The job moves the rest. An item moves only from the old key to the new, never back, so:
//!
//! - a read that misses the old key and then reads the new one never misses an item the
//!   job moved in between (read the other way round, it could: the new key read before the
//!   move, the old one after);
//! - a change that loses a race to the job's move (the item gone from the old key) reads
//!   again, and finds the item at the new key; a move that loses a race to the
//!   application's change (its version raised) is redone by the job from a fresh read.

use std::collections::BTreeMap;
use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dynamap::maintain::Maintain;
use dynamap::{Db, Entity};

use crate::tables::HelpDesk;

/// A customer as the code before the move stores it. Kept, during the move, to read and
/// change the items still at their old keys; deleted from the code at its end.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = HelpDesk, entity = "Customer", pk = "CUST#{id}", sk = "CUSTOMER")]
pub struct OldCustomer {
    /// The customer's id.
    pub id: String,
    /// The customer's name.
    pub name: String,
    /// Tickets the customer opened.
    pub tickets: u64,
    /// Raised by every write (optimistic locking; the job's moves raise it too).
    #[dynamap(version)]
    pub version: u64,
}

/// A customer as the code stores it after the move: the same attributes at a new key.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = HelpDesk, entity = "Customer", pk = "CUSTOMER#{id}", sk = "CUSTOMER")]
pub struct Customer {
    /// The customer's id.
    pub id: String,
    /// The customer's name.
    pub name: String,
    /// Tickets the customer opened.
    pub tickets: u64,
    /// Raised by every write (optimistic locking; the job's moves raise it too).
    #[dynamap(version)]
    pub version: u64,
}

impl From<OldCustomer> for Customer {
    fn from(old: OldCustomer) -> Self {
        Customer {
            id: old.id,
            name: old.name,
            tickets: old.tickets,
            version: old.version,
        }
    }
}

/// Reads a customer from either layout: the old key first (see the module's notes), with
/// consistent reads, so that a customer the job has just moved is found at its new key.
pub async fn read(db: &Db<HelpDesk>, id: &str) -> dynamap::Result<Option<Customer>> {
    if let Some(old) = db.get(OldCustomer::key(id)).consistent().await? {
        return Ok(Some(old.into()));
    }
    db.get(Customer::key(id)).consistent().await
}

/// Records a new ticket of a customer, where the customer is stored: a read-modify-write on
/// condition of its version (`Db::modify`), at the old key first. A customer the job moved
/// meanwhile is gone from the old key (`modify` finds no item there) and is changed at the
/// new one. Returns the customer's ticket count, or `None` for no such customer.
pub async fn add_ticket(db: &Db<HelpDesk>, id: &str) -> dynamap::Result<Option<u64>> {
    if let Some(old) = db.modify(OldCustomer::key(id), |c| c.tickets += 1).await? {
        return Ok(Some(old.tickets));
    }
    let new = db.modify(Customer::key(id), |c| c.tickets += 1).await?;
    Ok(new.map(|c| c.tickets))
}

/// Creates a customer, at the new key (ids are new: no old item holds one).
pub async fn create(db: &Db<HelpDesk>, id: &str, name: &str) -> dynamap::Result<()> {
    let customer = Customer {
        id: id.to_owned(),
        name: name.to_owned(),
        tickets: 0,
        version: 0,
    };
    db.create(&customer).await
}

/// The job that moves every customer still at its old key.
pub fn job(db: &Db<HelpDesk>) -> Maintain<Customer> {
    db.maintain::<Customer>("customers-new-key")
        .rekey()
        .segments(4)
}

/// What the writers did: the tickets each customer got, and the customers they created.
#[derive(Debug, Default)]
pub struct Tally {
    /// Tickets added, by customer id (only acknowledged writes count).
    pub tickets: BTreeMap<String, u64>,
    /// Ids of the customers created.
    pub created: Vec<String>,
    /// Reads that found a customer known to exist.
    pub reads: u64,
}

/// An error of the writers: the table's, or a customer known to exist read as missing
/// (what the procedure must never let happen).
pub type WriterError = Box<dyn Error + Send + Sync>;

/// `writers` tasks adding tickets to the customers `0..customers` (as `id(i)` names them),
/// creating a customer every tenth round and reading one back, until `stop` is set. Every
/// write goes through the application code above.
pub async fn run_writers(
    db: &Db<HelpDesk>,
    writers: usize,
    customers: usize,
    stop: Arc<AtomicBool>,
) -> Result<Tally, WriterError> {
    let tasks: Vec<_> = (0..writers)
        .map(|writer| {
            let (db, stop) = (db.clone(), Arc::clone(&stop));
            tokio::spawn(async move {
                let mut tally = Tally::default();
                let mut round = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    // Spread over the customers, each writer on its own stride.
                    let i = (round * 7919 + writer * 104_729) % customers;
                    let customer = id(i);
                    let count = add_ticket(&db, &customer).await?;
                    if count.is_none() {
                        return Err(missing(&customer));
                    }
                    *tally.tickets.entry(customer.clone()).or_default() += 1;
                    if round.is_multiple_of(10) {
                        let new = format!("w{writer}-{round}");
                        create(&db, &new, "new customer").await?;
                        tally.created.push(new);
                    }
                    if read(&db, &customer).await?.is_none() {
                        return Err(missing(&customer));
                    }
                    tally.reads += 1;
                    round += 1;
                }
                Ok::<_, WriterError>(tally)
            })
        })
        .collect();
    let mut total = Tally::default();
    for task in tasks {
        let tally = task.await.expect("a writer task does not panic")?;
        for (customer, n) in tally.tickets {
            *total.tickets.entry(customer).or_default() += n;
        }
        total.created.extend(tally.created);
        total.reads += tally.reads;
    }
    Ok(total)
}

/// The id of seeded customer `i`.
pub fn id(i: usize) -> String {
    format!("c{i:05}")
}

/// Writes `customers` customers the way the code before the move did (16 at a time: a
/// batch write cannot guard a version).
pub async fn seed(db: &Db<HelpDesk>, customers: usize) -> Result<(), WriterError> {
    use futures_util::stream::{self, StreamExt, TryStreamExt};
    stream::iter(0..customers)
        .map(|i| {
            let customer = OldCustomer {
                id: id(i),
                name: format!("customer {i}"),
                tickets: 0,
                version: 0,
            };
            async move { db.create(&customer).await }
        })
        .buffer_unordered(16)
        .try_collect::<()>()
        .await?;
    Ok(())
}

fn missing(id: &str) -> WriterError {
    format!("customer {id} exists but was read as missing").into()
}
