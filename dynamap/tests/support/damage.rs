//! Damage for the fuzz tests: bit flips, truncations, overwritten bytes, inserted runs of
//! random bytes and removed runs, applied to real stored values. Shared by
//! `compressed_fuzz.rs` and `columnar_fuzz.rs` (included with `#[path]`).

use proptest::prelude::*;

#[derive(Debug, Clone)]
pub(crate) enum Damage {
    Flip { at: usize, bit: u8 },
    Truncate { at: usize },
    Overwrite { at: usize, byte: u8 },
    Insert { at: usize, bytes: Vec<u8> },
    Remove { at: usize, len: usize },
}

pub(crate) fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Damage::Flip { at, bit }),
        any::<usize>().prop_map(|at| Damage::Truncate { at }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Damage::Overwrite { at, byte }),
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 1..16)
        )
            .prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (any::<usize>(), 1usize..32).prop_map(|(at, len)| Damage::Remove { at, len }),
    ]
}

pub(crate) fn apply(mut bytes: Vec<u8>, damage: &[Damage]) -> Vec<u8> {
    for d in damage {
        let len = bytes.len().max(1);
        match d {
            Damage::Flip { at, bit } => {
                if let Some(b) = bytes.get_mut(at % len) {
                    *b ^= 1 << bit;
                }
            }
            Damage::Truncate { at } => bytes.truncate(at % len),
            Damage::Overwrite { at, byte } => {
                if let Some(b) = bytes.get_mut(at % len) {
                    *b = *byte;
                }
            }
            Damage::Insert { at, bytes: extra } => {
                let at = at % len;
                let at = at.min(bytes.len());
                bytes.splice(at..at, extra.iter().copied());
            }
            Damage::Remove { at, len: n } => {
                let at = (at % len).min(bytes.len());
                let end = (at + n).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
    bytes
}
