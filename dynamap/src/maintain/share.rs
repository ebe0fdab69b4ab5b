//! A worker's share of a job's segments: worker `index` of `count` runs a contiguous part of
//! `0..segments`, so that the workers of a batch engine (a Kubernetes Indexed Job, an AWS
//! Batch array job) split one job with no coordinator: each knows only its own index.

use std::ops::Range;

use super::Maintain;
use crate::{Entity, Error, Result};

/// Worker `index` of `count` (set by [`Maintain::worker`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Worker {
    pub(super) index: u32,
    pub(super) count: u32,
}

impl Worker {
    /// The segments of `0..segments` this worker runs: `index * segments / count` up to
    /// `(index + 1) * segments / count`. Consecutive workers' shares meet end to start, the
    /// first starts at 0 and the last ends at `segments`, so every segment is in exactly one
    /// share; shares differ in size by one at most.
    pub(super) fn share(self, segments: u32) -> Result<Range<u32>> {
        let Worker { index, count } = self;
        if count == 0 || index >= count {
            return Err(Error::InvalidSetting {
                setting: "worker",
                reason: format!(
                    "worker {index} of {count}: the index counts from 0 to the workers' count less one"
                ),
            });
        }
        if count > segments {
            return Err(Error::InvalidSetting {
                setting: "worker",
                reason: format!(
                    "{count} workers share {segments} segments: some would have none; give at \
                     least as many segments as workers"
                ),
            });
        }
        // In u64: `index * segments` passes u32 for a million segments and thousands of workers.
        let bound = |i: u32| (u64::from(i) * u64::from(segments) / u64::from(count)) as u32;
        Ok(bound(index)..bound(index + 1))
    }
}

impl<E: Entity + Send + Sync> Maintain<E> {
    /// Runs the share of worker `index` (from 0) of `count` workers of the job's
    /// [`segments`](Self::segments): a contiguous part of them, shares differing in size by
    /// one at most, every segment in exactly one share. The index is what the batch engine
    /// gives each worker: a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, an AWS Batch array
    /// job's `AWS_BATCH_JOB_ARRAY_INDEX`. Every worker runs the same job name and segments;
    /// a worker retried with the same index resumes its segments from their checkpoints.
    ///
    /// In place of [`only_segments`](Self::only_segments), which names the segments
    /// instead; a job given both fails. [`send`](Self::send) fails with
    /// [`Error::InvalidSetting`] for an index not below `count`, or more workers than
    /// segments.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
    /// # struct Order { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> Result<(), Box<dyn std::error::Error>> {
    /// // One of the 16 pods of a Kubernetes Indexed Job (`completions: 16`).
    /// let index: u32 = std::env::var("JOB_COMPLETION_INDEX")?.parse()?;
    /// let report = db
    ///     .maintain::<Order>("orders-v2")
    ///     .rekey()
    ///     .segments(256)
    ///     .worker(index, 16) // worker 0 runs segments 0..16, worker 15 runs 240..256
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn worker(mut self, index: u32, count: u32) -> Self {
        self.worker = Some(Worker { index, count });
        self
    }

    /// The segments this run reads: its worker's share, the `only_segments` range, or all.
    pub(super) fn share(&self) -> Result<Range<u32>> {
        match (&self.worker, &self.only) {
            (Some(_), Some(_)) => Err(Error::InvalidSetting {
                setting: "worker",
                reason: "a job takes `worker` or `only_segments`, not both: each chooses the \
                         segments it runs"
                    .to_owned(),
            }),
            (Some(worker), None) => worker.share(self.segments),
            (None, only) => Ok(only.clone().unwrap_or(0..self.segments)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(segments: u32, count: u32) -> Vec<Range<u32>> {
        (0..count)
            .map(|index| Worker { index, count }.share(segments).expect("a share"))
            .collect()
    }

    #[test]
    fn every_segment_is_in_exactly_one_share() {
        for segments in 1..=64 {
            for count in 1..=segments {
                let shares = shares(segments, count);
                let mut seen = vec![0u32; segments as usize];
                for share in &shares {
                    assert!(!share.is_empty(), "{segments}/{count}: {shares:?}");
                    for segment in share.clone() {
                        seen[segment as usize] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&n| n == 1),
                    "{segments}/{count}: {shares:?}"
                );
                let sizes: Vec<u32> = shares.iter().map(|s| s.end - s.start).collect();
                let (min, max) = (sizes.iter().min(), sizes.iter().max());
                assert!(
                    max.zip(min).is_some_and(|(max, min)| max - min <= 1),
                    "{sizes:?}"
                );
            }
        }
    }

    #[test]
    fn uneven_splits_and_the_largest_counts() {
        assert_eq!(shares(10, 4), [0..2, 2..5, 5..7, 7..10]);
        assert_eq!(shares(8, 4), [0..2, 2..4, 4..6, 6..8]);
        assert_eq!(shares(7, 7), (0..7).map(|i| i..i + 1).collect::<Vec<_>>());
        let last = Worker {
            index: 999,
            count: 1_000,
        };
        assert_eq!(last.share(1_000_000).expect("a share"), 999_000..1_000_000);
        let first = Worker {
            index: 0,
            count: 1_000_000,
        };
        assert_eq!(first.share(1_000_000).expect("a share"), 0..1);
    }

    #[test]
    fn an_index_past_the_count_or_more_workers_than_segments_is_refused() {
        for (index, count, segments) in [(4, 4, 8), (0, 0, 8), (0, 9, 8)] {
            let refused = Worker { index, count }.share(segments);
            assert!(
                matches!(
                    refused,
                    Err(Error::InvalidSetting {
                        setting: "worker",
                        ..
                    })
                ),
                "{index}/{count} of {segments}: {refused:?}"
            );
        }
    }
}
