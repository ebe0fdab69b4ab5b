//! Fault injection for tests: see [`Faults`].

mod http;
mod response;
mod unprocessed;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::config::SharedHttpClient;

use crate::rng::{SplitMix64, mix};

/// A fault chosen for one call.
///
/// # Examples
///
/// ```
/// use dynamap_local::{Fault, Faults};
///
/// let faults = Faults::seeded(7).throttle(1.0).only(["BatchWriteItem"]);
/// assert_eq!(faults.decide("BatchWriteItem", 0), Some(Fault::Throttle));
/// assert_eq!(faults.decide("GetItem", 0), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fault {
    /// Answer `ProvisionedThroughputExceededException` (HTTP 400), sending nothing on.
    Throttle,
    /// Answer `InternalServerError` (HTTP 500), sending nothing on.
    ServerError,
    /// Leave some of a batch call's items or keys unprocessed.
    Unprocessed,
}

/// Which faults to inject, and how often: a DynamoDB client whose calls are throttled,
/// fail with server errors, or leave batch items unprocessed, at chosen rates and
/// reproducibly from a seed.
///
/// ```no_run
/// use dynamap_local::{DynamoLocal, Faults};
/// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
///
/// # async fn t() -> dynamap_local::Result<()> {
/// let faults = Faults::seeded(42).throttle(0.05).server_error(0.01).unprocessed(0.05);
/// let db = DynamoLocal::shared()?.fresh_db_with_faults::<App>("fanout", &faults).await?;
/// // ... run the code under test against `db` ...
/// let counts = faults.counts();
/// assert!(counts.throttled > 0 && counts.unprocessed_items > 0, "{counts:?}");
/// # Ok(()) }
/// ```
///
/// # How faults are made
///
/// `Faults` wraps the SDK's HTTP client, so faults happen where real ones do, below the
/// SDK, and everything above (the SDK's parsing and retries, dynamap) sees what it would
/// see from DynamoDB:
///
/// - a **throttle** answers HTTP 400 with `ProvisionedThroughputExceededException`, and a
///   **server error** HTTP 500 with `InternalServerError`, without forwarding the request:
///   nothing is written or read;
/// - **unprocessed** (only `BatchWriteItem` and `BatchGetItem`) removes some of the request's
///   items or keys (each with probability ½, at least one) before forwarding it, and adds
///   them to the response's `UnprocessedItems` or `UnprocessedKeys`, exactly as DynamoDB
///   reports work it did not do. If every item is removed, nothing is forwarded.
///
/// Rewriting a request body invalidates its signature. DynamoDB Local does not check
/// signatures; real DynamoDB would reject the call, so use `unprocessed` against
/// DynamoDB Local only.
///
/// # Reproducible
///
/// Call number *n* (counting the calls the faults apply to, from 0) gets its fate from
/// `splitmix64(seed, n)`: the same seed gives the same sequence of decisions
/// ([`Faults::decide`]). With calls in flight concurrently, which request becomes call *n*
/// depends on timing; sequential code sees the very same faults on every run.
///
/// # Counting
///
/// Clones of a [`Faults`] share one call counter and one set of [`FaultCounts`], so a test
/// can keep a clone and check that faults really happened.
#[derive(Clone)]
pub struct Faults {
    seed: u64,
    throttle: f64,
    server_error: f64,
    unprocessed: f64,
    only: Option<Arc<[String]>>,
    state: Arc<State>,
}

/// The counters clones share.
#[derive(Debug, Default)]
struct State {
    calls: AtomicU64,
    throttled: AtomicU64,
    server_errors: AtomicU64,
    unprocessed_calls: AtomicU64,
    unprocessed_items: AtomicU64,
}

/// How many calls the faults saw and how many of each fault they injected.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example() -> dynamap_local::Result<()> {
/// use dynamap_local::{DynamoLocal, Faults};
/// let faults = Faults::seeded(1).unprocessed(0.2);
/// let db = DynamoLocal::shared()?.fresh_db_with_faults::<App>("counts", &faults).await?;
/// // ... run the code under test ...
/// let counts = faults.counts();
/// println!("{} of {} calls faulty", counts.faulty_calls(), counts.calls);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FaultCounts {
    /// Calls the faults applied to (all calls, or those chosen with [`Faults::only`]).
    pub calls: u64,
    /// Calls answered with a throttling error.
    pub throttled: u64,
    /// Calls answered with a server error.
    pub server_errors: u64,
    /// Batch calls that had items or keys made unprocessed.
    pub unprocessed_calls: u64,
    /// Items and keys made unprocessed, over all those calls.
    pub unprocessed_items: u64,
}

impl FaultCounts {
    /// Calls that got any fault.
    pub fn faulty_calls(&self) -> u64 {
        self.throttled + self.server_errors + self.unprocessed_calls
    }
}

impl Faults {
    /// No faults yet, decisions drawn from `seed`; add rates with the other methods.
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            throttle: 0.0,
            server_error: 0.0,
            unprocessed: 0.0,
            only: None,
            state: Arc::default(),
        }
    }

    /// Throttles this fraction of calls (clamped to `0.0..=1.0`).
    pub fn throttle(mut self, rate: f64) -> Self {
        self.throttle = clamp(rate);
        self
    }

    /// Fails this fraction of calls with a server error.
    pub fn server_error(mut self, rate: f64) -> Self {
        self.server_error = clamp(rate);
        self
    }

    /// Leaves items unprocessed in this fraction of `BatchWriteItem` and `BatchGetItem`
    /// calls. Other operations are not affected by this rate.
    pub fn unprocessed(mut self, rate: f64) -> Self {
        self.unprocessed = clamp(rate);
        self
    }

    /// Applies the faults only to these operations (such as `"BatchWriteItem"`); other calls
    /// pass untouched and are not counted. By default every operation is subject.
    pub fn only<S: Into<String>>(mut self, operations: impl IntoIterator<Item = S>) -> Self {
        self.only = Some(operations.into_iter().map(Into::into).collect());
        self
    }

    /// The fault for call number `call` of `operation`, as the injector decides it:
    /// the same for the same seed, rates and arguments, every time.
    pub fn decide(&self, operation: &str, call: u64) -> Option<Fault> {
        self.draw(operation, call).0
    }

    /// The counts so far, shared by every clone of these faults.
    pub fn counts(&self) -> FaultCounts {
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let state = &self.state;
        FaultCounts {
            calls: load(&state.calls),
            throttled: load(&state.throttled),
            server_errors: load(&state.server_errors),
            unprocessed_calls: load(&state.unprocessed_calls),
            unprocessed_items: load(&state.unprocessed_items),
        }
    }

    /// Wraps `inner` so that calls through it get these faults. Use this to inject faults
    /// into a client configured your own way; [`DynamoLocal::faulty_client`](super::DynamoLocal::faulty_client)
    /// does it for DynamoDB Local.
    pub fn wrap(&self, inner: SharedHttpClient) -> SharedHttpClient {
        SharedHttpClient::new(http::FaultyClient::new(inner, self.clone()))
    }

    /// Wraps the HTTP client this crate's clients use (hyper with rustls).
    pub fn wrap_default(&self) -> SharedHttpClient {
        self.wrap(super::client::http_client())
    }

    fn applies_to(&self, operation: &str) -> bool {
        self.only
            .as_deref()
            .is_none_or(|only| only.iter().any(|o| o == operation))
    }

    /// The fault for a call, and a generator for any further choices it needs.
    fn draw(&self, operation: &str, call: u64) -> (Option<Fault>, SplitMix64) {
        let mut rng = SplitMix64::seeded(self.seed ^ mix(call));
        let roll = rng.next_f64();
        let batch = matches!(operation, "BatchWriteItem" | "BatchGetItem");
        let fault = if !self.applies_to(operation) {
            None
        } else if roll < self.throttle {
            Some(Fault::Throttle)
        } else if roll < self.throttle + self.server_error {
            Some(Fault::ServerError)
        } else if batch && roll < self.throttle + self.server_error + self.unprocessed {
            Some(Fault::Unprocessed)
        } else {
            None
        };
        (fault, rng)
    }

    /// Takes the next call number for `operation` and decides its fate, counting it.
    fn next_call(&self, operation: &str) -> (Option<Fault>, SplitMix64) {
        if !self.applies_to(operation) {
            return (None, SplitMix64::seeded(0));
        }
        let call = self.state.calls.fetch_add(1, Ordering::Relaxed);
        let (fault, rng) = self.draw(operation, call);
        let counter = match fault {
            Some(Fault::Throttle) => Some(&self.state.throttled),
            Some(Fault::ServerError) => Some(&self.state.server_errors),
            // Counted once the items are actually removed.
            Some(Fault::Unprocessed) | None => None,
        };
        if let Some(counter) = counter {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        (fault, rng)
    }

    fn count_unprocessed(&self, items: usize) {
        self.state.unprocessed_calls.fetch_add(1, Ordering::Relaxed);
        let items = u64::try_from(items).unwrap_or(u64::MAX);
        self.state
            .unprocessed_items
            .fetch_add(items, Ordering::Relaxed);
    }
}

fn clamp(rate: f64) -> f64 {
    if rate.is_nan() {
        0.0
    } else {
        rate.clamp(0.0, 1.0)
    }
}

impl fmt::Debug for Faults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Faults")
            .field("seed", &self.seed)
            .field("throttle", &self.throttle)
            .field("server_error", &self.server_error)
            .field("unprocessed", &self.unprocessed)
            .field("only", &self.only)
            .field("counts", &self.counts())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_decisions_other_seed_others() {
        let faults = |seed| Faults::seeded(seed).throttle(0.2).unprocessed(0.2);
        let plan = |f: &Faults| {
            (0..500)
                .map(|n| f.decide("BatchWriteItem", n))
                .collect::<Vec<_>>()
        };
        assert_eq!(plan(&faults(42)), plan(&faults(42)));
        assert_ne!(plan(&faults(42)), plan(&faults(43)));
    }

    #[test]
    fn rates_are_roughly_honoured() {
        let faults = Faults::seeded(7)
            .throttle(0.05)
            .server_error(0.01)
            .unprocessed(0.1);
        let decisions: Vec<_> = (0..20_000)
            .map(|n| faults.decide("BatchWriteItem", n))
            .collect();
        let share =
            |fault| decisions.iter().filter(|d| **d == Some(fault)).count() as f64 / 20_000.0;
        assert!((share(Fault::Throttle) - 0.05).abs() < 0.01);
        assert!((share(Fault::ServerError) - 0.01).abs() < 0.005);
        assert!((share(Fault::Unprocessed) - 0.1).abs() < 0.01);
    }

    #[test]
    fn unprocessed_only_for_batches_and_only_filters() {
        let faults = Faults::seeded(1).unprocessed(1.0);
        assert_eq!(faults.decide("PutItem", 0), None);
        assert_eq!(faults.decide("BatchGetItem", 0), Some(Fault::Unprocessed));
        let faults = Faults::seeded(1).throttle(1.0).only(["Query"]);
        assert_eq!(faults.decide("PutItem", 0), None);
        assert_eq!(faults.decide("Query", 0), Some(Fault::Throttle));
        assert_eq!(
            Faults::seeded(1).throttle(f64::NAN).decide("Query", 0),
            None
        );
    }

    #[test]
    fn clones_share_counts() {
        let faults = Faults::seeded(3).throttle(1.0);
        let clone = faults.clone();
        let _ = clone.next_call("PutItem");
        let _ = clone.next_call("PutItem");
        assert_eq!(faults.counts().calls, 2);
        assert_eq!(faults.counts().throttled, 2);
        assert_eq!(faults.counts().faulty_calls(), 2);
    }
}
