//! Search budgets: the bound that turns an over-long search into UNDECIDED.
//!
//! Every kernel search charges each position it expands (and each option it
//! generates) to a [`Budget`]. When the node limit, the deadline or the memory
//! cap is reached the search stops with [`Exhausted`], which the caller reports
//! as UNDECIDED. The deadline is polled only every few thousand ticks because
//! reading the clock costs more than a tick.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which limit ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exhausted {
    /// More positions were expanded than the node limit allows.
    Nodes(u64),
    /// The wall-clock deadline passed.
    Time(Duration),
    /// The memo tables reached their entry cap.
    Memory(usize),
    /// More units of work than a step limit allows.
    Steps(u64),
    /// The search went deeper than its recursion bound.
    Depth(usize),
    /// The search was called off because another thread finished the claim.
    Cancelled,
}

/// Limits for one claim's search.
#[derive(Debug, Clone)]
pub struct Budget {
    max_nodes: Option<u64>,
    time_limit: Option<Duration>,
    max_entries: usize,
    started: Instant,
    nodes: u64,
    ticks: u64,
    /// A bound on ticks, for checks whose outcome must not depend on the
    /// machine's speed (a wall-clock limit would).
    max_ticks: Option<u64>,
    /// Set by another thread to stop this search (helper threads only).
    cancel: Option<Arc<AtomicBool>>,
}

/// Ticks between two readings of the clock.
const POLL_EVERY: u64 = 4096;

/// Default cap on memo entries: about 2-3 GiB of tables at the kernel's entry sizes.
pub const DEFAULT_MAX_ENTRIES: usize = 40_000_000;

/// Bytes a memo entry is counted as, the hash table's overhead included (an
/// estimate on the high side; `--max-memory` is turned into an entry cap
/// with it, and tables of smaller entries are counted in its units).
pub const BYTES_PER_ENTRY: usize = 64;

/// The limits of one claim's searches; each claim gets fresh budgets of
/// them (`None` means unlimited).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Node limit.
    pub max_nodes: Option<u64>,
    /// Time limit.
    pub time: Option<Duration>,
    /// Memo entry cap.
    pub max_entries: usize,
}

impl Default for Limits {
    /// No node or time limit, the default memory cap.
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            time: None,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

impl Limits {
    /// A fresh budget with these limits.
    pub fn budget(&self) -> Budget {
        Budget::new(self.max_nodes, self.time, self.max_entries)
    }
}

impl Budget {
    /// A budget with the given limits; `None` means unlimited.
    pub fn new(max_nodes: Option<u64>, time_limit: Option<Duration>, max_entries: usize) -> Self {
        Budget {
            max_nodes,
            time_limit,
            max_entries,
            started: Instant::now(),
            nodes: 0,
            ticks: 0,
            max_ticks: None,
            cancel: None,
        }
    }

    /// A budget for a helper thread: it shares the memory cap (the memo is
    /// shared) and the deadline, and may expand as many positions of its
    /// own as the main budget allows (a main thread waiting for its helpers
    /// counts no work, so a node budget must bind them too); it stops when
    /// `cancel` is set.
    pub fn helper(&self, cancel: Arc<AtomicBool>) -> Self {
        Budget {
            started: self.started,
            cancel: Some(cancel),
            ..Self::new(self.max_nodes, self.time_limit, self.max_entries)
        }
    }

    /// A budget for a worker thread that checks part of one claim: the same
    /// limits and deadline, its own count of work (see [`Budget::absorb`]).
    pub fn worker(&self) -> Self {
        Budget {
            nodes: 0,
            ticks: 0,
            ..self.clone()
        }
    }

    /// Counts a worker's work as this budget's.
    pub fn absorb(&mut self, worker: &Budget) {
        self.nodes = self.nodes.saturating_add(worker.nodes);
        self.ticks = self.ticks.saturating_add(worker.ticks);
    }

    /// No node or time limit, the default memory cap.
    pub fn unlimited() -> Self {
        Self::new(None, None, DEFAULT_MAX_ENTRIES)
    }

    /// The memory cap, in memo entries of [`BYTES_PER_ENTRY`] bytes.
    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Units of work charged so far (ticks).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Charges one expanded position; `entries` is the current memo size.
    #[inline]
    pub fn expand(&mut self, entries: usize) -> Result<(), Exhausted> {
        self.nodes = self.nodes.saturating_add(1);
        if let Some(max) = self.max_nodes
            && self.nodes > max
        {
            return Err(Exhausted::Nodes(max));
        }
        if entries >= self.max_entries {
            return Err(Exhausted::Memory(self.max_entries));
        }
        self.tick()
    }

    /// Checks that `entries` items kept (not positions: no node is
    /// charged) fit under the memory cap.
    pub fn hold(&self, entries: usize) -> Result<(), Exhausted> {
        if entries >= self.max_entries {
            return Err(Exhausted::Memory(self.max_entries));
        }
        Ok(())
    }

    /// The same budget allowed at most `more` further ticks (and no more
    /// than it allowed already).
    pub fn with_more_steps(self, more: u64) -> Budget {
        let cap = self.ticks.saturating_add(more);
        let max = self.max_ticks.map_or(cap, |m| m.min(cap));
        self.with_step_limit(max)
    }

    /// The same budget with at most `max` ticks: a bound that gives the
    /// same answer on every machine.
    pub fn with_step_limit(mut self, max: u64) -> Budget {
        self.max_ticks = Some(max);
        self
    }

    /// Charges `n` units of work at once (options generated together),
    /// with the checks `tick` makes.
    pub fn charge(&mut self, n: usize) -> Result<(), Exhausted> {
        let before = self.ticks / POLL_EVERY;
        self.ticks = self
            .ticks
            .saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        self.check_steps()?;
        if self.ticks / POLL_EVERY != before {
            self.poll()?;
        }
        Ok(())
    }

    /// Charges a unit of work that is not a new position (an option generated).
    #[inline]
    pub fn tick(&mut self) -> Result<(), Exhausted> {
        self.ticks = self.ticks.saturating_add(1);
        self.check_steps()?;
        if self.ticks.is_multiple_of(POLL_EVERY) {
            self.poll()?;
        }
        Ok(())
    }

    #[inline]
    fn check_steps(&self) -> Result<(), Exhausted> {
        match self.max_ticks {
            Some(max) if self.ticks > max => Err(Exhausted::Steps(max)),
            _ => Ok(()),
        }
    }

    /// The checks that read the clock or another thread's flag, made only
    /// every [`POLL_EVERY`] ticks because they cost more than a tick.
    fn poll(&self) -> Result<(), Exhausted> {
        if let Some(limit) = self.time_limit
            && self.started.elapsed() > limit
        {
            return Err(Exhausted::Time(limit));
        }
        if let Some(cancel) = &self.cancel
            && cancel.load(Ordering::Relaxed)
        {
            return Err(Exhausted::Cancelled);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_is_bound_by_the_node_limit_too() {
        let main = Budget::new(Some(3), None, DEFAULT_MAX_ENTRIES);
        let mut helper = main.helper(Arc::new(AtomicBool::new(false)));
        for _ in 0..3 {
            assert!(helper.expand(0).is_ok());
        }
        assert_eq!(helper.expand(0), Err(Exhausted::Nodes(3)));
    }
}
