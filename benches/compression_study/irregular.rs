//! A night the library's authors did not shape (issue 26): the study night's three sensors
//! re-timed to report at different intervals (motion every 30 s, noise every 45 s, light
//! every 60 s), about 5% of readings dropped, and every start time and duration jittered by
//! up to ±40 ms and ±30 ms. The kinds then never take turns with a fixed period, so a fixed
//! lag does not line a sensor's readings up, and `end - start` is noisy.
//!
//! The readings themselves (value, max, confidence, flag) are the study generator's, taken
//! in order per sensor from two seeded nights, so only the timing differs.

use super::sleep::{self, Event, Kind, NIGHT_START_MS};

/// SplitMix64, as the study's generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `-spread..=spread`.
    fn jitter(&mut self, spread: i64) -> i64 {
        (self.next() % (2 * spread as u64 + 1)) as i64 - spread
    }
}

/// The night: about 6,000 events over 24 hours, sorted by start time.
pub(crate) fn night(seed: u64) -> Vec<Event> {
    let mut rng = Rng(seed);
    // Enough readings per sensor: two study nights, each sensor's in order.
    let mut readings: [Vec<Event>; 3] = Default::default();
    for source in [sleep::night(seed), sleep::night(seed + 1)] {
        for event in source {
            readings[event.kind as usize].push(event);
        }
    }
    let mut events = Vec::new();
    for (kind, interval) in [
        (Kind::Motion, 30_000),
        (Kind::Noise, 45_000),
        (Kind::Light, 60_000),
    ] {
        let mut source = readings[kind as usize].iter();
        for step in 0..(24 * 3_600_000 / interval) {
            let reading = source.next().expect("enough readings");
            if rng.next() % 100 < 5 {
                continue; // dropped
            }
            let start = NIGHT_START_MS + step * interval + rng.jitter(40);
            events.push(Event {
                start,
                end: start + interval + rng.jitter(30),
                ..reading.clone()
            });
        }
    }
    events.sort_by_key(|e| e.start);
    events
}
