//! Read, modify, write, retry: the optimistic-locking loop every application writes by
//! hand, built in for versioned entities. The same loop for transactions is
//! `transact_retry` (`transact/retry.rs`).

use std::future::Future;

use crate::key::Key;
use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::{Error, Result, Versioned};

impl<L: crate::table::Table> crate::Db<L> {
    /// Reads the item `key` names, lets `change` modify it, and saves it on condition that
    /// nobody wrote it in between (its `#[dynamap(version)]` field); when somebody did, reads
    /// it again and repeats, with capped exponential backoff and full jitter (waits drawn
    /// up to 25 ms, doubling to 2 s), starting new attempts for as long as
    /// [`CONTENTION_BUDGET`](crate::retry::CONTENTION_BUDGET) (30 seconds) allows. Returns
    /// the entity as saved, or `None` when there is no item. When the budget is spent the
    /// last error is returned ([`Error::VersionConflict`](crate::Error::VersionConflict)):
    /// each round of concurrent writers of one item lands one of them, so how many callers
    /// a budget serves depends on how fast the table answers. Fifty tasks on one item of
    /// DynamoDB Local all land in a few seconds (`tests/it/writes.rs`); pass a longer
    /// budget to [`modify_with`](crate::Db::modify_with) for more.
    ///
    /// `change` may run several times, so it should only compute from the value it is given.
    /// Errors other than a version conflict (a throttled or failed request, a lookup taken)
    /// end the loop at once, except those [`Error::is_retryable`](crate::Error::is_retryable) says a retry may cure.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO")]
    /// # struct Repo { name: String, issues: u64, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // The next issue number of a repository, safe under any number of concurrent callers.
    /// let repo = db.modify(Repo::key("dynamap"), |repo| repo.issues += 1).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// Only entities with a version field can be modified ([`Versioned`]): for any other,
    /// nothing would detect a concurrent write, and the call does not compile. (Use
    /// [`Db::update`](crate::Db::update) for changes DynamoDB can apply atomically, such as increments.)
    ///
    /// # Errors
    ///
    /// Fails at once on an error of the read, or of the save ([`Db::save`](crate::Db::save)) when it is neither a
    /// conflict nor [retryable](crate::Error::is_retryable); once the budget is spent, with the
    /// last save's error, usually [`Error::VersionConflict`](crate::Error::VersionConflict).
    pub fn modify<E, F>(
        &self,
        key: Key<E>,
        change: F,
    ) -> impl Future<Output = Result<Option<E>>> + Send + use<L, E, F>
    where
        E: Versioned + crate::InLayout<L> + Send,
        F: FnMut(&mut E) + Send,
    {
        self.modify_with(key, RetryPolicy::contention(), change)
    }

    /// [`Db::modify`](crate::Db::modify) with a retry policy of your own (attempts, backoff, time budget).
    ///
    /// # Errors
    ///
    /// As [`Db::modify`](crate::Db::modify), with `policy`'s attempts and [budget](RetryPolicy::time_budget).
    pub fn modify_with<E, F>(
        &self,
        key: Key<E>,
        policy: RetryPolicy,
        mut change: F,
    ) -> impl Future<Output = Result<Option<E>>> + Send + use<L, E, F>
    where
        E: Versioned + crate::InLayout<L> + Send,
        F: FnMut(&mut E) + Send,
    {
        let modified = self.try_modify_with(key, policy, move |entity| {
            change(entity);
            Ok::<_, Error>(Modify::Save(()))
        });
        async move { Ok(modified.await?.map(|m| m.entity)) }
    }

    /// [`Db::modify`](crate::Db::modify) whose closure decides: it returns a value of its own and whether to
    /// save ([`Modify::Save`]) or leave the item as read ([`Modify::Keep`], no write), or
    /// ends the loop with an error of the caller's type (which converts from
    /// [`Error`](crate::Error)). Returns the entity (as saved, or as read when kept) with the
    /// closure's value, or `None` when there is no item.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::ops::Modify;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO")]
    /// # struct Repo { name: String, issues: u64, archived: bool, #[dynamap(version)] version: u64 }
    /// #[derive(Debug)]
    /// enum NumberError { Archived, Db(dynamap::Error) }
    /// impl From<dynamap::Error> for NumberError {
    ///     fn from(err: dynamap::Error) -> Self { NumberError::Db(err) }
    /// }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> Result<(), NumberError> {
    /// // The next issue number, unless the repository is archived.
    /// let next = db
    ///     .try_modify(Repo::key("dynamap"), |repo| {
    ///         if repo.archived {
    ///             return Err(NumberError::Archived);
    ///         }
    ///         repo.issues += 1;
    ///         Ok(Modify::Save(repo.issues))
    ///     })
    ///     .await?
    ///     .map(|modified| modified.value);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The closure's error, at once; otherwise as [`Db::modify`](crate::Db::modify), converted.
    pub fn try_modify<E, T, Err, F>(
        &self,
        key: Key<E>,
        change: F,
    ) -> impl Future<Output = std::result::Result<Option<Modified<E, T>>, Err>>
    + Send
    + use<L, E, T, Err, F>
    where
        E: Versioned + crate::InLayout<L> + Send,
        T: Send,
        Err: From<Error> + Send,
        F: FnMut(&mut E) -> std::result::Result<Modify<T>, Err> + Send,
    {
        self.try_modify_with(key, RetryPolicy::contention(), change)
    }

    /// [`Db::try_modify`](crate::Db::try_modify) with a retry policy of your own (attempts, backoff, time budget).
    ///
    /// # Errors
    ///
    /// As [`Db::try_modify`](crate::Db::try_modify), with `policy`'s attempts and [budget](RetryPolicy::time_budget).
    pub fn try_modify_with<E, T, Err, F>(
        &self,
        key: Key<E>,
        policy: RetryPolicy,
        mut change: F,
    ) -> impl Future<Output = std::result::Result<Option<Modified<E, T>>, Err>>
    + Send
    + use<L, E, T, Err, F>
    where
        E: Versioned + crate::InLayout<L> + Send,
        T: Send,
        Err: From<Error> + Send,
        F: FnMut(&mut E) -> std::result::Result<Modify<T>, Err> + Send,
    {
        let this = self.clone();
        async move {
            let mut rng = SplitMix64::from_entropy();
            let started = std::time::Instant::now();
            let mut attempt = 0;
            loop {
                attempt += 1;
                let Some(mut entity) = this.get(key.clone()).consistent().await? else {
                    return Ok(None);
                };
                let value = match change(&mut entity)? {
                    Modify::Keep(value) => {
                        return Ok(Some(Modified {
                            entity,
                            value,
                            saved: false,
                        }));
                    }
                    Modify::Save(value) => value,
                };
                match this.save(&mut entity).await {
                    Ok(()) => {
                        return Ok(Some(Modified {
                            entity,
                            value,
                            saved: true,
                        }));
                    }
                    Err(err)
                        if policy.allows(attempt, started)
                            && (err.is_conflict() || err.is_retryable()) =>
                    {
                        pause(this.handle(), &policy, attempt - 1, &mut rng).await;
                    }
                    Err(err) => return Err(err.into()),
                }
            }
        }
    }
}

/// What a [`Db::try_modify`](crate::Db::try_modify) closure decided, with a value of its own for the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modify<T> {
    /// Save the entity as changed (on its version; read again and retried on a conflict).
    Save(T),
    /// Leave the item as read: nothing is written.
    Keep(T),
}

/// What [`Db::try_modify`](crate::Db::try_modify) returns for an item that exists.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Modified<E, T> {
    /// The entity as saved (its version bumped), or as read when kept.
    pub entity: E,
    /// The closure's value, from the attempt that ended the loop.
    pub value: T,
    /// Whether it was saved ([`Modify::Save`]) rather than kept.
    pub saved: bool,
}
