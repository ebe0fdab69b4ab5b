//! Capped exponential backoff with full jitter, for the retries dynamap makes itself.
//!
//! Batch operations retry what DynamoDB did not do: items and keys it returned unprocessed,
//! and whole calls that were throttled or failed with a server error. Before retry number
//! `n` (counting from 0) they wait a random time drawn uniformly from
//! `[0, min(cap, base × 2ⁿ)]`: "full jitter", which AWS recommends because it spreads
//! competing clients apart better than a fixed or partly random delay.
//!
//! ```
//! use std::time::Duration;
//! use dynamap::retry::RetryPolicy;
//!
//! let policy = RetryPolicy::default()
//!     .base(Duration::from_millis(50))
//!     .cap(Duration::from_secs(5))
//!     .max_attempts(8);
//! assert_eq!(policy.ceiling(0), Duration::from_millis(50));
//! assert_eq!(policy.ceiling(2), Duration::from_millis(200));
//! assert_eq!(policy.ceiling(30), Duration::from_secs(5));
//! ```
//!
//! These retries come on top of the SDK's own (by default up to 3 attempts per call), which
//! cover single calls; dynamap's cover what the SDK cannot see, such as unprocessed items.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long [`Db::modify`](crate::Db::modify) and [`Db::transact_retry`](crate::Db::transact_retry)
/// keep starting new attempts while concurrent writers win: 30 seconds.
pub const CONTENTION_BUDGET: Duration = Duration::from_secs(30);

/// How long to wait between retries, and how many calls to try before giving up.
///
/// The default: base 25 ms, cap 2 s, 10 attempts. With those numbers the waits' ceilings are
/// 25, 50, 100, … 1,600 ms, then 2 s, so giving up takes about 6 s on average: long enough
/// to ride out a burst of throttling, short enough to report a real outage promptly.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// use std::time::Duration;
/// use dynamap::retry::RetryPolicy;
///
/// let patient = RetryPolicy::default().base(Duration::from_millis(50)).cap(Duration::from_secs(5)).max_attempts(20);
/// let sensors: Vec<Sensor> = Vec::new();
/// db.batch_write().put_all(&sensors).retry(patient).await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    base: Duration,
    cap: Duration,
    max_attempts: u32,
    budget: Option<Duration>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            base: Duration::from_millis(25),
            cap: Duration::from_secs(2),
            max_attempts: 10,
            budget: None,
        }
    }
}

impl RetryPolicy {
    /// The ceiling of the first wait; each later one doubles it, up to the [cap](Self::cap).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynamap::retry::RetryPolicy;
    /// let policy = RetryPolicy::default().base(Duration::from_millis(100));
    /// assert_eq!(policy.ceiling(0), Duration::from_millis(100));
    /// ```
    pub fn base(mut self, base: Duration) -> Self {
        self.base = base;
        self
    }

    /// The longest any single wait can be.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynamap::retry::RetryPolicy;
    /// let policy = RetryPolicy::default().cap(Duration::from_millis(500));
    /// assert_eq!(policy.ceiling(30), Duration::from_millis(500));
    /// ```
    pub fn cap(mut self, cap: Duration) -> Self {
        self.cap = cap;
        self
    }

    /// How many calls in a row may fail to make progress before the rest is given up and
    /// reported as failed. `0` is taken as `1`: the first call is always made.
    ///
    /// # Examples
    ///
    /// ```
    /// use dynamap::retry::RetryPolicy;
    /// assert_eq!(RetryPolicy::default().max_attempts(3).attempts(), 3);
    /// ```
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// The time retries may take, counted from the first call: once it has passed, no
    /// retry starts, whatever attempts are left (a call under way is not cut short).
    /// Read-modify-write loops ([`Db::modify`](crate::Db::modify),
    /// [`Db::transact_retry`](crate::Db::transact_retry)) honour it; without one, only the
    /// attempts limit them.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynamap::retry::RetryPolicy;
    /// // As many attempts as fit in 10 seconds.
    /// let policy = RetryPolicy::default().max_attempts(u32::MAX).time_budget(Duration::from_secs(10));
    /// assert_eq!(policy.budget(), Some(Duration::from_secs(10)));
    /// ```
    pub fn time_budget(mut self, budget: Duration) -> Self {
        self.budget = Some(budget);
        self
    }

    /// The [time budget](Self::time_budget), if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use dynamap::retry::RetryPolicy;
    /// assert_eq!(RetryPolicy::default().budget(), None);
    /// ```
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// The policy of the read-modify-write loops ([`Db::modify`](crate::Db::modify),
    /// [`Db::transact_retry`](crate::Db::transact_retry)): the default backoff, attempts
    /// unlimited, within [`CONTENTION_BUDGET`]. Under contention only one writer of an item
    /// wins each round, so a count of attempts that suits two writers fails fifty; time is
    /// what a caller can wait for.
    pub(crate) fn contention() -> Self {
        Self::default()
            .max_attempts(u32::MAX)
            .time_budget(CONTENTION_BUDGET)
    }

    /// Whether retry number `attempt` (the call after `attempt` calls made) may start, in
    /// a loop that started at `started`: attempts left and budget not spent.
    pub(crate) fn allows(&self, attempt: u32, started: Instant) -> bool {
        attempt < self.attempts() && self.budget.is_none_or(|budget| started.elapsed() < budget)
    }

    /// The configured number of attempts, at least 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use dynamap::retry::RetryPolicy;
    /// assert_eq!(RetryPolicy::default().attempts(), 10);
    /// ```
    pub fn attempts(&self) -> u32 {
        self.max_attempts.max(1)
    }

    /// The upper bound of the wait before retry `retry` (0 for the first retry):
    /// `min(cap, base × 2^retry)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynamap::retry::RetryPolicy;
    /// let policy = RetryPolicy::default();
    /// assert_eq!(policy.ceiling(0), Duration::from_millis(25));
    /// assert_eq!(policy.ceiling(1), Duration::from_millis(50));
    /// ```
    pub fn ceiling(&self, retry: u32) -> Duration {
        // Past 2^20 the product exceeds any sensible cap; stopping there also keeps the
        // multiplication from overflowing.
        let factor = 1u32 << retry.min(20);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// A random wait for retry `retry`, uniform in `[0, ceiling(retry)]`.
    pub(crate) fn delay(&self, retry: u32, rng: &mut SplitMix64) -> Duration {
        let ceiling = self.ceiling(retry).as_nanos();
        let ceiling = u64::try_from(ceiling).unwrap_or(u64::MAX);
        // `% (ceiling + 1)` has a bias of at most ceiling / 2^64: irrelevant for waits.
        Duration::from_nanos(rng.next_u64() % ceiling.saturating_add(1))
    }
}

/// The splitmix64 generator: tiny, fast and good enough for jitter and fault injection.
/// Not for anything that needs unpredictability.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting at `seed`: the same seed gives the same sequence.
    pub(crate) fn seeded(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator seeded from the clock and a process-wide counter, so that concurrent
    /// batches do not retry in lockstep.
    pub(crate) fn from_entropy() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        Self::seeded(mix(nanos ^ count.rotate_left(32)))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }
}

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// splitmix64's output function: a bijective mix of all 64 bits.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Waits before retry `round`, on the client's own timer (so any runtime works).
pub(crate) async fn pause(
    db: &crate::Handle,
    policy: &RetryPolicy,
    round: u32,
    rng: &mut SplitMix64,
) {
    sleep_for(db, policy.delay(round.min(16), rng)).await;
}

/// Sleeps `duration` with the client's async sleep (the runtime's default without one).
pub(crate) async fn sleep_for(db: &crate::Handle, duration: std::time::Duration) {
    use aws_smithy_async::rt::sleep::AsyncSleep;
    let sleep = db
        .client()
        .config()
        .sleep_impl()
        .or_else(aws_smithy_async::rt::sleep::default_async_sleep);
    if let Some(sleep) = sleep {
        sleep.sleep(duration).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceiling_doubles_from_base_up_to_cap() {
        let policy = RetryPolicy::default();
        let ceilings: Vec<_> = (0..9).map(|n| policy.ceiling(n).as_millis()).collect();
        assert_eq!(ceilings, [25, 50, 100, 200, 400, 800, 1600, 2000, 2000]);
        assert_eq!(policy.ceiling(u32::MAX), Duration::from_secs(2));
    }

    #[test]
    fn huge_base_saturates_at_cap() {
        let policy = RetryPolicy::default()
            .base(Duration::MAX)
            .cap(Duration::from_secs(5));
        assert_eq!(policy.ceiling(7), Duration::from_secs(5));
    }

    #[test]
    fn delays_stay_within_the_ceiling_and_are_spread_out() {
        let policy = RetryPolicy::default();
        let mut rng = SplitMix64::seeded(7);
        for retry in 0..40 {
            let ceiling = policy.ceiling(retry);
            let delays: Vec<_> = (0..200).map(|_| policy.delay(retry, &mut rng)).collect();
            assert!(delays.iter().all(|d| *d <= ceiling), "retry {retry}");
            assert!(delays.iter().all(|d| *d <= Duration::from_secs(2)));
            // Full jitter: draws cover the range, not just its top.
            assert!(delays.iter().any(|d| *d < ceiling / 4), "retry {retry}");
            assert!(delays.iter().any(|d| *d > ceiling * 3 / 4), "retry {retry}");
        }
    }

    #[test]
    fn mean_delay_grows_until_the_cap() {
        let policy = RetryPolicy::default();
        let mut rng = SplitMix64::seeded(1);
        let mean = |retry, rng: &mut SplitMix64| {
            (0..2000)
                .map(|_| policy.delay(retry, rng).as_secs_f64())
                .sum::<f64>()
                / 2000.0
        };
        let means: Vec<f64> = (0..7).map(|n| mean(n, &mut rng)).collect();
        assert!(means.windows(2).all(|w| w[1] > w[0] * 1.5), "{means:?}");
    }

    #[test]
    fn a_spent_budget_allows_no_more_retries_whatever_attempts_are_left() {
        let started = Instant::now();
        let policy = RetryPolicy::default().max_attempts(u32::MAX);
        assert!(policy.allows(1_000, started), "no budget: attempts only");
        let limited = policy.time_budget(Duration::from_secs(60));
        assert!(limited.allows(1_000, started));
        let spent = policy.time_budget(Duration::ZERO);
        assert!(!spent.allows(1, started));
        assert!(
            !RetryPolicy::default().allows(10, started),
            "10 attempts made"
        );
    }

    #[test]
    fn zero_attempts_means_one() {
        assert_eq!(RetryPolicy::default().max_attempts(0).attempts(), 1);
        assert_eq!(RetryPolicy::default().attempts(), 10);
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64::seeded(42), SplitMix64::seeded(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }
}
