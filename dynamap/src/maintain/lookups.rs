//! Lookup items in a job's writes: an owner rewritten, moved or deleted by a job takes its
//! lookup items along in the same transaction, as a put, an update or a delete does (the
//! crate documentation's "Lookup items" section).

use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::codec::{AttributeValue, Item};
use crate::entity::LookupKey;
use crate::expr::Placeholders;
use crate::write::lookup_items::{free_or_owned_by, lookup_item, lookup_key, recorded};
use crate::write::{finish, raw_delete, raw_put};
use crate::{Entity, Handle, Result};

/// The lookup items one owner's write puts and deletes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LookupMoves {
    /// Lookup items to put, owned by the owner at its new key.
    pub(super) put: Vec<LookupKey>,
    /// Keys of the lookup items the stored owner records and its new form no longer holds.
    pub(super) release: Vec<Item>,
}

/// A lookup the stored owner records: its name and key.
struct Held {
    name: &'static str,
    pk: String,
    sk: Option<String>,
}

impl LookupMoves {
    /// What writing `stored` in its new form, holding the `wanted` lookups (none for a
    /// delete), does to lookup items. A lookup whose key is unchanged is put again only
    /// when the owner `moved`, so that it names the new key.
    pub(super) fn plan<E: Entity>(stored: &Item, wanted: &[LookupKey], moved: bool) -> Self {
        let held = held::<E>(stored);
        let put = wanted
            .iter()
            .filter(|l| {
                moved
                    || !held
                        .iter()
                        .any(|h| h.name == l.name && h.pk == l.pk && h.sk == l.sk)
            })
            .cloned()
            .collect();
        let release = held
            .iter()
            .filter(|h| !wanted.iter().any(|l| l.pk == h.pk && l.sk == h.sk))
            .map(|h| lookup_key::<E>(&h.pk, h.sk.as_deref()))
            .collect();
        LookupMoves { put, release }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.put.is_empty() && self.release.is_empty()
    }

    /// The transaction's lookup writes for an owner that was `old` and is `new` (its
    /// primary keys; the same unless it moves). A put takes a lookup item that is free or
    /// already the owner's, under either key; a lookup item of another owner fails its
    /// condition (the item's lookup is taken). A release deletes only the owner's own.
    pub(super) fn actions<E: Entity>(
        &self,
        db: &Handle,
        old: &Item,
        new: &Item,
    ) -> Result<Vec<TransactWriteItem>> {
        let mut actions = Vec::with_capacity(self.put.len() + self.release.len());
        for lookup in &self.put {
            let mut p = Placeholders::default();
            let condition = finish(vec![free_or_owned_by::<E>(&[old, new], &mut p)], p);
            let key = lookup_key::<E>(&lookup.pk, lookup.sk.as_deref());
            let item = lookup_item::<E>(new, lookup);
            actions.push(raw_put(db, E::ENTITY_TYPE, "put", key, item, condition)?.write);
        }
        for key in &self.release {
            let mut p = Placeholders::default();
            let condition = finish(vec![free_or_owned_by::<E>(&[old], &mut p)], p);
            actions.push(raw_delete(db, E::ENTITY_TYPE, key.clone(), condition)?.write);
        }
        Ok(actions)
    }

    /// The name of the lookup put by the transaction's action `index`, where the lookup
    /// puts start at `first`.
    pub(super) fn put_at(&self, index: usize, first: usize) -> Option<&'static str> {
        index
            .checked_sub(first)
            .and_then(|i| self.put.get(i))
            .map(|l| l.name)
    }
}

/// The lookups the stored owner records.
fn held<E: Entity>(stored: &Item) -> Vec<Held> {
    let text = |name: String| match stored.get(&name) {
        Some(AttributeValue::S(s)) => Some(s.clone()),
        _ => None,
    };
    E::WRITE
        .lookups
        .iter()
        .filter_map(|name| {
            Some(Held {
                name,
                pk: text(recorded(name, "pk"))?,
                sk: text(recorded(name, "sk")),
            })
        })
        .collect()
}

/// The attributes in which an owner records its lookups' keys: part of its keys, for a job.
pub(super) fn record_attributes<E: Entity>() -> Vec<String> {
    E::WRITE
        .lookups
        .iter()
        .flat_map(|name| [recorded(name, "pk"), recorded(name, "sk")])
        .collect()
}
