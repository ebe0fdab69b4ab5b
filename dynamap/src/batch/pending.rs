//! One batch write converted and checked: what is sent, and how to recognise it again.

use std::sync::Arc;

use aws_sdk_dynamodb::types::{AttributeValue, DeleteRequest, PutRequest, WriteRequest};

use super::{FailedWrite, ItemKey, WriteAction};
use crate::codec::Item;
use crate::key::Key;
use crate::table::Table;
use crate::write::item_for_write;
use crate::{Entity, Error};

/// One valid write, ready to send.
#[derive(Debug)]
pub(super) struct PendingWrite {
    pub(super) index: usize,
    pub(super) entity: &'static str,
    pub(super) action: WriteAction,
    pub(super) key: ItemKey,
    /// The table's key attribute names, to find the item among `UnprocessedItems`.
    pub(super) key_names: (&'static str, Option<&'static str>),
    pub(super) request: WriteRequest,
}

impl PendingWrite {
    pub(super) fn fail(self, error: Arc<Error>) -> FailedWrite {
        FailedWrite {
            index: self.index,
            entity: self.entity,
            action: self.action,
            key: Some(self.key),
            error,
        }
    }

    /// True when `request` (as DynamoDB returned it) writes this item.
    pub(super) fn is(&self, request: &WriteRequest) -> bool {
        let attributes = match (&request.put_request, &request.delete_request) {
            (Some(put), _) => &put.item,
            (None, Some(delete)) => &delete.key,
            (None, None) => return false,
        };
        has_key(attributes, self.key_names, &self.key)
    }
}

/// True when `item` holds exactly `key` under the attribute names `names`.
pub(super) fn has_key(
    item: &Item,
    names: (&'static str, Option<&'static str>),
    key: &ItemKey,
) -> bool {
    let (pk, sk) = key.attribute_values();
    let is = |name: &str, value: &AttributeValue| item.get(name) == Some(value);
    is(names.0, &pk)
        && match (names.1, &sk) {
            (Some(name), Some(sk)) => is(name, sk),
            _ => true,
        }
}

/// An input item after conversion; its `index` is set when the input hands it out.
pub(super) type Prepared = Result<PendingWrite, FailedWrite>;

fn key_names<E: Entity>() -> (&'static str, Option<&'static str>) {
    let schema = <E::Table as Table>::SCHEMA;
    (schema.pk, schema.sk)
}

fn invalid<E: Entity>(action: WriteAction, key: Option<ItemKey>, error: Error) -> FailedWrite {
    FailedWrite {
        index: 0,
        entity: E::ENTITY_TYPE,
        action,
        key,
        error: Arc::new(error),
    }
}

fn build_error(err: impl std::fmt::Display) -> Error {
    Error::RequestBuild {
        operation: "BatchWriteItem",
        message: err.to_string(),
    }
}

/// Batch writes cannot carry conditions: an entity whose writes need one (a version to
/// check, lookup items to keep in sync) is refused rather than written unguarded.
fn unconditional<E: Entity>() -> Result<(), Error> {
    let needs = match (E::WRITE.version.is_some(), !E::WRITE.lookups.is_empty()) {
        (true, _) => "a version field",
        (_, true) => "lookup items to keep in sync",
        _ => return Ok(()),
    };
    Err(Error::Unsupported {
        operation: "BatchWriteItem",
        reason: format!(
            "entity `{}` has {needs}, which a batch write cannot guard: write it with put or a transaction",
            E::ENTITY_TYPE
        ),
    })
}

/// Converts a put, checking its key and size.
pub(super) fn prepare_put<E: Entity>(entity: &E) -> Prepared {
    let put = WriteAction::Put;
    let key = match entity.primary_key().item_key() {
        Ok(key) => key,
        Err(err) => return Err(invalid::<E>(put, None, err.into())),
    };
    let request = unconditional::<E>()
        .and_then(|()| item_for_write(entity))
        .and_then(|item| {
            let put = PutRequest::builder().set_item(Some(item)).build();
            Ok(WriteRequest::builder()
                .put_request(put.map_err(build_error)?)
                .build())
        });
    match request {
        Ok(request) => Ok(PendingWrite {
            index: 0,
            entity: E::ENTITY_TYPE,
            action: put,
            key,
            key_names: key_names::<E>(),
            request,
        }),
        Err(err) => Err(invalid::<E>(put, Some(key), err)),
    }
}

/// Converts a delete, checking its key.
pub(super) fn prepare_delete<E: Entity>(key: Key<E>) -> Prepared {
    let delete = WriteAction::Delete;
    if !E::WRITE.lookups.is_empty() {
        // Deleting the owner alone would orphan its lookup items.
        let reason = format!(
            "entity `{}` has lookup items to delete with it, which a batch write cannot do: delete it with `Db::delete`",
            E::ENTITY_TYPE
        );
        let key = key.item_key().ok();
        let error = Error::Unsupported {
            operation: "BatchWriteItem",
            reason,
        };
        return Err(invalid::<E>(delete, key, error));
    }
    let key = match key.item_key() {
        Ok(key) => key,
        Err(err) => return Err(invalid::<E>(delete, None, err.into())),
    };
    let names = key_names::<E>();
    let mut map = Item::with_capacity(2);
    let (pk, sk) = key.attribute_values();
    map.insert(names.0.to_owned(), pk);
    if let (Some(name), Some(sk)) = (names.1, sk) {
        map.insert(name.to_owned(), sk);
    }
    match DeleteRequest::builder().set_key(Some(map)).build() {
        Ok(request) => Ok(PendingWrite {
            index: 0,
            entity: E::ENTITY_TYPE,
            action: delete,
            key,
            key_names: names,
            request: WriteRequest::builder().delete_request(request).build(),
        }),
        Err(err) => Err(invalid::<E>(delete, Some(key), build_error(err))),
    }
}
