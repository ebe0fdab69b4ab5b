//! What a job's requests of one kind consume: paced by the budget, and counted whether or
//! not a budget is set.
//!
//! Under a budget every request asks DynamoDB what it consumed: the bucket settles each
//! with the real figure. Without one, one request in [`SAMPLE_EVERY`] asks (asking costs
//! DynamoDB time: DynamoDB Local spends about a fifth of a batch write's time on it), and
//! the others count the units computed from their items (`cost`), scaled by how DynamoDB's
//! figures compared with the computed ones on the requests that asked.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::budget::Bucket;
use crate::Handle;
use crate::retry::sleep_for;

/// Without a budget, one request in this many asks DynamoDB what it consumed.
pub(super) const SAMPLE_EVERY: u64 = 16;

/// One kind's budget and count.
#[derive(Debug)]
pub(super) struct Meter {
    bucket: Bucket,
    requests: AtomicU64,
    /// DynamoDB's figures and the computed units of the requests that asked.
    sampled: Mutex<(f64, f64)>,
    /// Units counted so far, in thousandths.
    total: AtomicU64,
}

/// A request the meter let through.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ticket {
    computed: f64,
    reserved: f64,
    /// Whether the request asks DynamoDB what it consumed.
    pub(super) asks: bool,
}

impl Ticket {
    /// The request's units as computed once its answer is known (a scan page's, from the
    /// items it read).
    pub(super) fn computed(mut self, units: f64) -> Self {
        self.computed = units;
        self
    }
}

impl Meter {
    pub(super) fn new(rate: Option<f64>) -> Self {
        Meter {
            bucket: Bucket::new(rate),
            requests: AtomicU64::new(0),
            sampled: Mutex::new((0.0, 0.0)),
            total: AtomicU64::new(0),
        }
    }

    /// The most units one request should be expected to cost (`None`: no budget).
    pub(super) fn largest_request(&self) -> Option<f64> {
        self.bucket.largest_request()
    }

    /// Waits until the budget allows a request that `computed` says costs that many units.
    pub(super) async fn ready(&self, db: &Handle, computed: f64) -> Ticket {
        let asks = self.asks();
        let reserved = computed * self.ratio();
        while let Some(wait) = self.bucket.reserve(reserved) {
            sleep_for(db, wait).await;
        }
        Ticket {
            computed,
            reserved,
            asks,
        }
    }

    /// Whether the next request asks DynamoDB what it consumed: all under a budget, one in
    /// [`SAMPLE_EVERY`] without.
    fn asks(&self) -> bool {
        self.bucket.limited()
            || self
                .requests
                .fetch_add(1, Ordering::Relaxed)
                .is_multiple_of(SAMPLE_EVERY)
    }

    /// Settles `ticket`'s request, which DynamoDB answered with `reported` units (`None`:
    /// it failed, and consumed nothing that is known); returns the units counted for it.
    pub(super) fn settle(&self, ticket: Ticket, reported: Option<f64>) -> f64 {
        let units = match reported {
            None => 0.0,
            Some(units) if ticket.asks => {
                let mut sampled = self.sampled.lock().unwrap_or_else(|e| e.into_inner());
                sampled.0 += units;
                sampled.1 += ticket.computed;
                units
            }
            Some(_) => ticket.computed * self.ratio(),
        };
        self.bucket.settle(ticket.reserved, units);
        self.total
            .fetch_add((units.max(0.0) * 1000.0).round() as u64, Ordering::Relaxed);
        units
    }

    /// Units counted so far.
    pub(super) fn total(&self) -> f64 {
        self.total.load(Ordering::Relaxed) as f64 / 1000.0
    }

    /// DynamoDB's figures over the computed ones, on the requests that asked (1 before any).
    fn ratio(&self) -> f64 {
        let (reported, computed) = *self.sampled.lock().unwrap_or_else(|e| e.into_inner());
        if computed > 0.0 && reported > 0.0 {
            reported / computed
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_budget_one_request_in_sixteen_asks_and_scales_the_others() {
        let meter = Meter::new(None);
        let mut counted = 0.0;
        let mut asked = 0;
        for _ in 0..32 {
            let ticket = Ticket {
                asks: meter.asks(),
                computed: 2.0,
                reserved: 2.0,
            };
            asked += usize::from(ticket.asks);
            // DynamoDB says each costs 3.
            counted += meter.settle(ticket, Some(3.0));
        }
        assert_eq!(asked, 2);
        assert_eq!(counted, 96.0);
        assert_eq!(meter.total(), 96.0);
    }
}
