//! One `BatchGetItem` call, and the key maps it sends and reads back.

use aws_sdk_dynamodb::operation::batch_get_item::builders::BatchGetItemFluentBuilder;
use aws_sdk_dynamodb::types::KeysAndAttributes;
use tracing::Instrument;

use super::ItemKey;
use super::call::{Ctx, classify};
use crate::codec::Item;
use crate::span::Call;
use crate::{Error, Handle};

pub(super) const OPERATION: &str = "BatchGetItem";

/// A table's key attribute names: partition key, sort key.
pub(super) type KeyNames = (&'static str, Option<&'static str>);

/// What every call of one batch get asks for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target {
    pub(super) names: KeyNames,
    pub(super) entity: &'static str,
    pub(super) consistent: bool,
}

/// What one call answered.
pub(super) struct Answer {
    pub(super) found: Vec<Item>,
    pub(super) unprocessed: Vec<Item>,
    pub(super) capacity: f64,
}

/// One `BatchGetItem` call: the items found and the keys DynamoDB left unprocessed, or the
/// error and whether it is worth retrying.
pub(super) async fn call(
    ctx: &Ctx<'_>,
    keys: &[ItemKey],
    target: Target,
) -> Result<Answer, (Error, bool)> {
    let table = ctx.db.table_name();
    let request = request(ctx.db, keys, target).map_err(|error| (error, false))?;
    let call = Call::new(ctx.db, OPERATION, target.entity, None);
    let span = call.span();
    let result = request
        .set_return_consumed_capacity(call.capacity_if(ctx.capacity))
        .send()
        .instrument(span.clone())
        .await;
    let output = match result {
        Ok(output) => output,
        Err(err) => {
            call.failed();
            return Err(classify(OPERATION, err));
        }
    };
    let found = output
        .responses
        .and_then(|mut tables| tables.remove(table))
        .unwrap_or_default();
    let unprocessed = output
        .unprocessed_keys
        .and_then(|mut tables| tables.remove(table))
        .map(|keys| keys.keys)
        .unwrap_or_default();
    let capacity = call.done(output.consumed_capacity.iter().flatten());
    span.in_scope(|| {
        tracing::debug!(
            keys = keys.len(),
            found = found.len(),
            unprocessed = unprocessed.len(),
            "batch get call"
        );
    });
    Ok(Answer {
        found,
        unprocessed,
        capacity,
    })
}

/// The `BatchGetItem` of `keys`, as sent and previewed.
pub(super) fn request(
    db: &Handle,
    keys: &[ItemKey],
    target: Target,
) -> Result<BatchGetItemFluentBuilder, Error> {
    let request = KeysAndAttributes::builder()
        .set_keys(Some(
            keys.iter().map(|key| key_map(key, target.names)).collect(),
        ))
        .consistent_read(target.consistent)
        .build()
        .map_err(|err| Error::RequestBuild {
            operation: OPERATION,
            message: err.to_string(),
        })?;
    Ok(db
        .client()
        .batch_get_item()
        .request_items(db.table_name(), request))
}

fn key_map(key: &ItemKey, names: KeyNames) -> Item {
    let mut map = Item::with_capacity(2);
    let (pk, sk) = key.attribute_values();
    map.insert(names.0.to_owned(), pk);
    if let (Some(name), Some(sk)) = (names.1, sk) {
        map.insert(name.to_owned(), sk);
    }
    map
}

/// The key an item holds under the attribute names `names`.
pub(super) fn key_of(item: &Item, names: KeyNames) -> Option<ItemKey> {
    let pk = item.get(names.0)?;
    let sk = match names.1 {
        Some(name) => Some(item.get(name)?),
        None => None,
    };
    Some(ItemKey::from_values(Some(pk), sk))
}
