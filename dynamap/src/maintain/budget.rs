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

/// One kind's bucket.
#[derive(Debug)]
pub(super) struct Bucket {
    rate: Option<f64>,
    state: Mutex<(f64, Instant)>,
}

impl Bucket {
    pub(super) fn new(rate: Option<f64>) -> Self {
        let rate = rate.filter(|r| r.is_finite() && *r > 0.0);
        Bucket {
            rate,
            state: Mutex::new((rate.map_or(0.0, |r| r.max(1.0)), Instant::now())),
        }
    }

    /// How long to wait before the bucket holds a unit or more (`None`: it does now).
    pub(super) fn wait(&self) -> Option<Duration> {
        self.wait_at(Instant::now())
    }

    /// Takes `units` consumed out of the bucket.
    pub(super) fn spend(&self, units: f64) {
        self.spend_at(units, Instant::now());
    }

    fn wait_at(&self, now: Instant) -> Option<Duration> {
        let rate = self.rate?;
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        (state.0 < 1.0).then(|| Duration::from_secs_f64((1.0 - state.0) / rate))
    }

    fn spend_at(&self, units: f64, now: Instant) {
        let Some(rate) = self.rate else { return };
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        state.0 -= units;
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
            assert_eq!(bucket.wait_at(start), None);
            bucket.spend_at(1.0, start);
        }
        assert_eq!(bucket.wait_at(start), Some(Duration::from_millis(100)));
        // A tenth of a second later, one more unit.
        let later = start + Duration::from_millis(100);
        assert_eq!(bucket.wait_at(later), None);
        // A request that consumed 20 units puts the bucket two seconds in debt.
        bucket.spend_at(20.0, later);
        assert_eq!(bucket.wait_at(later), Some(Duration::from_secs(2)));
        // Idle time earns at most one second's worth.
        let much_later = later + Duration::from_secs(60);
        bucket.spend_at(0.0, much_later);
        assert_eq!(bucket.wait_at(much_later), None);
        bucket.spend_at(10.0, much_later);
        assert!(bucket.wait_at(much_later).is_some());
    }

    #[test]
    fn a_budget_below_one_unit_a_second_still_lets_requests_through() {
        let bucket = Bucket::new(Some(0.5));
        let start = Instant::now();
        assert_eq!(bucket.wait_at(start), None);
        bucket.spend_at(1.0, start);
        assert_eq!(bucket.wait_at(start), Some(Duration::from_secs(2)));
        assert_eq!(bucket.wait_at(start + Duration::from_secs(2)), None);
    }

    #[test]
    fn an_unlimited_bucket_never_waits() {
        let bucket = Bucket::new(None);
        for _ in 0..1000 {
            assert_eq!(bucket.wait(), None);
            bucket.spend(100.0);
        }
    }
}
