//! One night of sleep-tracker events (seed 000), generated deterministically so that the
//! `sleep_events` example and the `compression_study` benchmark store the same data.
//!
//! As in the seed: three event types (motion, noise, light), one event per type per minute
//! from the start of the day, 3 x 1,440 = 4,320 events, sorted by start time as a recorder
//! writes them. Each sensor reads like a real one: a level that drifts slowly around a
//! baseline, quantized to the sensor's resolution, with occasional spikes (tossing and
//! turning, a car passing, a lamp switched on) and light rising at dawn.
//!
//! A module of the `example_support` library, and included with `#[path]` by the
//! `compression_study` benchmark, whose package does not depend on the examples'.

use dynamap::codec::Columnar;
use serde::{Deserialize, Serialize};

/// The night the example and the benchmark store, in the user's local time.
pub const NIGHT: &str = "2026-11-21";

/// 2026-11-21T00:00:00 in epoch milliseconds: the first events start here.
pub const NIGHT_START_MS: i64 = 1_795_219_200_000;

/// Minutes in the recorded day, one event per type each.
pub const MINUTES: i64 = 24 * 60;

/// The length of every event: the motion sensor's collection interval.
pub const EVENT_MS: i64 = 60_000;

/// Which sensor produced an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Columnar)]
#[serde(rename_all = "UPPERCASE")]
pub enum Kind {
    /// Accelerometer activity, in g.
    Motion,
    /// Sound level, in dB(A).
    Noise,
    /// Illuminance, in lux.
    Light,
}

/// Why an event stands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Columnar)]
#[serde(rename_all = "UPPERCASE")]
pub enum Flag {
    /// Well above the drifting level: movement, a sound, a lamp.
    Spike,
    /// Below the sensor's confidence threshold.
    Unreliable,
}

/// One minute of one sensor. `Columnar`: a night of them is stored column by column by
/// generated code (serde's derives read nights stored before).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Columnar)]
pub struct Event {
    /// The sensor.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Start, epoch milliseconds.
    pub start: i64,
    /// End, epoch milliseconds.
    pub end: i64,
    /// The minute's mean reading, in the sensor's unit and resolution.
    pub value: f64,
    /// The minute's highest reading.
    pub max: f64,
    /// How sure the sensor is of the reading, 0 to 1 in hundredths.
    pub confidence: f64,
    /// Set on spikes and unreliable readings.
    pub flag: Option<Flag>,
}

/// SplitMix64: a tiny, well-mixed deterministic generator (no dependency needed).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [-1, 1).
    fn signed(&mut self) -> f64 {
        self.unit() * 2.0 - 1.0
    }
}

/// Rounds to `digits` decimals, as the sensor reports.
fn quantize(value: f64, digits: i32) -> f64 {
    let power = 10f64.powi(digits);
    (value * power).round() / power
}

/// One sensor's state: a level drifting around a baseline.
struct Sensor {
    kind: Kind,
    level: f64,
    confidence: f64,
    /// Decimals the sensor reports.
    digits: i32,
    /// Largest step of the drift per minute.
    step: f64,
    /// Jitter of a single minute around the level.
    jitter: f64,
    /// Chance of a spike in a minute, and how far above the level it goes.
    spike_chance: f64,
    spike_size: (f64, f64),
    floor: f64,
}

impl Sensor {
    /// The level the sensor drifts back to at `minute` of the day.
    fn baseline(&self, minute: i64) -> f64 {
        match self.kind {
            Kind::Motion => 0.02,
            Kind::Noise => 31.0,
            // Dark until 06:30, then dawn brightens the room to about 180 lux by 08:30.
            Kind::Light => {
                let dawn = (minute - 390).clamp(0, 120) as f64 / 120.0;
                0.4 + 180.0 * dawn * dawn
            }
        }
    }

    fn event(&mut self, rng: &mut Rng, minute: i64) -> Event {
        let baseline = self.baseline(minute);
        // Mean-reverting random walk: slow drift that never wanders off.
        self.level += (baseline - self.level) * 0.05 + rng.signed() * self.step;
        self.level = self.level.max(self.floor);
        self.confidence = (self.confidence + rng.signed() * 0.005).clamp(0.55, 0.99);

        let spike = rng.unit() < self.spike_chance;
        let mut value = self.level + rng.signed() * self.jitter;
        if spike {
            let (low, high) = self.spike_size;
            value += low + rng.unit() * (high - low);
        }
        let value = quantize(value.max(self.floor), self.digits);
        let max = quantize(
            value + rng.unit() * (self.jitter * 2.0 + if spike { value * 0.3 } else { 0.0 }),
            self.digits,
        );
        let confidence = quantize(self.confidence, 2);
        let flag = if spike {
            Some(Flag::Spike)
        } else if confidence < 0.6 {
            Some(Flag::Unreliable)
        } else {
            None
        };
        let start = NIGHT_START_MS + minute * EVENT_MS;
        Event {
            kind: self.kind,
            start,
            end: start + EVENT_MS,
            value,
            max,
            confidence,
            flag,
        }
    }
}

/// The recorded day: 4,320 events, by start time, the three types interleaved. The same
/// `seed` gives the same events.
pub fn night(seed: u64) -> Vec<Event> {
    let mut rng = Rng(seed);
    let mut sensors = [
        Sensor {
            kind: Kind::Motion,
            level: 0.02,
            confidence: 0.93,
            digits: 3,
            step: 0.001,
            jitter: 0.001,
            spike_chance: 0.03,
            spike_size: (0.15, 1.2),
            floor: 0.0,
        },
        Sensor {
            kind: Kind::Noise,
            level: 31.0,
            confidence: 0.9,
            digits: 1,
            step: 0.1,
            jitter: 0.1,
            spike_chance: 0.015,
            spike_size: (8.0, 30.0),
            floor: 20.0,
        },
        Sensor {
            kind: Kind::Light,
            level: 0.4,
            confidence: 0.95,
            digits: 1,
            step: 0.05,
            jitter: 0.0,
            spike_chance: 0.004,
            spike_size: (40.0, 150.0),
            floor: 0.0,
        },
    ];
    let mut events = Vec::with_capacity(3 * MINUTES as usize);
    for minute in 0..MINUTES {
        for sensor in &mut sensors {
            events.push(sensor.event(&mut rng, minute));
        }
    }
    events
}
