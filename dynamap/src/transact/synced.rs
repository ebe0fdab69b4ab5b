//! Lookup items inside transactions: a `put` or `delete` of an entity with `lookup(...)`
//! items carries the lookup maintenance into the transaction, as [`Db::put`] and
//! [`Db::delete`] do on their own.
//!
//! Which lookup items to delete depends on the keys the stored owner records, so those are
//! read when the transaction is sent; the owner's write is guarded on them still being
//! recorded, and each lookup's put on it being free or already the owner's. When a
//! concurrent write changes the owner between the read and the transaction, DynamoDB
//! cancels the whole transaction and [`Transaction::send`](super::Transaction::send)
//! reads again and resends it (unless it carries an idempotency token, whose request may
//! not change): nothing is applied twice, and a lookup never outlives its owner. Which of
//! the two happened is decided from the item DynamoDB evaluated the owner's condition on,
//! returned with the cancellation, never from a read afterwards.

use std::future::Future;
use std::pin::Pin;

use crate::entity::LookupKey;
use crate::error::ActionFailure;
use crate::expr::Condition;
use crate::ops::sync::{
    Owner, Recorded, SyncedWrite, delete_actions, failed_by_caller, put_actions, recording,
    required_existence,
};
use crate::preview::Request;
use crate::write::{Action, PutMode};
use crate::{Entity, Handle, Result};

/// The writes of one synced action, for the state just read.
pub(crate) struct Resolved {
    /// The owner's write first, then the lookups' puts (in `lookups` order) and deletes.
    pub(crate) actions: Vec<Action>,
    /// The lookups put, to name one that belongs to another owner.
    pub(crate) lookups: Vec<LookupKey>,
    /// What the owner recorded when read: what its guard expects.
    pub(crate) current: Option<Recorded>,
}

type Pending<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// A transaction action of an entity with lookups.
pub(crate) trait SyncedAction: Send + Sync {
    /// The owner's write without the guard, holding the action's place (and counted
    /// against the limits) until the transaction is sent.
    fn placeholder(&self, db: &Handle) -> Result<Action>;

    /// Reads what the stored owner records and returns the writes.
    fn resolve<'a>(&'a self, db: &'a Handle) -> Pending<'a, Resolved>;

    /// The read [`resolve`](Self::resolve) sends, not sent: a preview's request.
    fn read_preview(&self, db: &Handle) -> Result<Request>;

    /// Whether the owner's write carries a condition of the caller's (create, replace,
    /// `if_exists`, a version, a condition): only then can its failure be the caller's
    /// answer. Without one only the lookup guard can fail, so another writer came first.
    fn decisive(&self) -> bool;

    /// Whether the owner's write, at `index`, failed because of the caller's part of its
    /// condition, judged on the item DynamoDB evaluated (`ops::sync::failed_by_caller`).
    fn failed_by_caller(
        &self,
        reasons: &[ActionFailure],
        index: usize,
        current: Option<&Recorded>,
    ) -> bool;
}

/// A put of an entity with lookups, inside a transaction.
pub(crate) struct SyncedPut<E> {
    owner: Owner,
    write: SyncedWrite,
    mode: PutMode,
    condition: Option<Condition<E>>,
}

impl<E: Entity> SyncedPut<E> {
    pub(crate) fn new(
        write: SyncedWrite,
        mode: PutMode,
        condition: Option<Condition<E>>,
    ) -> SyncedPut<E> {
        SyncedPut {
            owner: Owner::of::<E>(&write.item),
            write: recording(write),
            mode,
            condition,
        }
    }
}

impl<E: Entity> SyncedAction for SyncedPut<E> {
    fn placeholder(&self, db: &Handle) -> Result<Action> {
        let condition = self.condition.as_ref();
        let mut actions =
            put_actions::<E>(db, &self.owner, &self.write, self.mode, condition, None)?;
        Ok(actions.swap_remove(0))
    }

    fn resolve<'a>(&'a self, db: &'a Handle) -> Pending<'a, Resolved> {
        Box::pin(async move {
            let current = self.owner.recorded::<E>(db).await?;
            let actions = put_actions::<E>(
                db,
                &self.owner,
                &self.write,
                self.mode,
                self.condition.as_ref(),
                current.as_ref(),
            )?;
            Ok(Resolved {
                actions,
                lookups: self.write.lookups.clone(),
                current,
            })
        })
    }

    fn read_preview(&self, db: &Handle) -> Result<Request> {
        self.owner.read_preview::<E>(db)
    }

    fn decisive(&self) -> bool {
        self.mode != PutMode::Overwrite
            || self.write.expected_version.is_some()
            || self.condition.is_some()
    }

    fn failed_by_caller(
        &self,
        reasons: &[ActionFailure],
        index: usize,
        current: Option<&Recorded>,
    ) -> bool {
        failed_by_caller::<E>(reasons, index, current, required_existence(self.mode))
    }
}

/// A delete of an entity with lookups, inside a transaction.
pub(crate) struct SyncedDelete<E> {
    owner: Owner,
    must_exist: bool,
    condition: Option<Condition<E>>,
}

impl<E: Entity> SyncedDelete<E> {
    pub(crate) fn new(
        key: crate::codec::Item,
        must_exist: bool,
        condition: Option<Condition<E>>,
    ) -> Self {
        SyncedDelete {
            owner: Owner { key },
            must_exist,
            condition,
        }
    }
}

impl<E: Entity> SyncedAction for SyncedDelete<E> {
    fn placeholder(&self, db: &Handle) -> Result<Action> {
        let condition = self.condition.as_ref();
        let mut actions = delete_actions::<E>(db, &self.owner, self.must_exist, condition, None)?;
        Ok(actions.swap_remove(0))
    }

    fn resolve<'a>(&'a self, db: &'a Handle) -> Pending<'a, Resolved> {
        Box::pin(async move {
            let current = self.owner.recorded::<E>(db).await?;
            let condition = self.condition.as_ref();
            let actions = delete_actions::<E>(
                db,
                &self.owner,
                self.must_exist,
                condition,
                current.as_ref(),
            )?;
            Ok(Resolved {
                actions,
                lookups: Vec::new(),
                current,
            })
        })
    }

    fn read_preview(&self, db: &Handle) -> Result<Request> {
        self.owner.read_preview::<E>(db)
    }

    fn decisive(&self) -> bool {
        self.must_exist || self.condition.is_some()
    }

    fn failed_by_caller(
        &self,
        reasons: &[ActionFailure],
        index: usize,
        current: Option<&Recorded>,
    ) -> bool {
        let exists = self.must_exist.then_some(true);
        failed_by_caller::<E>(reasons, index, current, exists)
    }
}
