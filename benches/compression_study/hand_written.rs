//! A hand-written struct-of-arrays codec for the night's events: what a careful engineer
//! who knows this data writes for this one type, as the yardstick for the code
//! `#[derive(Columnar)]` generates.
//!
//! Each field is one column, and the codec uses what it knows of the sensors: the kind and
//! the flag as one byte each (the flag 0 for none); start times as zigzag varint steps from
//! the previous event of the same kind (a minute each), end times as their distance from the
//! start; readings as integers at each sensor's resolution (motion in thousandths, noise and
//! light in tenths, confidence in hundredths), as steps from the previous reading of the
//! same kind, and `max` as its distance from `value`. The columns are compressed with zstd
//! at the default's level, behind a CRC-32 of the uncompressed bytes, as dynamap stores them.

use super::sleep::{Event, Flag, Kind};

const LEVEL: i32 = 3;

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

/// Why hand-written decoding failed.
#[derive(Debug)]
pub(crate) struct Corrupt(#[allow(dead_code)] &'static str); // read through `Debug`

struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Input<'_> {
    fn byte(&mut self) -> Result<u8, Corrupt> {
        let byte = *self.bytes.get(self.at).ok_or(Corrupt("truncated"))?;
        self.at += 1;
        Ok(byte)
    }

    fn varint(&mut self) -> Result<u64, Corrupt> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Corrupt("varint too long"))
    }
}

fn kind_code(kind: Kind) -> u8 {
    match kind {
        Kind::Motion => 0,
        Kind::Noise => 1,
        Kind::Light => 2,
    }
}

fn flag_code(flag: Option<Flag>) -> u8 {
    match flag {
        None => 0,
        Some(Flag::Spike) => 1,
        Some(Flag::Unreliable) => 2,
    }
}

/// The factor that turns a reading of `kind` into an integer at its sensor's resolution.
fn resolution(kind: Kind) -> f64 {
    match kind {
        Kind::Motion => 1000.0,
        Kind::Noise | Kind::Light => 10.0,
    }
}

fn scaled(value: f64, factor: f64) -> i64 {
    (value * factor).round() as i64
}

/// Writes `values` (one per event, already integers) as steps from the previous value of
/// the same kind.
fn steps(out: &mut Vec<u8>, events: &[Event], value: impl Fn(&Event) -> i64) {
    let mut previous = [0i64; 3];
    for e in events {
        let slot = &mut previous[usize::from(kind_code(e.kind))];
        let v = value(e);
        put(out, zigzag(v - *slot));
        *slot = v;
    }
}

/// The stored bytes: CRC-32 (4 bytes), then the zstd frame of the columns.
pub(crate) fn encode(events: &[Event]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(events.len() * 10);
    put(&mut raw, events.len() as u64);
    raw.extend(events.iter().map(|e| kind_code(e.kind)));
    steps(&mut raw, events, |e| e.start);
    for e in events {
        put(&mut raw, zigzag(e.end - e.start));
    }
    steps(&mut raw, events, |e| scaled(e.value, resolution(e.kind)));
    for e in events {
        let factor = resolution(e.kind);
        put(
            &mut raw,
            zigzag(scaled(e.max, factor) - scaled(e.value, factor)),
        );
    }
    steps(&mut raw, events, |e| scaled(e.confidence, 100.0));
    raw.extend(events.iter().map(|e| flag_code(e.flag)));
    let mut stored = crc32fast::hash(&raw).to_le_bytes().to_vec();
    stored.extend(zstd::bulk::compress(&raw, LEVEL).expect("zstd compresses"));
    stored
}

/// Reads `count` values written by [`steps`], for events of `kinds`.
fn read_steps(input: &mut Input<'_>, kinds: &[Kind]) -> Result<Vec<i64>, Corrupt> {
    let mut previous = [0i64; 3];
    kinds
        .iter()
        .map(|&kind| {
            let slot = &mut previous[usize::from(kind_code(kind))];
            *slot += unzigzag(input.varint()?);
            Ok(*slot)
        })
        .collect()
}

pub(crate) fn decode(stored: &[u8]) -> Result<Vec<Event>, Corrupt> {
    let (crc, frame) = stored.split_at_checked(4).ok_or(Corrupt("no checksum"))?;
    let raw = zstd::bulk::decompress(frame, 1 << 20).map_err(|_| Corrupt("zstd"))?;
    if crc32fast::hash(&raw).to_le_bytes() != crc {
        return Err(Corrupt("checksum"));
    }
    let mut input = Input { bytes: &raw, at: 0 };
    let count = usize::try_from(input.varint()?).map_err(|_| Corrupt("count"))?;
    if count > raw.len() {
        return Err(Corrupt("count"));
    }
    let mut kinds = Vec::with_capacity(count);
    for _ in 0..count {
        kinds.push(match input.byte()? {
            0 => Kind::Motion,
            1 => Kind::Noise,
            2 => Kind::Light,
            _ => return Err(Corrupt("kind")),
        });
    }
    let starts = read_steps(&mut input, &kinds)?;
    let mut lengths = Vec::with_capacity(count);
    for _ in 0..count {
        lengths.push(unzigzag(input.varint()?));
    }
    let values = read_steps(&mut input, &kinds)?;
    let mut above = Vec::with_capacity(count);
    for _ in 0..count {
        above.push(unzigzag(input.varint()?));
    }
    let confidences = read_steps(&mut input, &kinds)?;
    let mut events = Vec::with_capacity(count);
    for i in 0..count {
        let factor = resolution(kinds[i]);
        events.push(Event {
            kind: kinds[i],
            start: starts[i],
            end: starts[i] + lengths[i],
            value: values[i] as f64 / factor,
            max: (values[i] + above[i]) as f64 / factor,
            confidence: confidences[i] as f64 / 100.0,
            flag: match input.byte()? {
                0 => None,
                1 => Some(Flag::Spike),
                2 => Some(Flag::Unreliable),
                _ => return Err(Corrupt("flag")),
            },
        });
    }
    if input.at != raw.len() {
        return Err(Corrupt("trailing bytes"));
    }
    Ok(events)
}
