//! Build, send, retry: the optimistic-locking loop for transactions, as `modify` is for one
//! versioned entity.

use super::Transaction;
use crate::Result;
use crate::retry::{RetryPolicy, SplitMix64, pause};
use crate::sealed::{Sealed, TransactAttemptSeal};

impl<L: crate::table::Table> crate::Db<L> {
    /// Builds a transaction with `build` and sends it; when a concurrent writer wins, builds
    /// it again and resends, with capped exponential backoff and full jitter (the default
    /// [`RetryPolicy`]'s waits), for as long as [`CONTENTION_BUDGET`](crate::retry::CONTENTION_BUDGET)
    /// (30 seconds) allows. After that the last error is returned.
    ///
    /// A writer won when [`Error::is_conflict`](crate::Error::is_conflict) says so: another transaction held an item
    /// (`TransactionConflict`), or the version condition of a versioned `put` failed because
    /// the item was written after `build` read it. Errors [`Error::is_retryable`](crate::Error::is_retryable) names
    /// (throttling) are retried too. Anything else, such as a condition of your own that
    /// does not hold, ends the loop at once.
    ///
    /// `build` runs once per attempt, so it should read what the transaction depends on
    /// (consistently) and compute from that alone. It returns a future (`|| async move {
    /// ... }`), so the loop can run in a spawned task. It gives the transaction, or the
    /// transaction and a value of its own (`Ok((transaction, number))`, see
    /// [`TransactAttempt`]): the value of the attempt that landed is returned.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Clone)] #[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO")]
    /// # struct Repo { name: String, issues: u64, #[dynamap(version)] version: u64 }
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
    /// # struct Issue { repo: String, number: u64, title: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // Number a new issue from the repository's counter: both writes or neither, and
    /// // concurrent callers each get their own number.
    /// let db = &db;
    /// let number = db.transact_retry(|| async move {
    ///     let mut repo = db.get(Repo::key("dynamap")).consistent().await?.expect("repo exists");
    ///     repo.issues += 1;
    ///     let issue = Issue { repo: repo.name.clone(), number: repo.issues, title: "Bug".into() };
    ///     Ok((db.transaction().put(&repo).create(&issue), issue.number))
    /// })
    /// .await?;
    /// println!("filed #{number}");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails at once with an error of `build` or [`Transaction::send`] that is neither a conflict
    /// nor retryable; after the last attempt, with the last error, usually
    /// [`Error::TransactionCanceled`](crate::Error::TransactionCanceled).
    pub fn transact_retry<B, Fut, A>(
        &self,
        build: B,
    ) -> impl Future<Output = Result<A::Value>> + Send + use<L, B, Fut, A>
    where
        B: FnMut() -> Fut + Send,
        Fut: Future<Output = Result<A>> + Send,
        A: TransactAttempt<L>,
    {
        self.transact_retry_with(RetryPolicy::contention(), build)
    }

    /// [`Db::transact_retry`](crate::Db::transact_retry) with a retry policy of your own (attempts, backoff).
    ///
    /// # Errors
    ///
    /// As [`Db::transact_retry`](crate::Db::transact_retry), with `policy`'s attempts and [budget](RetryPolicy::time_budget).
    pub fn transact_retry_with<B, Fut, A>(
        &self,
        policy: RetryPolicy,
        mut build: B,
    ) -> impl Future<Output = Result<A::Value>> + Send + use<L, B, Fut, A>
    where
        B: FnMut() -> Fut + Send,
        Fut: Future<Output = Result<A>> + Send,
        A: TransactAttempt<L>,
    {
        let this = self.clone();
        async move {
            let mut rng = SplitMix64::from_entropy();
            let started = std::time::Instant::now();
            let mut attempt = 0;
            loop {
                attempt += 1;
                let outcome = match build().await {
                    Ok(attempt) => {
                        let (transaction, value) = attempt.into_parts();
                        transaction.send().await.map(|()| value)
                    }
                    Err(err) => Err(err),
                };
                match outcome {
                    Ok(value) => return Ok(value),
                    Err(err)
                        if policy.allows(attempt, started)
                            && (err.is_conflict() || err.is_retryable()) =>
                    {
                        pause(this.handle(), &policy, attempt - 1, &mut rng).await;
                    }
                    Err(err) => return Err(err),
                }
            }
        }
    }
}

/// What a [`Db::transact_retry`](crate::Db::transact_retry) attempt builds: a [`Transaction`], or a transaction with a
/// value of the caller's (`(Transaction, T)`), returned when that attempt lands. `L` is the
/// layout of the handle the loop runs on. Sealed: implemented by dynamap only.
pub trait TransactAttempt<L>: Sealed<(TransactAttemptSeal, L)> + Send {
    /// What the loop returns.
    type Value: Send;

    /// The transaction to send and the value to return if it lands.
    #[doc(hidden)]
    fn into_parts(self) -> (Transaction<L>, Self::Value);
}

impl<L> Sealed<(TransactAttemptSeal, L)> for Transaction<L> {}
impl<L, T: Send> Sealed<(TransactAttemptSeal, L)> for (Transaction<L>, T) {}

impl<L> TransactAttempt<L> for Transaction<L> {
    type Value = ();

    fn into_parts(self) -> (Transaction<L>, ()) {
        (self, ())
    }
}

impl<L, T: Send> TransactAttempt<L> for (Transaction<L>, T) {
    type Value = T;

    fn into_parts(self) -> (Transaction<L>, T) {
        self
    }
}
