//! The memoised Grundy search over components (normal play) and over
//! multisets of components (misère play).
//!
//! Key decision: a position is always handled as a multiset of canonical
//! components. In normal play the Sprague-Grundy theorem makes a sum's value the
//! XOR of its components' values, so the memo is keyed by single components and
//! a board splits into small, shared pieces. Misère values are not additive, but
//! a sum is the same game graph whatever the order of its summands and whatever
//! the placement or orientation of each summand, so the sorted multiset of
//! canonical components is still a sound memo key (docs/soundness.md, I3).
//! The solver never trusts a value it did not compute, except values seeded by
//! a table, which the table rule verifies separately (table.rs).

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Grundy values
// are mexes, bounded by the number of options; depths and counters by the
// budget.
#![allow(clippy::arithmetic_side_effects)]

use super::grid::{Grid, GridRules, ShapeMaps};
use super::heap::{HeapRules, HeapValues};
use super::memo::{GrowthCap, MemoHandle};
use super::{Move, mex};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One summand of a position: a heap of a registered heap ruleset, or a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// A heap; `rules` indexes the solver's heap rulesets.
    Heap { rules: u32, size: u32 },
    /// A grid position (canonical when it came out of a decomposition).
    Grid { rules: GridRules, grid: Grid },
}

/// An option of a component: the move and the components it leaves.
pub type ComponentOption = (Move, Vec<Component>);

/// Buffers for one expansion of [`Solver::grundy`], kept for reuse (an
/// expansion is far cheaper than the allocations it would otherwise make).
#[derive(Default)]
struct Expansion {
    /// The canonical parts of every option, option after option.
    parts: Vec<Grid>,
    /// Per option: its range in `parts` and the XOR of the values of parts
    /// too small to be listed.
    options: Vec<(usize, usize, u32)>,
    /// The memo's value of each part, where known.
    known: Vec<Option<u32>>,
    /// The options' values.
    seen: Vec<u32>,
}

impl Expansion {
    fn clear(&mut self) {
        self.parts.clear();
        self.options.clear();
        self.known.clear();
        self.seen.clear();
    }
}

/// Memo tables and the budget for one claim's search.
pub struct Solver {
    heap_rules: Vec<HeapRules>,
    heap_values: Vec<HeapValues>,
    normal: MemoHandle,
    misere: FastMap<Vec<Component>, u32>,
    /// Symmetry maps of the grid shapes met so far.
    shapes: ShapeMaps,
    /// Spare expansion buffers, one per level of the recursion at most.
    scratch: Vec<Expansion>,
    /// The budget every expansion is charged to.
    pub budget: Budget,
    /// Current depth of the misère recursion.
    depth: usize,
    /// This search's lane among `lanes` threads: it takes the options of a
    /// position starting `lane / lanes` of the way through the list, so that
    /// threads searching the same game start on different subtrees.
    lane: usize,
    lanes: usize,
    /// How many helper threads a normal-play search may start.
    pub helpers: usize,
}

/// The deepest misère recursion (moves along one line of play). Deep enough
/// for any 64-cell board; a sum of many large heaps exceeds it and the claim
/// is UNDECIDED instead of exhausting the stack (8 MiB holds it on any thread).
pub const MAX_MISERE_DEPTH: usize = 10_000;

impl Solver {
    /// A solver with empty memo tables.
    pub fn new(budget: Budget) -> Self {
        Solver {
            heap_rules: Vec::new(),
            heap_values: Vec::new(),
            normal: MemoHandle::capped(GrowthCap {
                max_entries: budget.max_entries(),
                others: Arc::default(),
            }),
            misere: FastMap::default(),
            shapes: ShapeMaps::default(),
            scratch: Vec::new(),
            budget,
            depth: 0,
            lane: 0,
            lanes: 1,
            helpers: 0,
        }
    }

    /// A solver for helper thread `lane` of `lanes`: it shares this solver's
    /// normal-play memo and stops when `cancel` is set.
    fn helper(&self, lane: usize, lanes: usize, cancel: Arc<AtomicBool>) -> Self {
        Solver {
            heap_rules: self.heap_rules.clone(),
            heap_values: self
                .heap_values
                .iter()
                .map(|_| HeapValues::default())
                .collect(),
            normal: self.normal.share(),
            misere: FastMap::default(),
            shapes: ShapeMaps::default(),
            scratch: Vec::new(),
            budget: self.budget.helper(cancel),
            depth: 0,
            lane,
            lanes,
            helpers: 0,
        }
    }

    /// The index of `rules` among the registered heap rulesets, registering it if new.
    ///
    /// Ids index `heap_rules`; a game has at most a few thousand summands (the
    /// elaborator caps them), so a `u32` id never wraps and two rulesets never
    /// share an id.
    pub fn heap_rules_id(&mut self, rules: &HeapRules) -> u32 {
        let index = match self.heap_rules.iter().position(|r| r == rules) {
            Some(i) => i,
            None => {
                self.heap_rules.push(rules.clone());
                self.heap_values.push(HeapValues::default());
                self.heap_rules.len() - 1
            }
        };
        u32::try_from(index).unwrap_or(u32::MAX)
    }

    /// Memo entries as the memory cap counts them (both tables).
    pub fn entries(&self) -> usize {
        self.normal.charged().saturating_add(self.misere.len())
    }

    /// The canonical components of `c` (a heap of size 0 and grids without
    /// moves vanish).
    pub fn decompose(&self, c: &Component) -> Vec<Component> {
        match *c {
            Component::Heap { size: 0, .. } => Vec::new(),
            Component::Heap { .. } => vec![*c],
            Component::Grid { rules, grid } => grid
                .components(rules)
                .into_iter()
                .map(|grid| Component::Grid { rules, grid })
                .collect(),
        }
    }

    /// Every option of `c`, each with the canonical components it leaves.
    pub fn options(&mut self, c: &Component) -> Result<Vec<ComponentOption>, Exhausted> {
        let mut out = Vec::new();
        let budget = &mut self.budget;
        match *c {
            Component::Heap { rules, size } => {
                self.heap_rules[rules as usize].for_each_option(size, &mut |a, b| {
                    let left = [a, b].into_iter().filter(|&s| s > 0);
                    let parts = left.map(|size| Component::Heap { rules, size }).collect();
                    out.push((Move::Heap(a, b), parts));
                    budget.tick()
                })?;
            }
            Component::Grid { rules, grid } => {
                grid.for_each_move(rules, &mut |placed| {
                    let next = Grid {
                        free: grid.free & !placed,
                        ..grid
                    };
                    let parts = next
                        .components(rules)
                        .into_iter()
                        .map(|grid| Component::Grid { rules, grid })
                        .collect();
                    out.push((Move::Fill(placed), parts));
                    budget.tick()
                })?;
            }
        }
        Ok(out)
    }

    /// Seeds the normal-play memo with a value the caller will verify.
    pub fn seed_normal(&mut self, c: Component, value: u32) {
        if let Component::Grid { rules, grid } = c {
            self.normal.insert(rules, &grid, value);
        }
    }

    /// Seeds the misère memo with a value the caller will verify.
    pub fn seed_misere(&mut self, mut position: Vec<Component>, value: u32) {
        position.sort_unstable();
        self.misere.insert(position, value);
    }

    /// The normal-play Grundy value of a sum of canonical components.
    pub fn grundy_sum(&mut self, parts: &[Component]) -> Result<u32, Exhausted> {
        let mut value = 0;
        for part in parts {
            value ^= self.grundy(part)?;
        }
        Ok(value)
    }

    /// Runs `search` on this solver while [`Solver::helpers`] threads value
    /// the components of `work` (the ones `search` will need), each starting
    /// on other subtrees and publishing what it finishes in the shared memo.
    /// The helpers' own results are discarded; they only fill the memo sooner.
    pub fn with_helpers<R>(
        &mut self,
        work: &[Component],
        search: impl FnOnce(&mut Solver) -> R,
    ) -> R {
        let grids = work.iter().any(|p| matches!(p, Component::Grid { .. }));
        if self.helpers == 0 || !grids {
            return search(self);
        }
        let lanes = self.helpers + 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let mut helpers: Vec<Solver> = (1..lanes)
            .map(|lane| self.helper(lane, lanes, Arc::clone(&cancel)))
            .collect();
        std::thread::scope(|scope| {
            for helper in &mut helpers {
                let mut work = work.to_vec();
                let first = helper.lane * work.len() / lanes;
                work.rotate_left(first);
                // A helper that cannot be started only costs speed.
                let _ = std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, move || {
                        let _ = helper.grundy_sum(&work);
                    });
            }
            let result = search(self);
            cancel.store(true, Ordering::Relaxed);
            result
        })
    }

    /// The normal-play Grundy value of one canonical component.
    pub fn grundy(&mut self, c: &Component) -> Result<u32, Exhausted> {
        if let Component::Heap { rules, size } = *c {
            let id = rules as usize;
            return self.heap_values[id].value(&self.heap_rules[id], size, &mut self.budget);
        }
        let (rules, grid) = match *c {
            Component::Grid { rules, grid } => (rules, grid),
            Component::Heap { rules, size } => {
                let id = rules as usize;
                return self.heap_values[id].value(&self.heap_rules[id], size, &mut self.budget);
            }
        };
        if let Some(v) = self.normal.get(rules, &grid) {
            return Ok(v);
        }
        self.budget.expand(self.entries())?;
        let mut x = self.scratch.pop().unwrap_or_default();
        x.clear();
        // Split and canonicalise every option before looking any part up: the
        // lookups are then independent loads the processor can overlap, where
        // one lookup after each split would wait on every cache miss in turn.
        let images = self.shapes.images(&grid);
        let budget = &mut self.budget;
        grid.for_each_move(rules, &mut |placed| {
            let start = x.parts.len();
            let small = grid.parts_after(rules, placed, &images, &mut x.parts);
            x.options.push((start, x.parts.len(), small));
            budget.tick()
        })?;
        {
            let memo = self.normal.table();
            for grid in &x.parts {
                memo.prefetch(rules, grid);
            }
            x.known
                .extend(x.parts.iter().map(|grid| memo.get(rules, grid)));
        }
        let first = self.lane * x.options.len() / self.lanes;
        x.options.rotate_left(first);
        for &(start, end, small) in &x.options {
            let mut value = small;
            for i in start..end {
                value ^= match x.known[i] {
                    Some(v) => v,
                    None => self.grundy(&Component::Grid {
                        rules,
                        grid: x.parts[i],
                    })?,
                };
            }
            x.seen.push(value);
        }
        let value = mex(&x.seen);
        self.scratch.push(x);
        self.normal.insert(rules, &grid, value);
        Ok(value)
    }

    /// The misère Grundy value of a multiset of canonical components: 1 when no
    /// move is left (the extra sink vertex), otherwise the mex of the options.
    pub fn misere(&mut self, position: &[Component]) -> Result<u32, Exhausted> {
        let mut key = position.to_vec();
        key.sort_unstable();
        if let Some(&v) = self.misere.get(&key) {
            return Ok(v);
        }
        self.budget.expand(self.entries())?;
        // The misère search recurses once per move of a whole sum, which can be
        // far deeper than any one component's search; bound it.
        if self.depth >= MAX_MISERE_DEPTH {
            return Err(Exhausted::Depth(MAX_MISERE_DEPTH));
        }
        self.depth += 1;
        let mut seen = Vec::new();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue; // the same summand again gives the same options
            }
            for (_, parts) in self.options(&key[i])? {
                let mut next: Vec<Component> = key[..i].to_vec();
                next.extend_from_slice(&key[i + 1..]);
                next.extend(parts);
                seen.push(self.misere(&next)?);
            }
        }
        self.depth -= 1;
        let value = if seen.is_empty() { 1 } else { mex(&seen) };
        self.misere.insert(key, value);
        Ok(value)
    }
}
