//! Message text of variants whose message is made from their typed fields.

use super::details::{at, list};
use super::{IncompleteKey, StreamRecordProblem, incomplete};
use crate::key::ItemKey;

/// [`Error::IncompleteKeyUpdate`](super::Error::IncompleteKeyUpdate): every key left
/// half-set, and every field to add.
pub(super) fn incomplete_key_update(
    entity: &str,
    keys: &[IncompleteKey],
    missing: &[&'static str],
) -> String {
    format!(
        "an update of `{entity}` changes {} but does not set {}; set every field of each template in the same update, or put the whole entity",
        incomplete::describe(keys),
        incomplete::fields(missing)
    )
}

/// [`Error::MissingParent`](super::Error::MissingParent), with the way out.
pub(super) fn missing_parent(entity: &str, paths: &[String], parents: &[String]) -> String {
    format!(
        "an update of `{entity}` changes {} inside an attribute the item does not have (stored before the field existed?); nothing was written: create {} first (`db.update(key).set_if_not_exists(field, empty value)`, safe under concurrency), then update inside it, or backfill the field with a maintenance job",
        list(paths),
        list(parents)
    )
}

/// [`Error::OutcomeUnknown`](super::Error::OutcomeUnknown).
pub(super) fn outcome_unknown(entity: &str, operation: &str, attempts: u32) -> String {
    format!(
        "outcome of {operation} of entity `{entity}` is unknown: its answer was lost and {attempts} attempts did not tell whether it was applied"
    )
}

/// [`Error::NewerSchemaVersion`](super::Error::NewerSchemaVersion).
pub(super) fn newer_schema(
    entity: &str,
    pk: &str,
    sk: &Option<String>,
    found: u32,
    known: u32,
) -> String {
    format!(
        "item (pk {pk:?}, sk {sk:?}) of entity `{entity}` has schema version {found}, newer than version {known} this code knows"
    )
}

/// [`Error::OlderSchemaVersion`](super::Error::OlderSchemaVersion).
pub(super) fn older_schema(
    entity: &str,
    pk: &str,
    sk: &Option<String>,
    found: u32,
    current: u32,
) -> String {
    format!(
        "item (pk {pk:?}, sk {sk:?}) of entity `{entity}` is stored at schema version {found}; an update needs version {current}: read and write it whole first"
    )
}

/// What is wrong with a stream record, in words.
pub(super) fn stream_record(problem: StreamRecordProblem, event_name: &str) -> String {
    match problem {
        StreamRecordProblem::UnknownEventName => format!("unknown event name {event_name:?}"),
        StreamRecordProblem::NoImage => "the stream record carries no item image (a KEYS_ONLY stream), so its entity type is unknown".to_owned(),
    }
}

/// [`Error::CompressedTooLarge`](super::Error::CompressedTooLarge).
pub(super) fn compressed_too_large(
    entity: &str,
    attribute: &str,
    size: usize,
    budget: usize,
) -> String {
    format!(
        "compressed attribute `{attribute}` of entity `{entity}` is {size} bytes, over its budget of {budget} bytes"
    )
}

/// [`Error::TransactionTooLarge`](super::Error::TransactionTooLarge).
pub(super) fn transaction_too_large(size: usize, limit: usize) -> String {
    format!(
        "transaction payload adds up to {size} bytes (items, keys, update and condition values), over DynamoDB's limit of {limit} bytes"
    )
}

/// [`Error::DuplicateTransactionItem`](super::Error::DuplicateTransactionItem).
pub(super) fn duplicate_item(
    first_entity: &str,
    entity: &str,
    first: usize,
    second: usize,
) -> String {
    format!(
        "transaction actions {first} ({first_entity}) and {second} ({entity}) both address one item"
    )
}

/// [`Error::UnknownEntityType`](super::Error::UnknownEntityType).
pub(super) fn unknown_entity_type(target: &str, attribute: &str, found: &Option<String>) -> String {
    format!(
        "item has entity type {found:?} in attribute `{attribute}`, which `{target}` does not know"
    )
}

/// [`Error::Upgrade`](super::Error::Upgrade).
pub(super) fn upgrade(entity: &str, from: u32, item: &Option<Box<ItemKey>>) -> String {
    format!(
        "item{} of entity `{entity}` at schema version {from} does not read as its version-{from} shape",
        at(item)
    )
}
