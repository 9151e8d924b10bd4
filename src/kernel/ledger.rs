//! What verified claims established, and the only way to cite them.
//!
//! Key decision: a [`Theorem`] is made only inside the kernel, by the rule
//! that verified the claim (its constructor is private to the kernel); code
//! outside can hold, clone and record theorems, never forge one. A theorem
//! carries the claim it establishes, typed, so a rule reading it checks its
//! hypotheses against what was proved, not against an id or a number the
//! driver passed on. The [`Ledger`] records each claim's verdict under its
//! place in the run (included files first, then source order), and a claim
//! may cite only claims recorded before its own place: citations cannot
//! form a cycle, whatever the scheduling.

use crate::kernel::animals::CountClaim;
use crate::kernel::breaker::bound::BoundClaim;
use crate::kernel::breaker::classify::ClassifyClaim;
use crate::kernel::breaker::threshold::ThresholdClaim;
use crate::kernel::game::GameClaim;
use crate::kernel::impartial::check::Statement as ImpartialStatement;
use crate::kernel::partizan::check::Statement as PartizanStatement;
use crate::kernel::verdict::{CitedVerdict, Verdict};

/// What a verified claim established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Established {
    /// A winner or loser claim; `turns` bounds the maker's turns when the
    /// rule gives a bound (a proof sequence, the stage diagram).
    Game {
        claim: GameClaim,
        turns: Option<u64>,
    },
    /// A threshold sequence.
    Threshold(ThresholdClaim),
    /// A classification of a finite board.
    Classification(ClassifyClaim),
    /// An upper bound on the winners of a finite board.
    Bound(BoundClaim),
    /// A count of animals.
    AnimalCount(CountClaim),
    /// A Grundy value, outcome or position count of an impartial game.
    Impartial(ImpartialStatement),
    /// A value, outcome or comparison of partizan games.
    Partizan(PartizanStatement),
}

/// A claim the kernel verified: only kernel rules make them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theorem(Established);

impl Theorem {
    /// The theorem of a claim a kernel rule has just verified.
    pub(in crate::kernel) fn new(established: Established) -> Theorem {
        Theorem(established)
    }

    /// What it established.
    pub fn established(&self) -> &Established {
        &self.0
    }

    /// The winner or loser claim it established, with its turn bound.
    pub fn game(&self) -> Option<(&GameClaim, Option<u64>)> {
        match &self.0 {
            Established::Game { claim, turns } => Some((claim, *turns)),
            _ => None,
        }
    }
}

/// A claim's place in the run: included files first, then each file's
/// claims in source order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place(pub usize);

/// How a claim ended, as far as citing it goes.
#[derive(Clone, Debug)]
enum Entry {
    Established(Theorem),
    Undecided,
    Failed(CitedVerdict),
}

/// Why a citation cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unusable {
    /// No claim at that place was recorded before the citing claim.
    NotBefore,
    /// The cited claim is undecided.
    Undecided,
    /// The cited claim was not verified.
    Failed(CitedVerdict),
}

/// The verdicts of the claims checked so far, by place.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    entries: std::collections::BTreeMap<Place, Entry>,
}

impl Ledger {
    /// An empty ledger.
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Records the verdict of the claim at `place`; a place is recorded
    /// once (a second verdict for it is ignored).
    pub fn record(&mut self, place: Place, verdict: &Verdict) {
        let entry = match verdict {
            Verdict::Verified { theorem, .. } => Entry::Established(theorem.clone()),
            Verdict::Undecided { .. } => Entry::Undecided,
            Verdict::Refuted { .. } => Entry::Failed(CitedVerdict::Refuted),
            Verdict::Rejected { .. } => Entry::Failed(CitedVerdict::Rejected),
            Verdict::Malformed { .. } => Entry::Failed(CitedVerdict::Error),
        };
        self.entries.entry(place).or_insert(entry);
    }

    /// Records that the claim at `place` could not be checked (malformed
    /// input, or a bug caught at the claim's boundary).
    pub fn record_error(&mut self, place: Place) {
        self.entries
            .entry(place)
            .or_insert(Entry::Failed(CitedVerdict::Error));
    }

    /// The entries of `places` alone: all a claim citing them reads, so
    /// its check may run elsewhere while the ledger grows. A place left
    /// out reads as never recorded (a citation of it is unusable), so an
    /// excerpt can only lose verdicts, never make one.
    pub fn excerpt(&self, places: &[Place]) -> Ledger {
        let entries = places
            .iter()
            .filter_map(|p| Some((*p, self.entries.get(p)?.clone())))
            .collect();
        Ledger { entries }
    }

    /// The theorem of the claim at `cited`, for the claim at `citing`: it
    /// must have been recorded, before `citing`, as verified.
    pub fn theorem(&self, citing: Place, cited: Place) -> Result<&Theorem, Unusable> {
        if cited >= citing {
            return Err(Unusable::NotBefore);
        }
        match self.entries.get(&cited) {
            Some(Entry::Established(theorem)) => Ok(theorem),
            Some(Entry::Undecided) => Err(Unusable::Undecided),
            Some(Entry::Failed(verdict)) => Err(Unusable::Failed(*verdict)),
            None => Err(Unusable::NotBefore),
        }
    }
}
