//! A capacity budget: read and write units per second, spent from the `ConsumedCapacity`
//! DynamoDB returns, shared by every segment of a job.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Units per second a job may consume, held every second: no whole second of the job, the
/// first included, consumes more than the budget plus a tenth (or, for requests that each
/// cost more than a twentieth of a second's units, plus one request's units).
///
/// Each kind is a token bucket that holds a twentieth of a second's units at the most, so
/// that a stall saves nothing worth spending at once. A request waits until its expected
/// units are in the bucket and takes them: the units of a write are computed from the
/// item's size and the indexes it is in before any answer (a write to an item with one
/// index key costs about twice one without), the units of a scan page from the size of
/// the pages read before. Once DynamoDB says what the request consumed, the difference is
/// settled (so a bucket can go below zero, and the next request waits it back).
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

/// One kind's bucket. A request reserves what it is expected to consume before it is sent
/// (computed from its items' sizes and the indexes they are in, see `cost`), and settles
/// the difference once DynamoDB says what it consumed: so concurrent segments cannot all
/// start on the same units, and the first requests are paced right before any answer.
///
/// The bucket holds at most a twentieth of a second's units: what a stall of the process
/// saved is never spent at once, and no whole second sees more than the budget, a
/// twentieth of it, and the last request's overshoot (see [`Budget`]).
#[derive(Debug)]
pub(super) struct Bucket {
    rate: Option<f64>,
    /// The units in the bucket, and when it was last refilled.
    state: Mutex<(f64, Instant)>,
}

/// The part of a second's units the bucket holds at most.
const BURST: f64 = 1.0 / 20.0;

impl Bucket {
    pub(super) fn new(rate: Option<f64>) -> Self {
        let rate = rate.filter(|r| r.is_finite() && *r > 0.0);
        Bucket {
            rate,
            state: Mutex::new((rate.map_or(0.0, burst), Instant::now())),
        }
    }

    /// Whether this kind has a limit: only then is every request's consumed capacity
    /// asked of DynamoDB (asking slows every request a little).
    pub(super) fn limited(&self) -> bool {
        self.rate.is_some()
    }

    /// The most units one request should be expected to consume for the budget to hold
    /// each second within a tenth: a batch is made no larger (`None`: no limit).
    pub(super) fn largest_request(&self) -> Option<f64> {
        self.rate.map(burst)
    }

    /// Reserves a request's `expected` units: `None` when the bucket allowed it (and they
    /// are now taken), or how long to wait before asking again.
    pub(super) fn reserve(&self, expected: f64) -> Option<Duration> {
        self.reserve_at(expected, Instant::now())
    }

    /// Settles a request that reserved `reserved` units and consumed `units`.
    pub(super) fn settle(&self, reserved: f64, units: f64) {
        self.settle_at(reserved, units, Instant::now());
    }

    fn reserve_at(&self, expected: f64, now: Instant) -> Option<Duration> {
        let rate = self.rate?;
        // A request larger than the bucket waits for a full bucket, not forever, and the
        // bucket goes into debt by the rest: the next requests wait it back.
        let needed = expected.max(0.0).min(burst(rate));
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        if state.0 >= needed {
            state.0 -= expected.max(0.0);
            None
        } else {
            Some(Duration::from_secs_f64((needed - state.0) / rate))
        }
    }

    fn settle_at(&self, reserved: f64, units: f64, now: Instant) {
        let Some(rate) = self.rate else { return };
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        refill(&mut state, rate, now);
        state.0 -= units.max(0.0) - reserved.max(0.0);
    }
}

/// The units a bucket of `rate` holds at most: a twentieth of a second's, and at least
/// a tenth of a unit, so that a tiny budget still lets requests through.
fn burst(rate: f64) -> f64 {
    (rate * BURST).max(0.1)
}

/// Adds what `rate` earned since the last refill, up to the bucket's size.
fn refill(state: &mut (f64, Instant), rate: f64, now: Instant) {
    let earned = now.saturating_duration_since(state.1).as_secs_f64() * rate;
    state.0 = (state.0 + earned).min(burst(rate));
    state.1 = state.1.max(now);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_starts_with_a_twentieth_of_a_second_then_paces_requests() {
        let bucket = Bucket::new(Some(200.0));
        let start = Instant::now();
        // Ten units up front: five requests of two.
        for _ in 0..5 {
            assert_eq!(bucket.reserve_at(2.0, start), None);
        }
        assert_eq!(
            bucket.reserve_at(2.0, start),
            Some(Duration::from_millis(10))
        );
        let later = start + Duration::from_millis(10);
        assert_eq!(bucket.reserve_at(2.0, later), None);
        // That request consumed 402 units: the bucket is two seconds in debt.
        bucket.settle_at(2.0, 402.0, later);
        assert!(
            bucket
                .reserve_at(2.0, later)
                .is_some_and(|wait| wait >= Duration::from_secs(2))
        );
    }

    #[test]
    fn a_stall_saves_no_more_than_a_twentieth_of_a_second() {
        let bucket = Bucket::new(Some(200.0));
        let start = Instant::now();
        let after_stall = start + Duration::from_secs(60);
        let mut granted = 0.0;
        while bucket.reserve_at(1.0, after_stall).is_none() {
            granted += 1.0;
        }
        assert_eq!(granted, 10.0);
    }

    #[test]
    fn any_second_takes_at_most_the_budget_and_a_twentieth() {
        // Requests of 2 units every millisecond they are allowed, for 5 seconds.
        let bucket = Bucket::new(Some(200.0));
        let start = Instant::now();
        let mut granted = Vec::new();
        for ms in 0..5_000 {
            let now = start + Duration::from_millis(ms);
            while bucket.reserve_at(2.0, now).is_none() {
                bucket.settle_at(2.0, 2.0, now);
                granted.push(ms);
            }
        }
        for second in 0..5 {
            let units = 2.0 * granted.iter().filter(|&&ms| ms / 1_000 == second).count() as f64;
            assert!(units <= 210.0, "second {second}: {units} units");
            assert!(units >= 190.0, "second {second}: {units} units");
        }
    }

    #[test]
    fn a_request_larger_than_the_bucket_waits_for_a_full_one_and_goes_into_debt() {
        let bucket = Bucket::new(Some(20.0));
        let start = Instant::now();
        // The bucket holds one unit; a request of 10 takes it and owes 9.
        assert_eq!(bucket.reserve_at(10.0, start), None);
        let wait = bucket.reserve_at(10.0, start).expect("in debt");
        assert!(wait >= Duration::from_millis(500), "{wait:?}");
    }

    #[test]
    fn an_unlimited_bucket_never_waits() {
        let bucket = Bucket::new(None);
        for _ in 0..1000 {
            assert_eq!(bucket.reserve(100.0), None);
            bucket.settle(100.0, 100.0);
        }
    }
}
