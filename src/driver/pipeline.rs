//! Running the kernel on a run's claims: every claim on a worker thread
//! once the claims it cites are recorded, the ledger kept on the calling
//! thread, every claim behind a panic boundary.
//!
//! Key decision: the calling thread owns the kernel's ledger. A claim is
//! queued the moment the last claim it cites is recorded, with an excerpt
//! of the ledger holding those entries (all its check reads); workers take
//! ready citing claims first (they are often the longest), then claims
//! others cite, then the smallest place, so long chains start early and
//! reports stream in order. Results never depend on scheduling: a place's
//! check reads only the ledger entries of the places it cites, all
//! recorded before it is queued.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Condvar, Mutex, mpsc};
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

/// The claims ready to be checked, each with the ledger excerpt it reads;
/// `closed` once every needed claim has been handed out. Taken by
/// [`Rank`], then the smallest place (so reports can stream early).
#[derive(Default)]
struct Ready {
    places: BinaryHeap<Reverse<(Rank, usize)>>,
    excerpts: HashMap<usize, Ledger>,
    closed: bool,
}

/// Which ready claims go first. A classification or a bound is often the
/// longest check of a run and can only start once its citations are in;
/// started late, it runs alone at the end. So ready citing claims go
/// first, then claims that others cite (they unlock the citing ones), then
/// the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Citing,
    Cited,
    Other,
}

/// The work queue the ledger thread fills and the workers drain.
#[derive(Default)]
struct Queue {
    ready: Mutex<Ready>,
    signal: Condvar,
}

impl Queue {
    fn push(&self, place: usize, excerpt: Ledger, rank: Rank) {
        if let Ok(mut ready) = self.ready.lock() {
            ready.places.push(Reverse((rank, place)));
            ready.excerpts.insert(place, excerpt);
        }
        self.signal.notify_one();
    }

    fn close(&self) {
        if let Ok(mut ready) = self.ready.lock() {
            ready.closed = true;
        }
        self.signal.notify_all();
    }

    /// The next ready claim, waiting for one while the queue is open;
    /// `None` once it is closed and empty (or `wait` says there is none).
    fn pop(&self, wait: bool) -> Option<(usize, Ledger)> {
        let mut ready = self.ready.lock().ok()?;
        loop {
            if let Some(Reverse((_, place))) = ready.places.pop() {
                let excerpt = ready.excerpts.remove(&place).unwrap_or_default();
                return Some((place, excerpt));
            }
            if ready.closed || !wait {
                return None;
            }
            ready = self.signal.wait(ready).ok()?;
        }
    }
}

/// The ledger thread's view of a run: what is recorded, what waits for
/// what, and how far the reports have gone.
struct Progress<'s> {
    schedule: &'s Schedule,
    needed: &'s [bool],
    ledger: Ledger,
    /// Each place's result once its check is done, until it is reported.
    results: Vec<Option<Option<Checked>>>,
    /// For each needed place, how many of its citations are not recorded.
    waiting: Vec<usize>,
    /// For each place, the needed places citing it.
    citing: Vec<Vec<usize>>,
    /// Needed places not yet recorded.
    outstanding: usize,
    /// The first place not yet reported.
    next_report: usize,
}

impl<'s> Progress<'s> {
    fn new(schedule: &'s Schedule, needed: &'s [bool]) -> Progress<'s> {
        let count = schedule.jobs.len();
        let mut waiting = vec![0usize; count];
        let mut citing: Vec<Vec<usize>> = vec![Vec::new(); count];
        for place in (0..count).filter(|&p| needed[p]) {
            for cited in cites(schedule, place) {
                if needed.get(cited.0) == Some(&true) {
                    waiting[place] += 1;
                    citing[cited.0].push(place);
                }
            }
        }
        Progress {
            schedule,
            needed,
            ledger: Ledger::new(),
            results: vec![None; count],
            waiting,
            citing,
            outstanding: needed.iter().filter(|&&n| n).count(),
            next_report: 0,
        }
    }

    /// Records a place's verdict, makes ready the claims for which it was
    /// the last citation they waited for, and reports every place now
    /// complete in order.
    fn complete(
        &mut self,
        place: usize,
        checked: Option<Checked>,
        queue: &Queue,
        finished: &mut impl FnMut(usize, Option<Checked>),
    ) {
        match &checked {
            Some(Checked::Kernel(verdict, ..)) => self.ledger.record(Place(place), verdict),
            _ => self.ledger.record_error(Place(place)),
        }
        self.results[place] = Some(checked);
        self.outstanding = self.outstanding.saturating_sub(1);
        for &dependent in &self.citing[place] {
            self.waiting[dependent] = self.waiting[dependent].saturating_sub(1);
            if self.waiting[dependent] == 0 {
                let excerpt = self.ledger.excerpt(cites(self.schedule, dependent));
                queue.push(dependent, excerpt, self.rank(dependent));
            }
        }
        while self.next_report < self.results.len() {
            if self.needed[self.next_report] {
                let Some(done) = self.results[self.next_report].take() else {
                    break;
                };
                finished(self.next_report, done);
            }
            self.next_report += 1;
        }
    }

    /// How soon the claim at `place` is taken once ready (see [`Rank`]).
    fn rank(&self, place: usize) -> Rank {
        if !cites(self.schedule, place).is_empty() {
            Rank::Citing
        } else if !self.citing[place].is_empty() {
            Rank::Cited
        } else {
            Rank::Other
        }
    }

    /// Reports the places never completed (every worker stopped) as
    /// unchecked.
    fn abandon(&mut self, finished: &mut impl FnMut(usize, Option<Checked>)) {
        for place in self.next_report..self.results.len() {
            if self.needed[place] {
                finished(place, self.results[place].take().flatten());
            }
        }
        self.next_report = self.results.len();
    }
}

/// The places the claim at `place` cites (none for a claim that did not
/// elaborate).
fn cites(schedule: &Schedule, place: usize) -> &[Place] {
    match &schedule.claims[place] {
        Ok(claim) => claim.citations().unwrap_or_default(),
        Err(_) => &[],
    }
}

/// Checks every `needed` place and hands each one to `finished` in place
/// order, once its verdict and those of every place before it are in the
/// ledger (`None`: the claim could not be checked: it did not elaborate,
/// or its check never completed).
///
/// A claim is ready once every claim it cites is recorded; a worker then
/// checks it against an excerpt of the ledger holding exactly those
/// entries (all its check reads), so a long citing claim (a
/// classification) runs beside the others instead of holding up the run.
/// Verdicts never depend on the scheduling.
pub(super) fn check_needed(
    schedule: &Schedule,
    needed: &[bool],
    options: &CheckOptions,
    mut finished: impl FnMut(usize, Option<Checked>),
) {
    let count = schedule.jobs.len();
    let checkable = (0..count)
        .filter(|&p| needed[p] && schedule.claims[p].is_ok())
        .count();
    // Cores left idle by a run with fewer claims than workers search inside
    // the claims. A node budget must give the same verdict on every run, and
    // helpers change how many positions the main search expands, so a run
    // with a node budget uses none.
    let workers = options.jobs.max(1).min(checkable.max(1));
    let helpers = if options.limits.max_nodes.is_some() || checkable == 0 {
        0
    } else {
        (options.jobs.max(1) / checkable).saturating_sub(1)
    };
    let mut progress = Progress::new(schedule, needed);
    let queue = Queue::default();
    let needed_places: Vec<usize> = (0..count).filter(|&p| needed[p]).collect();
    for &place in &needed_places {
        if schedule.claims[place].is_ok() && progress.waiting[place] == 0 {
            queue.push(place, Ledger::new(), progress.rank(place));
        }
    }
    for &place in &needed_places {
        if schedule.claims[place].is_err() {
            progress.complete(place, None, &queue, &mut finished);
        }
    }
    let run_one = |place: usize, excerpt: &Ledger| -> Checked {
        match &schedule.claims[place] {
            Ok(claim) => run(Place(place), claim, excerpt, options, helpers),
            Err(_) => Checked::Internal("a claim that did not elaborate was queued".to_string()),
        }
    };
    let (deliver, delivered) = mpsc::channel::<(usize, Checked)>();
    std::thread::scope(|scope| {
        let mut spawned = 0;
        for _ in 0..workers {
            let deliver = deliver.clone();
            let (queue, run_one) = (&queue, &run_one);
            let worker = std::thread::Builder::new()
                .stack_size(crate::parallel::STACK_BYTES)
                .spawn_scoped(scope, move || {
                    while let Some((place, excerpt)) = queue.pop(true) {
                        if deliver.send((place, run_one(place, &excerpt))).is_err() {
                            break;
                        }
                    }
                });
            spawned += usize::from(worker.is_ok());
        }
        drop(deliver);
        while progress.outstanding > 0 {
            let next = if spawned == 0 {
                // No worker could start: check on this thread.
                queue
                    .pop(false)
                    .map(|(place, excerpt)| (place, run_one(place, &excerpt)))
            } else {
                delivered.recv().ok()
            };
            let Some((place, checked)) = next else { break };
            progress.complete(place, Some(checked), &queue, &mut finished);
        }
        queue.close();
    });
    progress.abandon(&mut finished);
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
