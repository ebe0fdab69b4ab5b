//! The generator behind fault decisions.
//!
//! The runtime has a splitmix64 of its own for retry jitter; this one is separate because
//! the sequence of faults a seed gives is part of this crate's promise ([`Faults`](crate::Faults)
//! is reproducible), and must not change when the runtime's jitter does.

/// The splitmix64 generator: tiny, fast and reproducible from a seed. Not for anything that
/// needs unpredictability.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting at `seed`: the same seed gives the same sequence.
    pub(crate) fn seeded(seed: u64) -> Self {
        Self { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.state)
    }

    /// A float uniform in `[0, 1)`.
    pub(crate) fn next_f64(&mut self) -> f64 {
        // The top 53 bits fill an f64 mantissa exactly.
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// splitmix64's output function: a bijective mix of all 64 bits.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_in_the_unit_interval() {
        let mut rng = SplitMix64::seeded(3);
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.next_f64())));
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64::seeded(42), SplitMix64::seeded(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }
}
