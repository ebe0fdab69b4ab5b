//! [`Error`]: one variant per thing that can go wrong, each with the typed fields a caller
//! branches on. Messages too long for an attribute are made in `messages.rs`.

use super::details::at;
use super::{
    ActionFailure, CursorProblem, ExpressionPart, IncompleteKey, ServiceError, StreamRecordProblem,
    describe, messages,
};
use crate::key::{ItemKey, KeyError};

/// Everything that can go wrong in a dynamap operation.
///
/// Errors found before anything is sent (bad keys, oversized items) name the entity and the
/// attribute involved. Errors that DynamoDB returns keep their error code, so they can be
/// matched without looking at message text:
///
/// ```
/// # fn check(err: dynamap::Error) {
/// if err.is_conditional_check_failed() {
///     // the item already existed (create) or did not exist (replace)
/// } else if err.is_throttled() {
///     // back off and try again
/// }
/// # }
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key could not be rendered or parsed: an empty or malformed part, or a key over
    /// DynamoDB's size limit.
    #[error(transparent)]
    Key(#[from] KeyError),

    /// The item is larger than DynamoDB's 400 KB (409,600 bytes) item limit.
    #[error("item of entity `{entity}` is {size} bytes, over DynamoDB's limit of {limit} bytes")]
    #[non_exhaustive]
    ItemTooLarge {
        /// The entity the item belongs to.
        entity: &'static str,
        /// The item's size as DynamoDB counts it.
        size: usize,
        /// The limit (409,600 bytes).
        limit: usize,
    },

    /// A field's value could not be turned into a DynamoDB attribute.
    #[error("cannot encode attribute `{attribute}` of entity `{entity}`")]
    #[non_exhaustive]
    Encode {
        /// The entity being written.
        entity: &'static str,
        /// The attribute name in the item.
        attribute: &'static str,
        /// What the conversion reported.
        source: crate::codec::AttributeError,
    },

    /// A stored item lacks an attribute its entity requires.
    #[error("item{} of entity `{entity}` has no attribute `{attribute}`", at(item))]
    #[non_exhaustive]
    MissingAttribute {
        /// The entity being read.
        entity: &'static str,
        /// The missing attribute.
        attribute: &'static str,
        /// The item's primary key, when read from a table.
        item: Option<Box<ItemKey>>,
    },

    /// A stored attribute holds a value of the wrong type or shape for its field.
    #[error(
        "attribute `{attribute}` of entity `{entity}`{} cannot be decoded",
        at(item)
    )]
    #[non_exhaustive]
    InvalidAttribute {
        /// The entity being read.
        entity: &'static str,
        /// The attribute that failed to decode.
        attribute: &'static str,
        /// What the conversion reported.
        source: crate::codec::AttributeError,
        /// The item's primary key, when read from a table.
        item: Option<Box<ItemKey>>,
    },

    /// A `#[dynamap(compress)]` field could not be compressed, or its stored value could
    /// not be read back: truncated, corrupted, written by an unknown codec or for another
    /// type. `source` says which.
    #[error(
        "compressed attribute `{attribute}` of entity `{entity}`{} cannot be stored or read",
        at(item)
    )]
    #[non_exhaustive]
    Compressed {
        /// The entity being written or read.
        entity: &'static str,
        /// The compressed attribute.
        attribute: &'static str,
        /// What went wrong.
        source: crate::codec::CodecError,
        /// The item's primary key, when read from a table.
        item: Option<Box<ItemKey>>,
    },

    /// A `#[dynamap(compress)]` field compressed to more bytes than its budget allows.
    /// Nothing was written.
    #[error("{}", messages::compressed_too_large(entity, attribute, *size, *budget))]
    #[non_exhaustive]
    CompressedTooLarge {
        /// The entity being written.
        entity: &'static str,
        /// The compressed attribute.
        attribute: &'static str,
        /// The compressed size, header included.
        size: usize,
        /// The field's budget (`budget = ...`, 32 KB by default).
        budget: usize,
    },

    /// A stored item belongs to another entity type than the one asked for.
    #[error(
        "item{} has entity type {found:?} in attribute `{attribute}`, expected `{expected}`",
        at(item)
    )]
    #[non_exhaustive]
    WrongEntityType {
        /// The entity type asked for.
        expected: &'static str,
        /// The entity-type attribute's name.
        attribute: &'static str,
        /// What the item holds there (`None` when the attribute is missing or not a string).
        found: Option<String>,
        /// The item's primary key, when read from a table.
        item: Option<Box<ItemKey>>,
    },

    /// A conditional write found the item in the wrong state: `create` found an item already
    /// there, `replace` or a conditional delete found none.
    #[error("conditional check failed: {operation} of entity `{entity}`")]
    #[non_exhaustive]
    ConditionalCheckFailed {
        /// The entity written.
        entity: &'static str,
        /// The operation (`create`, `replace`, `delete`).
        operation: &'static str,
    },

    /// A versioned write found another version stored than the one the value was read with:
    /// someone else wrote the item in between. Read it again and retry.
    #[error("version conflict on entity `{entity}`: expected stored version {expected}")]
    #[non_exhaustive]
    VersionConflict {
        /// The entity written.
        entity: &'static str,
        /// The version the write expected to replace (0: expected no item).
        expected: u64,
    },

    /// A lookup item (such as a uniqueness guard) already belongs to another item.
    #[error("lookup `{lookup}` of entity `{entity}` already belongs to another item")]
    #[non_exhaustive]
    LookupTaken {
        /// The entity written.
        entity: &'static str,
        /// The lookup's name.
        lookup: &'static str,
    },

    /// A write kept losing the race to concurrent writers of the same item and gave up.
    #[error("gave up writing entity `{entity}` after {rounds} rounds of concurrent changes")]
    #[non_exhaustive]
    Contention {
        /// The entity written.
        entity: &'static str,
        /// How many times it started over.
        rounds: u32,
    },

    /// A write's answer was lost (a timeout, a dropped connection, a server error) and
    /// what was sent again could not tell whether the first request was applied: it may
    /// have been, once. Never the answer of a write's own earlier attempt: a `create`
    /// whose first attempt was applied does not fail its condition on the resend.
    ///
    /// A transaction is sent again with the same `ClientRequestToken` (DynamoDB answers as
    /// it did the first time), so this is returned only when every resend's answer was lost
    /// too. A single-item write is sent again as a new request; when its condition then
    /// fails, the item stored is compared with what a put wrote, and anything else is this
    /// error. An update that adds to a number or appends to a list is not sent again at all.
    /// Read the item to learn the outcome; retrying the write as it is could apply it twice
    /// or fail on its own write, so [`is_retryable`](Error::is_retryable) is `false`. Its
    /// [`kind`](Error::kind) is [`ErrorKind::Transport`](crate::ErrorKind::Transport).
    #[error("{}", messages::outcome_unknown(entity, operation, *attempts))]
    #[non_exhaustive]
    OutcomeUnknown {
        /// The entity written (the first action's, for a transaction).
        entity: &'static str,
        /// The write: `create`, `put`, `replace`, `update`, `upsert`, `delete`, or
        /// `transaction`.
        operation: &'static str,
        /// How many requests were sent.
        attempts: u32,
        /// The failure that lost an answer.
        #[source]
        source: Box<Error>,
    },

    /// A transaction has more actions than DynamoDB's 100.
    #[error("transaction has {actions} actions, over DynamoDB's limit of {limit}")]
    #[non_exhaustive]
    TooManyActions {
        /// Actions in the transaction.
        actions: usize,
        /// The limit (100).
        limit: usize,
    },

    /// A transaction's payload (items, keys, update and condition values, expressions) adds
    /// up to more than DynamoDB's 4 MB.
    #[error("{}", messages::transaction_too_large(*size, *limit))]
    #[non_exhaustive]
    TransactionTooLarge {
        /// The total size of the transaction's payload.
        size: usize,
        /// The limit (4,194,304 bytes).
        limit: usize,
    },

    /// Two actions of one transaction address the same item, which DynamoDB rejects.
    #[error("{}", messages::duplicate_item(first_entity, entity, *first, *second))]
    #[non_exhaustive]
    DuplicateTransactionItem {
        /// The entity of the first action.
        first_entity: &'static str,
        /// The entity of the second action.
        entity: &'static str,
        /// The index of the first action on the item.
        first: usize,
        /// The index of the second one.
        second: usize,
    },

    /// DynamoDB canceled a transaction; `reasons` says which actions failed and why.
    #[error("transaction canceled: {}", describe(reasons))]
    #[non_exhaustive]
    TransactionCanceled {
        /// One entry per action that failed, in request order.
        reasons: Vec<ActionFailure>,
    },

    /// A condition or filter could not be built: a value that does not encode, or an `in`
    /// with no values or more than DynamoDB's 100; or a query filter names a key attribute
    /// of the table or index the query reads (a key condition's job). Found before sending.
    #[error("invalid expression: {reason}")]
    #[non_exhaustive]
    InvalidExpression {
        /// Which part of the request: a condition, a filter or an update.
        part: ExpressionPart,
        /// What is wrong, naming the attribute.
        reason: String,
    },

    /// A query, scan or table option names an index the table's layout does not declare.
    /// Found before sending.
    #[error("table `{table}` has no index `{index}`")]
    #[non_exhaustive]
    UnknownIndex {
        /// The table's layout: the name of the type deriving `Table`.
        table: &'static str,
        /// The index name given.
        index: String,
    },

    /// A builder or configuration value is out of range, such as a query limit or an event
    /// row cap of 0, a month outside 1 to 12, or a scan with no segments. Found before
    /// sending.
    #[error("invalid setting `{setting}`: {reason}")]
    #[non_exhaustive]
    InvalidSetting {
        /// The builder method or option, such as `limit`, `cap`, `segments` or `month`.
        setting: &'static str,
        /// What is wrong with the value, and what is allowed.
        reason: String,
    },

    /// A request asks for something dynamap or DynamoDB does not offer, such as a
    /// consistent read on a global secondary index, an update of a primary-key field, or
    /// an entity with a version field in a batch write. Found before sending.
    #[error("unsupported {operation} request: {reason}")]
    #[non_exhaustive]
    Unsupported {
        /// The operation asked for, such as `Query`, `UpdateItem`, `BatchWriteItem` or
        /// `EventRows`.
        operation: &'static str,
        /// What it cannot do, and what to do instead.
        reason: String,
    },

    /// The AWS SDK refused to build a request from the parts dynamap gave it (its
    /// `BuildError`). Nothing was sent.
    #[error("cannot build a {operation} request: {message}")]
    #[non_exhaustive]
    RequestBuild {
        /// The request being built, such as `BatchWriteItem` or `TransactWriteItems`.
        operation: &'static str,
        /// What the SDK reported.
        message: String,
    },

    /// The system clock, or a time given in milliseconds since the Unix epoch, is outside
    /// the times dynamap can work with (before 1970, or too far in the future).
    #[error("time out of range: {reason}")]
    #[non_exhaustive]
    Clock {
        /// The time given, in milliseconds since the Unix epoch; `None` when the system
        /// clock is out of range.
        millis: Option<i64>,
        /// Which time, and its range.
        reason: String,
    },

    /// A stream record cannot be read as a change: an unknown event name, or no item image
    /// to tell the entity type by.
    #[error("invalid stream record: {}", messages::stream_record(*problem, event_name))]
    #[non_exhaustive]
    InvalidStreamRecord {
        /// What is wrong with the record.
        problem: StreamRecordProblem,
        /// The record's event name (empty when it has none).
        event_name: String,
    },

    /// A file of a DynamoDB export cannot be read: a missing or malformed manifest, a data
    /// file that is missing or not gzip, or a line that is not a record (feature `exports`).
    #[error("export file {file}{}: {reason}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    #[non_exhaustive]
    InvalidExport {
        /// The file.
        file: String,
        /// The line, counting from 1, when one line is at fault.
        line: Option<u64>,
        /// What is wrong, or what failed (the cause is the `source`).
        reason: String,
        /// The I/O or JSON error behind it, when there is one (`source()` returns it too;
        /// downcast it to `std::io::Error` to tell a missing file from a damaged one).
        #[source]
        source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
    },

    /// A Parquet file could not be written, or an item's stored value does not fit its
    /// column (the `dynamap-parquet` crate): names the file and, for an item, its key and
    /// attribute.
    #[error("parquet file {file}: {reason}")]
    #[non_exhaustive]
    Parquet {
        /// The file (or folder).
        file: String,
        /// What is wrong, or what failed (the cause is the `source`).
        reason: String,
        /// The I/O or Parquet error behind it, when there is one (`source()` returns it
        /// too).
        #[source]
        source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
    },

    /// A page cursor was edited, made for another query (table, index or partition), or
    /// signed with another key.
    #[error("invalid cursor: {reason}")]
    #[non_exhaustive]
    InvalidCursor {
        /// Which check failed.
        problem: CursorProblem,
        /// What is wrong, in words (for another query: which part of it differs).
        reason: &'static str,
    },

    /// An update sets some of the fields a key is rendered from but not all, so the key
    /// cannot be rendered without reading the item. Found before sending, for every key at
    /// once: set the missing fields in the same update, or write the whole entity.
    #[error("{}", messages::incomplete_key_update(entity, keys, missing))]
    #[non_exhaustive]
    IncompleteKeyUpdate {
        /// The entity updated.
        entity: &'static str,
        /// The first key left half-set: ``index `GSI1`'s sort key``, ``lookup `email`'s
        /// key``; [`keys`](Error::IncompleteKeyUpdate::keys) lists them all.
        key: String,
        /// The first key's template.
        template: &'static str,
        /// Every field the update leaves out, of every key it leaves half-set, each once:
        /// what to add to the update.
        missing: Vec<&'static str>,
        /// Every key the update leaves half-set, with its template and missing fields.
        keys: Vec<IncompleteKey>,
    },

    /// An update reached inside a map or list the stored item does not have (an item stored
    /// before the field existed): DynamoDB cannot set `a.b` without `a`. Nothing was
    /// written. Create the parent first with `set_if_not_exists` and an empty value (safe
    /// under concurrency: it never replaces one that exists), then update inside it; or
    /// backfill the field with a maintenance job.
    #[error("{}", messages::missing_parent(entity, paths, parents))]
    #[non_exhaustive]
    MissingParent {
        /// The entity updated.
        entity: &'static str,
        /// The paths the update reaches inside another attribute (`counts.alarm`).
        paths: Vec<String>,
        /// What holds them (`counts`): one of these is missing from the item.
        parents: Vec<String>,
    },

    /// A mixed query met an item whose entity type is none of the enum's, and the query's
    /// policy is [`UnknownEntity::Error`](crate::decode::UnknownEntity::Error).
    #[error("{}", messages::unknown_entity_type(target, attribute, found))]
    #[non_exhaustive]
    UnknownEntityType {
        /// The enum decoding the item.
        target: &'static str,
        /// The entity-type attribute's name.
        attribute: &'static str,
        /// What the item holds there.
        found: Option<String>,
    },

    /// A stored item has a newer schema version than this build of the entity knows: it was
    /// written by newer code (a deploy rolled back while the new version ran). It is not
    /// decoded, so no field the newer code added is silently dropped by a later write.
    #[error("{}", messages::newer_schema(entity, pk, sk, *found, *known))]
    #[non_exhaustive]
    NewerSchemaVersion {
        /// The entity.
        entity: &'static str,
        /// The item's partition key value, as text.
        pk: String,
        /// The item's sort key value, as text, when the table has one.
        sk: Option<String>,
        /// The version stored in the item.
        found: u32,
        /// The entity's current version (`#[dynamap(schema_version = N)]`).
        known: u32,
    },

    /// A partial update met an item stored in an older shape of the entity: it would mix
    /// the shapes, so it was not applied. Read the item (which upgrades it) and write it
    /// whole, or upgrade the entity's items with a maintenance job, then update.
    #[error("{}", messages::older_schema(entity, pk, sk, *found, *current))]
    #[non_exhaustive]
    OlderSchemaVersion {
        /// The entity.
        entity: &'static str,
        /// The item's partition key value, as text.
        pk: String,
        /// The item's sort key value, as text, when the table has one.
        sk: Option<String>,
        /// The version stored in the item.
        found: u32,
        /// The entity's current version.
        current: u32,
    },

    /// A maintenance job's `adopt` function refused an item another writer stored.
    #[error("item could not be adopted as entity `{entity}`")]
    #[non_exhaustive]
    Adopt {
        /// The entity.
        entity: &'static str,
        /// Why the function refused it.
        #[source]
        source: crate::codec::AttributeError,
    },

    /// An item stored at an older schema version did not read as its declared older shape
    /// (`upgrade(from = N, via = OldShape)`).
    #[error("{}", messages::upgrade(entity, *from, item))]
    #[non_exhaustive]
    Upgrade {
        /// The entity.
        entity: &'static str,
        /// The stored schema version.
        from: u32,
        /// Why the item did not read as the older shape.
        #[source]
        source: crate::codec::AttributeError,
        /// The item's primary key, when read from a table.
        item: Option<Box<ItemKey>>,
    },

    /// DynamoDB answered with an error, or could not be reached. [`ServiceError`] keeps
    /// the code, message, HTTP status, request id and the SDK's own error.
    #[error(transparent)]
    Service(ServiceError),

    /// A batch names the same item more than once. DynamoDB rejects a whole call that does
    /// this, and across calls the outcome would depend on timing, so the batch writes the
    /// first occurrence and reports every later one with this error.
    #[error("key (pk {pk:?}{}) of entity `{entity}` appears more than once in one batch", sk.as_ref().map(|sk| format!(", sk {sk:?}")).unwrap_or_default())]
    #[non_exhaustive]
    DuplicateKey {
        /// The entity of the repeated occurrence.
        entity: &'static str,
        /// The partition key value.
        pk: String,
        /// The sort key value, if the table has a sort key.
        sk: Option<String>,
    },

    /// DynamoDB kept returning the item (or key) as unprocessed, usually because its
    /// partition was throttled, until the batch's retry policy gave up.
    #[error("{operation} left the item unprocessed after {attempts} attempts")]
    #[non_exhaustive]
    Unprocessed {
        /// The DynamoDB operation, such as `BatchWriteItem`.
        operation: &'static str,
        /// How many calls included the item.
        attempts: u32,
    },

    /// A table name, or a prefix for generated table names, breaks DynamoDB's rules: 3 to
    /// 255 characters, each one of `a-z`, `A-Z`, `0-9`, `_`, `-` and `.`. Found before sending.
    #[error("invalid table name {name:?}: {reason}")]
    #[non_exhaustive]
    InvalidTableName {
        /// The name or prefix.
        name: String,
        /// Which rule it breaks, with the limit.
        reason: String,
    },

    /// An entity cannot be stored as multi-event rows (see
    /// [`timeseries::rows`](crate::timeseries::rows)): it has a version field, lookup items or
    /// index templates, or stores an attribute the rows use themselves.
    #[error("entity `{entity}` cannot be stored in event rows: {reason}")]
    #[non_exhaustive]
    EventRowUnsupported {
        /// The entity.
        entity: &'static str,
        /// Why not.
        reason: String,
    },

    /// A stored multi-event row does not have the layout event rows write.
    #[error("event row (pk {pk:?}, sk {sk:?}) of entity `{entity}` is malformed: {reason}")]
    #[non_exhaustive]
    MalformedEventRow {
        /// The entity read.
        entity: &'static str,
        /// The row's partition key value.
        pk: String,
        /// The row's sort key value.
        sk: String,
        /// What is wrong.
        reason: String,
    },

    /// A batch write left items unwritten: a [`BatchWriteReport`](crate::batch::BatchWriteReport)
    /// turned into an error by `?` (`report.into_result()?`). It keeps the counts and the
    /// failure that decides what to do (the first that retrying cannot cure, else the
    /// first), whose kind and retryability it answers with; the report itself names every
    /// failed item, for a caller that handles them one by one.
    #[error("batch write left {failed} of {} items unwritten", written + failed)]
    #[non_exhaustive]
    BatchWrite {
        /// Items written.
        written: usize,
        /// Items not written.
        failed: usize,
        /// The deciding failure's error.
        #[source]
        first: Box<Error>,
    },

    /// Every row a timestamp may have (its first row and all its overflow rows) is full.
    #[error("all {rows} event rows of entity `{entity}` at sort key {sk:?} are full")]
    #[non_exhaustive]
    EventRowsFull {
        /// The entity written.
        entity: &'static str,
        /// The sort key of the timestamp's first row.
        sk: String,
        /// How many rows a timestamp may have.
        rows: u32,
    },
}
