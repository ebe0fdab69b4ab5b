//! The shard of an item: a stable hash of some of its fields, modulo the shard count.
//!
//! Stable means the same in every build and on every machine, for as long as the fields'
//! key-part text stays the same: the shard is part of stored index keys, so a hash that
//! changed between releases would strand every item written before. It is FNV-1a (64
//! bits) over each field's [`KeyPart`] text, the texts separated by a byte no UTF-8 text
//! holds, then MurmurHash3's 64-bit finaliser: FNV's low bits depend only on the inputs'
//! low bits, so without it ids differing in one digit would often share a shard.

use super::KeyPart;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;
/// Never a byte of UTF-8 text, so `("a", "bc")` and `("ab", "c")` hash apart.
const SEPARATOR: u8 = 0xff;

/// Hashes the fields a `shard(of(...))` names. Used by generated code.
#[doc(hidden)]
pub struct ShardHash {
    state: u64,
    text: String,
}

impl Default for ShardHash {
    fn default() -> Self {
        Self::new()
    }
}

impl ShardHash {
    pub fn new() -> Self {
        Self {
            state: FNV_OFFSET,
            text: String::new(),
        }
    }

    /// Adds one field's value. A value that cannot be a key part (an empty string) hashes
    /// as the text it wrote, empty: the key it is rendered into reports it.
    pub fn add<T: KeyPart>(&mut self, value: &T) {
        self.text.clear();
        let _ = value.write_key_part(&mut self.text);
        for &byte in self.text.as_bytes().iter().chain([&SEPARATOR]) {
            self.state ^= u64::from(byte);
            self.state = self.state.wrapping_mul(FNV_PRIME);
        }
    }

    /// The shard, in `0..count`.
    pub fn finish(&self, count: u16) -> u16 {
        let mut h = self.state;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        // `count` is at least 1 (the derive checks it), so the remainder fits a u16.
        u16::try_from(h % u64::from(count.max(1))).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(parts: &[&str], count: u16) -> u16 {
        let mut hash = ShardHash::new();
        for part in parts {
            hash.add(&(*part).to_owned());
        }
        hash.finish(count)
    }

    #[test]
    fn is_the_same_in_every_build() {
        // Stored keys hold these shards: a change here strands every item written before.
        let shards: Vec<u16> = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"]
            .iter()
            .map(|id| shard(&[id], 4))
            .collect();
        assert_eq!(shards, [2, 0, 3, 2, 0, 2, 0, 1]);
        assert_eq!(shard(&["user-42"], 1000), 758);
    }

    #[test]
    fn separates_the_fields() {
        let split: Vec<u16> = [["a", "bc"], ["ab", "c"]]
            .iter()
            .map(|parts| shard(parts, 1000))
            .collect();
        assert_ne!(split[0], split[1]);
    }

    #[test]
    fn ids_one_digit_apart_use_every_shard() {
        // '1', '5' and '9' share their low two bits: FNV alone puts them in one shard of 4.
        let shards: std::collections::BTreeSet<u16> = ["d1", "d5", "d9", "x1", "x5", "x9"]
            .iter()
            .map(|id| shard(&[id], 4))
            .collect();
        assert!(shards.len() > 1, "{shards:?}");
    }

    #[test]
    fn spreads_ids_evenly() {
        let mut counts = [0usize; 8];
        for i in 0..8000 {
            counts[usize::from(shard(&[&format!("deal-{i}")], 8))] += 1;
        }
        for count in counts {
            assert!((800..1200).contains(&count), "{counts:?}");
        }
    }
}
