//! Batch writes and reads: many items, chunked to DynamoDB's limits, sent in parallel,
//! retried, and every failure reported item by item.
//!
//! ```no_run
//! # use dynamap::{Entity, Table};
//! # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
//! # #[derive(Entity)]
//! # #[dynamap(table = App, entity = "Timeline", pk = "USER#{follower}", sk = "TL#{at}#{stream}")]
//! # struct Timeline { follower: u64, at: u64, stream: String }
//! # async fn example(db: dynamap::Db<App>, followers: Vec<u64>) -> dynamap::Result<()> {
//! // Seed 004's fan-out: one timeline item per follower, however many there are.
//! let entries = followers.into_iter().map(|follower| Timeline {
//!     follower,
//!     at: 1_700_000_000,
//!     stream: "st-42".to_owned(),
//! });
//! let report = db.put_all(entries).await?;
//! for failed in &report.failed {
//!     eprintln!("not stored: {failed}");
//! }
//! # Ok(()) }
//! ```
//!
//! # Writes
//!
//! [`Db::batch_write`](crate::Db::batch_write) (or the shortcut [`Db::put_all`](crate::Db::put_all))
//! takes puts of any entities, mixed types included, and deletes by [`Key`](crate::Key). Input
//! can be an iterator of any length: items are converted to DynamoDB attributes only when
//! their chunk is about to be sent, so a 220,000-item fan-out holds no more than
//! `concurrency × 25` converted items at a time (plus a 16-byte fingerprint per key, see
//! below).
//!
//! Each item is checked before anything is sent: its key must render and the item must fit
//! DynamoDB's 400 KB limit. An item that fails is reported in [`BatchWriteReport::failed`]
//! with its error, and the rest are still written.
//!
//! Valid items are packed 25 to a `BatchWriteItem` call (DynamoDB's limit) in input order,
//! and up to [`concurrency`](BatchWrite::concurrency) calls run at once (default
//! [`DEFAULT_CONCURRENCY`]). Calls finish in any order, so items are not written in input
//! order. No task is spawned: the calls are driven by the future returned, so the batch
//! works on any runtime the SDK client works on.
//!
//! # Duplicate keys
//!
//! DynamoDB rejects a whole call that names one item twice, and two calls in flight at once
//! for one item would leave whichever DynamoDB happened to apply last. So a batch takes the
//! **first** occurrence of each key and reports every later one as failed with
//! [`Error::DuplicateKey`](crate::Error::DuplicateKey), naming the key; a put and a delete of
//! the same item count as duplicates too. To find them, the batch keeps a 128-bit
//! fingerprint of every key it has seen: with the hash set's overhead, under 10 MB for
//! 220,000 items.
//!
//! Reads are different: [`Db::batch_get`](crate::Db::batch_get) asks for a repeated key
//! once and returns the item at every position that asked for it.
//!
//! # Retries
//!
//! A call can leave some items unprocessed (DynamoDB returns them in `UnprocessedItems`,
//! usually because their partition is throttled), or fail as a whole: throttled, a server
//! error (5xx), or a transport failure. In all of these cases the items still pending are
//! sent again after a wait chosen by the [`RetryPolicy`](crate::retry::RetryPolicy): capped
//! exponential backoff with full jitter. Retrying writes is safe because puts and deletes
//! are idempotent.
//!
//! The backoff grows with each call in a row that made no progress and drops back to the
//! base once a call gets something done. The items still pending after
//! [`max_attempts`](crate::retry::RetryPolicy::max_attempts) calls in a row without
//! progress are given up and reported: with the last error, or with
//! [`Error::Unprocessed`](crate::Error::Unprocessed) if DynamoDB kept returning them
//! unprocessed. Any other error (a validation error, a missing table) is not retried and is
//! reported for every item of the call.
//!
//! These retries come on top of the SDK's own retries of single calls.
//!
//! # Nothing is dropped
//!
//! Every input item ends up either written (counted in [`BatchWriteReport::written`]) or in
//! [`BatchWriteReport::failed`] with its entity type, its key and why:
//! `written + failed.len()` always equals the number of items given.
//!
//! # Observability
//!
//! Each call runs in a `tracing` span named `dynamodb` (fields `operation`, `table`,
//! `entity`, the latter `"mixed"` for a call with several entity types); a debug event in it
//! records how many items the call held and how many came back unprocessed. With
//! [`BatchWrite::track_capacity`] (or [`BatchGet::track_capacity`]) it also records the
//! capacity units the call consumed, and the report sums them.

mod call;
mod chunk;
mod driver;
mod get;
mod get_call;
mod get_exec;
mod get_report;
mod pending;
mod raw;
mod write;
mod write_exec;
mod write_report;

pub use crate::key::ItemKey;
pub use get::BatchGet;
pub use get_report::{BatchGetReport, FailedGet};
pub(crate) use raw::{RawWrite, write_raw};
pub use write::BatchWrite;
pub use write_report::{BatchWriteReport, FailedWrite, Progress, WriteAction};

/// The most keys one `BatchGetItem` call may hold.
pub const MAX_GET_CHUNK: usize = 100;

/// The most writes one `BatchWriteItem` call may hold.
pub const MAX_WRITE_CHUNK: usize = 25;

/// How many calls a batch runs at once unless told otherwise.
///
/// Measured against DynamoDB Local on a 2-core machine (20,000 timeline items), throughput
/// climbed from about 1,700 items/s with one call in flight to 4,500–6,000 items/s with
/// 8, and stayed flat up to 32. Against DynamoDB itself each call mostly waits on the
/// network, so more calls in flight pay off: 16 calls of 25 items at 20 ms each is 20,000
/// items/s, the rate seed 004's fan-out needed. At most `16 × 25` converted items are held
/// at a time. Set [`BatchWrite::concurrency`] to go higher or gentler.
pub const DEFAULT_CONCURRENCY: usize = 16;
