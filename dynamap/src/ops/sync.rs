//! Lookup items kept in sync with the entity that owns them (seed 003's "additional item"):
//! the write paths. The crate documentation's "Lookup items" section says what users see.

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;

use super::update::Plan;

use crate::codec::Item;
use crate::entity::LookupKey;
use crate::error::ActionFailure;
use crate::expr::update::Change;
use crate::expr::{Condition, DocPath, Placeholders};
use crate::preview::{Request as PreviewRequest, input_of};
use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::span::send_in;
use crate::table::Table;
use crate::write::lookup_items::{free_or_owned_by, lookup_item, lookup_key, record, recorded};
use crate::write::{
    Action, PutMode, delete_condition, finish, put_condition, put_failed, raw_delete, raw_put,
    send_actions,
};
use crate::{Entity, Error, Handle, Result};

/// How many times a put or delete starts over after losing a race to a concurrent change.
const MAX_ROUNDS: u32 = 50;

/// A put of an entity with lookups, prepared by [`Put`](super::Put).
pub(crate) struct SyncedWrite {
    pub(crate) item: Item,
    pub(crate) lookups: Vec<LookupKey>,
    pub(crate) expected_version: Option<u64>,
}

/// The owner's key, and the lookup keys a stored owner records.
pub(crate) struct Owner {
    pub(crate) key: Item,
}

pub(crate) type Recorded = HashMap<&'static str, (String, Option<String>)>;

impl Owner {
    pub(crate) fn of<E: Entity>(item: &Item) -> Owner {
        let schema = <E::Table as Table>::SCHEMA;
        let key = std::iter::once(schema.pk)
            .chain(schema.sk)
            .filter_map(|name| item.get(name).map(|v| (name.to_owned(), v.clone())))
            .collect();
        Owner { key }
    }

    /// Reads which lookups the stored owner records; `None` when there is no owner item.
    pub(crate) async fn recorded<E: Entity>(&self, db: &Handle) -> Result<Option<Recorded>> {
        let call = crate::span::Call::new(db, "GetItem", E::ENTITY_TYPE, None);
        let result = send_in!(call, self.read::<E>(db));
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| Error::service("GetItem", e))?;
        Ok(output.item.as_ref().map(recorded_in::<E>))
    }

    /// The read of what the stored owner records, not sent: what a preview of a write with
    /// lookups shows (see [`crate::preview`]).
    pub(crate) fn read_preview<E: Entity>(&self, db: &Handle) -> Result<PreviewRequest> {
        let read = self.read::<E>(db);
        Ok(PreviewRequest::GetItem(input_of!(read, "GetItem")?))
    }

    /// The consistent GetItem of the owner's key and the lookup keys it records, as sent
    /// and previewed.
    fn read<E: Entity>(&self, db: &Handle) -> GetItemFluentBuilder {
        let mut p = Placeholders::default();
        let schema = <E::Table as Table>::SCHEMA;
        let mut projection = vec![p.name(schema.pk)];
        for name in E::WRITE.lookups {
            projection.push(p.name(&recorded(name, "pk")));
            projection.push(p.name(&recorded(name, "sk")));
        }
        let (names, _) = p.into_parts();
        // Through the encryption interceptor the whole item, which it can verify.
        let (projection, names) = if db.reads_whole_items() {
            (None, None)
        } else {
            (Some(projection.join(", ")), names)
        };
        db.client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(self.key.clone()))
            .consistent_read(true)
            .set_projection_expression(projection)
            .set_expression_attribute_names(names)
    }
}

/// The lookup keys the owner's `item` records.
fn recorded_in<E: Entity>(item: &Item) -> Recorded {
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    E::WRITE
        .lookups
        .iter()
        .filter_map(|name| {
            Some((
                *name,
                (text(&recorded(name, "pk"))?, text(&recorded(name, "sk"))),
            ))
        })
        .collect()
}

/// Whether the owner as DynamoDB evaluated it (`None`: there was none) satisfied the guard
/// built from `current` (see [`guard`]): absent when read absent, else present and
/// recording exactly the lookup keys read.
fn guard_held<E: Entity>(evaluated: Option<&Item>, current: Option<&Recorded>) -> bool {
    match (evaluated, current) {
        (None, None) => true,
        (Some(item), Some(current)) => recorded_in::<E>(item) == *current,
        _ => false,
    }
}

/// True when the owner's action at `index` failed its condition because of the caller's
/// part of it (the mode, `if_exists`, the version, the condition), judged on the item
/// DynamoDB evaluated, returned with the cancellation: either that item satisfied the
/// lookup guard, so the guard held and the caller's part failed; or it broke the existence
/// the caller asked for (`exists`: `Some(true)` for replace, update and `if_exists`,
/// `Some(false)` for create), a failure of the caller's own whatever the guard did. Any
/// other failure is a lost race. No read afterwards is involved, so a change and its
/// undoing in between (A → B → A) cannot pass for the caller's failure.
pub(crate) fn failed_by_caller<E: Entity>(
    reasons: &[ActionFailure],
    index: usize,
    current: Option<&Recorded>,
    exists: Option<bool>,
) -> bool {
    reasons
        .iter()
        .find(|r| r.index == index && r.is_conditional_check_failed())
        .is_some_and(|r| {
            let evaluated = r.evaluated.as_ref().map(|e| &e.0);
            guard_held::<E>(evaluated, current) || exists.is_some_and(|e| e != evaluated.is_some())
        })
}

/// The existence a put in `mode` requires of the owner: see [`failed_by_caller`].
pub(crate) fn required_existence(mode: PutMode) -> Option<bool> {
    match mode {
        PutMode::Create => Some(false),
        PutMode::Replace => Some(true),
        PutMode::Overwrite => None,
    }
}

/// The condition that the owner still records exactly `current` (or does not exist).
fn guard<E: Entity>(current: Option<&Recorded>, p: &mut Placeholders) -> Vec<String> {
    let schema = <E::Table as Table>::SCHEMA;
    let Some(current) = current else {
        return vec![format!("attribute_not_exists({})", p.name(schema.pk))];
    };
    let mut parts = vec![format!("attribute_exists({})", p.name(schema.pk))];
    for name in E::WRITE.lookups {
        for (part, value) in [
            ("pk", current.get(name).map(|k| Some(k.0.clone()))),
            ("sk", current.get(name).map(|k| k.1.clone())),
        ] {
            let attribute = p.name(&recorded(name, part));
            parts.push(match value.flatten() {
                Some(v) => format!("{attribute} = {}", p.value(AttributeValue::S(v))),
                None => format!("attribute_not_exists({attribute})"),
            });
        }
    }
    parts
}

/// The condition that a lookup item is absent or owned by `owner`.
fn free_or_mine<E: Entity>(owner: &Owner, p: &mut Placeholders) -> String {
    free_or_owned_by::<E>(&[&owner.key], p)
}

/// Deletes the lookup item `pk`/`sk` if it is this owner's (or already gone).
fn release<E: Entity>(db: &Handle, owner: &Owner, pk: &str, sk: Option<&str>) -> Result<Action> {
    let mut p = Placeholders::default();
    let condition = vec![free_or_mine::<E>(owner, &mut p)];
    raw_delete(
        db,
        E::ENTITY_TYPE,
        lookup_key::<E>(pk, sk),
        finish(condition, p),
    )
}

/// The lookup whose put failed its "free or mine" condition: it belongs to another owner.
pub(super) fn taken_lookup(
    reasons: &[ActionFailure],
    lookups: &[LookupKey],
) -> Option<&'static str> {
    reasons
        .iter()
        .filter(|r| r.is_conditional_check_failed() && r.index >= 1)
        .find_map(|r| lookups.get(r.index - 1).map(|l| l.name))
}

/// Puts the lookup item `lookup` of `owner`, on condition that it is free or already its.
fn lookup_put<E: Entity>(db: &Handle, owner: &Owner, lookup: &LookupKey) -> Result<Action> {
    let mut p = Placeholders::default();
    let condition = vec![free_or_mine::<E>(owner, &mut p)];
    let key = lookup_key::<E>(&lookup.pk, lookup.sk.as_deref());
    raw_put(
        db,
        E::ENTITY_TYPE,
        "put",
        key,
        lookup_item::<E>(&owner.key, lookup),
        finish(condition, p),
    )
}

/// The write with the owner's item recording the keys of the lookups it holds.
pub(crate) fn recording(write: SyncedWrite) -> SyncedWrite {
    let mut item = write.item;
    record(&mut item, &write.lookups);
    SyncedWrite { item, ..write }
}

/// A cancelled owner-and-lookups transaction, to tell why it failed.
struct Canceled<'a> {
    reasons: &'a [ActionFailure],
    /// The lookups the transaction put, in order after the owner's write.
    lookups: &'a [LookupKey],
    /// What the owner recorded when read: what its guard expects.
    current: Option<&'a Recorded>,
    /// True when the owner's write has a condition of the caller's (a mode, a version, a
    /// condition), so its failure can be the caller's answer rather than a lost race.
    decisive: bool,
    /// The existence the caller requires of the owner (see [`failed_by_caller`]).
    exists: Option<bool>,
}

impl Canceled<'_> {
    /// `Ok(false)` to start over after a lost race; the caller's error when a lookup is
    /// taken, or when the owner's condition failed on an item its guard accepted.
    fn decide<E: Entity>(&self, failed: impl FnOnce() -> Error) -> Result<bool> {
        if let Some(lookup) = taken_lookup(self.reasons, self.lookups) {
            return Err(Error::LookupTaken {
                entity: E::ENTITY_TYPE,
                lookup,
            });
        }
        // Without a condition of the caller's only the guard can fail the owner's write, so
        // another writer came first. With one, the item DynamoDB evaluated says which part
        // failed. Any other failure (a busy item, a lookup released since) is a lost race.
        if self.decisive && failed_by_caller::<E>(self.reasons, 0, self.current, self.exists) {
            return Err(failed());
        }
        Ok(false)
    }
}

/// Runs `round` (one read-then-transact attempt: `Ok(false)` when a concurrent change won)
/// until it succeeds, with jittered backoff between rounds, up to [`MAX_ROUNDS`].
async fn in_rounds<E: Entity, F: std::future::Future<Output = Result<bool>>>(
    db: &Handle,
    mut round: impl FnMut() -> F,
) -> Result<()> {
    let policy = RetryPolicy::default();
    let mut rng = SplitMix64::from_entropy();
    for attempt in 0..MAX_ROUNDS {
        match round().await {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(err) if err.is_retryable() => {}
            Err(err) => return Err(err),
        }
        pause(db, &policy, attempt, &mut rng).await;
    }
    Err(Error::Contention {
        entity: E::ENTITY_TYPE,
        rounds: MAX_ROUNDS,
    })
}

/// Puts an entity and its lookups in one transaction, starting over when a concurrent
/// change wins the race.
pub(crate) async fn put_with_lookups<E: Entity>(
    db: &Handle,
    write: SyncedWrite,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<()> {
    let owner = Owner::of::<E>(&write.item);
    let write = recording(write);
    in_rounds::<E, _>(db, || put_round::<E>(db, &owner, &write, mode, condition)).await
}

/// The writes of a put of an owner whose stored item records `current` lookups: the owner
/// (guarded by `current`), each lookup (free or already its), and a delete of each lookup
/// whose key changed. The owner comes first, then the lookups in `write.lookups` order.
pub(crate) fn put_actions<E: Entity>(
    db: &Handle,
    owner: &Owner,
    write: &SyncedWrite,
    mode: PutMode,
    condition: Option<&Condition<E>>,
    current: Option<&Recorded>,
) -> Result<Vec<Action>> {
    let mut p = Placeholders::default();
    let mut parts = put_condition::<E>(mode, write.expected_version, condition, &mut p)?;
    parts.extend(guard::<E>(current, &mut p));
    let owner_put = raw_put(
        db,
        E::ENTITY_TYPE,
        mode.operation(),
        owner.key.clone(),
        write.item.clone(),
        finish(parts, p),
    )?;
    let mut actions = vec![owner_put.returning_evaluated_item()];
    for lookup in &write.lookups {
        actions.push(lookup_put::<E>(db, owner, lookup)?);
    }
    for (name, (pk, sk)) in current.into_iter().flatten() {
        let unchanged = write
            .lookups
            .iter()
            .any(|l| l.name == *name && l.pk == *pk && l.sk == *sk);
        if !unchanged {
            actions.push(release::<E>(db, owner, pk, sk.as_deref())?);
        }
    }
    Ok(actions)
}

/// The writes of a delete of an owner that records `current` lookups: the owner (guarded,
/// and on `condition`) and a delete of each of its lookups.
pub(crate) fn delete_actions<E: Entity>(
    db: &Handle,
    owner: &Owner,
    must_exist: bool,
    condition: Option<&Condition<E>>,
    current: Option<&Recorded>,
) -> Result<Vec<Action>> {
    let mut p = Placeholders::default();
    let mut parts = guard::<E>(current, &mut p);
    parts.extend(delete_condition(must_exist, condition, &mut p)?);
    let owner_delete = raw_delete(db, E::ENTITY_TYPE, owner.key.clone(), finish(parts, p))?;
    let mut actions = vec![owner_delete.returning_evaluated_item()];
    for (pk, sk) in current.into_iter().flat_map(HashMap::values) {
        actions.push(release::<E>(db, owner, pk, sk.as_deref())?);
    }
    Ok(actions)
}

/// One read-then-transact round: `Ok(true)` when written, `Ok(false)` when another writer
/// came first and the put should start over.
async fn put_round<E: Entity>(
    db: &Handle,
    owner: &Owner,
    write: &SyncedWrite,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<bool> {
    let current = owner.recorded::<E>(db).await?;
    // Create, replace and a user condition decide on the state just read; so does the
    // version. Only the lookup guard can fail because of a concurrent writer.
    let precondition_holds = match mode {
        PutMode::Create => current.is_none(),
        PutMode::Replace => current.is_some(),
        PutMode::Overwrite => true,
    };
    if !precondition_holds {
        return Err(put_failed::<E>(mode, write.expected_version));
    }
    let actions = put_actions::<E>(db, owner, write, mode, condition, current.as_ref())?;
    match send_actions(db, actions, None).await {
        Ok(()) => Ok(true),
        Err(Error::TransactionCanceled { reasons }) => {
            let decisive = mode != PutMode::Overwrite
                || write.expected_version.is_some()
                || condition.is_some();
            let cancel = Canceled {
                reasons: &reasons,
                lookups: &write.lookups,
                current: current.as_ref(),
                decisive,
                exists: required_existence(mode),
            };
            cancel.decide::<E>(|| put_failed::<E>(mode, write.expected_version))
        }
        Err(err) => Err(err),
    }
}

/// Updates an entity whose update moves lookup items, in one transaction: the owner's
/// update (guarded by the lookup keys it records), a put of each moved lookup (free or
/// already its own) and a delete of each lookup's old item. Starts over when a concurrent
/// change wins the race.
pub(crate) async fn update_with_lookups<E: Entity>(db: &Handle, plan: &Plan<E>) -> Result<()> {
    let owner = Owner {
        key: plan.key.clone(),
    };
    in_rounds::<E, _>(db, || update_round::<E>(db, &owner, plan)).await
}

/// One read-then-transact round of an update that moves lookups; `Ok(false)` to start over.
async fn update_round<E: Entity>(db: &Handle, owner: &Owner, plan: &Plan<E>) -> Result<bool> {
    let current = owner.recorded::<E>(db).await?;
    if current.is_none() && plan.must_exist {
        return Err(plan.failed());
    }
    // The owner records the moved lookups' new keys.
    let mut records = Vec::new();
    for lookup in &plan.lookups {
        records.push(Change::Set(
            DocPath::owned(recorded(lookup.name, "pk")),
            AttributeValue::S(lookup.pk.clone()),
        ));
        if let Some(sk) = &lookup.sk {
            records.push(Change::Set(
                DocPath::owned(recorded(lookup.name, "sk")),
                AttributeValue::S(sk.clone()),
            ));
        }
    }
    let owner_update = plan.action(db, records, |p| guard::<E>(current.as_ref(), p))?;
    let mut actions = vec![owner_update.returning_evaluated_item()];
    for lookup in &plan.lookups {
        actions.push(lookup_put::<E>(db, owner, lookup)?);
    }
    for (name, (pk, sk)) in current.iter().flatten() {
        let moved = plan.lookups.iter().find(|l| l.name == *name);
        if moved.is_some_and(|l| l.pk != *pk || l.sk != *sk) {
            actions.push(release::<E>(db, owner, pk, sk.as_deref())?);
        }
    }
    match send_actions(db, actions, None).await {
        Ok(()) => Ok(true),
        Err(Error::TransactionCanceled { reasons }) => {
            let decisive =
                plan.must_exist || plan.expected_version.is_some() || plan.condition.is_some();
            let cancel = Canceled {
                reasons: &reasons,
                lookups: &plan.lookups,
                current: current.as_ref(),
                decisive,
                exists: plan.must_exist.then_some(true),
            };
            cancel.decide::<E>(|| plan.failed())
        }
        Err(err) => Err(err),
    }
}

/// Deletes an entity and its lookups in one transaction.
pub(crate) async fn delete_with_lookups<E: Entity>(
    db: &Handle,
    key: Item,
    must_exist: bool,
    condition: Option<&Condition<E>>,
) -> Result<()> {
    let owner = Owner { key };
    in_rounds::<E, _>(db, || delete_round::<E>(db, &owner, must_exist, condition)).await
}

/// One read-then-transact round of a delete; `Ok(false)` to start over.
async fn delete_round<E: Entity>(
    db: &Handle,
    owner: &Owner,
    must_exist: bool,
    condition: Option<&Condition<E>>,
) -> Result<bool> {
    let failed = || Error::ConditionalCheckFailed {
        entity: E::ENTITY_TYPE,
        operation: "delete",
    };
    let current = owner.recorded::<E>(db).await?;
    if current.is_none() && must_exist {
        return Err(failed());
    }
    if current.is_none() && condition.is_none() {
        return Ok(true);
    }
    let actions = delete_actions::<E>(db, owner, must_exist, condition, current.as_ref())?;
    match send_actions(db, actions, None).await {
        Ok(()) => Ok(true),
        Err(Error::TransactionCanceled { reasons }) => {
            let cancel = Canceled {
                reasons: &reasons,
                lookups: &[],
                current: current.as_ref(),
                decisive: must_exist || condition.is_some(),
                exists: must_exist.then_some(true),
            };
            cancel.decide::<E>(failed)
        }
        Err(err) => Err(err),
    }
}
