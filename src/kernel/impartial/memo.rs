//! The normal-play value memo, shared by the threads searching one claim.
//!
//! Key decision: an insert-only open-addressing table of atomic slots behind a
//! read-write lock that is taken for writing only to grow the table. Lookups
//! and inserts hold the read lock, so threads work on the table side by side;
//! a search takes the lock once per batch of lookups, because every locked
//! instruction is a barrier that stops the processor overlapping the cache
//! misses of independent lookups (a lock per lookup halved the search speed).
//!
//! A slot goes from empty to claimed (by one inserting thread, with a
//! compare-and-swap) to ready, and never back. The inserting thread writes the
//! position before it publishes the ready mark with release ordering; a reader
//! trusts a slot only after seeing the ready mark with acquire ordering, so it
//! never sees a half-written entry. Every entry is a value some thread computed
//! by rules I1-I3 (or a table seed that rule I4 verifies separately), so which
//! thread wrote it, or whether two threads both wrote it, never changes what
//! the search concludes.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard};

use super::grid::{Grid, GridRules};

/// A slot's `meta` word: ready and claimed flags, the key's ruleset and
/// rectangle, and (low 32 bits) the value.
const READY: u64 = 1 << 63;
const CLAIMED: u64 = 1 << 62;
const SHAPE: u64 = 0x3fff_ffff << 32 & !(READY | CLAIMED);
const VALUE: u64 = 0xffff_ffff;

/// The table starts with this many slots and doubles when half full.
const INITIAL_SLOTS: usize = 1 << 12;

struct Slot {
    meta: AtomicU64,
    free: AtomicU64,
}

struct Table {
    slots: Vec<Slot>,
}

/// Grundy values of canonical grid components, safe to share between threads.
pub struct SharedMemo {
    table: RwLock<Table>,
    entries: AtomicUsize,
}

impl Default for SharedMemo {
    fn default() -> Self {
        SharedMemo {
            table: RwLock::new(Table::with_slots(INITIAL_SLOTS)),
            entries: AtomicUsize::new(0),
        }
    }
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
    fn with_slots(n: usize) -> Table {
        let slots = (0..n)
            .map(|_| Slot {
                meta: AtomicU64::new(0),
                free: AtomicU64::new(0),
            })
            .collect();
        Table { slots }
    }

    fn home(&self, shape: u64, free: u64) -> usize {
        let mixed = (free ^ shape.rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize & (self.slots.len() - 1)
    }

    fn get(&self, shape: u64, free: u64) -> Option<u32> {
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

    /// Stores the entry; `Some(true)` when it is new, `Some(false)` when the
    /// key was already there, `None` when no slot is free.
    fn insert(&self, shape: u64, free: u64, value: u32) -> Option<bool> {
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
                        return Some(true);
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
                return Some(false);
            }
            i = (i + 1) & mask;
        }
        None
    }

    fn grown(&self) -> Table {
        let bigger = Table::with_slots(self.slots.len() * 2);
        for slot in &self.slots {
            let meta = slot.meta.load(Ordering::Acquire);
            if meta & READY != 0 {
                let free = slot.free.load(Ordering::Relaxed);
                // The new table has twice the room, so a slot is always found.
                let _ = bigger.insert(meta & SHAPE, free, (meta & VALUE) as u32);
            }
        }
        bigger
    }
}

/// Read access to the memo for a batch of lookups.
pub struct Reader<'a> {
    table: RwLockReadGuard<'a, Table>,
}

impl Reader<'_> {
    /// The value stored for the grid `grid` of `rules`, if any.
    #[inline]
    pub fn get(&self, rules: GridRules, grid: &Grid) -> Option<u32> {
        self.table.get(shape(rules, grid), grid.free)
    }
}

impl SharedMemo {
    /// Read access for a batch of lookups. Hold it only for lookups: a thread
    /// that must grow the table waits until every reader is gone.
    pub fn reader(&self) -> Reader<'_> {
        // A poisoned lock only means another thread panicked; the slots it
        // published were complete, and half-written ones are never ready.
        Reader {
            table: self.table.read().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// The value stored for the grid `grid` of `rules`, if any.
    pub fn get(&self, rules: GridRules, grid: &Grid) -> Option<u32> {
        self.reader().get(rules, grid)
    }

    /// Stores the value of the grid `grid` of `rules` (a value already stored
    /// for it is kept).
    pub fn insert(&self, rules: GridRules, grid: &Grid, value: u32) {
        let shape = shape(rules, grid);
        loop {
            {
                let table = self.table.read().unwrap_or_else(|e| e.into_inner());
                if 2 * (self.len() + 1) <= table.slots.len()
                    && let Some(new) = table.insert(shape, grid.free, value)
                {
                    if new {
                        self.entries.fetch_add(1, Ordering::Relaxed);
                    }
                    return;
                }
            }
            let mut table = self.table.write().unwrap_or_else(|e| e.into_inner());
            if 2 * (self.len() + 1) > table.slots.len() {
                *table = table.grown();
            }
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.load(Ordering::Relaxed)
    }

    /// Whether the memo is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
