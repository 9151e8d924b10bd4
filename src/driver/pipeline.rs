//! Running the kernel on a run's claims: independent claims on worker
//! threads, the ledger kept on the calling thread, every claim behind a
//! panic boundary.
//!
//! Key decision: the calling thread walks the places in order and owns the
//! kernel's ledger. A claim that cites nothing is checked by a worker (in
//! place order, so early claims finish early); the ledger thread waits for
//! it, records it, and checks citing claims itself as soon as it reaches
//! them, while the workers go on. Each claim is handed on the moment its
//! verdict is recorded, so reports can stream in order. Results never
//! depend on scheduling: a place's check reads only the ledger entries of
//! the places before it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::schedule::Schedule;
use super::{CheckOptions, Limits};
use crate::elaborate::canonical::Canonical;
use crate::kernel::budget::Budget;
use crate::kernel::claim::{self, Claim};
use crate::kernel::ledger::{Ledger, Place};
use crate::kernel::partizan::check::Statement;
use crate::kernel::verdict::Verdict;

/// How one claim's check ended.
#[derive(Clone, Debug)]
pub(super) enum Checked {
    /// The kernel's verdict, the seconds it took, and for a refuted value
    /// claim the elaborator's suggestion.
    Kernel(Verdict, f64, Option<String>),
    /// A bug stopped the check of this claim (a panic caught at the claim's
    /// boundary); the message says where.
    Internal(String),
}

/// The most a suggestion may cost: it only decorates a REFUTED line.
const SUGGESTION_NODES: u64 = 2_000_000;
const SUGGESTION_TIME: Duration = Duration::from_secs(5);
const SUGGESTION_ENTRIES: usize = 4_000_000;

/// For a refuted partizan value claim, the game's canonical form (computed
/// by the untrusted elaborator, within a small budget that never exceeds
/// the run's own limits) as a suggestion.
fn suggestion(claim: &Claim<Place>, verdict: &Verdict, limits: &Limits) -> Option<String> {
    let (Claim::Partizan(Statement::Value { game, .. }, _), Verdict::Refuted { .. }) =
        (claim, verdict)
    else {
        return None;
    };
    let nodes = limits
        .max_nodes
        .map_or(SUGGESTION_NODES, |n| n.min(SUGGESTION_NODES));
    let time = limits
        .time
        .map_or(SUGGESTION_TIME, |t| t.min(SUGGESTION_TIME));
    let entries = limits.max_entries.min(SUGGESTION_ENTRIES);
    let budget = Budget::new(Some(nodes), Some(time), entries);
    let mut canon = Canonical::new(budget);
    let g = canon.of_term(game).ok()?;
    Some(canon.print(g))
}

/// Runs `check` behind a panic boundary: a bug in a rule ends that claim
/// as an internal error and the run goes on.
pub(super) fn guarded(check: impl FnOnce() -> Checked) -> Checked {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Checked::Internal(message)
    })
}

/// The kernel's check of the claim at `place`, timed, behind the panic
/// boundary.
fn run(
    place: Place,
    claim: &Claim<Place>,
    ledger: &Ledger,
    options: &CheckOptions,
    helpers: usize,
) -> Checked {
    guarded(|| {
        let started = Instant::now();
        let verdict = claim::check(place, claim, ledger, options.limits.budget(), helpers);
        let seconds = started.elapsed().as_secs_f64();
        let hint = suggestion(claim, &verdict, &options.limits);
        Checked::Kernel(verdict, seconds, hint)
    })
}

/// What the workers share: a result slot per place, and how many workers
/// are still running (so the ledger thread never waits for a result that
/// no worker will deliver).
struct Shared {
    slots: Vec<Option<Checked>>,
    running: usize,
}

/// The results of the workers, and the signal that one arrived.
struct Results {
    shared: Mutex<Shared>,
    arrived: Condvar,
}

impl Results {
    fn lock(&self) -> Option<MutexGuard<'_, Shared>> {
        self.shared.lock().ok()
    }

    /// Stores a worker's result and wakes the ledger thread.
    fn deliver(&self, place: usize, checked: Checked) {
        if let Some(mut shared) = self.lock()
            && let Some(slot) = shared.slots.get_mut(place)
        {
            *slot = Some(checked);
        }
        self.arrived.notify_all();
    }

    /// A worker is done.
    fn leave(&self) {
        if let Some(mut shared) = self.lock() {
            shared.running = shared.running.saturating_sub(1);
        }
        self.arrived.notify_all();
    }

    /// Waits for the result of `place`; `None` if every worker has stopped
    /// without delivering it.
    fn take(&self, place: usize) -> Option<Checked> {
        let mut shared = self.lock()?;
        loop {
            if let Some(checked) = shared.slots.get_mut(place).and_then(Option::take) {
                return Some(checked);
            }
            if shared.running == 0 {
                return None;
            }
            shared = self.arrived.wait(shared).ok()?;
        }
    }
}

/// Checks every `needed` place and hands each one to `finished` in place
/// order, the moment its verdict is in the ledger (`None`: the claim could
/// not be checked: it did not elaborate, or its check never completed).
pub(super) fn check_needed(
    schedule: &Schedule,
    needed: &[bool],
    options: &CheckOptions,
    mut finished: impl FnMut(usize, Option<Checked>),
) {
    let count = schedule.jobs.len();
    let independent: Vec<bool> = (0..count)
        .map(|p| needed[p] && matches!(&schedule.claims[p], Ok(c) if c.citations().is_none()))
        .collect();
    let places: Vec<usize> = (0..count).filter(|&p| independent[p]).collect();
    // Cores left idle by a run with fewer claims than workers search inside
    // the claims. A node budget must give the same verdict on every run, and
    // helpers change how many positions the main search expands, so a run
    // with a node budget uses none.
    let workers = options.jobs.max(1).min(places.len().max(1));
    let helpers = if options.limits.max_nodes.is_some() || places.is_empty() {
        0
    } else {
        (options.jobs.max(1) / places.len()).saturating_sub(1)
    };
    let results = Results {
        shared: Mutex::new(Shared {
            slots: vec![None; count],
            running: workers,
        }),
        arrived: Condvar::new(),
    };
    let empty = Ledger::new();
    let next = AtomicUsize::new(0);
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&place) = places.get(i) else { break };
            if let Ok(claim) = &schedule.claims[place] {
                results.deliver(place, run(Place(place), claim, &empty, options, helpers));
            }
        }
        results.leave();
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // The searches recurse once per move; a large stack keeps the
            // deepest boards (64 cells) far from the limit.
            let spawned = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                worker();
            }
        }
        let mut ledger = Ledger::new();
        for place in (0..count).filter(|&p| needed[p]) {
            let checked = match &schedule.claims[place] {
                Ok(_) if independent[place] => results.take(place),
                Ok(claim) => Some(run(Place(place), claim, &ledger, options, 0)),
                Err(_) => None,
            };
            match &checked {
                Some(Checked::Kernel(verdict, ..)) => ledger.record(Place(place), verdict),
                _ => ledger.record_error(Place(place)),
            }
            finished(place, checked);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{Checked, guarded};

    #[test]
    fn a_panic_in_a_check_becomes_an_internal_error() {
        let checked = guarded(|| panic!("a bug in a rule"));
        assert!(matches!(checked, Checked::Internal(m) if m.contains("a bug in a rule")));
        let formatted = guarded(|| panic!("value {}", 7));
        assert!(matches!(formatted, Checked::Internal(m) if m.contains("value 7")));
    }
}
