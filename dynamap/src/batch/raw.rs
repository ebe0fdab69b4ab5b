//! Puts and deletes of stored items as they are (no entity to render), for crate code that
//! already holds them, such as a maintenance job's offline mode: one `BatchWriteItem` chunk
//! through the same retry driver as every batch, so unprocessed items are retried and what
//! finally fails comes back write by write.

use std::sync::Arc;

use aws_sdk_dynamodb::types::WriteRequest;

use super::call::{Ctx, Settings};
use super::pending::PendingWrite;
use super::write_exec::write_chunk;
use super::{ItemKey, MAX_WRITE_CHUNK, WriteAction};
use crate::retry::SplitMix64;
use crate::{Error, Handle, Result};

/// One raw write of a chunk.
#[derive(Debug)]
pub(crate) struct RawWrite {
    /// The entity type, for spans and metrics.
    pub(crate) entity: &'static str,
    /// The item's key (a put's new key, a delete's key).
    pub(crate) key: ItemKey,
    pub(crate) request: WriteRequest,
}

/// What became of a chunk: the writes that failed (by position, with why), and the units
/// consumed when `capacity` asked for them.
pub(crate) struct RawOutcome {
    pub(crate) failed: Vec<(usize, Arc<Error>)>,
    pub(crate) units: f64,
}

/// Sends `writes` (at most [`MAX_WRITE_CHUNK`], no key twice) until all are done or the
/// retry policy gives up on the rest; `key_names` are the table's key attributes.
///
/// # Errors
///
/// Fails with [`Error::InvalidSetting`] for a chunk over the limit, or a client with no
/// async sleep to back off with.
pub(crate) async fn write_raw(
    db: &Handle,
    key_names: (&'static str, Option<&'static str>),
    writes: Vec<RawWrite>,
    capacity: bool,
) -> Result<RawOutcome> {
    if writes.len() > MAX_WRITE_CHUNK {
        return Err(Error::InvalidSetting {
            setting: "batch",
            reason: format!(
                "{} writes in one chunk, over {MAX_WRITE_CHUNK}",
                writes.len()
            ),
        });
    }
    let settings = Settings {
        capacity,
        ..Settings::default()
    };
    let ctx = Ctx::new(db, settings)?;
    let pending = writes
        .into_iter()
        .enumerate()
        .map(|(index, write)| PendingWrite {
            index,
            entity: write.entity,
            action: if write.request.put_request.is_some() {
                WriteAction::Put
            } else {
                WriteAction::Delete
            },
            key: write.key,
            key_names,
            request: write.request,
        })
        .collect();
    let outcome = write_chunk(&ctx, pending, SplitMix64::from_entropy().next_u64()).await;
    Ok(RawOutcome {
        failed: outcome
            .failed
            .into_iter()
            .map(|f| (f.index, f.error))
            .collect(),
        units: outcome.capacity,
    })
}
