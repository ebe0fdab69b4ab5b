//! A capacity budget: read and write units per second, spent from the `ConsumedCapacity`
//! DynamoDB returns, shared by every segment of a job.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Units per second a job may consume. Each kind is a token bucket holding at most one
/// second of units (and at least one unit): a request waits while its bucket is empty, and what it consumed is taken
/// out afterwards (so a bucket can go below zero, and the next request waits it back).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Budget {
    /// Read capacity units per second (`None`: unlimited).
    pub read_units: Option<f64>,
    /// Write capacity units per second (`None`: unlimited).
    pub write_units: Option<f64>,
}

impl Budget {
    /// No limit on either kind.
    pub const UNLIMITED: Budget = Budget {
        read_units: None,
        write_units: None,
    };

    /// At most `units` read capacity units per second.
    pub fn reads(mut self, units: f64) -> Self {
        self.read_units = Some(units);
        self
    }

    /// At most `units` write capacity units per second.
    pub fn writes(mut self, units: f64) -> Self {
        self.write_units = Some(units);
        self
    }
}

/// One kind's bucket. A request reserves what requests of its kind have consumed on
/// average before it is sent, and settles the difference once DynamoDB says what it
/// consumed: so concurrent segments cannot all start on the same unit.
#[derive(Debug)]
pub(super) struct Bucket {
    rate: Option<f64>,
    /// The units in the bucket, and when it was last refilled.
    state: Mutex<(f64, Instant)>,
    /// Units a request of this kind consumes, on average (starting at one).
    estimate: Mutex<f64>,
}

impl Bucket {
    pub(super) fn new(rate: Option<f64>) -> Self {
        let rate = rate.filter(|r| r.is_finite() && *r > 0.0);
        Bucket {
            rate,
            state: Mutex::new((rate.map_or(0.0, |r| r.max(1.0)), Instant::now())),
            estimate: Mutex::new(1.0),
        }
    }

    /// Whether this kind has a limit: only then are its requests' units asked of DynamoDB
    /// (asking slows every request a little) and counted.
    pub(super) fn limited(&self) -> bool {
        self.rate.is_some()
    }

    /// Reserves a request's expected units: `None` when they are there (and now taken), or
    /// how long to wait before asking again.
    pub(super) fn reserve(&self) -> Option<Duration> {
        self.reserve_at(Instant::now())
    }

    /// Settles a request that reserved [`reserve`](Self::reserve)'s units and consumed
    /// `units`.
    pub(super) fn settle(&self, units: f64) {
        self.settle_at(units, Instant::now());
    }

    fn expected(&self) -> f64 {
        *self.estimate.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn reserve_at(&self, now: Instant) -> Option<Duration> {
        let rate = self.rate?;
        // A request larger than a second's worth waits for a full bucket, not forever.
        let needed = self.expected().min(rate.max(1.0));
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        if state.0 >= needed {
            state.0 -= needed;
            None
        } else {
            Some(Duration::from_secs_f64((needed - state.0) / rate))
        }
    }

    fn settle_at(&self, units: f64, now: Instant) {
        let Some(rate) = self.rate else { return };
        let reserved = {
            let mut estimate = self.estimate.lock().unwrap_or_else(|e| e.into_inner());
            let reserved = estimate.min(rate.max(1.0));
            *estimate = 0.8 * *estimate + 0.2 * units.max(0.0);
            reserved
        };
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        state.0 -= units - reserved;
    }
}

/// Adds what `rate` earned since the last refill, up to one second's worth.
fn refill(state: &mut (f64, Instant), rate: f64, now: Instant) {
    let earned = now.saturating_duration_since(state.1).as_secs_f64() * rate;
    state.0 = (state.0 + earned).min(rate.max(1.0));
    state.1 = state.1.max(now);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_lets_a_second_of_units_through_then_paces_them() {
        let bucket = Bucket::new(Some(10.0));
        let start = Instant::now();
        for _ in 0..10 {
            assert_eq!(bucket.reserve_at(start), None);
            bucket.settle_at(1.0, start);
        }
        assert_eq!(bucket.reserve_at(start), Some(Duration::from_millis(100)));
        // A tenth of a second later, one more unit.
        let later = start + Duration::from_millis(100);
        assert_eq!(bucket.reserve_at(later), None);
        // That request consumed 21 units: the bucket is two seconds in debt.
        bucket.settle_at(21.0, later);
        assert!(
            bucket
                .reserve_at(later)
                .is_some_and(|wait| wait >= Duration::from_secs(2))
        );
        // Idle time earns at most one second's worth.
        let much_later = later + Duration::from_secs(60);
        assert_eq!(bucket.reserve_at(much_later), None);
    }

    #[test]
    fn concurrent_requests_each_reserve_before_any_is_settled() {
        let bucket = Bucket::new(Some(10.0));
        let start = Instant::now();
        // Requests consume 5 units each: once that is known, two fit in a second, not ten.
        assert_eq!(bucket.reserve_at(start), None);
        bucket.settle_at(5.0, start);
        let mut granted = 0;
        while bucket.reserve_at(start).is_none() {
            granted += 1;
        }
        assert!(
            granted <= 4,
            "{granted} requests started on 5 remaining units"
        );
    }

    #[test]
    fn a_budget_below_one_unit_a_second_still_lets_requests_through() {
        let bucket = Bucket::new(Some(0.5));
        let start = Instant::now();
        assert_eq!(bucket.reserve_at(start), None);
        bucket.settle_at(1.0, start);
        assert!(bucket.reserve_at(start).is_some());
        assert_eq!(bucket.reserve_at(start + Duration::from_secs(2)), None);
    }

    #[test]
    fn an_unlimited_bucket_never_waits() {
        let bucket = Bucket::new(None);
        for _ in 0..1000 {
            assert_eq!(bucket.reserve(), None);
            bucket.settle(100.0);
        }
    }
}
