//! A night of real sensor data: two public-domain environmental recordings shipped in the
//! `statsmodels` wheel on PyPI (version 0.15.0, BSD-3-Clause), interleaved by time as one
//! recorder would write them:
//!
//! - Mauna Loa weekly atmospheric CO2 (`statsmodels/datasets/co2/co2.csv`, ppm to one
//!   decimal, 1958-2001, weeks without a reading left out: 2,225 readings); its notes say
//!   "This is public domain.";
//! - El Niño sea surface temperatures (`statsmodels/datasets/elnino/elnino.csv`, °C to two
//!   decimals, monthly, 1950-2010: 732 readings); "This data is in the public domain.".
//!
//! The extract in `data/mauna_loa_elnino.csv` is committed (the data are public domain), so
//! the benchmark needs no download. Each reading spans its period: a week, or its calendar
//! month (28 to 31 days), so the two sources report at different and irregular intervals.
//!
//! The hand-written codec knows this structure: the source as a byte, start times as steps
//! from the previous reading of the same source, the span as `end - start`, values as
//! integers at each source's resolution (tenths, hundredths) as steps within the source,
//! then zstd at the default's level behind a CRC-32, as dynamap stores values.

use dynamap::codec::Columnar;
use serde::{Deserialize, Serialize};

const EXTRACT: &str = include_str!("data/mauna_loa_elnino.csv");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Columnar)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Source {
    /// Mauna Loa CO2, ppm.
    Co2,
    /// El Niño sea surface temperature, °C.
    Sst,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Columnar)]
pub(crate) struct Reading {
    pub(crate) source: Source,
    /// Start of the period, epoch milliseconds.
    pub(crate) start: i64,
    /// End of the period, epoch milliseconds.
    pub(crate) end: i64,
    pub(crate) value: f64,
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

const DAY_MS: i64 = 86_400_000;

/// The readings of the extract, in time order.
pub(crate) fn night() -> Vec<Reading> {
    EXTRACT
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(',');
            let (source, date, value) = (
                fields.next().expect("source"),
                fields.next().expect("date"),
                fields.next().expect("value"),
            );
            let date: i64 = date.parse().expect("yyyymmdd");
            let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100);
            let start = days(year, month, day) * DAY_MS;
            let (source, end) = match source {
                "CO2" => (Source::Co2, start + 7 * DAY_MS),
                _ => {
                    let (y, m) = if month == 12 {
                        (year + 1, 1)
                    } else {
                        (year, month + 1)
                    };
                    (Source::Sst, days(y, m, 1) * DAY_MS)
                }
            };
            Reading {
                source,
                start,
                end,
                value: value.parse().expect("a number"),
            }
        })
        .collect()
}

fn put(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

fn resolution(source: Source) -> f64 {
    match source {
        Source::Co2 => 10.0,
        Source::Sst => 100.0,
    }
}

/// The hand-written codec's stored bytes: CRC-32, then the zstd frame of the columns.
pub(crate) fn encode(readings: &[Reading]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(readings.len() * 8);
    put(&mut raw, readings.len() as u64);
    raw.extend(readings.iter().map(|r| r.source as u8));
    let mut previous = [0i64; 2];
    for r in readings {
        let slot = &mut previous[r.source as usize];
        put(&mut raw, zigzag(r.start - *slot));
        *slot = r.start;
    }
    for r in readings {
        put(&mut raw, zigzag(r.end - r.start));
    }
    let mut previous = [0i64; 2];
    for r in readings {
        let slot = &mut previous[r.source as usize];
        let v = (r.value * resolution(r.source)).round() as i64;
        put(&mut raw, zigzag(v - *slot));
        *slot = v;
    }
    let mut stored = crc32fast::hash(&raw).to_le_bytes().to_vec();
    stored.extend(zstd::bulk::compress(&raw, 3).expect("zstd compresses"));
    stored
}

/// Reads what [`encode`] wrote; `None` when the bytes are not such a list.
pub(crate) fn decode(stored: &[u8]) -> Option<Vec<Reading>> {
    let (crc, frame) = stored.split_at_checked(4)?;
    let raw = zstd::bulk::decompress(frame, 1 << 20).ok()?;
    if crc32fast::hash(&raw).to_le_bytes() != crc {
        return None;
    }
    let mut at = 0;
    let mut varint = || {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *raw.get(at)?;
            at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    };
    let count = usize::try_from(varint()?).ok()?;
    let sources: Vec<Source> = raw
        .get(at..at.checked_add(count)?)?
        .iter()
        .map(|&b| match b {
            0 => Some(Source::Co2),
            1 => Some(Source::Sst),
            _ => None,
        })
        .collect::<Option<_>>()?;
    at += count;
    let mut input = &raw[at..];
    let mut next = || -> Option<i64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = input.split_first()?;
            input = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(unzigzag(value));
            }
        }
        None
    };
    let mut previous = [0i64; 2];
    let mut starts = Vec::with_capacity(count);
    for &s in &sources {
        previous[s as usize] += next()?;
        starts.push(previous[s as usize]);
    }
    let mut spans = Vec::with_capacity(count);
    for _ in 0..count {
        spans.push(next()?);
    }
    let mut previous = [0i64; 2];
    let mut readings = Vec::with_capacity(count);
    for (i, &s) in sources.iter().enumerate() {
        previous[s as usize] += next()?;
        readings.push(Reading {
            source: s,
            start: starts[i],
            end: starts[i] + spans[i],
            value: previous[s as usize] as f64 / resolution(s),
        });
    }
    input.is_empty().then_some(readings)
}
