//! The workload: events of a few cars in arrival order, collisions at seeded positions, and
//! the clock that stamps them live or as backfill.

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::model::CarEvent;

pub(crate) const TENANT: &str = "n111";
pub(crate) const CARS: u32 = 8;
pub(crate) const CONCURRENCY: usize = 32;
pub(crate) const RATES: [f64; 4] = [0.0, 0.1, 0.5, 0.9];
/// How far apart (in events) a spread group's collisions arrive: more than `CONCURRENCY`,
/// so the write that opened the group has finished.
pub(crate) const SPREAD: usize = 2 * CONCURRENCY;
/// How far back backfill events are.
pub(crate) const BACKFILL: Duration = Duration::from_secs(30 * 24 * 3600);
/// `WritePath::Auto`'s window, the seed's "within the last 5 seconds".
pub(crate) const RECENT: Duration = Duration::from_secs(5);

pub(crate) fn car_name(car: u32) -> String {
    format!("car{car:02}")
}

/// A small seeded generator (xorshift64*), so the workload is the same in every run.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("fits")
    }
}

/// One event of the workload, before it has a timestamp.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) car: u32,
    /// The event's timestamp group: events of one group share (car, millisecond). The
    /// first event of a group to arrive gives it a new timestamp; the others are collisions.
    pub(crate) group: usize,
}

/// `n` events of which exactly `round(rate * n)` are collisions, at seeded random
/// positions. Groups go to the cars in turn. With `spread`, the `k`th collision of a group
/// arrives about `k * SPREAD` events after the group's first event instead of right after
/// it, so it never races the write that opened the group.
pub(crate) fn plan(n: usize, rate: f64, spread: bool) -> Vec<Slot> {
    let mut flags = vec![false; n];
    let collisions = ((rate * n as f64).round() as usize).min(n.saturating_sub(1));
    for flag in flags.iter_mut().skip(1).take(collisions) {
        *flag = true;
    }
    // Shuffle positions 1.. (the first event always opens a group).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (rate * 1000.0) as u64);
    for i in (2..n).rev() {
        let j = 1 + rng.below(i);
        flags.swap(i, j);
    }
    let mut groups = 0;
    let (mut opened_at, mut rank) = (0, 0);
    let mut keyed: Vec<(usize, usize, Slot)> = Vec::with_capacity(n);
    for (position, collision) in flags.into_iter().enumerate() {
        if collision {
            rank += 1;
        } else {
            (opened_at, rank) = (position, 0);
            groups += 1;
        }
        let group = groups - 1;
        let slot = Slot {
            car: u32::try_from(group).expect("fits") % CARS,
            group,
        };
        let key = if spread {
            opened_at + rank * SPREAD
        } else {
            position
        };
        keyed.push((key, position, slot));
    }
    keyed.sort_unstable_by_key(|&(key, position, _)| (key, position));
    keyed.into_iter().map(|(_, _, slot)| slot).collect()
}

/// Stamps events as they enter the pipeline.
pub(crate) struct Clock {
    pub(crate) offset: Duration,
    pub(crate) last: Vec<i64>,
    pub(crate) groups: HashMap<usize, i64>,
    pub(crate) seq: u32,
}

impl Clock {
    pub(crate) fn new(offset: Duration) -> Self {
        Clock {
            offset,
            last: vec![i64::MIN; CARS as usize],
            groups: HashMap::new(),
            seq: 0,
        }
    }

    pub(crate) fn event(&mut self, slot: Slot) -> CarEvent {
        let car = slot.car as usize;
        let at = match self.groups.get(&slot.group) {
            Some(&at) => at,
            None => {
                let now = SystemTime::now()
                    .checked_sub(self.offset)
                    .expect("clock")
                    .duration_since(UNIX_EPOCH)
                    .expect("clock after 1970");
                let now = i64::try_from(now.as_millis()).expect("fits");
                let at = now.max(self.last[car].saturating_add(1));
                self.last[car] = at;
                self.groups.insert(slot.group, at);
                at
            }
        };
        let seq = self.seq;
        self.seq += 1;
        CarEvent {
            tenant: TENANT.to_owned(),
            car: car_name(slot.car),
            at,
            speed: f64::from(seq % 2000) / 10.0,
            seq,
            door: seq.is_multiple_of(7).then(|| "open".to_owned()),
        }
    }
}
