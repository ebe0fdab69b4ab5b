//! What a job does with one scanned item: the pure half, from the stored item and what the
//! entity renders now to the write that brings the one to the other.

use std::collections::HashSet;

use super::lookups::{LookupMoves, record_attributes};
use crate::batch::ItemKey;
use crate::codec::{AttributeValue, Item};
use crate::table::{SCHEMA_VERSION_ATTRIBUTE, Table, TableSchema};
use crate::write::lookup_items::record;
use crate::{Entity, Error, Result};

/// What the job does with an item.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decision {
    /// Already what the entity renders (or nothing asked for applies): no write.
    Keep,
    /// Same primary key: set the attributes that differ, remove the key attributes the
    /// entity no longer renders (an index it left).
    Rewrite { set: Item, remove: Vec<String> },
    /// Same primary key, written whole: a change of an attribute the entity signs or
    /// encrypts, which the encryption SDK lets no update expression touch.
    Replace { item: Item },
    /// Another primary key: put `item` there and delete the stored one, in one transaction.
    Move { item: Item },
    /// The user's function asked for the item to go.
    Delete,
}

/// One write of a job (or a write-back): the owner's, what it does to its lookup items,
/// and how it checks that the item is still what was read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Write {
    pub(crate) decision: Decision,
    pub(super) lookups: LookupMoves,
    pub(super) unchanged: Unchanged,
}

/// How a write checks that the item is what was read: a lost race is a conflict to redo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unchanged {
    /// By the entity's version attribute: every write of a versioned entity raises it (a
    /// writer outside dynamap must too, as optimistic locking asks). One small condition,
    /// whatever the item's size.
    Version(&'static str),
    /// Every attribute the item held still holds the same value: for an entity without a
    /// version, and for an item another writer stored (adopted), whose attributes dynamap
    /// does not know the rules of. Attributes added since are not checked; a rewrite in
    /// place leaves them, and a move carries them only if it wins the race.
    EveryAttribute,
}

impl Unchanged {
    /// The check for a stored item of `E`: its version, when `E` has one and `stored`
    /// holds it.
    pub(super) fn of<E: Entity>(stored: &Item) -> Self {
        match E::WRITE.version {
            Some(version) if stored.contains_key(version) => Unchanged::Version(version),
            _ => Unchanged::EveryAttribute,
        }
    }
}

impl Write {
    pub(super) fn keep() -> Self {
        Write {
            decision: Decision::Keep,
            lookups: LookupMoves::default(),
            unchanged: Unchanged::EveryAttribute,
        }
    }

    /// The delete of `stored`, with the lookup items it records.
    pub(super) fn delete<E: Entity>(stored: &Item) -> Self {
        Write {
            decision: Decision::Delete,
            lookups: LookupMoves::plan::<E>(stored, &[], false),
            unchanged: Unchanged::of::<E>(stored),
        }
    }
}

/// The write that brings `stored` to what `entity` renders now (its keys, its lookups'
/// keys, its version one up), and why it differs.
pub(super) fn plan<E: Entity>(stored: &Item, entity: &E) -> Result<(Write, Reason)> {
    let schema = <E::Table as Table>::SCHEMA;
    let wanted = entity.lookup_keys()?;
    let mut rendered = rendered(entity)?;
    record(&mut rendered, &wanted);
    let records = record_attributes::<E>();
    let mut decision = decide(&schema, stored, &rendered, E::WRITE.version, &records);
    let why = reason(&schema, stored, &rendered, &records);
    bump_version::<E>(&mut decision, &rendered);
    whole_if_protected::<E>(&mut decision, stored);
    let lookups = match &decision {
        Decision::Keep | Decision::Delete => LookupMoves::default(),
        Decision::Move { .. } => LookupMoves::plan::<E>(stored, &wanted, true),
        Decision::Rewrite { .. } | Decision::Replace { .. } => {
            LookupMoves::plan::<E>(stored, &wanted, false)
        }
    };
    let write = Write {
        decision,
        lookups,
        unchanged: Unchanged::of::<E>(stored),
    };
    if write.decision != Decision::Keep
        && write.unchanged == Unchanged::EveryAttribute
        && !E::WRITE.encrypted_attributes.is_empty()
    {
        return Err(unverifiable::<E>());
    }
    Ok((write, why))
}

/// Why a job cannot write an item of `E` it cannot check is unchanged: DynamoDB holds
/// ciphertext for the encrypted fields, which no condition may name (the encryption SDK
/// refuses it), so only a version can tell that another writer changed one of them.
pub(super) fn unverifiable<E: Entity>() -> Error {
    Error::Unsupported {
        operation: "Maintain",
        reason: format!(
            "`{}` has encrypted fields and this item has no version: a job checks that an \
             item is unchanged before writing it, which on encrypted fields only a \
             `#[dynamap(version)]` field can tell",
            E::ENTITY_TYPE
        ),
    }
}

/// Why an item is rewritten, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reason {
    /// Its stored keys (primary, index, type, lookups) differ from what the templates
    /// render.
    Keys,
    /// It is stored at an older schema version.
    Upgrade,
    /// The user's function changed it.
    Mapped,
}

/// Compares the stored item with the one the entity renders now. `records` are the
/// attributes in which the entity records its lookups' keys: like key attributes, a stale
/// one is removed and never moved along.
fn decide(
    schema: &TableSchema,
    stored: &Item,
    rendered: &Item,
    version_attribute: Option<&str>,
    records: &[String],
) -> Decision {
    let mut key_names: HashSet<&str> = key_attributes(schema);
    key_names.extend(records.iter().map(String::as_str));
    let primary = |item: &Item| {
        (
            item.get(schema.pk).cloned(),
            schema.sk.and_then(|sk| item.get(sk)).cloned(),
        )
    };
    if primary(stored) != primary(rendered) {
        // The new item keeps what the stored one holds beyond the entity's own attributes
        // (another service's, a lookup's records), without the old keys.
        let mut item: Item = stored
            .iter()
            .filter(|(name, _)| !key_names.contains(name.as_str()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        item.extend(rendered.iter().map(|(n, v)| (n.clone(), v.clone())));
        return Decision::Move { item };
    }
    let set: Item = rendered
        .iter()
        .filter(|(name, value)| {
            Some(name.as_str()) != version_attribute && stored.get(*name) != Some(value)
        })
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let remove: Vec<String> = stored
        .keys()
        .filter(|name| key_names.contains(name.as_str()) && !rendered.contains_key(*name))
        .cloned()
        .collect();
    if set.is_empty() && remove.is_empty() {
        Decision::Keep
    } else {
        Decision::Rewrite { set, remove }
    }
}

/// Why `stored` differs from `rendered`: keys (any key attribute, lookup record or the
/// entity type), an older schema version, or else a change of the user's.
fn reason(schema: &TableSchema, stored: &Item, rendered: &Item, records: &[String]) -> Reason {
    let keys = key_attributes(schema);
    let differs = |name: &str| stored.get(name) != rendered.get(name);
    if keys.iter().any(|name| differs(name))
        || records.iter().any(|name| differs(name))
        || differs(schema.entity_type)
    {
        Reason::Keys
    } else if differs(SCHEMA_VERSION_ATTRIBUTE) {
        Reason::Upgrade
    } else {
        Reason::Mapped
    }
}

/// Every key attribute of the table and its indexes: what a rendered item decides.
pub(super) fn key_attributes(schema: &TableSchema) -> HashSet<&'static str> {
    let mut names: HashSet<&'static str> = HashSet::from([schema.pk]);
    names.extend(schema.sk);
    for index in schema.indexes {
        names.extend(index.pk_attributes().map(|(name, _)| name));
        names.extend(index.sk_attributes().map(|(name, _)| name));
    }
    names
}

/// The item's stored key, as text, for reports.
pub(super) fn item_key(schema: &TableSchema, item: &Item) -> ItemKey {
    ItemKey::of(item, schema.pk, schema.sk)
}

/// What `entity` stores now, its version (if versioned) one past the one it was read with.
fn rendered<E: Entity>(entity: &E) -> Result<Item> {
    let mut rendered = entity.to_item()?;
    if let Some(version) = E::WRITE.version {
        let next = entity.version().saturating_add(1);
        rendered.insert(version.to_owned(), AttributeValue::N(next.to_string()));
    }
    Ok(rendered)
}

/// A rewrite in place of a versioned entity also writes its next version.
fn bump_version<E: Entity>(decision: &mut Decision, rendered: &Item) {
    if let (Decision::Rewrite { set, .. }, Some(version)) = (decision, E::WRITE.version)
        && let Some(value) = rendered.get(version)
    {
        set.insert(version.to_owned(), value.clone());
    }
}

/// Makes a rewrite that changes an attribute `E` signs or encrypts (`#[dynamap(sign_only)]`,
/// `#[dynamap(encrypt)]`) a whole-item write: the encryption SDK refuses update expressions
/// on signed attributes, and only it can write their ciphertext and signature.
fn whole_if_protected<E: Entity>(decision: &mut Decision, stored: &Item) {
    let meta = &E::WRITE;
    let protected = |name: &str| {
        meta.encrypted_attributes.contains(&name) || meta.sign_only_attributes.contains(&name)
    };
    if let Decision::Rewrite { set, remove } = decision
        && (set.keys().any(|name| protected(name)) || remove.iter().any(|name| protected(name)))
    {
        let mut item = stored.clone();
        for name in remove.iter() {
            item.remove(name);
        }
        item.extend(std::mem::take(set));
        *decision = Decision::Replace { item };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{index_schema, table_schema};
    use crate::table::{IndexSchema, Projection, ScalarType};

    const GSI: [IndexSchema; 1] = [index_schema(
        "GSI1",
        "GSI1PK",
        Some("GSI1SK"),
        ScalarType::String,
        ScalarType::String,
        &[],
        &[],
        Projection::All,
        false,
    )];
    const SCHEMA: TableSchema = table_schema(
        "App",
        "PK",
        Some("SK"),
        ScalarType::String,
        ScalarType::String,
        "_type",
        None,
        &GSI,
    );

    fn item(pairs: &[(&str, &str)]) -> Item {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), AttributeValue::S((*v).to_owned())))
            .collect()
    }

    #[test]
    fn an_item_already_rendered_is_kept() {
        let stored = item(&[("PK", "A#1"), ("SK", "X"), ("other", "kept")]);
        let rendered = item(&[("PK", "A#1"), ("SK", "X")]);
        assert_eq!(
            decide(&SCHEMA, &stored, &rendered, None, &[]),
            Decision::Keep
        );
    }

    #[test]
    fn a_new_index_key_is_set_and_a_left_index_removed() {
        let stored = item(&[
            ("PK", "A#1"),
            ("SK", "X"),
            ("GSI1PK", "OLD"),
            ("GSI1SK", "s"),
        ]);
        let rendered = item(&[("PK", "A#1"), ("SK", "X"), ("GSI1PK", "NEW")]);
        match decide(&SCHEMA, &stored, &rendered, None, &[]) {
            Decision::Rewrite { set, remove } => {
                assert_eq!(set, item(&[("GSI1PK", "NEW")]));
                assert_eq!(remove, ["GSI1SK"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(reason(&SCHEMA, &stored, &rendered, &[]), Reason::Keys);
    }

    #[test]
    fn a_new_primary_key_moves_the_item_with_what_it_holds() {
        let stored = item(&[("PK", "A#1"), ("SK", "X"), ("GSI1PK", "G"), ("theirs", "t")]);
        let rendered = item(&[("PK", "B#1"), ("SK", "X"), ("mine", "m")]);
        match decide(&SCHEMA, &stored, &rendered, None, &[]) {
            Decision::Move { item: moved } => {
                assert_eq!(
                    moved,
                    item(&[("PK", "B#1"), ("SK", "X"), ("mine", "m"), ("theirs", "t")])
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_version_alone_does_not_make_a_rewrite() {
        let mut stored = item(&[("PK", "A#1"), ("SK", "X")]);
        stored.insert("v".into(), AttributeValue::N("3".into()));
        let mut rendered = stored.clone();
        rendered.insert("v".into(), AttributeValue::N("4".into()));
        assert_eq!(
            decide(&SCHEMA, &stored, &rendered, Some("v"), &[]),
            Decision::Keep
        );
    }
}
