//! The normal-play value memo, shared by the threads searching one claim.
//!
//! Key decision: an insert-only open-addressing table of atomic slots that
//! readers use without any lock. Each thread holds a [`MemoHandle`] with its
//! own reference to the current table; lookups are plain acquire loads, which
//! cost no more than in a single-threaded map and let the processor overlap
//! the cache misses of a batch of lookups (a lock per lookup, or even a shared
//! read lock per batch, made every thread pay for the other's cache traffic).
//!
//! A slot goes from empty to claimed (by one inserting thread, with a
//! compare-and-swap) to ready, and never back. The inserting thread writes the
//! position before it publishes the ready mark with release ordering; a reader
//! trusts a slot only after seeing the ready mark with acquire ordering, so it
//! never sees a half-written entry. When the table is half full the thread that
//! notices copies the ready entries into a table twice the size and publishes
//! it; the other threads move to it at their next operation. An entry another
//! thread inserts into the old table during the copy may be lost, which only
//! means that it is computed again.
//!
//! A growth holds the old table and the new one at once (up to three times the
//! old table's bytes) and takes tens of seconds on tables of gigabytes, so the
//! memo grows only when both fit under its memory cap; otherwise it keeps its
//! table (entries that find no free slot are dropped, a cache miss later) and
//! reports the cap reached, which ends the search at its next position.
//!
//! Every entry is a value some thread computed by rules I1-I3 (or a table seed
//! that rule I4 verifies separately), so which thread wrote it, or whether two
//! threads both wrote it, never changes what the search concludes.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Slot
// arithmetic on a table whose size the budget caps: hashes wrap on purpose
// (wrapping ops), indices stay below the table length.
#![allow(clippy::arithmetic_side_effects)]

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::grid::{Grid, GridRules};
use crate::kernel::budget::BYTES_PER_ENTRY;

/// A slot's `meta` word: ready and claimed flags, the key's ruleset and
/// rectangle, and (low 32 bits) the value.
const READY: u64 = 1 << 63;
const CLAIMED: u64 = 1 << 62;
const SHAPE: u64 = 0x3fff_ffff << 32 & !(READY | CLAIMED);
const VALUE: u64 = 0xffff_ffff;

/// The first table has this many slots; each next one twice as many.
const INITIAL_SLOTS: usize = 1 << 12;

struct Slot {
    meta: AtomicU64,
    free: AtomicU64,
}

/// One generation of the table: two-word slots for any key, and one-word
/// slots for keys whose rectangle has at most 41 cells and whose value is
/// below 256 (most keys: the smaller table stays in the processor's caches
/// longer). A one-word slot is written by a single compare-and-swap, so a
/// reader sees it whole or empty.
pub struct Table {
    slots: Vec<Slot>,
    filled: AtomicUsize,
    words: Vec<AtomicU64>,
    words_filled: AtomicUsize,
}

/// Bits of a one-word entry: the value, and the rest (the key).
const WORD_VALUE: u64 = 0xff << 41;

/// The one-word key of a grid: bit 63 set (so that no entry is 0), the
/// ruleset, rows and columns, and the free cells; `None` when the rectangle
/// has more than 41 cells.
fn word_key(rules: GridRules, grid: &Grid) -> Option<u64> {
    if u32::from(grid.rows) * u32::from(grid.cols) > 41 {
        return None;
    }
    let rules = match rules {
        GridRules::Cram => 0u64,
        GridRules::DominoJuvavum => 1,
        GridRules::Juvavum => 2,
    };
    Some(
        1 << 63 | rules << 61 | u64::from(grid.rows) << 55 | u64::from(grid.cols) << 49 | grid.free,
    )
}

/// The table all threads of one search share.
pub struct SharedMemo {
    /// The newest table; replaced (under the lock) only to grow.
    current: Mutex<Arc<Table>>,
    /// Bumped each time `current` is replaced, so that handles notice cheaply.
    generation: AtomicUsize,
    /// The memory cap a growth must fit under.
    cap: GrowthCap,
    /// Set once a growth did not fit under `cap`.
    refused: AtomicBool,
}

/// A memory cap in memo entries of [`BYTES_PER_ENTRY`] bytes, and what the
/// search holds beside the memo in the same units (kept up to date by the
/// search).
pub struct GrowthCap {
    pub max_entries: usize,
    pub others: Arc<AtomicUsize>,
}

impl GrowthCap {
    /// Whether tables of `bytes` in all fit beside what the search holds.
    fn fits(&self, bytes: usize) -> bool {
        let held = bytes
            .div_ceil(BYTES_PER_ENTRY)
            .saturating_add(self.others.load(Ordering::Relaxed));
        held < self.max_entries
    }
}

/// One thread's access to a [`SharedMemo`].
pub struct MemoHandle {
    shared: Arc<SharedMemo>,
    table: Arc<Table>,
    generation: usize,
}

/// The bits of `meta` that name a position's ruleset and rectangle.
fn shape(rules: GridRules, grid: &Grid) -> u64 {
    let rules = match rules {
        GridRules::Cram => 0u64,
        GridRules::DominoJuvavum => 1,
        GridRules::Juvavum => 2,
    };
    (rules << 46 | u64::from(grid.rows) << 39 | u64::from(grid.cols) << 32) & SHAPE
}

impl Table {
    fn with_sizes(slots: usize, words: usize) -> Table {
        Table {
            slots: (0..slots)
                .map(|_| Slot {
                    meta: AtomicU64::new(0),
                    free: AtomicU64::new(0),
                })
                .collect(),
            filled: AtomicUsize::new(0),
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
            words_filled: AtomicUsize::new(0),
        }
    }

    /// Bytes of a table of `slots` two-word and `words` one-word slots.
    fn bytes_of(slots: usize, words: usize) -> usize {
        slots
            .saturating_mul(size_of::<Slot>())
            .saturating_add(words.saturating_mul(size_of::<AtomicU64>()))
    }

    /// The sizes the next table takes: each kind of slot doubled when it is
    /// half full.
    fn grown_sizes(&self) -> (usize, usize) {
        let double = |filled: &AtomicUsize, len: usize| {
            if 2 * (filled.load(Ordering::Relaxed) + 1) > len {
                2 * len
            } else {
                len
            }
        };
        (
            double(&self.filled, self.slots.len()),
            double(&self.words_filled, self.words.len()),
        )
    }

    fn word_home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (self.words.len() - 1)
    }

    fn get_word(&self, key: u64) -> Option<u32> {
        let mask = self.words.len() - 1;
        let mut i = self.word_home(key);
        for _ in 0..self.words.len() {
            let w = self.words[i].load(Ordering::Acquire);
            if w == 0 {
                return None;
            }
            if w & !WORD_VALUE == key {
                return Some(((w & WORD_VALUE) >> 41) as u32);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Stores a one-word entry; `false` when no slot is free.
    fn insert_word(&self, key: u64, value: u32) -> bool {
        let entry = key | u64::from(value) << 41;
        let mask = self.words.len() - 1;
        let mut i = self.word_home(key);
        for _ in 0..self.words.len() {
            match self.words[i].compare_exchange(0, entry, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    self.words_filled.fetch_add(1, Ordering::Relaxed);
                    return true;
                }
                Err(w) if w & !WORD_VALUE == key => return true,
                Err(_) => i = (i + 1) & mask,
            }
        }
        false
    }

    fn home(&self, shape: u64, free: u64) -> usize {
        let mixed = (free ^ shape.rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize & (self.slots.len() - 1)
    }

    fn full(&self) -> bool {
        2 * (self.filled.load(Ordering::Relaxed) + 1) > self.slots.len()
            || 2 * (self.words_filled.load(Ordering::Relaxed) + 1) > self.words.len()
    }

    /// Asks the processor to start loading the slot where the entry of `grid`
    /// would be, so that a batch of lookups waits for its cache misses
    /// together rather than one after another. Only a hint: it changes no state.
    #[inline]
    pub fn prefetch(&self, rules: GridRules, grid: &Grid) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const i8 = match word_key(rules, grid) {
                Some(key) => (&self.words[self.word_home(key)] as *const AtomicU64).cast(),
                None => {
                    let home = self.home(shape(rules, grid), grid.free);
                    (&self.slots[home] as *const Slot).cast()
                }
            };
            // SAFETY: a prefetch is a hint that never faults and changes no
            // state; SSE, which provides it, is part of every x86-64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (rules, grid);
    }

    /// The value stored for the grid `grid` of `rules`, if any.
    #[inline]
    pub fn get(&self, rules: GridRules, grid: &Grid) -> Option<u32> {
        if let Some(key) = word_key(rules, grid)
            && let Some(v) = self.get_word(key)
        {
            return Some(v);
        }
        self.get_slot(rules, grid)
    }

    fn get_slot(&self, rules: GridRules, grid: &Grid) -> Option<u32> {
        let (shape, free) = (shape(rules, grid), grid.free);
        let mask = self.slots.len() - 1;
        let mut i = self.home(shape, free);
        for _ in 0..self.slots.len() {
            let slot = &self.slots[i];
            let meta = slot.meta.load(Ordering::Acquire);
            if meta == 0 {
                return None;
            }
            if meta & READY != 0
                && meta & SHAPE == shape
                && slot.free.load(Ordering::Relaxed) == free
            {
                return Some((meta & VALUE) as u32);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Stores the entry unless the key is there already; `false` when no slot
    /// is free.
    fn insert(&self, shape: u64, free: u64, value: u32) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(shape, free);
        for _ in 0..self.slots.len() {
            let slot = &self.slots[i];
            let mut meta = slot.meta.load(Ordering::Acquire);
            if meta == 0 {
                match slot.meta.compare_exchange(
                    0,
                    CLAIMED | shape,
                    Ordering::Acquire,
                    Ordering::Acquire,
                ) {
                    Ok(_) => {
                        slot.free.store(free, Ordering::Relaxed);
                        slot.meta
                            .store(READY | shape | u64::from(value), Ordering::Release);
                        self.filled.fetch_add(1, Ordering::Relaxed);
                        return true;
                    }
                    Err(now) => meta = now,
                }
            }
            // A slot another thread is still writing may hold this key too; a
            // second copy further on is harmless (both hold the same value).
            if meta & READY != 0
                && meta & SHAPE == shape
                && slot.free.load(Ordering::Relaxed) == free
            {
                return true;
            }
            i = (i + 1) & mask;
        }
        false
    }

    /// A copy of the ready entries in a table of `sizes` (at least this one's).
    fn grown(&self, (slots, words): (usize, usize)) -> Table {
        let bigger = Table::with_sizes(slots, words);
        for word in &self.words {
            let w = word.load(Ordering::Acquire);
            if w != 0 {
                bigger.insert_word(w & !WORD_VALUE, ((w & WORD_VALUE) >> 41) as u32);
            }
        }
        for slot in &self.slots {
            let meta = slot.meta.load(Ordering::Acquire);
            if meta & READY != 0 {
                let free = slot.free.load(Ordering::Relaxed);
                // The new table has twice the room, so a slot is always found.
                bigger.insert(meta & SHAPE, free, (meta & VALUE) as u32);
            }
        }
        bigger
    }
}

impl MemoHandle {
    /// A handle on a new, empty memo that grows only under `cap`.
    pub fn capped(cap: GrowthCap) -> Self {
        let table = Arc::new(Table::with_sizes(INITIAL_SLOTS, INITIAL_SLOTS));
        let shared = Arc::new(SharedMemo {
            current: Mutex::new(Arc::clone(&table)),
            generation: AtomicUsize::new(0),
            cap,
            refused: AtomicBool::new(false),
        });
        MemoHandle {
            shared,
            table,
            generation: 0,
        }
    }

    /// Another handle on the same memo (for another thread).
    pub fn share(&self) -> Self {
        let mut handle = MemoHandle {
            shared: Arc::clone(&self.shared),
            table: Arc::clone(&self.table),
            generation: self.generation,
        };
        handle.refresh();
        handle
    }

    /// Moves to the newest table if another thread has grown it.
    fn refresh(&mut self) {
        if self.shared.generation.load(Ordering::Acquire) != self.generation {
            // A poisoned lock only means another thread panicked; the table
            // it guards is always a complete one.
            let current = self
                .shared
                .current
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            self.table = Arc::clone(&current);
            self.generation = self.shared.generation.load(Ordering::Acquire);
        }
    }

    /// The table for a batch of lookups.
    #[inline]
    pub fn table(&mut self) -> &Table {
        self.refresh();
        &self.table
    }

    /// The value stored for the grid `grid` of `rules`, if any.
    pub fn get(&mut self, rules: GridRules, grid: &Grid) -> Option<u32> {
        self.table().get(rules, grid)
    }

    /// Stores the value of the grid `grid` of `rules` (a value already stored
    /// for it is kept).
    pub fn insert(&mut self, rules: GridRules, grid: &Grid, value: u32) {
        let shape = shape(rules, grid);
        loop {
            self.refresh();
            let small = word_key(rules, grid).filter(|_| value < 256);
            let stored = match small {
                Some(key) => self.table.insert_word(key, value),
                None => self.table.insert(shape, grid.free, value),
            };
            if !self.table.full() && stored {
                return;
            }
            let mut current = self
                .shared
                .current
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if Arc::ptr_eq(&current, &self.table) {
                let sizes = self.table.grown_sizes();
                let both = Table::bytes_of(self.table.slots.len(), self.table.words.len())
                    .saturating_add(Table::bytes_of(sizes.0, sizes.1));
                if !self.shared.cap.fits(both) {
                    // The entry stays if it found a slot; either way the
                    // search is told the cap is reached.
                    self.shared.refused.store(true, Ordering::Relaxed);
                    return;
                }
                *current = Arc::new(self.table.grown(sizes));
                self.shared.generation.fetch_add(1, Ordering::Release);
            }
        }
    }

    /// Entries the memory cap counts the memo as: its table's bytes in
    /// entries of [`BYTES_PER_ENTRY`], or all the room there is once a
    /// growth did not fit under the cap.
    pub fn charged(&self) -> usize {
        if self.shared.refused.load(Ordering::Relaxed) {
            usize::MAX
        } else {
            Table::bytes_of(self.table.slots.len(), self.table.words.len())
                .div_ceil(BYTES_PER_ENTRY)
        }
    }

    /// Number of entries in the current table.
    pub fn len(&self) -> usize {
        self.table.filled.load(Ordering::Relaxed) + self.table.words_filled.load(Ordering::Relaxed)
    }

    /// Whether the current table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts `n` distinct components of at most 41 cells (one-word slots).
    fn fill(memo: &mut MemoHandle, n: u64) {
        for free in 0..n {
            let grid = Grid {
                rows: 5,
                cols: 8,
                free,
            };
            memo.insert(GridRules::Cram, &grid, 1);
        }
    }

    fn capped(max_entries: usize) -> MemoHandle {
        MemoHandle::capped(GrowthCap {
            max_entries,
            others: Arc::default(),
        })
    }

    #[test]
    fn a_growth_that_fits_under_the_cap_is_made() {
        // The first growth holds 4096 two-word and 4096 + 8192 one-word
        // slots at once: 229,376 bytes, 3,584 entries of 64 bytes.
        let mut memo = capped(3_585);
        fill(&mut memo, 3_000);
        assert_eq!(memo.len(), 3_000);
        // 4096 two-word and 8192 one-word slots.
        assert_eq!(memo.charged(), 2_048);
    }

    #[test]
    fn a_growth_past_the_cap_is_refused_and_charged_as_the_whole_cap() {
        let mut memo = capped(3_584);
        fill(&mut memo, 3_000);
        // The table kept its 4096 one-word slots, filling them past half.
        assert!(memo.len() > 2_048 && memo.len() <= 4_096);
        assert_eq!(memo.table().words.len(), INITIAL_SLOTS);
        assert_eq!(memo.charged(), usize::MAX);
    }

    #[test]
    fn what_the_search_holds_beside_the_memo_counts_against_the_cap() {
        let others = Arc::new(AtomicUsize::new(1_000));
        let mut memo = MemoHandle::capped(GrowthCap {
            max_entries: 3_585,
            others,
        });
        fill(&mut memo, 3_000);
        assert_eq!(memo.charged(), usize::MAX);
    }

    #[test]
    fn a_full_refused_table_drops_entries_and_stops() {
        let mut memo = capped(1);
        fill(&mut memo, 5_000);
        assert_eq!(memo.len(), INITIAL_SLOTS);
        assert_eq!(memo.charged(), usize::MAX);
    }
}
