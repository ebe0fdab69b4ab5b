//! What a job reports: as it goes (progress) and when it ends.

use std::time::Duration;

use crate::Error;
use crate::batch::ItemKey;

/// What a job did, or in a dry run would do, in this run.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Report {
    /// Items of the entity read, not counting those [met again](Self::met_again).
    pub scanned: u64,
    /// Items already as the entity renders them, or that nothing asked for applies to.
    pub unchanged: u64,
    /// Items this run moved and its scan then met again at their new key (a move puts the
    /// item where the scan may not have been yet): counted once, as moved, not here, in
    /// [`scanned`](Self::scanned) or in [`unchanged`](Self::unchanged). (A run remembers
    /// the first 2,000,000 keys it moved items to; past them, such items count as unchanged.)
    pub met_again: u64,
    /// Items rewritten in place because a key (primary, index, or type) differed.
    pub rekeyed: u64,
    /// Items rewritten in place from an older schema version.
    pub upgraded: u64,
    /// Items rewritten in place because the job's function changed them.
    pub mapped: u64,
    /// Items moved to a new primary key (put there and deleted here, in one transaction).
    pub moved: u64,
    /// Items deleted by the job's function.
    pub deleted: u64,
    /// Writes that lost a race to a concurrent writer and were redone from a fresh read.
    pub conflicts_redone: u64,
    /// Items that could not be read or written, with their keys and errors (the first
    /// 1,000; `failed_count` counts them all).
    pub failed: Vec<FailedItem>,
    /// How many items failed.
    pub failed_count: u64,
    /// Segments finished in this run.
    pub segments_done: u32,
    /// Segments a checkpoint said were finished before, skipped.
    pub segments_skipped: u32,
    /// In a dry run, the first changes it would make.
    pub samples: Vec<Sample>,
    /// Read capacity units the job's scans consumed, with or without a budget. Under a
    /// read [`Budget`](super::Budget) they are DynamoDB's figures; without one, DynamoDB is
    /// asked for one scan page in 16 (asking slows a request) and the others are computed
    /// from the items they read, scaled by how DynamoDB's figures compared.
    pub read_units: f64,
    /// Write capacity units the job's writes and checkpoints consumed, counted as the
    /// [`read_units`](Self::read_units) are: DynamoDB's figures under a write budget,
    /// otherwise one write in 16 asked and the others computed from the items' sizes and
    /// the indexes they are in.
    pub write_units: f64,
}

impl Report {
    /// Items written (or, in a dry run, to be written).
    pub fn changed(&self) -> u64 {
        self.rekeyed + self.upgraded + self.mapped + self.moved + self.deleted
    }

    pub(super) fn add(&mut self, other: Report) {
        self.scanned += other.scanned;
        self.unchanged += other.unchanged;
        self.met_again += other.met_again;
        self.rekeyed += other.rekeyed;
        self.upgraded += other.upgraded;
        self.mapped += other.mapped;
        self.moved += other.moved;
        self.deleted += other.deleted;
        self.conflicts_redone += other.conflicts_redone;
        self.failed_count += other.failed_count;
        self.segments_done += other.segments_done;
        self.segments_skipped += other.segments_skipped;
        self.read_units += other.read_units;
        self.write_units += other.write_units;
        let room = MAX_FAILED.saturating_sub(self.failed.len());
        self.failed.extend(other.failed.into_iter().take(room));
        let room = MAX_SAMPLES.saturating_sub(self.samples.len());
        self.samples.extend(other.samples.into_iter().take(room));
    }
}

/// Failed items kept with their errors; the rest are counted.
pub(super) const MAX_FAILED: usize = 1_000;
/// Changes a dry run shows.
pub(super) const MAX_SAMPLES: usize = 20;

/// An item the job could not read or write.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FailedItem {
    /// Its key as stored.
    pub key: ItemKey,
    /// What went wrong.
    pub error: Error,
}

/// A change a dry run would make.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sample {
    /// The item's key as stored.
    pub before: ItemKey,
    /// Its key after the change (`None`: deleted).
    pub after: Option<ItemKey>,
    /// What kind of change: `"rekey"`, `"upgrade"`, `"map"`, `"move"` or `"delete"`.
    pub change: &'static str,
}

/// How far a job has come, after each page of each segment.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// Items of the entity read so far in this run.
    pub scanned: u64,
    /// Items written (or to be written, in a dry run) so far.
    pub changed: u64,
    /// Every item of the scan pages done so far, of any entity type (the scan reads them
    /// all and keeps the entity's), those [met again](Self::met_again) included; not the
    /// jobs' own checkpoint items, which the scan reads too but which are no item of the
    /// table's data.
    pub items_read: u64,
    /// Items this run moved and then met again at their new key (see
    /// [`Report::met_again`]): read twice, but one item of the table.
    pub met_again: u64,
    /// How many items this run's segments hold, estimated from the table's item count
    /// (which DynamoDB updates about every six hours); `None` when it is not known.
    pub items_expected: Option<u64>,
    /// Read capacity units consumed so far, counted as [`Report::read_units`] is.
    pub read_units: f64,
    /// Write capacity units consumed so far, the job's checkpoints included, counted as
    /// [`Report::write_units`] is.
    pub write_units: f64,
    /// Segments finished of those this run reads.
    pub segments_done: u32,
    /// Segments this run reads.
    pub segments: u32,
    /// Time since the run started.
    pub elapsed: Duration,
    /// The time since the first progress (once every segment's first pages are under way)
    /// and the table's items done since: the ETA's rate, without the start's wait.
    pub(super) rate: (Duration, u64),
}

impl Progress {
    /// Items of the entity read per second so far.
    pub fn items_per_second(&self) -> f64 {
        self.scanned as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }

    /// The time left, estimated from the table's items still to read at the rate read so
    /// far, measured from the first progress on (the time the first pages took to come is
    /// not a rate). Items met again at the key this run moved them to are not items of the
    /// table still to read: they count neither as read nor as left, and the time spent on
    /// them is spread over the others. `None` until items are done after the first
    /// progress, when the table's item count is not known, or once the run has read more
    /// than it counted on (the count is DynamoDB's estimate).
    pub fn eta(&self) -> Option<Duration> {
        if self.segments_done == self.segments {
            return Some(Duration::ZERO);
        }
        let read = self.items_read.saturating_sub(self.met_again);
        let left = self.items_expected?.checked_sub(read)?;
        let (time, items) = self.rate;
        if items == 0 {
            return None;
        }
        let per_item = time.as_secs_f64() / items as f64;
        Some(Duration::from_secs_f64(per_item * left as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(items_read: u64, items_expected: Option<u64>, elapsed: u64) -> Progress {
        Progress {
            scanned: items_read / 2,
            changed: 0,
            items_read,
            met_again: 0,
            items_expected,
            read_units: 0.0,
            write_units: 0.0,
            segments_done: 0,
            segments: 8,
            elapsed: Duration::from_secs(elapsed),
            rate: (Duration::from_secs(elapsed), items_read),
        }
    }

    #[test]
    fn the_eta_is_what_is_left_at_the_rate_so_far() {
        assert_eq!(
            progress(1_000, Some(4_000), 10).eta(),
            Some(Duration::from_secs(30))
        );
    }

    #[test]
    fn no_eta_without_a_count_before_any_read_or_past_the_count() {
        assert_eq!(progress(1_000, None, 10).eta(), None);
        assert_eq!(progress(0, Some(4_000), 10).eta(), None);
        assert_eq!(progress(5_000, Some(4_000), 10).eta(), None);
    }

    #[test]
    fn items_met_again_are_neither_read_nor_left() {
        let moving = Progress {
            met_again: 500,
            rate: (Duration::from_secs(10), 1_000),
            ..progress(1_500, Some(4_000), 10)
        };
        assert_eq!(moving.eta(), Some(Duration::from_secs(30)));
    }

    #[test]
    fn a_finished_run_has_no_time_left() {
        let done = Progress {
            segments_done: 8,
            ..progress(5_000, Some(4_000), 10)
        };
        assert_eq!(done.eta(), Some(Duration::ZERO));
    }
}
