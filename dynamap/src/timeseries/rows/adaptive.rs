//! [`WritePath::Adaptive`](super::WritePath::Adaptive): guessing from what a handle's
//! earlier writes found.
//!
//! Each path costs one request when its guess is right and two when it is wrong: create-first
//! is right when the timestamp's row is new, map-first when it already exists. So the
//! cheaper path is the one that follows whichever case is more frequent, whatever the
//! events' age. The handle keeps an exponentially weighted share of writes that found their
//! row already there, and creates first while that share is at most two thirds: not one
//! half, because map-first pays a third request when several writers of a new timestamp
//! race (add refused, create refused, add), and create-first never pays more than two. The
//! ingest benchmark measured the even split: create-first 1.50 requests per event, a
//! one-half threshold 1.75.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// Fixed point: `ONE` is a share of 1.
const ONE: u32 = 1 << 16;

/// Each write moves the share a sixteenth of the way to what it found: recent writes count,
/// and one odd write does not flip the choice.
const WEIGHT_SHIFT: u32 = 4;

/// The share of recent writes that found their row already there, shared by a handle's
/// clones.
#[derive(Debug, Clone)]
pub(crate) struct RowsSeen(Arc<AtomicU32>);

impl Default for RowsSeen {
    /// No evidence yet: an even share, which creates first.
    fn default() -> Self {
        Self(Arc::new(AtomicU32::new(ONE / 2)))
    }
}

impl RowsSeen {
    /// Whether the next write should create the row first.
    pub(crate) fn prefers_create(&self) -> bool {
        self.0.load(Ordering::Relaxed) <= ONE / 3 * 2
    }

    /// Records what a finished write found. `requests` is how many it took: a right first
    /// guess takes one, so a create-first write that took more found the row there, and a
    /// map-first write that took one found it there.
    pub(crate) fn record(&self, started_with_create: bool, requests: u32) {
        let found_row = if started_with_create {
            requests > 1
        } else {
            requests == 1
        };
        let target = if found_row { ONE } else { 0 };
        // Concurrent writers may interleave updates; losing one to a race only delays the
        // estimate by a write, so a plain update loop suffices.
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |share| {
                let share = i64::from(share);
                let moved = share + ((i64::from(target) - share) >> WEIGHT_SHIFT);
                u32::try_from(moved).ok()
            });
    }

    #[cfg(test)]
    fn share(&self) -> f64 {
        f64::from(self.0.load(Ordering::Relaxed)) / f64::from(ONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_creating_and_follows_what_writes_find() {
        let seen = RowsSeen::default();
        assert!(seen.prefers_create(), "no evidence: create first");
        // New rows, created in one request each: keep creating.
        for _ in 0..20 {
            seen.record(true, 1);
        }
        assert!(seen.prefers_create());
        assert!(seen.share() < 0.2, "{}", seen.share());
        // Now every create is refused (the rows exist): switch within a few writes.
        let mut switched_after = None;
        for n in 1..=40 {
            seen.record(true, 2);
            if !seen.prefers_create() {
                switched_after = Some(n);
                break;
            }
        }
        assert!(
            matches!(switched_after, Some(n) if n <= 20),
            "{switched_after:?}"
        );
        // Map-first writes that succeed at once confirm the rows exist.
        for _ in 0..20 {
            seen.record(false, 1);
        }
        assert!(!seen.prefers_create());
        // Map-first writes that needed a create mean new rows again: switch back.
        for _ in 0..40 {
            seen.record(false, 2);
        }
        assert!(seen.prefers_create());
    }

    #[test]
    fn clones_share_what_they_learn() {
        let seen = RowsSeen::default();
        let clone = seen.clone();
        for _ in 0..40 {
            clone.record(true, 2);
        }
        assert!(!seen.prefers_create());
    }
}
