//! The explicit claims the kernel checks, and the one entry point that
//! dispatches each to its rule.
//!
//! Key decision: claims that cite others hold their citations as `C`: the
//! elaborator writes ids (`Claim<String>`), the driver resolves them to
//! places in the run (`Claim<Place>`), and only [`check`] turns places into
//! theorems, through the [`Ledger`]. So the driver schedules and names, but
//! never builds what a cited claim established.

use crate::kernel::animals::{self, CountClaim};
use crate::kernel::bounds;
use crate::kernel::breaker::bound::{self, BoundClaim};
use crate::kernel::breaker::classify::{self, ClassifyClaim};
use crate::kernel::breaker::priority::{self, Priority};
use crate::kernel::breaker::threshold::{self, ThresholdClaim};
use crate::kernel::breaker::{self, Strategy};
use crate::kernel::budget::Budget;
use crate::kernel::game::{GameClaim, Side, argued_on_mosaics};
use crate::kernel::impartial::check::{self as impartial, Evidence, Statement};
use crate::kernel::ledger::{Ledger, Place, Theorem, Unusable};
use crate::kernel::maker::derived::{self, DerivedRule};
use crate::kernel::maker::{self, ProofSequence, WinnerClaim};
use crate::kernel::partizan::check as partizan;
use crate::kernel::verdict::{
    Malformed, Rejection, Requirement, Rule, Undecided, Verdict, ordinal,
};

/// A claim with its explicit evidence; `C` names a cited claim.
#[derive(Clone, Debug)]
pub enum Claim<C> {
    /// Grundy values, outcomes and counts of impartial games.
    Impartial(Statement, Evidence),
    /// Values, outcomes and comparisons of partizan games.
    Partizan(partizan::Statement, partizan::Evidence),
    /// Counts of animals, by enumeration.
    Animals(CountClaim),
    /// A maker win, by a proof sequence.
    Maker(WinnerClaim, ProofSequence),
    /// A winner or loser claim by a derived rule, citing claims.
    Derived(GameClaim, DerivedRule, Vec<C>),
    /// A loser claim by a paving or a strategy tree ending in pairings.
    Breaker(GameClaim, Strategy),
    /// A loser claim by a (history-dependent) priority strategy.
    Priority(GameClaim, Priority),
    /// A threshold sequence, citing claims.
    Threshold(ThresholdClaim, Vec<C>),
    /// A classification of a finite board, citing claims.
    Classify(ClassifyClaim, Vec<C>),
    Bound(BoundClaim, Vec<C>),
}

impl<C> Claim<C> {
    /// The claims this one cites (derived results, threshold sequences,
    /// classifications); `None` for claims that stand alone.
    pub fn citations(&self) -> Option<&[C]> {
        match self {
            Claim::Derived(_, _, cites)
            | Claim::Threshold(_, cites)
            | Claim::Classify(_, cites)
            | Claim::Bound(_, cites) => Some(cites),
            _ => None,
        }
    }

    /// The same claim with every citation mapped by `f` (the first error
    /// stops it, with the citation's index counting from 0).
    pub fn resolve<D, E>(
        &self,
        mut f: impl FnMut(usize, &C) -> Result<D, E>,
    ) -> Result<Claim<D>, E> {
        let mut map = |cites: &[C]| -> Result<Vec<D>, E> {
            cites.iter().enumerate().map(|(i, c)| f(i, c)).collect()
        };
        Ok(match self {
            Claim::Impartial(s, e) => Claim::Impartial(s.clone(), e.clone()),
            Claim::Partizan(s, e) => Claim::Partizan(s.clone(), e.clone()),
            Claim::Animals(c) => Claim::Animals(c.clone()),
            Claim::Maker(w, p) => Claim::Maker(w.clone(), p.clone()),
            Claim::Derived(g, r, cites) => Claim::Derived(g.clone(), r.clone(), map(cites)?),
            Claim::Breaker(g, s) => Claim::Breaker(g.clone(), s.clone()),
            Claim::Priority(g, p) => Claim::Priority(g.clone(), p.clone()),
            Claim::Threshold(t, cites) => Claim::Threshold(t.clone(), map(cites)?),
            Claim::Classify(c, cites) => Claim::Classify(c.clone(), map(cites)?),
            Claim::Bound(c, cites) => Claim::Bound(c.clone(), map(cites)?),
        })
    }

    /// The rule its verdict rests on.
    pub fn rule(&self) -> Rule {
        match self {
            Claim::Impartial(Statement::CountPositions { .. }, _) => Rule::PositionCount,
            Claim::Impartial(Statement::Period(_), _) => Rule::OctalPeriod,
            Claim::Impartial(_, Evidence::Table(_)) => Rule::ImpartialTable,
            Claim::Impartial(_, Evidence::Answers(_)) => Rule::ImpartialAnswers,
            Claim::Impartial(..) => Rule::ImpartialSearch,
            Claim::Partizan(_, partizan::Evidence::Derivation(_)) => Rule::PartizanDerivation,
            Claim::Partizan(_, partizan::Evidence::Answers(_)) => Rule::PartizanAnswers,
            Claim::Partizan(..) => Rule::PartizanDefinition,
            Claim::Animals(_) => Rule::AnimalEnumeration,
            Claim::Maker(..) => Rule::ProofSequence,
            Claim::Derived(_, rule, _) => derived::rule_of(rule),
            Claim::Breaker(..) => Rule::Paving,
            Claim::Priority(..) => Rule::Priority,
            Claim::Threshold(..) => Rule::Threshold,
            Claim::Classify(..) => Rule::Classification,
            Claim::Bound(..) => Rule::Bound,
        }
    }

    /// The winner or loser claim this one states, if it is one.
    pub fn game_claim(&self) -> Option<GameClaim> {
        match self {
            Claim::Maker(w, _) => Some(GameClaim::of(Side::Winner, w.clone())),
            Claim::Derived(g, _, _) | Claim::Breaker(g, _) | Claim::Priority(g, _) => {
                Some(g.clone())
            }
            _ => None,
        }
    }
}

/// Checks the claim at `place` (`helpers`: extra threads a search may
/// use). A claim that cites others reads their theorems from `ledger`:
/// each must be recorded before `place`, and verified.
pub fn check(
    place: Place,
    claim: &Claim<Place>,
    ledger: &Ledger,
    budget: Budget,
    helpers: usize,
) -> Verdict {
    if !bounds::within(claim) {
        return Verdict::Malformed {
            rule: claim.rule(),
            reason: Malformed::CoordinateTooLarge,
        };
    }
    // Refused here for every kind of claim, and again in `precheck` for
    // games, so that no rule's own entry point is trusted to notice.
    if on_mosaic(claim) && !argued_on_mosaics(claim.rule()) {
        return Verdict::Malformed {
            rule: claim.rule(),
            reason: Malformed::NotApplicable(Requirement::NotAMosaic),
        };
    }
    match claim {
        Claim::Impartial(statement, evidence) => {
            impartial::check(statement, evidence, budget, helpers)
        }
        Claim::Partizan(statement, evidence) => partizan::check(statement, evidence, budget),
        Claim::Animals(count) => animals::check(count, budget, helpers.saturating_add(1)),
        Claim::Maker(winner, proof) => maker::check(winner, proof, budget),
        Claim::Breaker(game, strategy) => breaker::check(game, strategy, budget),
        Claim::Priority(game, strategy) => priority::check(game, strategy, budget),
        Claim::Derived(game, rule, cites) => {
            match theorems(place, cites, ledger, derived::rule_of(rule)) {
                Ok(cited) => derived::check(game, rule, &cited, budget),
                Err(verdict) => verdict,
            }
        }
        Claim::Threshold(sequence, cites) => {
            match theorems(place, cites, ledger, Rule::Threshold) {
                Ok(cited) => threshold::check(sequence, &cited, budget),
                Err(verdict) => verdict,
            }
        }
        Claim::Classify(classification, cites) => {
            match theorems(place, cites, ledger, Rule::Classification) {
                Ok(cited) => classify::check(classification, &cited, budget),
                Err(verdict) => verdict,
            }
        }
        Claim::Bound(bound_claim, cites) => match theorems(place, cites, ledger, Rule::Bound) {
            Ok(cited) => bound::check(bound_claim, &cited, budget),
            Err(verdict) => verdict,
        },
    }
}

/// Whether the claim is about a hyperbolic mosaic.
fn on_mosaic<C>(claim: &Claim<C>) -> bool {
    let board = match claim {
        Claim::Animals(count) => &count.board,
        Claim::Maker(winner, _) => &winner.board,
        Claim::Derived(game, ..) | Claim::Breaker(game, _) | Claim::Priority(game, _) => {
            &game.board
        }
        Claim::Threshold(sequence, _) => &sequence.board,
        Claim::Classify(classification, _) => &classification.board,
        Claim::Bound(bound, _) => &bound.board,
        Claim::Impartial(..) | Claim::Partizan(..) => return false,
    };
    matches!(board, animals::Board::Mosaic(_))
}

/// The theorems of the cited claims, or the verdict of `rule` when one
/// cannot be used: a citation of a claim not defined before is malformed
/// input, of a claim that failed a rejection, of an undecided claim
/// undecided (more budget may settle it).
fn theorems<'l>(
    place: Place,
    cites: &[Place],
    ledger: &'l Ledger,
    rule: Rule,
) -> Result<Vec<&'l Theorem>, Verdict> {
    let looked_up: Vec<Result<&Theorem, Unusable>> =
        cites.iter().map(|&c| ledger.theorem(place, c)).collect();
    let first = |wanted: fn(&Unusable) -> bool| {
        looked_up
            .iter()
            .position(|r| r.as_ref().err().is_some_and(wanted))
            .map(|i| (ordinal(i), looked_up[i].as_ref().err().copied()))
    };
    if let Some((citation, _)) = first(|u| *u == Unusable::NotBefore) {
        return Err(Verdict::Malformed {
            rule,
            reason: Malformed::CitesLater { citation },
        });
    }
    if let Some((citation, Some(Unusable::Failed(verdict)))) =
        first(|u| matches!(u, Unusable::Failed(_)))
    {
        return Err(Verdict::Rejected {
            rule,
            rejection: Rejection::Citation { citation, verdict },
        });
    }
    if let Some((citation, _)) = first(|u| *u == Unusable::Undecided) {
        return Err(Verdict::Undecided {
            rule,
            reason: Undecided::CitationUndecided { citation },
        });
    }
    Ok(looked_up.into_iter().flatten().collect())
}
