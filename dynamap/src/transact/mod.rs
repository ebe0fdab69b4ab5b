//! Transactions: up to 100 writes and checks across entities that succeed or fail together;
//! and read transactions ([`TransactGet`], made by [`Db::transact_get`]), up to 100 items of
//! any entity types read as of one moment.
//!
//! ```no_run
//! # use dynamap::{Entity, Table};
//! # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
//! # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
//! # struct Account { id: String, balance: i64 }
//! # async fn example(db: dynamap::Db<App>, a: Account, b: Account) -> dynamap::Result<()> {
//! db.transaction()
//!     .put(db.put(&a).condition(Account::BALANCE.ge(0i64)))
//!     .put(&b)
//!     .check(Account::key("bank"), Account::BALANCE.gt(100i64))
//!     .idempotency_token("transfer-42")
//!     .send()
//!     .await?;
//! # Ok(()) }
//! ```
//!
//! Checked before sending: at most 100 actions, at most 4 MB of items, and no two actions
//! on the same item (DynamoDB rejects all three). When DynamoDB cancels the transaction,
//! [`Error::TransactionCanceled`] lists each failed action with its index (in the order the
//! actions were added), its entity and DynamoDB's reason code.

mod deprecated;
mod get;
mod preview;
mod retry;
mod synced;

use std::marker::PhantomData;
use std::sync::Arc;

use aws_sdk_dynamodb::types::TransactWriteItem;

pub use crate::error::ActionFailure;
pub use crate::write::{MAX_ACTIONS, MAX_TRANSACTION_BYTES};
pub use get::{ReadResults, Slot, TransactGet};
pub use retry::TransactAttempt;

use synced::{SyncedAction, SyncedDelete, SyncedPut};

use crate::clone_builder::clone_builder;
use crate::expr::Condition;
use crate::key::Key;
use crate::ops::sync::SyncedWrite;
use crate::ops::{Delete, Put};
use crate::sealed::{Sealed, TransactDeleteSeal, TransactPutSeal};
use crate::write::{
    Action, PutMode, check_action, delete_action, key_item, put_action, send_actions,
};
use crate::{Db, Entity, Error, Handle, InLayout, Result};

/// A pending transaction; see the [module docs](self).
#[must_use = "a transaction does nothing until it is sent"]
pub struct Transaction<L> {
    db: Handle,
    layout: PhantomData<fn() -> L>,
    actions: Vec<Action>,
    /// Actions of entities with lookup items, by position: their writes are completed when
    /// the transaction is sent (see `synced.rs`).
    synced: Vec<(usize, Arc<dyn SyncedAction>)>,
    token: Option<String>,
    error: Option<Error>,
}

clone_builder!(Transaction<L> {
    db,
    layout,
    actions,
    synced,
    token,
    error
});

impl<L> std::fmt::Debug for Transaction<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let actions: Vec<_> = self
            .actions
            .iter()
            .map(|a| (a.operation, a.entity))
            .collect();
        f.debug_struct("Transaction")
            .field("table", &self.db.table_name())
            .field("actions", &actions)
            .field("idempotency_token", &self.token)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// A new, empty transaction on this table.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// db.transaction().put(&alice).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn transaction(&self) -> Transaction<L> {
        Transaction {
            db: self.handle().clone(),
            layout: PhantomData,
            actions: Vec::new(),
            synced: Vec::new(),
            token: None,
            error: None,
        }
    }
}

impl<L: crate::table::Table> Transaction<L> {
    /// Keeps the first error, reported by [`send`](Transaction::send).
    fn push(mut self, action: Result<Action>) -> Self {
        match action {
            Ok(action) => self.actions.push(action),
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
        self
    }

    /// Adds an action of an entity with lookups; its writes are completed when sent.
    fn push_synced(mut self, synced: Result<Arc<dyn SyncedAction>>) -> Self {
        match synced.and_then(|s| Ok((s.placeholder(&self.db)?, s))) {
            Ok((placeholder, synced)) => {
                self.synced.push((self.actions.len(), synced));
                self.actions.push(placeholder);
            }
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
        self
    }

    /// Adds a put: prepared by [`Put`]'s constructor, with its mode and condition.
    fn push_put<E: Entity>(self, put: Put<E>) -> Self {
        let (prepared, mode, condition) = put.into_parts();
        if !E::WRITE.lookups.is_empty() {
            let synced = prepared.map(|prepared| {
                let write = SyncedWrite {
                    item: prepared.item,
                    lookups: prepared.lookups,
                    expected_version: prepared.expected_version,
                };
                Arc::new(SyncedPut::<E>::new(write, mode, condition)) as Arc<dyn SyncedAction>
            });
            return self.push_synced(synced);
        }
        let action =
            prepared.and_then(|prepared| put_action(&self.db, prepared, mode, condition.as_ref()));
        self.push(action)
    }

    /// Adds a delete: its key, whether the item must exist, and its condition.
    fn push_delete<E: Entity>(self, delete: Delete<E>) -> Self {
        let (key, must_exist, condition) = delete.into_parts();
        let key = key_item(key);
        if !E::WRITE.lookups.is_empty() {
            let synced = key.map(|key| {
                Arc::new(SyncedDelete::<E>::new(key, must_exist, condition))
                    as Arc<dyn SyncedAction>
            });
            return self.push_synced(synced);
        }
        let action =
            key.and_then(|key| delete_action(&self.db, key, must_exist, condition.as_ref()));
        self.push(action)
    }

    /// Writes an entity, replacing any item with its key (conditioned on its version, for
    /// versioned entities): `&entity`, or a put built with [`Db::put`], [`Db::create`] or
    /// [`Db::replace`] and its [`condition`](Put::condition), as for a single write. The
    /// transaction's table is written, whichever `Db` made the put.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account, bob: Account) -> dynamap::Result<()> {
    /// db.transaction()
    ///     .put(&alice)
    ///     .put(db.put(&bob).condition(Account::BALANCE.ge(0i64)))
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn put<E: Entity + InLayout<L>>(self, put: impl TransactPut<E>) -> Self {
        let put = put.into_put(&Db::from_handle(self.db.clone()));
        self.push_put(put)
    }

    /// Writes `entity` only if no item has its key.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// // Fails the whole transaction when the account exists.
    /// db.transaction().create(&alice).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn create<E: Entity + InLayout<L>>(self, entity: &E) -> Self {
        let put = Put::new(self.db.clone(), entity, PutMode::Create);
        self.push_put(put)
    }

    /// Writes `entity` only if an item has its key.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// // Fails the whole transaction when the account does not exist.
    /// db.transaction().replace(&alice).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn replace<E: Entity + InLayout<L>>(self, entity: &E) -> Self {
        let put = Put::new(self.db.clone(), entity, PutMode::Replace);
        self.push_put(put)
    }

    /// Deletes an item (and, for an entity with `lookup(...)` items, its lookup items): a
    /// key, or a delete built with [`Db::delete`] and its [`if_exists`](Delete::if_exists)
    /// or [`condition`](Delete::condition), as for a single delete.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// db.transaction()
    ///     .delete(db.delete(Account::key("bob")).condition(Account::BALANCE.eq(0i64)))
    ///     .delete(Account::key("carol"))
    ///     .put(&alice)
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn delete<E: Entity + InLayout<L>>(self, delete: impl TransactDelete<E>) -> Self {
        let delete = delete.into_delete(&Db::from_handle(self.db.clone()));
        self.push_delete(delete)
    }

    /// Applies `update` (made with [`Db::update`]) as part of the transaction.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// db.transaction()
    ///     .update(db.update(Account::key("alice")).increment(Account::BALANCE, -10i64))
    ///     .update(db.update(Account::key("bob")).increment(Account::BALANCE, 10i64))
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn update<E: Entity + InLayout<L>>(self, update: crate::ops::Update<E>) -> Self {
        let action = update.into_action();
        self.push(action)
    }

    /// Adds an action built with the SDK (`Put`, `Update`, `Delete` or `ConditionCheck`),
    /// for what the typed actions do not express; it may name another table. Its
    /// cancellation reason keeps its index like any other action's, with entity `"raw"`.
    ///
    /// ```no_run
    /// use dynamap::aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};
    /// # async fn example<L: dynamap::Table>(db: dynamap::Db<L>) -> dynamap::Result<()> {
    /// let bump = Update::builder()
    ///     .table_name("audit")
    ///     .key("PK", AttributeValue::S("COUNTER".into()))
    ///     .update_expression("ADD writes :one")
    ///     .expression_attribute_values(":one", AttributeValue::N("1".into()))
    ///     .build()
    ///     .expect("all required fields are set");
    /// db.transaction()
    ///     .raw(TransactWriteItem::builder().update(bump).build())
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// use dynamap::aws_sdk_dynamodb::types::{AttributeValue, Delete, TransactWriteItem};
    /// let audit = Delete::builder()
    ///     .table_name("audit")
    ///     .key("PK", AttributeValue::S("ENTRY#1".into()))
    ///     .build()
    ///     .expect("a table and a key");
    /// db.transaction().put(&alice).raw(TransactWriteItem::builder().delete(audit).build()).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn raw(self, write: TransactWriteItem) -> Self {
        let (operation, key) = if let Some(put) = write.put() {
            ("put", put.item().clone())
        } else if let Some(update) = write.update() {
            ("update", update.key().clone())
        } else if let Some(delete) = write.delete() {
            ("delete", delete.key().clone())
        } else if let Some(check) = write.condition_check() {
            ("check", check.key().clone())
        } else {
            return self.push(Err(Error::Unsupported {
                operation: "TransactWriteItems",
                reason: "a raw transaction action needs a put, update, delete or condition check"
                    .to_owned(),
            }));
        };
        self.push(Ok(Action {
            entity: "raw",
            operation,
            key,
            write,
            version_only: false,
            nested: Vec::new(),
        }))
    }

    /// Requires the item `key` names to match `condition`, without writing it.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// // Write alice only while the bank account holds more than 100.
    /// db.transaction().check(Account::key("bank"), Account::BALANCE.gt(100i64)).put(&alice).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn check<E: Entity + InLayout<L>>(self, key: Key<E>, condition: Condition<E>) -> Self {
        let action = check_action(&self.db, key, &condition);
        self.push(action)
    }

    /// Makes the transaction idempotent: DynamoDB runs it at most once for this token
    /// within ten minutes, so a retry after a timeout cannot apply it twice.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// // Sent twice within ten minutes, it is applied once.
    /// db.transaction().put(&alice).idempotency_token("signup-alice").send().await?;
    /// # Ok(()) }
    /// ```
    pub fn idempotency_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The number of actions so far.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// let tx = db.transaction().put(&alice).delete(Account::key("bob"));
    /// assert_eq!(tx.len(), 2);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// True when there are no actions.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// assert!(db.transaction().is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Sends the transaction. Nothing is sent when an action could not be built or a limit
    /// is exceeded; an empty transaction succeeds without a request.
    ///
    /// Actions of entities with `lookup(...)` items read the lookup keys their stored item
    /// records first, and bring the lookups' puts and deletes into the transaction (after
    /// the actions added, so cancellation reasons keep the indexes you gave). A lookup that
    /// belongs to another item fails with [`Error::LookupTaken`]; when a concurrent write
    /// changed such an item in between, the transaction is read and sent again (as a new
    /// request, unless it carries an idempotency token), up to 50 times.
    ///
    /// Every request carries a `ClientRequestToken` (yours, or a fresh one), and one whose
    /// answer is lost is sent again with it, so the answer is the first outcome.
    ///
    /// # Errors
    ///
    /// Fails before sending with the first action's error (a key, encoding, size or expression
    /// error) or a limit's ([`Error::TooManyActions`], [`Error::TransactionTooLarge`],
    /// [`Error::DuplicateTransactionItem`]); with [`Error::TransactionCanceled`] when DynamoDB
    /// cancels it, [`Error::LookupTaken`] or [`Error::Contention`] for lookups, and
    /// [`Error::Service`] when DynamoDB fails or is unreachable, and
    /// [`Error::OutcomeUnknown`] when every attempt's answer was lost.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// match db.transaction().create(&alice).send().await {
    ///     Err(dynamap::Error::TransactionCanceled { reasons, .. }) => for reason in &reasons { eprintln!("{reason:?}") },
    ///     other => other?,
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn send(self) -> Result<()> {
        if let Some(err) = self.error {
            return Err(err);
        }
        if self.synced.is_empty() {
            return send_actions(&self.db, self.actions, self.token).await;
        }
        for _ in 0..MAX_SYNC_ROUNDS {
            let mut actions = self.actions.clone();
            let mut resolved = Vec::with_capacity(self.synced.len());
            for (index, synced) in &self.synced {
                let mut r = synced.resolve(&self.db).await?;
                let extra = r.actions.split_off(1);
                if let (Some(owner), Some(slot)) = (r.actions.pop(), actions.get_mut(*index)) {
                    *slot = owner;
                }
                let first_extra = actions.len();
                resolved.push((
                    *index,
                    first_extra..first_extra + extra.len(),
                    r.lookups,
                    r.current,
                ));
                actions.extend(extra);
            }
            let result = send_actions(&self.db, actions, self.token.clone()).await;
            let Err(Error::TransactionCanceled { reasons }) = &result else {
                return result;
            };
            for (_, extras, lookups, _) in &resolved {
                let taken = reasons.iter().find_map(|r| {
                    let at = r.index.checked_sub(extras.start)?;
                    (r.is_conditional_check_failed() && at < lookups.len())
                        .then(|| (r.entity, lookups[at].name))
                });
                if let Some((entity, lookup)) = taken {
                    return Err(Error::LookupTaken { entity, lookup });
                }
            }
            // A race lost to a concurrent write of an owner: read and send again, unless a
            // token pins the request. As for single writes (`ops/sync.rs`), decided from
            // what DynamoDB evaluated: an owner's write failed by the caller's condition
            // only when the item it was evaluated on satisfied the guard; any other failure
            // of an owner's write, or of a release of its old lookups, is a lost race.
            let mut raced = reasons.iter().any(|r| r.is_conflict());
            for ((index, synced), (_, extras, _, current)) in self.synced.iter().zip(&resolved) {
                let owner_failed = reasons
                    .iter()
                    .any(|r| r.index == *index && r.is_conditional_check_failed());
                let by_caller =
                    synced.decisive() && synced.failed_by_caller(reasons, *index, current.as_ref());
                let released_failed = reasons
                    .iter()
                    .any(|r| extras.contains(&r.index) && r.is_conditional_check_failed());
                raced |= (owner_failed && !by_caller) || released_failed;
            }
            if !raced || self.token.is_some() {
                return result;
            }
        }
        Err(Error::Contention {
            entity: self.actions.first().map_or("", |a| a.entity),
            rounds: MAX_SYNC_ROUNDS,
        })
    }
}

/// How many times a transaction with lookup maintenance is read and sent again after
/// losing a race to a concurrent write.
const MAX_SYNC_ROUNDS: u32 = 50;

/// What [`Transaction::put`] takes: an entity (`&entity`, written as [`Db::put`] would), or a
/// [`Put`] made by [`Db::put`], [`Db::create`] or [`Db::replace`], with its condition.
/// Sealed: implemented by dynamap only.
pub trait TransactPut<E: Entity>: Sealed<(TransactPutSeal, E)> {
    /// The put, made with `db` when only the entity was given.
    #[doc(hidden)]
    fn into_put(self, db: &Db<E::Table>) -> Put<E>;
}

impl<E: Entity> Sealed<(TransactPutSeal, E)> for &E {}
impl<E: Entity> Sealed<(TransactPutSeal, E)> for Put<E> {}

impl<E: Entity> TransactPut<E> for &E {
    fn into_put(self, db: &Db<E::Table>) -> Put<E> {
        db.put(self)
    }
}

impl<E: Entity> TransactPut<E> for Put<E> {
    fn into_put(self, _: &Db<E::Table>) -> Put<E> {
        self
    }
}

/// What [`Transaction::delete`] takes: a key, or a [`Delete`] made by [`Db::delete`], with
/// its [`if_exists`](Delete::if_exists) and condition. Sealed: implemented by dynamap only.
pub trait TransactDelete<E: Entity>: Sealed<(TransactDeleteSeal, E)> {
    /// The delete, made with `db` when only the key was given.
    #[doc(hidden)]
    fn into_delete(self, db: &Db<E::Table>) -> Delete<E>;
}

impl<E: Entity> Sealed<(TransactDeleteSeal, E)> for Key<E> {}
impl<E: Entity> Sealed<(TransactDeleteSeal, E)> for Delete<E> {}

impl<E: Entity> TransactDelete<E> for Key<E> {
    fn into_delete(self, db: &Db<E::Table>) -> Delete<E> {
        db.delete(self)
    }
}

impl<E: Entity> TransactDelete<E> for Delete<E> {
    fn into_delete(self, _: &Db<E::Table>) -> Delete<E> {
        self
    }
}

/// `transaction.await` is [`transaction.send()`](Transaction::send).
impl<L: crate::table::Table> std::future::IntoFuture for Transaction<L> {
    type Output = Result<()>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Self::Output> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
