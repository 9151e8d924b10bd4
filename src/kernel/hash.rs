//! A small, fast, deterministic hasher for the kernel's memo tables.
//!
//! The kernel may depend only on `std` and `bitvec`, so instead of pulling in a
//! hashing crate it carries this multiply-rotate hasher (the scheme popularised
//! by Firefox and rustc). It is not resistant to adversarial collisions; the
//! keys it hashes are positions the kernel generated itself, never raw input,
//! and the memory cap bounds the table whatever the distribution.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hasher over machine words.
#[derive(Default, Clone, Copy)]
pub struct FastHasher {
    state: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // A product's low bits depend only on its factors' low bits, and
        // hash tables take their bucket from the low bits. Canonical grids
        // are the least image of a position, so their first cells are mostly
        // taken and their low bits mostly equal: without this rotation, big
        // maps of grids pile into a few buckets.
        self.state.rotate_left(26)
    }
}

/// A `HashMap` using [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
/// A `HashSet` using [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash_of(key: impl Hash) -> u64 {
        BuildHasherDefault::<FastHasher>::default().hash_one(key)
    }

    /// Keys that differ only in their high bits, as canonical grids mostly
    /// do, must still spread over a table's buckets, which are chosen by the
    /// hash's low bits. Without the final rotation every such key falls in
    /// bucket 0 and a map of them fills in quadratic time.
    #[test]
    fn keys_differing_in_high_bits_spread_over_the_low_bits() {
        let buckets: FastSet<u64> = (0..1u64 << 12)
            .map(|k| hash_of(k << 20) & ((1 << 12) - 1))
            .collect();
        assert!(buckets.len() > 1 << 11, "{} buckets of 4096", buckets.len());
    }
}
