//! Read, modify, write, retry: the optimistic-locking loop every application writes by
//! hand, built in for versioned entities. The same loop for transactions is
//! `transact_retry` (`transact/retry.rs`).

use std::future::Future;

use crate::key::Key;
use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::{Db, Result, Versioned};

impl Db {
    /// Reads the item `key` names, lets `change` modify it, and saves it on condition that
    /// nobody wrote it in between (its `#[dynamap(version)]` field); when somebody did, reads
    /// it again and repeats, with capped exponential backoff, up to the default
    /// [`RetryPolicy`]'s attempts. Returns the entity as saved, or `None` when there is no
    /// item. After the last attempt the last error is returned
    /// ([`Error::VersionConflict`](crate::Error::VersionConflict)).
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
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// // The next issue number of a repository, safe under any number of concurrent callers.
    /// let repo = db.modify(Repo::key("dynamap"), |repo| repo.issues += 1).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// Only entities with a version field can be modified ([`Versioned`]): for any other,
    /// nothing would detect a concurrent write, and the call does not compile. (Use
    /// [`Db::update`] for changes DynamoDB can apply atomically, such as increments.)
    ///
    /// # Errors
    ///
    /// Fails at once on an error of the read, or of the save ([`Db::save`]) when it is neither a
    /// conflict nor [retryable](crate::Error::is_retryable); after the last attempt, with the last
    /// save's error, usually [`Error::VersionConflict`](crate::Error::VersionConflict).
    pub fn modify<E, F>(
        &self,
        key: Key<E>,
        change: F,
    ) -> impl Future<Output = Result<Option<E>>> + Send + use<E, F>
    where
        E: Versioned + Send,
        F: FnMut(&mut E) + Send,
    {
        self.modify_with(key, RetryPolicy::default(), change)
    }

    /// [`Db::modify`] with a retry policy of your own (attempts, backoff).
    ///
    /// # Errors
    ///
    /// As [`Db::modify`], with `policy`'s attempts.
    pub fn modify_with<E, F>(
        &self,
        key: Key<E>,
        policy: RetryPolicy,
        mut change: F,
    ) -> impl Future<Output = Result<Option<E>>> + Send + use<E, F>
    where
        E: Versioned + Send,
        F: FnMut(&mut E) + Send,
    {
        let this = self.clone();
        async move {
            let mut rng = SplitMix64::from_entropy();
            let attempts = policy.attempts().max(1);
            let mut attempt = 0;
            loop {
                attempt += 1;
                let Some(mut entity) = this.get(key.clone()).consistent().await? else {
                    return Ok(None);
                };
                change(&mut entity);
                let outcome = this.save(&mut entity).await;
                match outcome {
                    Ok(()) => return Ok(Some(entity)),
                    Err(err) if attempt < attempts && (err.is_conflict() || err.is_retryable()) => {
                        pause(&this, &policy, attempt - 1, &mut rng).await;
                    }
                    Err(err) => return Err(err),
                }
            }
        }
    }
}
