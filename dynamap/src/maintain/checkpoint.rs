//! Checkpoints: where each segment of a job has got to, kept as items in the job's own table.
//!
//! In the table rather than in a file because a job may run as several processes on
//! several machines (segments `i..j` of `N` each): they share the table, not a disk. A
//! checkpoint is written after each page is finished (each tenth page in the offline mode),
//! so a job killed at any point redoes at most one page per segment (ten offline), and an
//! item already rewritten reads as unchanged the second time: nothing is written twice. Checkpoint items carry entity type
//! `_dynamap.checkpoint`, which no entity reads; `Maintain::clear_checkpoints` deletes them.

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity};

use crate::codec::Item;
use crate::span::{Call, send_in};
use crate::table::{ScalarType, TableSchema};
use crate::{Error, Handle, Result};

/// The entity type of checkpoint items.
pub(super) const CHECKPOINT_TYPE: &str = "_dynamap.checkpoint";

/// A checkpoint's attributes: whether the segment is finished, and the key to scan on from.
/// Named like dynamap's other bookkeeping (`_owner_pk`), so that no entity's field shares
/// them and an encrypted table's configuration can list them.
pub const CHECKPOINT_ATTRIBUTES: [&str; 2] = [DONE, START];
const DONE: &str = "_job_done";
const START: &str = "_job_start";

/// How every checkpoint's partition key starts (as text or bytes).
const KEY_PREFIX: &str = "_dynamap#job#";

/// Where one segment is.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Saved {
    /// The segment is finished.
    pub(super) done: bool,
    /// The key to scan on from (`None` with `done: false`: from the start).
    pub(super) start: Option<Item>,
}

/// A job: the entity it walks and its name (jobs of two entities may share a name).
#[derive(Debug, Clone, Copy)]
pub(super) struct Job<'a> {
    pub(super) entity: &'static str,
    pub(super) name: &'a str,
}

/// The key of segment `segment` of `total`'s checkpoint for `job`, of the types the
/// table declares for its key attributes.
fn key(schema: &TableSchema, job: Job<'_>, segment: u32, total: u32) -> Item {
    let mut key = Item::new();
    let pk = format!("{KEY_PREFIX}{}#{}#{segment}/{total}", job.entity, job.name);
    key.insert(schema.pk.to_owned(), key_value(pk, schema.pk_type));
    if let Some(sk) = schema.sk {
        key.insert(
            sk.to_owned(),
            key_value("_dynamap#checkpoint".to_owned(), schema.sk_type),
        );
    }
    key
}

/// A checkpoint key value of type `kind`: the text itself, its bytes, or for a number key a
/// negative fraction made of the text's stable hash (`-0.` and 20 digits), which keys of
/// ids, counts and timestamps do not take.
fn key_value(text: String, kind: ScalarType) -> AttributeValue {
    match kind {
        ScalarType::String => AttributeValue::S(text),
        ScalarType::Binary => AttributeValue::B(text.into_bytes().into()),
        ScalarType::Number => {
            // FNV-1a: stable across builds and platforms.
            let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
            AttributeValue::N(format!("-0.{hash:020}"))
        }
    }
}

/// True for a checkpoint item (of any job): of the checkpoint type, at a checkpoint key.
/// A scan's count includes them, but they are none of the table's items a job works on.
pub(super) fn is_checkpoint(schema: &TableSchema, item: &Item) -> bool {
    let typed = matches!(
        item.get(schema.entity_type),
        Some(AttributeValue::S(found)) if found == CHECKPOINT_TYPE
    );
    let keyed = match item.get(schema.pk) {
        Some(AttributeValue::S(pk)) => pk.starts_with(KEY_PREFIX),
        Some(AttributeValue::B(pk)) => pk.as_ref().starts_with(KEY_PREFIX.as_bytes()),
        // A number key holds a hash of the text: the type tells.
        Some(AttributeValue::N(_)) => true,
        _ => false,
    };
    typed && keyed
}

/// The checkpoint of one segment, if there is one.
pub(super) async fn load(
    db: &Handle,
    schema: &TableSchema,
    job: Job<'_>,
    segment: u32,
    total: u32,
) -> Result<Saved> {
    let call = Call::new(db, "GetItem", CHECKPOINT_TYPE, None);
    let out = send_in!(
        call,
        db.client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(key(schema, job, segment, total)))
            .consistent_read(true)
    );
    let out = call
        .end(out, |o| o.consumed_capacity())
        .map_err(|e| Error::service("GetItem", e))?;
    let Some(item) = out.item else {
        return Ok(Saved::default());
    };
    // Or under the names checkpoints had before: a job in progress across an upgrade resumes.
    let get = |name, earlier| item.get(name).or_else(|| item.get(earlier));
    Ok(Saved {
        done: matches!(get(DONE, "done"), Some(AttributeValue::Bool(true))),
        start: match get(START, "start") {
            Some(AttributeValue::M(start)) => Some(start.clone()),
            _ => None,
        },
    })
}

/// Records where one segment is.
pub(super) async fn save(
    db: &Handle,
    schema: &TableSchema,
    job: Job<'_>,
    (segment, total): (u32, u32),
    saved: &Saved,
    counted: bool,
) -> Result<f64> {
    let mut item = key(schema, job, segment, total);
    item.insert(
        schema.entity_type.to_owned(),
        AttributeValue::S(CHECKPOINT_TYPE.to_owned()),
    );
    item.insert(DONE.to_owned(), AttributeValue::Bool(saved.done));
    if let Some(start) = &saved.start {
        item.insert(START.to_owned(), AttributeValue::M(start.clone()));
    }
    let call = Call::new(db, "PutItem", CHECKPOINT_TYPE, None);
    let out = db
        .client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .set_return_consumed_capacity(call.capacity_if(counted))
        .send()
        .await;
    let out = call
        .end(out, |o| o.consumed_capacity())
        .map_err(|e| Error::service("PutItem", e))?;
    Ok(out
        .consumed_capacity()
        .and_then(ConsumedCapacity::capacity_units)
        .unwrap_or(0.0))
}

/// Deletes the checkpoints of every segment of `total`.
pub(super) async fn clear(
    db: &Handle,
    schema: &TableSchema,
    job: Job<'_>,
    total: u32,
) -> Result<()> {
    for segment in 0..total {
        let call = Call::new(db, "DeleteItem", CHECKPOINT_TYPE, None);
        let result = send_in!(
            call,
            db.client()
                .delete_item()
                .table_name(db.table_name())
                .set_key(Some(key(schema, job, segment, total)))
        );
        call.end(result, |o| o.consumed_capacity())
            .map_err(|e| Error::service("DeleteItem", e))?;
    }
    Ok(())
}
