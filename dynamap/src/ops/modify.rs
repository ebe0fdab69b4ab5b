//! Read, modify, write, retry: the optimistic-locking loop every application writes by
//! hand, built in for versioned entities. The same loop for transactions is
//! `transact_retry` (`transact/retry.rs`).

use crate::key::Key;
use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::{Db, Entity, Error, Result};

impl Db {
    /// Reads the item `key` names, lets `change` modify it, and saves it on condition that
    /// nobody wrote it in between (its `#[dynamap(version)]` field); when somebody did, reads
    /// it again and repeats, with capped exponential backoff, up to the default
    /// [`RetryPolicy`]'s attempts. Returns the entity as saved, or `None` when there is no
    /// item. After the last attempt the last error is returned
    /// ([`Error::VersionConflict`]).
    ///
    /// `change` may run several times, so it should only compute from the value it is given.
    /// Errors other than a version conflict (a throttled or failed request, a lookup taken)
    /// end the loop at once, except those [`Error::is_retryable`] says a retry may cure.
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
    /// Entities without a version field are refused: nothing would detect a concurrent
    /// write. (Use [`Db::update`] for changes DynamoDB can apply atomically, such as
    /// increments.)
    pub async fn modify<E: Entity>(
        &self,
        key: Key<E>,
        change: impl FnMut(&mut E),
    ) -> Result<Option<E>> {
        self.modify_with(key, RetryPolicy::default(), change).await
    }

    /// [`Db::modify`] with a retry policy of your own (attempts, backoff).
    pub async fn modify_with<E: Entity>(
        &self,
        key: Key<E>,
        policy: RetryPolicy,
        mut change: impl FnMut(&mut E),
    ) -> Result<Option<E>> {
        if E::WRITE.version.is_none() {
            return Err(Error::InvalidRequest {
                reason: format!(
                    "`{}` has no #[dynamap(version)] field, so modify cannot detect concurrent writes",
                    E::ENTITY_TYPE
                ),
            });
        }
        let mut rng = SplitMix64::from_entropy();
        let attempts = policy.attempts().max(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let Some(mut entity) = self.get(key.clone()).consistent().await? else {
                return Ok(None);
            };
            change(&mut entity);
            let outcome = self.save(&mut entity).await;
            match outcome {
                Ok(()) => return Ok(Some(entity)),
                Err(err) if attempt < attempts && (err.is_conflict() || err.is_retryable()) => {
                    pause(self, &policy, attempt - 1, &mut rng).await;
                }
                Err(err) => return Err(err),
            }
        }
    }
}
