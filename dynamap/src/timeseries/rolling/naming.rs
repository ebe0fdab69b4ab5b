//! Table names `[prefix][start ms]_[end ms]_[write month]_[write year]`: rendering, parsing
//! back, and DynamoDB's table-name rules.

use std::fmt;
use std::ops::RangeInclusive;

use super::{Period, Periods, WriteMonth};
use crate::{Error, Result};

/// DynamoDB's longest table name.
pub const MAX_TABLE_NAME_LEN: usize = 255;

/// The longest prefix [`TableNaming`] accepts: what is left of DynamoDB's 255 characters
/// after the longest suffix it can render (two 19-digit times, a month, a 10-character
/// year and three underscores).
pub const MAX_PREFIX_LEN: usize = MAX_TABLE_NAME_LEN - 54;

/// How rolled tables are named: `[prefix][start ms]_[end ms]_[write month]_[write year]`,
/// such as `iot.1491696000000_1492300799999_4_2017`.
///
/// The event period comes first so that the names of one period sort together and a range
/// query can pick its tables from the names alone; the write month comes last, for
/// retention. The end is inclusive (start + length - 1 ms), as in the seed's names.
///
/// Every table whose name does not parse back (another prefix, another application) is
/// ignored by listing, querying and retention, never touched. To keep prefixes apart, a
/// non-empty prefix must end with a character other than a digit: then no table of one
/// prefix parses as a table of another.
///
/// ```
/// use dynamap::timeseries::rolling::TableNaming;
///
/// let naming = TableNaming::new("iot.")?;
/// // An event on Monday 2017-04-10, written on 2017-04-12.
/// let table = naming.table_for(1_491_800_000_000, 1_491_955_200_000)?;
/// assert_eq!(table.name(), "iot.1491696000000_1492300799999_4_2017");
/// assert_eq!(naming.parse(table.name()), Some(table));
/// assert_eq!(naming.parse("orders"), None);
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableNaming {
    prefix: String,
    periods: Periods,
    write_months: u8,
}

impl TableNaming {
    /// Names starting with `prefix` (may be empty), with weekly periods and one group per
    /// write month.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidTableName`] when the prefix has a character DynamoDB
    /// does not allow in table names, is longer than [`MAX_PREFIX_LEN`], or ends with a digit.
    pub fn new(prefix: impl Into<String>) -> Result<Self> {
        let prefix = prefix.into();
        check_prefix(&prefix)?;
        Ok(Self {
            prefix,
            periods: Periods::weekly(),
            write_months: 1,
        })
    }

    /// Uses `periods` for event time instead of weeks. Tables named with other periods stay
    /// readable: queries go by the times in the names, not by the configured periods.
    pub fn with_periods(mut self, periods: Periods) -> Self {
        self.periods = periods;
        self
    }

    /// Groups writes by `months` months (1, 2, 3, 4, 6 or 12, so groups never straddle a
    /// year) instead of one; a group is named by its first month. Fewer tables, coarser
    /// retention.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidSetting`] when `months` is not 1, 2, 3, 4, 6 or 12.
    pub fn with_write_months(mut self, months: u8) -> Result<Self> {
        if months == 0 || 12 % months != 0 {
            return Err(Error::InvalidSetting {
                setting: "write_months",
                reason: format!(
                    "write groups of {months} months do not divide a year: use 1, 2, 3, 4, 6 or 12"
                ),
            });
        }
        self.write_months = months;
        Ok(self)
    }

    /// The prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The event periods.
    pub fn periods(&self) -> Periods {
        self.periods
    }

    /// The table for an event at `event_ms` written at `written_ms` (both milliseconds since
    /// the Unix epoch).
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Clock`] when the event's period would start before the Unix epoch
    /// or `written_ms` is negative.
    pub fn table_for(&self, event_ms: i64, written_ms: i64) -> Result<RolledTable> {
        let period = self.periods.period_of(event_ms)?;
        if written_ms < 0 {
            return Err(Error::Clock {
                millis: Some(written_ms),
                reason: format!("write time {written_ms} ms is before the unix epoch"),
            });
        }
        let written = WriteMonth::of_millis(written_ms).group_start(self.write_months);
        Ok(RolledTable::new(&self.prefix, period, written))
    }

    /// The table `name` describes, or `None` when it is not a name of this naming: another
    /// prefix, or not exactly `[start]_[end]_[month]_[year]` in canonical decimal (no signs,
    /// no leading zeros, month 1 to 12, end not before start).
    pub fn parse(&self, name: &str) -> Option<RolledTable> {
        let rest = name.strip_prefix(self.prefix.as_str())?;
        let mut parts = rest.split('_');
        let start_ms = number(parts.next()?)?;
        let end_ms = number(parts.next()?)?;
        let month = u8::try_from(number(parts.next()?)?).ok()?;
        let year = i32::try_from(number(parts.next()?)?).ok()?;
        if parts.next().is_some() {
            return None;
        }
        let period = Period::new(start_ms, end_ms)?;
        let written = WriteMonth::new(year, month).ok()?;
        Some(RolledTable {
            name: name.to_owned(),
            period,
            written,
        })
    }
}

/// A non-negative decimal number without sign or leading zeros: the only form names hold,
/// so that every table has one name.
fn number(text: &str) -> Option<i64> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

fn check_prefix(prefix: &str) -> Result<()> {
    let invalid = |reason: String| {
        Err(Error::InvalidTableName {
            name: prefix.to_owned(),
            reason,
        })
    };
    if let Some(c) = prefix
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return invalid(format!(
            "character {c:?} is not allowed: table names use only a-z, A-Z, 0-9, `_`, `-` and `.`"
        ));
    }
    if prefix.len() > MAX_PREFIX_LEN {
        return invalid(format!(
            "the prefix is {} characters, over the limit of {MAX_PREFIX_LEN} that leaves room \
             for the period and write month within DynamoDB's {MAX_TABLE_NAME_LEN}",
            prefix.len()
        ));
    }
    if prefix.ends_with(|c: char| c.is_ascii_digit()) {
        return invalid(
            "a prefix must not end with a digit, or its names could be read as another \
             prefix's (end it with `_`, `-` or `.`)"
                .to_owned(),
        );
    }
    Ok(())
}

/// One rolled table: its name, the event period it holds and the month its data was
/// written in.
///
/// Ordered by period, then write month.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RolledTable {
    name: String,
    period: Period,
    written: WriteMonth,
}

impl RolledTable {
    fn new(prefix: &str, period: Period, written: WriteMonth) -> Self {
        let name = format!(
            "{prefix}{}_{}_{}_{}",
            period.start_ms(),
            period.end_ms(),
            written.month(),
            written.year()
        );
        Self {
            name,
            period,
            written,
        }
    }

    /// The table name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The event times the table holds.
    pub fn period(&self) -> Period {
        self.period
    }

    /// The month (or first month of the group) its data was written in.
    pub fn written(&self) -> WriteMonth {
        self.written
    }

    /// True when the table holds event times in `range` (milliseconds, inclusive).
    pub fn overlaps(&self, range: &RangeInclusive<i64>) -> bool {
        self.period.overlaps(range)
    }
}

impl PartialOrd for RolledTable {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RolledTable {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.period, self.written, &self.name).cmp(&(other.period, other.written, &other.name))
    }
}

impl fmt::Display for RolledTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONDAY: i64 = 1_491_800_000_000; // 2017-04-10
    const APRIL_12: i64 = 1_491_955_200_000;

    fn naming(prefix: &str) -> TableNaming {
        TableNaming::new(prefix).expect("valid prefix")
    }

    #[test]
    fn renders_the_seed_names_and_parses_them_back() -> Result<()> {
        let plain = naming("");
        let table = plain.table_for(MONDAY, APRIL_12)?;
        // The seed prints `..._1492300799000_...`, an end one second before the next week;
        // at millisecond resolution the inclusive end is one millisecond before it.
        assert_eq!(table.name(), "1491696000000_1492300799999_4_2017");
        assert_eq!(table.period().start_ms(), 1_491_696_000_000);
        assert_eq!(table.written(), WriteMonth::new(2017, 4)?);
        assert_eq!(plain.parse(table.name()), Some(table.clone()));
        // The seed's names parse as they are, inclusive end and all.
        let seed = plain
            .parse("1492300800000_1492905599000_3_2017")
            .expect("seed name parses");
        assert_eq!(seed.period().end_ms(), 1_492_905_599_000);
        assert_eq!(seed.written(), WriteMonth::new(2017, 3)?);

        let prefixed = naming("iot-prod.").table_for(MONDAY, APRIL_12)?;
        assert_eq!(
            prefixed.name(),
            "iot-prod.1491696000000_1492300799999_4_2017"
        );
        assert_eq!(naming("iot-prod.").parse(prefixed.name()), Some(prefixed));
        Ok(())
    }

    #[test]
    fn late_writes_get_their_own_table() -> Result<()> {
        let n = naming("t_");
        let on_time = n.table_for(MONDAY, APRIL_12)?;
        let late = n.table_for(MONDAY, APRIL_12 + 100 * 86_400_000)?;
        assert_eq!(on_time.period(), late.period());
        assert_eq!(late.name(), "t_1491696000000_1492300799999_7_2017");
        assert!(on_time < late);
        Ok(())
    }

    #[test]
    fn write_groups_are_named_by_their_first_month() -> Result<()> {
        let quarters = naming("q_").with_write_months(3)?;
        let table = quarters.table_for(MONDAY, 1_496_275_200_000)?; // written 2017-06-01
        assert_eq!(table.written(), WriteMonth::new(2017, 4)?);
        for months in [0, 5] {
            let err = naming("q_")
                .with_write_months(months)
                .expect_err("not a divisor");
            assert!(
                matches!(
                    err,
                    Error::InvalidSetting {
                        setting: "write_months",
                        ..
                    }
                ),
                "{err:?}"
            );
        }
        let err = quarters.table_for(MONDAY, -1).expect_err("before 1970");
        assert!(
            matches!(
                err,
                Error::Clock {
                    millis: Some(-1),
                    ..
                }
            ),
            "the time at fault: {err:?}"
        );
        Ok(())
    }

    #[test]
    fn ignores_names_that_are_not_its_own() {
        let n = naming("iot_");
        for name in [
            "orders",
            "iot_",
            "iot_1_2_3",
            "iot_1_2_3_2017_5",
            "iot_01_2_3_2017",
            "iot_+1_2_3_2017",
            "iot_-5_2_3_2017",
            "iot_5_2_3_2017",  // ends before it starts
            "iot_1_2_13_2017", // month 13
            "iot_1_2_0_2017",
            "iot_1_2_3_",
            "iot_1 _2_3_2017",
            "iotx1_2_3_2017",
            "iot_1_2_3_99999999999",
            "iot_99999999999999999999_99999999999999999999_1_2017",
        ] {
            assert_eq!(n.parse(name), None, "{name}");
        }
        assert!(n.parse("iot_0_0_1_0").is_some());
    }

    #[test]
    fn prefixes_never_read_each_others_tables() -> Result<()> {
        let table = naming("iot_a-").table_for(MONDAY, APRIL_12)?;
        for other in ["iot_", "iot", "iot_a", "i", ""] {
            if TableNaming::new(other).is_ok() {
                assert_eq!(naming(other).parse(table.name()), None, "{other}");
            }
        }
        Ok(())
    }

    #[test]
    fn checks_prefixes_before_any_call() {
        let err = TableNaming::new("iot#").expect_err("`#` is not allowed");
        assert!(matches!(err, Error::InvalidTableName { .. }));
        assert!(err.to_string().contains("'#'"), "{err}");
        let long = "a".repeat(MAX_PREFIX_LEN + 1);
        let err = TableNaming::new(long).expect_err("too long");
        assert!(err.to_string().contains("limit of 201"), "{err}");
        assert!(TableNaming::new("a".repeat(MAX_PREFIX_LEN)).is_ok());
        assert!(TableNaming::new("iot1").is_err());
        assert!(TableNaming::new("é_").is_err());
    }

    #[test]
    fn longest_names_fit_dynamodb() -> Result<()> {
        let n = naming(&"a".repeat(MAX_PREFIX_LEN));
        let event = n
            .periods()
            .period_of(i64::MAX - crate::timeseries::rolling::WEEK_MS)?;
        let table = n.table_for(event.start_ms(), i64::MAX)?;
        assert!(table.name().len() <= MAX_TABLE_NAME_LEN, "{}", table.name());
        assert_eq!(n.parse(table.name()), Some(table));
        Ok(())
    }
}
