//! Integer streams: each column's integers are encoded together, in whichever of a few
//! forms is cheapest, so that the general-purpose compressor afterwards sees runs.
//!
//! Zigzag varints of the values, or of the differences from the value `lag` places back
//! (timestamps one minute apart become a run of the same small number). The lag is chosen
//! per column, from 1 to [`MAX_LAG`]: records that interleave several series (motion, noise
//! and light events in turn) line each value up with the previous value of its own series.
//! The differences are then written series by series (every `lag`-th one, starting at each
//! offset in turn), so each series' run sits together, and each series is divided by its
//! differences' greatest common divisor. Generated columns (format version 2) may also write
//! the values themselves series by series, each series divided by its values' greatest
//! common divisor: a reading's `max` above its `value`, in each sensor's own resolution.

use super::CodecError;
use super::cost::{charge, cost};
use super::divisors::{ExactDivisor, series_divisor};
use super::earlier::{Earlier, NoEarlier};
use super::groups::{self, Groups};
use super::varint::{self, Reader};

const PLAIN: u8 = 0;
const DELTA: u8 = 1;
const SERIES: u8 = 2;
/// Version 3: the values group by group, the groups read from an earlier column.
const GROUPED: u8 = 3;
/// Version 3: differences from an earlier integer column, then another form of them.
pub(super) const AGAINST: u8 = 4;

/// The furthest back a difference (or a float XOR) may reach.
pub(super) const MAX_LAG: usize = 8;

/// How many values the choice of form looks at.
const SAMPLE: usize = 256;

/// The forms a writer may choose from. The serde columnar format (version 1) keeps to the
/// forms every reader of it knows; generated columns (version 2) may also write series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forms {
    /// Plain and differences.
    Version1,
    /// Plain, differences and series.
    Version2,
}

pub(crate) fn put_ints(out: &mut Vec<u8>, values: &[u64], forms: Forms) {
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return;
    }
    IntForm::choose(values, forms, &[]).write(out, values, &[]);
}

/// An earlier column of the record that partitions it into groups, which a number column
/// may be written by (version 3).
#[derive(Clone, Copy)]
pub(crate) struct GroupColumn<'g> {
    /// Its kind, as [`groups::DICTIONARY`] or [`groups::INTEGERS`].
    pub(crate) kind: u8,
    /// Its position among the record's stored columns.
    pub(crate) column: usize,
    pub(crate) groups: &'g Groups,
}

/// Writes `values` against earlier integer column `base` (its values `base_values`), in
/// the cheapest form of the differences, or alone when that is cheaper; `bases` are the
/// candidate columns. Returns how it was written: whether alone (against no column), and
/// whether grouped.
pub(crate) fn put_ints_against(
    out: &mut Vec<u8>,
    values: &[u64],
    bases: &[(usize, &[u64])],
    groups: &[GroupColumn<'_>],
) -> (bool, bool) {
    varint::put(out, values.len() as u64);
    if values.is_empty() {
        return (true, false);
    }
    let mut best = (IntForm::choose(values, Forms::Version2, groups), None);
    for &(column, base) in bases {
        if base.len() != values.len() {
            continue;
        }
        let residuals: Vec<u64> = values
            .iter()
            .zip(base)
            .map(|(mine, theirs)| mine.wrapping_sub(*theirs))
            .collect();
        let form = IntForm::choose(&residuals, Forms::Version2, groups);
        if form.sample_cost < best.0.sample_cost {
            best = (form, Some((column, residuals)));
        }
    }
    match best {
        (form, None) => {
            form.write(out, values, groups);
            (true, form.is_grouped())
        }
        (form, Some((column, residuals))) => {
            out.push(AGAINST);
            varint::put(out, column as u64);
            form.write(out, &residuals, groups);
            (false, form.is_grouped())
        }
    }
}

/// How a column of integers is written: as they are (`lag` 0); or, in series of every
/// `lag`-th value, either as differences from the value `lag` places back or as the values
/// themselves, each series divided by its greatest common divisor (a noise level stored in
/// tenths but read in hundredths steps by ten).
pub(super) struct IntForm {
    lag: usize,
    divisors: Vec<u64>,
    differenced: bool,
    /// The [`cost`] of the sample the form was chosen on, by which forms of different
    /// values are compared (a float column alone or as differences from another).
    sample_cost: usize,
    /// Written group by group instead (version 3): which of the candidate group columns.
    grouped: Option<usize>,
}

impl IntForm {
    pub(super) fn sample_cost(&self) -> usize {
        self.sample_cost
    }

    /// Whether the form reads another column's groups.
    pub(crate) fn is_grouped(&self) -> bool {
        self.grouped.is_some()
    }

    /// The form with the lowest [`cost`] on the first [`SAMPLE`] values, each lag costed in
    /// one pass over them: interleaving and drift show within a few records, and trying
    /// every form on every value would cost more than the rest of the encoding. The cost
    /// counts the differences before any divisor (a common factor shrinks every lag's
    /// differences alike); the chosen lag's divisors are then taken over every value.
    ///
    /// With [`Forms::Version2`], series of values compete too, each series divided by its
    /// common divisor: they suit values that do not drift (residuals, codes) but share a
    /// factor within each series. Against them the differences are costed with their
    /// divisors, since the factors need not be the same.
    ///
    /// With `groups` (version 3), each candidate group column's grouped forms compete as
    /// well, against the other forms costed with their divisors.
    pub(super) fn choose(values: &[u64], forms: Forms, groups: &[GroupColumn<'_>]) -> IntForm {
        let sample = &values[..values.len().min(SAMPLE)];
        let mut previous = u64::MAX;
        let plain: usize = sample
            .iter()
            .map(|&v| charge(&mut previous, varint::zigzag(v as i64)))
            .sum();
        let best_lag = (1..=MAX_LAG.min(sample.len()))
            .map(|lag| (lag, lag_cost(sample, lag)))
            .min_by_key(|&(_, cost)| cost);
        let mut best = match best_lag {
            Some((lag, cost)) if cost < plain => Trial::unscaled(lag, true, cost),
            _ => Trial::unscaled(0, false, plain),
        };
        if forms == Forms::Version2 {
            // The series tried are those the differences found (the records' period), and
            // the whole column as one.
            let period = best_lag.map_or(1, |(lag, _)| lag);
            let periods: &[usize] = if period == 1 { &[1] } else { &[period, 1] };
            for &lag in periods {
                // Each value that differs from the one before it in its series costs a
                // byte at least: drifting values (timestamps) stop here, before any
                // divisor is looked for.
                if changes(sample, lag) >= best.cost {
                    continue;
                }
                if best.divisors.is_none() && best.lag > 0 {
                    best = Trial::new(sample, best.lag, true);
                }
                let trial = Trial::new(sample, lag, false);
                // Without a divisor, a series of values costs what plain values do.
                if trial.cost < best.cost && trial.divisors.iter().flatten().any(|&d| d > 1) {
                    best = trial;
                }
            }
        }
        let mut grouped = None;
        if !groups.is_empty() {
            if best.divisors.is_none() && best.lag > 0 {
                best = Trial::new(sample, best.lag, best.differenced);
            }
            for (candidate, column) in groups.iter().enumerate() {
                if column.groups.records() != values.len() {
                    continue;
                }
                for differenced in [true, false] {
                    let (cost, divisors) = groups::trial(sample, column.groups, differenced);
                    if cost < best.cost {
                        best = Trial {
                            lag: 0,
                            differenced,
                            cost,
                            divisors: Some(divisors),
                        };
                        grouped = Some(candidate);
                    }
                }
            }
        }
        if grouped.is_some() {
            return IntForm {
                lag: 0,
                divisors: best.divisors.unwrap_or_default(),
                differenced: best.differenced,
                sample_cost: best.cost,
                grouped,
            };
        }
        let divisors = (0..best.lag)
            .map(|offset| {
                let known = best.divisors.as_ref().map_or(0, |d| d[offset]);
                series_divisor(series(values, best.lag, offset, best.differenced), known)
            })
            .collect();
        IntForm {
            lag: best.lag,
            divisors,
            differenced: best.differenced,
            sample_cost: best.cost,
            grouped: None,
        }
    }

    /// The form byte, the lag and divisors for series, then the varints; `groups` as given
    /// to [`IntForm::choose`].
    pub(super) fn write(&self, out: &mut Vec<u8>, values: &[u64], groups: &[GroupColumn<'_>]) {
        if let Some(column) = self.grouped.and_then(|g| groups.get(g)) {
            out.push(GROUPED);
            groups::write(
                out,
                values,
                column.groups,
                (column.kind, column.column),
                self.differenced,
                &self.divisors,
            );
            return;
        }
        if self.lag == 0 {
            out.push(PLAIN);
            for &v in values {
                varint::put(out, varint::zigzag(v as i64));
            }
            return;
        }
        let form = if self.differenced { DELTA } else { SERIES };
        out.extend_from_slice(&[form, self.lag as u8]);
        for &divisor in &self.divisors {
            varint::put(out, divisor);
        }
        for (offset, &divisor) in self.divisors.iter().enumerate() {
            let divisor = ExactDivisor::new(divisor);
            for d in series(values, self.lag, offset, self.differenced) {
                varint::put(out, varint::zigzag(divisor.divide(d)));
            }
        }
    }
}

/// A form tried on the sample: series of every `lag`-th value (none for `lag` 0),
/// differenced or not, with its cost, and each series' divisor when it was costed with them.
struct Trial {
    lag: usize,
    differenced: bool,
    cost: usize,
    divisors: Option<Vec<u64>>,
}

impl Trial {
    fn unscaled(lag: usize, differenced: bool, cost: usize) -> Trial {
        Trial {
            lag,
            differenced,
            cost,
            divisors: None,
        }
    }

    /// The form costed on `sample` with each series divided by its common divisor.
    fn new(sample: &[u64], lag: usize, differenced: bool) -> Trial {
        let divisors: Vec<u64> = (0..lag)
            .map(|offset| series_divisor(series(sample, lag, offset, differenced), 0))
            .collect();
        let cost = cost(divisors.iter().enumerate().flat_map(|(offset, &divisor)| {
            let divisor = ExactDivisor::new(divisor);
            series(sample, lag, offset, differenced).map(move |d| varint::zigzag(divisor.divide(d)))
        }));
        Trial {
            lag,
            differenced,
            cost,
            divisors: Some(divisors),
        }
    }
}

/// One interleaved series: value `offset`, `offset + lag`, ..., each as it is or, when
/// `differenced`, minus the value `lag` places before it (0 before the start), wrapping.
fn series(
    values: &[u64],
    lag: usize,
    offset: usize,
    differenced: bool,
) -> impl Iterator<Item = i64> + '_ {
    values
        .get(offset..)
        .unwrap_or_default()
        .iter()
        .step_by(lag)
        .scan(0u64, move |back, &value| {
            let previous = std::mem::replace(back, value);
            Some(if differenced {
                value.wrapping_sub(previous)
            } else {
                value
            } as i64)
        })
}

/// Positions `0..len`, every `lag`-th one starting at each offset in turn: the values of one
/// interleaved series, then the next.
pub(super) fn series_order(len: usize, lag: usize) -> impl Iterator<Item = usize> {
    (0..lag).flat_map(move |offset| (offset..len).step_by(lag))
}

/// The [`cost`] of differencing `sample` at `lag`, before any divisor: a varint that repeats
/// the last one of its series costs nothing.
fn lag_cost(sample: &[u64], lag: usize) -> usize {
    // The last varint of each series, cycling through the series without a division.
    let mut previous = [u64::MAX; MAX_LAG];
    let mut series = 0;
    let mut total = 0;
    for (i, &value) in sample.iter().enumerate() {
        let back = i.checked_sub(lag).map_or(0, |j| sample[j]);
        total += charge(
            &mut previous[series],
            varint::zigzag(value.wrapping_sub(back) as i64),
        );
        series += 1;
        if series == lag {
            series = 0;
        }
    }
    total
}

/// How many values differ from the value `lag` places back (all of the first `lag`).
fn changes(sample: &[u64], lag: usize) -> usize {
    let repeats = sample
        .iter()
        .zip(sample.iter().skip(lag))
        .filter(|(back, value)| back == value)
        .count();
    sample.len() - repeats
}

/// Reads what [`put_ints`] wrote.
pub(crate) fn read_ints(reader: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
    read_ints_with(reader, &mut NoEarlier)
}

/// Reads what [`put_ints`] or [`put_ints_against`] wrote, with the record's earlier columns.
pub(crate) fn read_ints_with<E: Earlier + ?Sized>(
    reader: &mut Reader<'_>,
    earlier: &mut E,
) -> Result<Vec<u64>, CodecError> {
    let count = reader.len()?;
    if count == 0 {
        return Ok(Vec::new());
    }
    read_int_body(reader, count, earlier)
}

pub(super) fn read_int_body<E: Earlier + ?Sized>(
    reader: &mut Reader<'_>,
    count: usize,
    earlier: &mut E,
) -> Result<Vec<u64>, CodecError> {
    if reader.clone().byte()? == AGAINST {
        reader.byte()?;
        let column = reader.len()?;
        if reader.clone().byte()? == AGAINST {
            return Err(CodecError::Corrupt("an integer column refers twice"));
        }
        let mut values = read_int_body(reader, count, earlier)?;
        let base = earlier.ints(column, count)?;
        for (value, base) in values.iter_mut().zip(base) {
            *value = value.wrapping_add(*base);
        }
        return Ok(values);
    }
    let (lag, differenced) = match reader.byte()? {
        PLAIN => (0, false),
        DELTA => (read_lag(reader)?, true),
        SERIES => (read_lag(reader)?, false),
        GROUPED => {
            let (differenced, kind, column) = groups::read_head(reader)?;
            let groups = earlier.groups(column, kind, count)?;
            return groups::read_values(reader, groups, differenced);
        }
        _ => return Err(CodecError::Corrupt("unknown integer stream form")),
    };
    let divisors = (0..lag)
        .map(|_| reader.varint())
        .collect::<Result<Vec<u64>, _>>()?;
    // Every value takes at least one byte, so a count beyond the bytes left is corrupt;
    // checking first keeps a forged count from reserving memory.
    if count > reader.remaining() {
        return Err(CodecError::Truncated("integer"));
    }
    if lag == 0 {
        return (0..count)
            .map(|_| Ok(varint::unzigzag(reader.varint()?) as u64))
            .collect();
    }
    let mut values = vec![0u64; count];
    for (offset, &divisor) in divisors.iter().enumerate() {
        for i in (offset..count).step_by(lag) {
            let quotient = varint::unzigzag(reader.varint()?);
            // Wrapping, as the writer's differences: corrupt input cannot overflow.
            values[i] = (quotient as u64).wrapping_mul(divisor);
        }
    }
    if differenced {
        for i in lag..count {
            values[i] = values[i].wrapping_add(values[i - lag]);
        }
    }
    Ok(values)
}

/// Calls `mark` with each column the head of an integer stream (after its count) names:
/// the column it is stored against, and the one it is grouped by.
pub(super) fn int_heads(mut reader: Reader<'_>, mark: &mut impl FnMut(usize)) {
    let mut form = reader.byte();
    if matches!(form, Ok(AGAINST)) {
        match reader.len() {
            Ok(column) => mark(column),
            Err(_) => return,
        }
        form = reader.byte();
    }
    if matches!(form, Ok(GROUPED))
        && reader.byte().is_ok()
        && reader.byte().is_ok()
        && let Ok(column) = reader.len()
    {
        mark(column);
    }
}

/// Whether an integer column's bytes (its count, then its stream) are stored against
/// another column.
pub(crate) fn stored_against(column: &Reader<'_>) -> bool {
    let mut reader = *column;
    reader.len().is_ok() && matches!(reader.byte(), Ok(AGAINST))
}

pub(super) fn read_lag(reader: &mut Reader<'_>) -> Result<usize, CodecError> {
    match usize::from(reader.byte()?) {
        lag @ 1..=MAX_LAG => Ok(lag),
        _ => Err(CodecError::Corrupt("difference lag out of range")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round-trips `values` written with each set of forms; the size with `Version1`.
    fn ints_round_trip(values: &[u64]) -> usize {
        let size = |forms| {
            let mut out = Vec::new();
            put_ints(&mut out, values, forms);
            let mut reader = Reader::new(&out);
            assert_eq!(read_ints(&mut reader).expect("reads"), values);
            assert!(reader.is_empty());
            out.len()
        };
        let version1 = size(Forms::Version1);
        assert!(size(Forms::Version2) <= version1 + 2);
        version1
    }

    #[test]
    fn values_with_a_factor_in_each_series_are_written_series_by_series() {
        // A reading's `max` above its `value`: small at random, with a spike now and then,
        // in three series with their own resolutions (thousandths, tenths and tenths,
        // scaled to thousandths). As differences, each spike costs twice: up and down.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let values: Vec<u64> = (0..900u64)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let above = if state.is_multiple_of(8) {
                    500 + state % 4000
                } else {
                    state % 20
                };
                above * [1, 100, 100][(i % 3) as usize]
            })
            .collect();
        let written = |forms| {
            let mut out = Vec::new();
            put_ints(&mut out, &values, forms);
            out
        };
        let (version1, version2) = (written(Forms::Version1), written(Forms::Version2));
        // Series of the records' period, 3, or a multiple of it (the same series, split).
        assert_eq!(version2[2], SERIES);
        assert!(version2[3].is_multiple_of(3), "period {}", version2[3]);
        assert!(version1[2] != SERIES);
        assert!(
            version2.len() * 10 < version1.len() * 9,
            "{} against {}",
            version2.len(),
            version1.len()
        );
        assert_eq!(
            read_ints(&mut Reader::new(&version2)).expect("reads"),
            values
        );
    }

    #[test]
    fn evenly_spaced_timestamps_take_a_byte_each() {
        let minutes: Vec<u64> = (0..1440).map(|m| 1_700_000_000_000 + m * 60_000).collect();
        assert!(ints_round_trip(&minutes) < 1440 * 4);
        ints_round_trip(&[u64::MAX, 0, i64::MIN as u64, i64::MAX as u64, 1]);
    }

    #[test]
    fn interleaved_series_are_differenced_within_their_own_series() {
        // Three series taking turns: each steps by one, but neighbours differ by millions.
        let values: Vec<u64> = (0..900u64).map(|i| (i % 3) * 1_000_000 + i / 3).collect();
        let mut out = Vec::new();
        put_ints(&mut out, &values, Forms::Version1);
        assert_eq!(&out[2..4], &[DELTA, 3], "lag 3 chosen");
        assert!(ints_round_trip(&values) < 900 + 20, "about a byte a value");
    }

    #[test]
    fn series_stepping_by_a_common_factor_are_divided_by_it() {
        let tenths: Vec<u64> = (0..500u64).map(|i| 1_000 + i * 100).collect();
        assert!(
            ints_round_trip(&tenths) < 520,
            "one byte a value once divided by 100"
        );
        ints_round_trip(&[i64::MIN as u64, 0, i64::MIN as u64, 0]);
        ints_round_trip(&[u64::MAX, 1, u64::MAX - 6, 8]);
    }

    #[test]
    fn corrupt_streams_are_errors() {
        assert!(read_ints(&mut Reader::new(&[5, 9, 1])).is_err());
        assert!(
            read_ints(&mut Reader::new(&[2, DELTA, 0, 1, 1])).is_err(),
            "lag 0"
        );
        assert!(
            read_ints(&mut Reader::new(&[2, DELTA, 99, 1, 1])).is_err(),
            "lag 99"
        );
        // A count far beyond the input must not allocate before failing.
        assert!(read_ints(&mut Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0, 1])).is_err());
    }
}
