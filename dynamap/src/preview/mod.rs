//! Request previews: the DynamoDB requests a builder would send, built by the same code
//! its `send` uses, without sending them.
//!
//! Every request builder has a `preview` method that answers a [`Preview`]: its requests
//! as the SDK's own input types ([`Request`]), and, through `Display`, as readable text
//! (each expression with its placeholders' names and values, values in DynamoDB JSON).
//! A preview fails with the error `send` would fail with before sending (a key that does
//! not render, an invalid expression, a limit).
//!
//! ```no_run
//! # use dynamap::{Entity, Table};
//! # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
//! # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
//! # struct Reading { sensor_id: String, at: i64, value: f64 }
//! # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
//! let query = db.query(Reading::partition("S1")).descending().limit(10);
//! let preview = query.preview()?;
//! println!("{preview}");
//! if let [dynamap::preview::Request::Query(input)] = preview.requests() {
//!     assert_eq!(input.limit(), Some(11)); // one more than a page, to know if more follow
//! }
//! # Ok(()) }
//! ```
//!
//! A preview is every request `send` makes that no answer decides. What it leaves out:
//! `ReturnConsumedCapacity` (asked for at send time, when a tracing subscriber or metrics
//! listen), a transaction's `ClientRequestToken` when the caller gave none (a fresh one per
//! `send`), and the `ReturnValuesOnConditionCheckFailure` a single write asks for only when
//! it is resent after a lost answer. Requests an answer decides are not in it:
//!
//! - A query's or scan's preview is its first request; the later pages' requests differ
//!   only in their `ExclusiveStartKey` (and, for a page to fill, their `Limit`). A query
//!   over several partitions read merged starts with one request per shard of its first
//!   partition, sent together ([`fan_out`](crate::query::Query::fan_out) at a time).
//! - A write of an entity with `lookup(...)` items (and a transaction holding one) first
//!   reads, consistently, which lookup keys the stored item records: its preview is that
//!   `GetItem`. The `TransactWriteItems` that follows puts the item and its lookups and
//!   deletes the lookups it no longer holds, so its actions depend on that answer; the
//!   text says so on a last `then:` line.
//! - An ingest into rolled tables previews each table's batch calls, and an ingest into
//!   event rows the first write of each event (see
//!   [`Ingest::preview`](crate::timeseries::rolling::Ingest::preview)).
//!
//! Table administration and maintenance jobs show what they would do their own way:
//! [`CreateTable::definition`](crate::admin::CreateTable::definition) is the table's
//! `CreateTable` request (as JSON through `create_table_json`), and a maintenance job's
//! [`dry_run`](crate::maintain::Maintain::dry_run) reads and reports without writing.

mod text;

use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemInput;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsInput;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;

/// The requests a builder would send, in the order it would send them; see the
/// [module docs](self). `Display` writes them as readable text.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    requests: Vec<Request>,
    /// What `send` does next, decided by these requests' answers.
    then: Option<&'static str>,
}

impl Preview {
    pub(crate) fn new(requests: Vec<Request>) -> Self {
        Self {
            requests,
            then: None,
        }
    }

    /// The reads a write of an entity with lookup items makes before its transaction.
    pub(crate) fn lookup_reads(reads: Vec<Request>) -> Self {
        Self {
            requests: reads,
            then: Some(
                "TransactWriteItems of the write, its lookups' puts and the deletes of the lookups the stored item records but the write no longer holds, decided by the answer",
            ),
        }
    }

    pub(crate) fn one(request: Request) -> Self {
        Self::new(vec![request])
    }

    /// The requests, as the SDK's input types: one for most builders, none for a
    /// transaction or batch with nothing in it, one per call of a batch (25 writes or 100
    /// keys a call), one per shard of a query over several partitions read merged (of its
    /// first partition), and the reads of a write with lookup items (see the
    /// [module docs](self)).
    pub fn requests(&self) -> &[Request] {
        &self.requests
    }

    /// The requests, owned.
    pub fn into_requests(self) -> Vec<Request> {
        self.requests
    }
}

/// One DynamoDB request, as the SDK's input type of its operation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Request {
    /// A `GetItem` ([`Db::get`](crate::Db::get)).
    GetItem(GetItemInput),
    /// A `PutItem` ([`Db::put`](crate::Db::put), `create`, `replace`).
    PutItem(PutItemInput),
    /// An `UpdateItem` ([`Db::update`](crate::Db::update), [`Db::upsert`](crate::Db::upsert)).
    UpdateItem(UpdateItemInput),
    /// A `DeleteItem` ([`Db::delete`](crate::Db::delete)).
    DeleteItem(DeleteItemInput),
    /// A `Query` ([`Db::query`](crate::Db::query)).
    Query(QueryInput),
    /// A `Scan` ([`Db::scan`](crate::Db::scan)).
    Scan(ScanInput),
    /// A `BatchWriteItem` (one call of [`Db::batch_write`](crate::Db::batch_write)).
    BatchWriteItem(BatchWriteItemInput),
    /// A `BatchGetItem` (one call of [`Db::batch_get`](crate::Db::batch_get)).
    BatchGetItem(BatchGetItemInput),
    /// A `TransactWriteItems` ([`Db::transaction`](crate::Db::transaction)).
    TransactWriteItems(TransactWriteItemsInput),
    /// A `TransactGetItems` ([`Db::transact_get`](crate::Db::transact_get)).
    TransactGetItems(TransactGetItemsInput),
}

impl Request {
    /// The operation's name, as DynamoDB spells it (`"Query"`, `"BatchWriteItem"`).
    pub fn operation(&self) -> &'static str {
        match self {
            Request::GetItem(_) => "GetItem",
            Request::PutItem(_) => "PutItem",
            Request::UpdateItem(_) => "UpdateItem",
            Request::DeleteItem(_) => "DeleteItem",
            Request::Query(_) => "Query",
            Request::Scan(_) => "Scan",
            Request::BatchWriteItem(_) => "BatchWriteItem",
            Request::BatchGetItem(_) => "BatchGetItem",
            Request::TransactWriteItems(_) => "TransactWriteItems",
            Request::TransactGetItems(_) => "TransactGetItems",
        }
    }
}

/// The input of a fluent builder, as [`Error::RequestBuild`](crate::Error::RequestBuild)
/// when the SDK refuses it (it checks only that required fields are set).
macro_rules! input_of {
    ($builder:expr, $operation:literal) => {
        $builder
            .as_input()
            .clone()
            .build()
            .map_err(|err| $crate::Error::RequestBuild {
                operation: $operation,
                message: err.to_string(),
            })
    };
}
pub(crate) use input_of;
