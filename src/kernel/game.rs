//! Maker-breaker games as winner and loser claims state them (SPEC 3.2):
//! what makes a game well formed, and what the rules of the game decide
//! without any certificate.
//!
//! Key decision: every winner or loser claim passes through [`precheck`]
//! before its rule runs, whatever the rule. So no rule can accept a game
//! that is not a game of SPEC 3.2 (c < a, a goal that is not an animal of
//! the board), and a claim the game's rules contradict is REFUTED with the
//! reason, not left to each rule to notice.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::verdict::{
    DerivedKind, GameFact, IllFormed, Malformed, Refutation, Requirement, Rule, Undecided, Verdict,
};

/// Who wins, as a claim states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The maker completes a placement whatever the breaker does.
    Winner,
    /// The breaker prevents every placement.
    Loser,
}

/// `winner|loser GOAL on BOARD (a[->c],b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClaim {
    pub side: Side,
    pub board: Board,
    pub goal: Vec<Cell>,
    /// Maker marks per turn.
    pub a: usize,
    /// Marks of the completing turn in an (a->c,b) game (`None`: a).
    pub finish: Option<usize>,
    /// Breaker marks per turn.
    pub b: usize,
}

impl GameClaim {
    /// The game of a winner claim, stated for `side`.
    pub fn of(side: Side, claim: super::maker::WinnerClaim) -> GameClaim {
        GameClaim {
            side,
            board: claim.board,
            goal: claim.goal,
            a: claim.a,
            finish: claim.finish,
            b: claim.b,
        }
    }

    /// c: the marks the maker may use in the turn that completes a
    /// placement (a in an (a,b) game). Only meaningful for a well-formed
    /// game, where it is at least a.
    pub fn completing(&self) -> usize {
        self.finish.unwrap_or(self.a)
    }

    /// Whether the board is one of the infinite lattices.
    pub fn on_lattice(&self) -> bool {
        matches!(self.board, Board::Lattice(_))
    }

    /// Checks that this is a game of SPEC 3.2: a >= 1, c >= a, and the
    /// goal an animal of the board (nonempty, its cells on the board, no
    /// cell twice, edge-connected).
    pub fn well_formed(&self) -> Result<(), IllFormed> {
        if self.a == 0 {
            return Err(IllFormed::NoMakerMarks);
        }
        if self.completing() < self.a {
            return Err(IllFormed::CompletingBelowMarks {
                a: self.a,
                c: self.completing(),
            });
        }
        // Board sizes bound every quantity below; an animal the kernel
        // could not count cells of is refused, not wrapped.
        shape::validate(&self.shape_board(), &self.goal).map_err(|_| IllFormed::GoalNotAnAnimal)
    }

    /// The board the goal is an animal of: a region's goal is an animal of
    /// its lattice, placed inside the region.
    fn shape_board(&self) -> Board {
        match &self.board {
            Board::Region(region) => Board::Lattice(region.lattice),
            board => board.clone(),
        }
    }

    /// Whether the goal has a placement on the board: always on a lattice
    /// or a mosaic (a well-formed goal is an animal of it), by listing
    /// them on a finite board.
    pub fn fits(&self, budget: &mut Budget) -> Result<bool, Exhausted> {
        // On a mosaic too: a well-formed goal is a placement itself.
        if self.on_lattice() || matches!(self.board, Board::Mosaic(_)) {
            return Ok(true);
        }
        budget.tick()?;
        Ok(!shape::placements(&self.board, &self.goal, budget)?.is_empty())
    }

    /// What the rules of the game decide on their own, if anything: the
    /// maker wins in his first turn when c >= |goal| and the goal fits
    /// (he marks a whole placement, the completing turn's allowance); he
    /// never wins when the goal has no placement; on a lattice he wins when
    /// b < a (Cor. 3.4, rule M5).
    pub fn decided(&self, budget: &mut Budget) -> Result<Option<(Side, GameFact)>, Exhausted> {
        if !self.fits(budget)? {
            return Ok(Some((Side::Loser, GameFact::NoPlacement)));
        }
        if self.completing() >= self.goal.len() {
            return Ok(Some((Side::Winner, GameFact::WholeGoalInOneTurn)));
        }
        if self.on_lattice() && self.b < self.a {
            return Ok(Some((Side::Winner, GameFact::BreakerMarksFewer)));
        }
        Ok(None)
    }
}

/// The rules argued for mosaics in docs/soundness.md ("Games on
/// mosaics"): counting (A5), proof sequences (M1, with the flag
/// congruences), the derived rules that read nothing of the board but
/// congruence (the whole goal in one turn, monotonicity, sub-animals), and
/// the pairings made for mosaics (rings, fans, labelled edges: B8-B10).
/// Every other rule reads placements modulo translations, lattices or
/// finite boards, which a mosaic does not have.
pub fn argued_on_mosaics(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::AnimalEnumeration
            | Rule::ProofSequence
            | Rule::Classification
            | Rule::Derived(
                DerivedKind::Trivial
                    | DerivedKind::Monotonicity
                    | DerivedKind::SubAnimal
                    | DerivedKind::RingPairing
                    | DerivedKind::FanPairing
                    | DerivedKind::LabelPairing
            )
    )
}

/// What every winner or loser claim must pass before its rule (`rule`,
/// for the verdict) runs: `Some(verdict)` ends the check there. An
/// ill-formed game is malformed input (ERROR); a claim the rules of the
/// game contradict is REFUTED.
pub fn precheck(claim: &GameClaim, rule: Rule, budget: &mut Budget) -> Option<Verdict> {
    if matches!(claim.board, Board::Mosaic(_)) && !argued_on_mosaics(rule) {
        return Some(Verdict::Malformed {
            rule,
            reason: Malformed::NotApplicable(Requirement::NotAMosaic),
        });
    }
    if let Err(reason) = claim.well_formed() {
        return Some(Verdict::Malformed {
            rule,
            reason: Malformed::Game(reason),
        });
    }
    match claim.decided(budget) {
        Ok(Some((side, fact))) if side != claim.side => Some(Verdict::Refuted {
            rule,
            refutation: Refutation::Game(fact),
        }),
        Ok(_) => None,
        Err(e) => Some(Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        }),
    }
}
