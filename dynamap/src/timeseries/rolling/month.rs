//! Write months: the calendar month (UTC) data was written in, which retention goes by.

use std::fmt;

use crate::{Error, Result};

const MS_PER_DAY: i64 = 86_400_000;

/// A calendar month in UTC, such as April 2017. Rolled tables are grouped by the month their
/// data was *written* in, and [retention](super::RollingTables::drop_written_before) drops
/// them by it.
///
/// Ordered by year, then month.
///
/// ```
/// use dynamap::timeseries::rolling::WriteMonth;
///
/// // 2017-04-09T00:00:00Z, the seed's first example table.
/// let april = WriteMonth::of_millis(1_491_696_000_000);
/// assert_eq!((april.year(), april.month()), (2017, 4));
/// assert_eq!(april.months_before(4), WriteMonth::new(2016, 12)?);
/// assert!(WriteMonth::new(2016, 12)? < april);
/// # Ok::<(), dynamap::Error>(())
/// ```
///
/// # Examples
///
/// ```
/// use dynamap::timeseries::rolling::WriteMonth;
///
/// let april = WriteMonth::new(2017, 4)?;
/// assert_eq!(april.months_before(4), WriteMonth::new(2016, 12)?);
/// assert_eq!(WriteMonth::of_millis(1_491_955_200_000), april); // 2017-04-12
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WriteMonth {
    // Field order is the sort order.
    year: i32,
    month: u8,
}

impl WriteMonth {
    /// Month `month` (1 to 12) of `year`.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidSetting`] when `month` is not between 1 and 12.
    pub fn new(year: i32, month: u8) -> Result<Self> {
        if !(1..=12).contains(&month) {
            return Err(Error::InvalidSetting {
                setting: "month",
                reason: format!("month {month} is not between 1 and 12"),
            });
        }
        Ok(Self { year, month })
    }

    /// The month (UTC) that `ms` milliseconds after the Unix epoch falls in.
    pub fn of_millis(ms: i64) -> Self {
        let (year, month) = civil_month(ms.div_euclid(MS_PER_DAY));
        Self { year, month }
    }

    /// The current month (UTC), by the system clock.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Clock`] when the system clock is before 1970.
    pub fn now() -> Result<Self> {
        super::now_millis().map(Self::of_millis)
    }

    /// The year, such as 2017.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The month, 1 (January) to 12 (December).
    pub fn month(self) -> u8 {
        self.month
    }

    /// The month `n` months before this one (saturating at the earliest representable month).
    pub fn months_before(self, n: u32) -> Self {
        let index = self.index() - i64::from(n);
        Self::from_index(index)
    }

    /// The month `n` months after this one (saturating at the latest representable month).
    pub fn months_after(self, n: u32) -> Self {
        Self::from_index(self.index() + i64::from(n))
    }

    /// The first month of the group of `size` months (a divisor of 12) this one belongs to,
    /// counted from January: with `size` 3, quarters starting in January, April, July, October.
    pub(super) fn group_start(self, size: u8) -> Self {
        let size = size.max(1);
        let month = (self.month - 1) / size * size + 1;
        Self { month, ..self }
    }

    /// Months since January of year 0.
    fn index(self) -> i64 {
        i64::from(self.year) * 12 + i64::from(self.month) - 1
    }

    fn from_index(index: i64) -> Self {
        let year = index.div_euclid(12);
        let year = i32::try_from(year).unwrap_or(if year < 0 { i32::MIN } else { i32::MAX });
        // The clamp keeps the month valid when the year saturated.
        let month = u8::try_from(index.rem_euclid(12) + 1).unwrap_or(1);
        Self { year, month }
    }
}

impl fmt::Display for WriteMonth {
    /// `2017-04`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(feature = "time")]
impl From<time::OffsetDateTime> for WriteMonth {
    /// The month of the instant, in UTC (whatever the value's offset).
    fn from(t: time::OffsetDateTime) -> Self {
        // From the epoch seconds, which exist for every value, so a value whose UTC date
        // falls outside `time`'s range (9999-12-31 23:30 -01:00) still has a month.
        let (year, month) = civil_month(t.unix_timestamp().div_euclid(86_400));
        Self { year, month }
    }
}

/// Year and month of the day `days` days after 1970-01-01, in the proleptic Gregorian
/// calendar (Howard Hinnant's `civil_from_days`).
fn civil_month(days: i64) -> (i32, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Every i64 of milliseconds is within ±300 million years: the year fits an i32.
    let year = i32::try_from(year).unwrap_or(if year < 0 { i32::MIN } else { i32::MAX });
    (year, u8::try_from(month).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn month(year: i32, month: u8) -> WriteMonth {
        WriteMonth::new(year, month).expect("valid month")
    }

    #[test]
    fn months_of_known_instants() {
        assert_eq!(WriteMonth::of_millis(0), month(1970, 1));
        assert_eq!(WriteMonth::of_millis(-1), month(1969, 12));
        assert_eq!(WriteMonth::of_millis(1_491_696_000_000), month(2017, 4));
        // 2017-04-30T23:59:59.999Z and the next millisecond.
        assert_eq!(WriteMonth::of_millis(1_493_596_799_999), month(2017, 4));
        assert_eq!(WriteMonth::of_millis(1_493_596_800_000), month(2017, 5));
        // Leap day 2024-02-29T12:00Z.
        assert_eq!(WriteMonth::of_millis(1_709_208_000_000), month(2024, 2));
        assert_eq!(WriteMonth::of_millis(i64::MAX).month(), 8);
        assert!(WriteMonth::of_millis(i64::MIN).year() < -290_000_000);
    }

    #[test]
    fn month_arithmetic_crosses_years() {
        assert_eq!(month(2017, 4).months_before(4), month(2016, 12));
        assert_eq!(month(2017, 1).months_before(0), month(2017, 1));
        assert_eq!(month(2016, 12).months_after(1), month(2017, 1));
        assert_eq!(month(2017, 4).months_before(28), month(2014, 12));
    }

    #[test]
    fn groups_start_on_their_first_month() {
        assert_eq!(month(2017, 5).group_start(1), month(2017, 5));
        assert_eq!(month(2017, 5).group_start(3), month(2017, 4));
        assert_eq!(month(2017, 12).group_start(6), month(2017, 7));
        assert_eq!(month(2017, 12).group_start(12), month(2017, 1));
    }

    #[test]
    fn rejects_months_out_of_range() {
        for month in [0, 13] {
            let err = WriteMonth::new(2017, month).expect_err("out of range");
            assert!(
                matches!(
                    err,
                    Error::InvalidSetting {
                        setting: "month",
                        ..
                    }
                ),
                "{err:?}"
            );
        }
    }

    #[cfg(feature = "time")]
    proptest::proptest! {
        #[test]
        fn agrees_with_the_time_crate(ms in -62_135_596_800_000i64..253_402_300_799_999) {
            let t = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
                .expect("in time's range");
            proptest::prop_assert_eq!(WriteMonth::of_millis(ms), WriteMonth::from(t));
        }
    }
}
