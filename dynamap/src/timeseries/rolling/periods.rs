//! Event periods: the fixed-length spans of event time that rolled tables cover.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::{Error, Result};

const MS_PER_DAY: i64 = 86_400_000;

/// One week in milliseconds.
pub const WEEK_MS: i64 = 7 * MS_PER_DAY;

/// Sunday 1970-01-04T00:00:00Z, the first Sunday after the Unix epoch: where
/// [`Periods::weekly`] weeks start.
pub const SUNDAY_ORIGIN_MS: i64 = 3 * MS_PER_DAY;

/// How event time is cut into periods: back-to-back spans of one length, aligned to an
/// origin instant. Every rolled table holds the events of one period.
///
/// The default, [`Periods::weekly`], has weeks starting Sunday 00:00 UTC. That is the
/// alignment of the seed's table names (`1491696000000` is Sunday 2017-04-09), so the names
/// match what such a system already has; weeks counted from the Unix epoch itself would
/// start on Thursdays, which nobody reads as a week. Use [`starting_at`](Periods::starting_at)
/// for Monday weeks (`SUNDAY_ORIGIN_MS + 86_400_000`).
///
/// ```
/// use dynamap::timeseries::rolling::Periods;
///
/// let weeks = Periods::weekly();
/// let week = weeks.period_of(1_491_800_000_000)?; // Monday 2017-04-10
/// assert_eq!((week.start_ms(), week.end_ms()), (1_491_696_000_000, 1_492_300_799_999));
/// # Ok::<(), dynamap::Error>(())
/// ```
///
/// # Examples
///
/// ```
/// use dynamap::timeseries::rolling::Periods;
///
/// let week = Periods::weekly().period_of(1_491_800_000_000)?; // Monday 2017-04-10
/// assert_eq!(week.start_ms(), 1_491_696_000_000);           // Sunday 2017-04-09 00:00 UTC
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Periods {
    length_ms: i64,
    origin_ms: i64,
}

impl Default for Periods {
    fn default() -> Self {
        Self::weekly()
    }
}

impl Periods {
    /// Weeks starting Sunday 00:00 UTC.
    pub const fn weekly() -> Self {
        Self {
            length_ms: WEEK_MS,
            origin_ms: SUNDAY_ORIGIN_MS,
        }
    }

    /// Periods of `length` (a whole number of milliseconds, at least one), starting at the
    /// Unix epoch until [`starting_at`](Periods::starting_at) says otherwise.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidSetting`] when `length` is not a whole number of milliseconds,
    /// at least one.
    pub fn new(length: Duration) -> Result<Self> {
        let invalid = || Error::InvalidSetting {
            setting: "length",
            reason: format!(
                "a period must be a whole number of milliseconds, from 1 ms up, not {length:?}"
            ),
        };
        if !length.subsec_nanos().is_multiple_of(1_000_000) {
            return Err(invalid());
        }
        let length_ms = i64::try_from(length.as_millis()).map_err(|_| invalid())?;
        if length_ms < 1 {
            return Err(invalid());
        }
        Ok(Self {
            length_ms,
            origin_ms: 0,
        })
    }

    /// The same periods, aligned so that one starts at `origin_ms` (any period boundary will
    /// do: only the origin modulo the length matters).
    pub const fn starting_at(self, origin_ms: i64) -> Self {
        Self {
            length_ms: self.length_ms,
            origin_ms: origin_ms.rem_euclid(self.length_ms),
        }
    }

    /// The period length in milliseconds.
    pub const fn length_ms(self) -> i64 {
        self.length_ms
    }

    /// The period holding the event time `event_ms` (milliseconds since the Unix epoch).
    ///
    /// Table names hold non-negative times, so an event whose period would start before the
    /// Unix epoch is refused.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Clock`] when the period would start before the Unix epoch (or end
    /// past `i64::MAX` ms).
    pub fn period_of(self, event_ms: i64) -> Result<Period> {
        let offset = i128::from(event_ms) - i128::from(self.origin_ms);
        let length = i128::from(self.length_ms);
        let start = i128::from(self.origin_ms) + offset.div_euclid(length) * length;
        let end = start + length - 1;
        match (i64::try_from(start), i64::try_from(end)) {
            (Ok(start_ms), Ok(end_ms)) if start_ms >= 0 => Ok(Period { start_ms, end_ms }),
            _ => Err(Error::Clock {
                millis: Some(event_ms),
                reason: format!(
                    "event time {event_ms} ms falls in a period from {start} ms to {end} ms, \
                     outside the non-negative times table names can hold"
                ),
            }),
        }
    }
}

/// A span of event time, both ends inclusive, in milliseconds since the Unix epoch.
///
/// # Examples
///
/// ```
/// use dynamap::timeseries::rolling::Period;
///
/// let period = Period::new(1_000, 1_999).unwrap();
/// assert!(period.contains(1_500) && !period.contains(2_000));
/// assert!(period.overlaps(&(1_900..=2_500)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Period {
    start_ms: i64,
    end_ms: i64,
}

impl Period {
    /// The span from `start_ms` to `end_ms`, both inclusive; `None` when it is empty.
    pub fn new(start_ms: i64, end_ms: i64) -> Option<Self> {
        (start_ms <= end_ms).then_some(Self { start_ms, end_ms })
    }

    /// The first millisecond.
    pub fn start_ms(self) -> i64 {
        self.start_ms
    }

    /// The last millisecond (inclusive, as in the seed's names: start + length - 1).
    pub fn end_ms(self) -> i64 {
        self.end_ms
    }

    /// True when `ms` is in the period.
    pub fn contains(self, ms: i64) -> bool {
        self.start_ms <= ms && ms <= self.end_ms
    }

    /// True when the period and `range` share at least one millisecond.
    pub fn overlaps(self, range: &RangeInclusive<i64>) -> bool {
        !range.is_empty() && self.start_ms <= *range.end() && *range.start() <= self.end_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_START: i64 = 1_491_696_000_000;
    const SEED_END: i64 = 1_492_300_799_999;

    #[test]
    fn weeks_match_the_seed_and_have_sharp_edges() -> Result<()> {
        let weeks = Periods::weekly();
        for ms in [SEED_START, SEED_START + 1, SEED_END - 1, SEED_END] {
            let week = weeks.period_of(ms)?;
            assert_eq!((week.start_ms(), week.end_ms()), (SEED_START, SEED_END));
        }
        let before = weeks.period_of(SEED_START - 1)?;
        assert_eq!(before.end_ms(), SEED_START - 1);
        assert_eq!(before.start_ms(), SEED_START - WEEK_MS);
        let after = weeks.period_of(SEED_END + 1)?;
        assert_eq!(after.start_ms(), SEED_END + 1);
        // The seed's second name.
        assert_eq!(after.end_ms(), 1_492_905_599_999);
        Ok(())
    }

    #[test]
    fn custom_lengths_and_origins() -> Result<()> {
        let days = Periods::new(Duration::from_secs(86_400))?;
        assert_eq!(days.period_of(MS_PER_DAY + 5)?.start_ms(), MS_PER_DAY);
        let monday = Periods::weekly().starting_at(SUNDAY_ORIGIN_MS + MS_PER_DAY);
        // Monday 2017-04-10T00:00Z starts a Monday week.
        let week = monday.period_of(SEED_START + MS_PER_DAY)?;
        assert_eq!(week.start_ms(), SEED_START + MS_PER_DAY);
        let ms = Periods::new(Duration::from_millis(1))?;
        assert_eq!(ms.period_of(42)?, Period::new(42, 42).expect("non-empty"));
        Ok(())
    }

    #[test]
    fn refuses_bad_lengths_and_times() {
        for length in [Duration::ZERO, Duration::from_micros(1_500), Duration::MAX] {
            let err = Periods::new(length).expect_err("not a whole number of ms");
            assert!(
                matches!(
                    err,
                    Error::InvalidSetting {
                        setting: "length",
                        ..
                    }
                ),
                "{err:?}"
            );
        }
        // Thursday 1970-01-01 belongs to the week starting Sunday 1969-12-28.
        assert!(Periods::weekly().period_of(SUNDAY_ORIGIN_MS).is_ok());
        for event_ms in [0, i64::MAX, i64::MIN] {
            let err = Periods::weekly()
                .period_of(event_ms)
                .expect_err("out of range");
            assert!(
                matches!(err, Error::Clock { millis: Some(m), .. } if m == event_ms),
                "{err:?}"
            );
        }
    }

    #[test]
    fn overlap_is_inclusive_at_both_ends() {
        let p = Period::new(10, 19).expect("non-empty");
        assert!(p.overlaps(&(19..=30)));
        assert!(p.overlaps(&(0..=10)));
        assert!(p.overlaps(&(12..=13)));
        assert!(!p.overlaps(&(20..=30)));
        assert!(!p.overlaps(&(0..=9)));
        #[allow(clippy::reversed_empty_ranges)] // an empty range overlaps nothing
        let empty = 15..=12;
        assert!(!p.overlaps(&empty));
        assert!(p.contains(10) && p.contains(19) && !p.contains(20));
    }
}
