//! Derived results about maker-breaker games (rules M2-M8 of
//! docs/soundness.md, SPEC 3.5): consequences of the game's numbers and of
//! cited theorems, each hypothesis of the rule's checklist checked here.
//!
//! Key decision: a rule reads what its citations established from their
//! [`Theorem`]s (typed: side, board, goal, a, c, b, turn bound), never from
//! ids or numbers the driver passes; and the claim itself has passed
//! `game::precheck` (well formed, not contradicted by the rules of the game)
//! before any rule runs.

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::mosaic::Mosaic;
use crate::kernel::animals::{Board, labels, rings, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side, precheck};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{
    DerivedFailure, DerivedKind, Hypothesis, Malformed, Rejection, Requirement, Rule, Undecided,
    Verdict,
};

/// A derived rule and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DerivedRule {
    /// The maker marks the whole goal in his first turn.
    Trivial,
    /// Norris-Sieben Prop. 2.1.
    Proposition21,
    /// Norris-Sieben Prop. 2.2, with the placements through one cell.
    Proposition22 { placements: Vec<Vec<Cell>> },
    /// Norris-Sieben Cor. 3.4: b < a.
    Corollary34,
    /// Lemma 5.2 from one cited claim.
    Monotonicity,
    /// Prop. 5.5 from one cited claim.
    SubAnimal,
    /// Thm. 3.1 (Cor. 3.3 is the case of one cited claim used a times).
    Theorem31 { corollary: bool },
    /// Bode's ring pairing on a (3,q) mosaic (rule B8): the goal lies
    /// inside no ring around a vertex.
    RingPairing,
    /// Bode's pairing of the fans around one colour of vertices, q even
    /// (rule B9): the goal is not a fan.
    FanPairing,
    /// Bode's pairing by labelled edge ends (rule B10): `labels` are f(1)
    /// .. f(q), `pairs` the labels whose edges pair their triangles.
    LabelPairing { labels: Vec<u64>, pairs: Vec<u64> },
}

/// The most cells adjacent to one cell: the site perimeter of a single
/// cell on a lattice (and its regions, where some neighbours are missing),
/// the largest degree on a finite board.
fn delta(board: &Board) -> usize {
    if let Board::Tiling(tiling) = board {
        // A face has as many neighbours as sides (edge to edge).
        return (0..tiling.faces() as i32)
            .map(|f| {
                let mut n = 0usize;
                tiling.for_each_neighbour([0, 0, f], |_| n = n.saturating_add(1));
                n
            })
            .max()
            .unwrap_or(0);
    }
    match board.lattice() {
        Some(Lattice::Triangle) => 3,
        Some(Lattice::Square) => 4,
        Some(Lattice::Hexagon | Lattice::Cubic) => 6,
        None => board.face_graph().map_or(0, |g| {
            g.adjacent
                .iter()
                .map(|a| a.count_ones() as usize)
                .max()
                .unwrap_or(0)
        }),
    }
}

/// The verdict rule of a derived rule.
pub fn rule_of(rule: &DerivedRule) -> Rule {
    Rule::Derived(match rule {
        DerivedRule::Trivial => DerivedKind::Trivial,
        DerivedRule::Proposition21 => DerivedKind::Proposition21,
        DerivedRule::Proposition22 { .. } => DerivedKind::Proposition22,
        DerivedRule::Corollary34 => DerivedKind::Corollary34,
        DerivedRule::Monotonicity => DerivedKind::Monotonicity,
        DerivedRule::SubAnimal => DerivedKind::SubAnimal,
        DerivedRule::Theorem31 { corollary: true } => DerivedKind::Corollary33,
        DerivedRule::Theorem31 { corollary: false } => DerivedKind::Theorem31,
        DerivedRule::RingPairing => DerivedKind::RingPairing,
        DerivedRule::FanPairing => DerivedKind::FanPairing,
        DerivedRule::LabelPairing { .. } => DerivedKind::LabelPairing,
    })
}

/// Checks a derived claim; `cited` are the theorems of the claims it cites.
pub fn check(
    claim: &GameClaim,
    rule: &DerivedRule,
    cited: &[&Theorem],
    mut budget: Budget,
) -> Verdict {
    let code = rule_of(rule);
    // Whether the rule applies to the statement at all comes first, as a
    // type check would: a rule for winners cited for a loser is malformed
    // input, whatever the game.
    if let Err(requirement) = applicability(claim, rule) {
        return Verdict::Malformed {
            rule: code,
            reason: Malformed::NotApplicable(requirement),
        };
    }
    if let Some(verdict) = precheck(claim, code, &mut budget) {
        return verdict;
    }
    match derive(claim, rule, cited, &mut budget) {
        Ok(turns) => Verdict::Verified {
            rule: code,
            nodes: budget.nodes(),
            measure: turns.unwrap_or(0),
            theorem: Theorem::new(Established::Game {
                claim: claim.clone(),
                turns,
            }),
        },
        Err(Failure::Rejected(failure)) => Verdict::Rejected {
            rule: code,
            rejection: Rejection::Derived(failure),
        },
        Err(Failure::TooLarge) => Verdict::Undecided {
            rule: code,
            reason: Undecided::OutsideLimits,
        },
        Err(Failure::Budget(e)) => Verdict::Undecided {
            rule: code,
            reason: Undecided::Budget(e),
        },
    }
}

enum Failure {
    Rejected(DerivedFailure),
    TooLarge,
    Budget(Exhausted),
}

impl From<Exhausted> for Failure {
    fn from(e: Exhausted) -> Self {
        Failure::Budget(e)
    }
}

/// Fails unless the hypothesis holds.
fn require(holds: bool, hypothesis: Hypothesis) -> Result<(), Failure> {
    if holds {
        Ok(())
    } else {
        Err(Failure::Rejected(DerivedFailure::Hypothesis(hypothesis)))
    }
}

/// What the rule needs of the statement: the side it concludes, and for
/// the rules that place copies far apart or run the stage diagram, an
/// infinite lattice.
fn applicability(claim: &GameClaim, rule: &DerivedRule) -> Result<(), Requirement> {
    let winner = claim.side == Side::Winner;
    let (side_ok, side) = match rule {
        DerivedRule::Proposition21
        | DerivedRule::RingPairing
        | DerivedRule::FanPairing
        | DerivedRule::LabelPairing { .. } => (!winner, Requirement::LoserClaim),
        DerivedRule::Trivial
        | DerivedRule::Proposition22 { .. }
        | DerivedRule::Corollary34
        | DerivedRule::Theorem31 { .. } => (winner, Requirement::WinnerClaim),
        DerivedRule::Monotonicity | DerivedRule::SubAnimal => (true, Requirement::WinnerClaim),
    };
    if !side_ok {
        return Err(side);
    }
    let needs_lattice = matches!(
        rule,
        DerivedRule::Proposition22 { .. }
            | DerivedRule::Corollary34
            | DerivedRule::Theorem31 { .. }
    );
    if needs_lattice && !claim.on_lattice() {
        return Err(Requirement::InfiniteLattice);
    }
    if matches!(
        rule,
        DerivedRule::RingPairing | DerivedRule::FanPairing | DerivedRule::LabelPairing { .. }
    ) {
        let q = match claim.board {
            Board::Mosaic(m) => m.q(),
            _ => 0,
        };
        if q < rings::MIN_RING_Q {
            return Err(Requirement::HyperbolicMosaic);
        }
        if *rule == DerivedRule::FanPairing && !q.is_multiple_of(2) {
            return Err(Requirement::EvenHyperbolicMosaic);
        }
        // A pairing answers one mark with one mark.
        if claim.a != 1 || claim.completing() != 1 {
            return Err(Requirement::OneMakerMark);
        }
    }
    Ok(())
}

/// The one cited winner or loser claim of a rule citing one, with its turn
/// bound; it must be of the claim's side and board.
fn one_cited<'t>(
    claim: &GameClaim,
    cited: &[&'t Theorem],
) -> Result<(&'t GameClaim, Option<u64>), Failure> {
    let [one] = cited else {
        return Err(Failure::Rejected(DerivedFailure::Citations));
    };
    match one.game() {
        Some((game, turns)) if game.side == claim.side && game.board == claim.board => {
            Ok((game, turns))
        }
        _ => Err(Failure::Rejected(DerivedFailure::CitedOtherGame {
            citation: 1,
        })),
    }
}

/// The claim's game checked against the rule's hypotheses; returns the
/// maker's turn bound when the rule gives one (the whole goal in one turn;
/// two turns for Prop. 2.2; the cited bound for Lemma 5.2 and Prop. 5.5,
/// whose strategies are the cited ones; the stage diagram for Thm. 3.1).
fn derive(
    claim: &GameClaim,
    rule: &DerivedRule,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Option<u64>, Failure> {
    let winner = claim.side == Side::Winner;
    let size = claim.goal.len();
    let (a, c, b) = (claim.a, claim.completing(), claim.b);
    match rule {
        DerivedRule::Trivial => {
            require(c >= size, Hypothesis::CompletingCoversGoal)?;
            require(claim.fits(budget)?, Hypothesis::GoalFits)?;
            Ok(Some(1))
        }
        DerivedRule::Proposition21 => {
            require(c < size, Hypothesis::CompletingBelowGoal)?;
            let delta = delta(&claim.board);
            let surrounded = a.checked_mul(delta).is_some_and(|needed| needed <= b);
            require(surrounded, Hypothesis::BreakerSurrounds { delta })?;
            Ok(None)
        }
        DerivedRule::Corollary34 => {
            require(b < a, Hypothesis::BreakerBelowMaker)?;
            Ok(None)
        }
        DerivedRule::Proposition22 { placements } => {
            proposition22(claim, placements, budget)?;
            Ok(Some(2))
        }
        DerivedRule::Monotonicity => {
            let (from, turns) = one_cited(claim, cited)?;
            if from.goal != claim.goal {
                return Err(Failure::Rejected(DerivedFailure::CitedOtherGame {
                    citation: 1,
                }));
            }
            let (fa, fc, fb) = (from.a, from.completing(), from.b);
            let right_way = match claim.side {
                Side::Winner => a >= fa && c >= fc && b <= fb,
                Side::Loser => a <= fa && c <= fc && b >= fb,
            };
            require(right_way, Hypothesis::MarksMoveTheRightWay)?;
            Ok(if winner { turns } else { None })
        }
        DerivedRule::SubAnimal => {
            let (from, turns) = one_cited(claim, cited)?;
            let same = (from.a, from.completing(), from.b) == (a, c, b);
            require(same, Hypothesis::SameGame)?;
            let inside = match claim.side {
                Side::Winner => {
                    shape::is_sub_animal(&claim.board, &claim.goal, &from.goal, budget)?
                }
                Side::Loser => shape::is_sub_animal(&claim.board, &from.goal, &claim.goal, budget)?,
            };
            require(inside, Hypothesis::GoalInside)?;
            Ok(if winner { turns } else { None })
        }
        DerivedRule::Theorem31 { corollary } => theorem31(claim, cited, *corollary).map(Some),
        DerivedRule::RingPairing | DerivedRule::FanPairing | DerivedRule::LabelPairing { .. } => {
            if !cited.is_empty() {
                return Err(Failure::Rejected(DerivedFailure::Citations));
            }
            require(b >= 1, Hypothesis::BreakerAnswers)?;
            let (mosaic, code) = mosaic_code(claim, budget)?;
            let q = mosaic.q();
            match rule {
                DerivedRule::RingPairing => {
                    let fits = rings::may_lie_in_a_ring(q, &code, budget)?;
                    require(!fits, Hypothesis::GoalMissesEveryRing)?;
                }
                DerivedRule::LabelPairing { labels, pairs } => {
                    let labelling = labels::Labelling::new(q, labels, pairs).map_err(|e| {
                        Failure::Rejected(DerivedFailure::Hypothesis(match e {
                            labels::Flaw::Inconsistent => Hypothesis::LabelsConsistent,
                            labels::Flaw::TwoPairs => Hypothesis::OnePairPerTriangle,
                        }))
                    })?;
                    let Some(held) =
                        labels::every_placement_holds_a_pair(mosaic, &labelling, &code, budget)?
                    else {
                        return Err(Failure::TooLarge);
                    };
                    require(held, Hypothesis::EveryPlacementHoldsAPair)?;
                }
                _ => require(!rings::may_lie_in_a_fan(q, &code), Hypothesis::GoalNotAFan)?,
            }
            Ok(None)
        }
    }
}

/// The claim's mosaic and the least code of its goal (A5).
fn mosaic_code(claim: &GameClaim, budget: &mut Budget) -> Result<(Mosaic, Vec<u8>), Failure> {
    let Board::Mosaic(mosaic) = claim.board else {
        return Err(Failure::TooLarge);
    };
    let code = shape::canonical_form(&claim.board, &claim.goal, budget)?;
    // The empty form is an animal beyond the codes or the discs.
    let entries: Option<Vec<u8>> = code.iter().map(|e| u8::try_from(e[0]).ok()).collect();
    match entries {
        Some(entries) if !entries.is_empty() => Ok((mosaic, entries)),
        _ => Err(Failure::TooLarge),
    }
}

/// Prop. 2.2: |A| = a + 1, the placements are placements of A on the
/// lattice meeting pairwise in exactly one common cell, a * h > b.
fn proposition22(
    claim: &GameClaim,
    placements: &[Vec<Cell>],
    budget: &mut Budget,
) -> Result<(), Failure> {
    require(
        claim.a.checked_add(1) == Some(claim.goal.len()),
        Hypothesis::GoalOneMoreThanMarks,
    )?;
    let canonical = shape::canonical_form(&claim.board, &claim.goal, budget)?;
    for (i, p) in placements.iter().enumerate() {
        let mut sorted = p.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let is_placement = sorted.len() == p.len()
            && shape::validate(&claim.board, p).is_ok()
            && shape::canonical_form(&claim.board, p, budget)? == canonical;
        if !is_placement {
            return Err(Failure::Rejected(DerivedFailure::NotAPlacement {
                placement: ordinal(i),
            }));
        }
    }
    let common: Vec<Cell> = placements
        .first()
        .map(|p| {
            p.iter()
                .filter(|c| placements.iter().all(|q| q.contains(c)))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    for (i, p) in placements.iter().enumerate() {
        for (j, q) in placements.iter().enumerate().skip(ordinal(i)) {
            let shared = p.iter().filter(|c| q.contains(c)).count();
            if shared != 1 || common.len() != 1 {
                return Err(Failure::Rejected(DerivedFailure::PlacementsMeet {
                    first: ordinal(i),
                    second: ordinal(j),
                    shared,
                }));
            }
        }
    }
    let arms = claim.a.checked_mul(placements.len());
    require(
        arms.is_some_and(|arms| arms > claim.b),
        Hypothesis::ArmsOutnumberBreaker,
    )
}

/// The most stages a stage diagram may have before the kernel declines.
const MAX_STAGES: u64 = 1_000_000;

/// Thm. 3.1: the cited claims are bounded (a_i -> c_i, b_i) wins of the
/// same goal on the same infinite lattice with c_i <= a = sum a_i; the
/// claim is (a, b) with b <= sum b_i + s - 1 (a win of (a,b) is one of
/// (a->c,b) too). Cor. 3.3 cites one (1 -> c_1, b_1) win, used a times.
/// Returns the stage diagram's turn bound.
fn theorem31(claim: &GameClaim, cited: &[&Theorem], corollary: bool) -> Result<u64, Failure> {
    let mut games: Vec<(&GameClaim, u64)> = Vec::new();
    for (i, theorem) in cited.iter().enumerate() {
        let citation = ordinal(i);
        let Some((game, turns)) = theorem.game() else {
            return Err(Failure::Rejected(DerivedFailure::CitedOtherGame {
                citation,
            }));
        };
        if game.side != Side::Winner || game.board != claim.board || game.goal != claim.goal {
            return Err(Failure::Rejected(DerivedFailure::CitedOtherGame {
                citation,
            }));
        }
        require(
            game.completing() <= claim.a,
            Hypothesis::CitedCompletingWithinMarks,
        )?;
        let turns = turns.ok_or(Failure::Rejected(DerivedFailure::Unbounded { citation }))?;
        games.push((game, turns));
    }
    let games: Vec<(&GameClaim, u64)> = match (corollary, games.as_slice()) {
        (true, [one]) if one.0.a == 1 => std::iter::repeat_n(*one, claim.a).collect(),
        (true, _) | (false, []) => return Err(Failure::Rejected(DerivedFailure::Citations)),
        (false, _) => games,
    };
    let s = games.len();
    let a = games
        .iter()
        .try_fold(0usize, |sum, (g, _)| sum.checked_add(g.a))
        .ok_or(Failure::TooLarge)?;
    let b = games
        .iter()
        .try_fold(0usize, |sum, (g, _)| sum.checked_add(g.b))
        .ok_or(Failure::TooLarge)?;
    // b <= sum b_i + s - 1, written without subtraction (s >= 1 here).
    let within = claim
        .b
        .checked_add(1)
        .is_some_and(|lhs| b.checked_add(s).is_some_and(|rhs| lhs <= rhs));
    if a != claim.a || !within {
        return Err(Failure::Rejected(DerivedFailure::SumsDoNotMatch));
    }
    let breaker: Vec<u64> = games.iter().map(|(g, _)| g.b as u64).collect();
    let lengths: Vec<u64> = games.iter().map(|(_, turns)| *turns).collect();
    stage_bound(&breaker, &lengths).ok_or(Failure::TooLarge)
}

/// The turn bound of Norris-Sieben's stage diagram for s games with
/// breaker marks `b_i` and lengths `l_i` (Example 3.2: b = (1, 2),
/// l = (3, 4) gives 440); `None` when the diagram or a number is too large.
///
/// A stage is a progress vector p (p_i < l_i). From a stage where some
/// p_i = l_i - 1 the maker wins in one turn, needing one such subboard.
/// Otherwise, with q^(i) the supply of the i-th successor, the stage takes
/// n = 1 + sum_i (q^(i)_i - 1)(b_i + 1) turns and needs the supply
/// q_i = max((n - 1)(B + s) + 1, q^(j)_i + n (B + s) for j != i with
/// q^(j)_i > 0), B = sum b_i. The bound is the most turns along a path.
pub fn stage_bound(b: &[u64], lengths: &[u64]) -> Option<u64> {
    let s = b.len();
    let stages = lengths.iter().try_fold(1u64, |n, &l| n.checked_mul(l))?;
    if s == 0 || stages > MAX_STAGES || lengths.contains(&0) {
        return None;
    }
    let total_b = b.iter().try_fold(0u64, |sum, &x| sum.checked_add(x))?;
    let step = total_b.checked_add(s as u64)?;
    // Memo over progress vectors, in mixed radix.
    let mut memo: Vec<Option<(Vec<u64>, u64)>> = vec![None; stages as usize];
    fn index(p: &[u64], lengths: &[u64]) -> Option<usize> {
        let at = p
            .iter()
            .zip(lengths)
            .try_fold(0u64, |acc, (&x, &l)| acc.checked_mul(l)?.checked_add(x))?;
        usize::try_from(at).ok()
    }
    fn stage(
        p: &mut Vec<u64>,
        b: &[u64],
        lengths: &[u64],
        step: u64,
        memo: &mut Vec<Option<(Vec<u64>, u64)>>,
    ) -> Option<(Vec<u64>, u64)> {
        let s = b.len();
        let at = index(p, lengths)?;
        if let Some(known) = memo.get(at)?.as_ref() {
            return Some(known.clone());
        }
        let result = if let Some(i) = (0..s).find(|&i| p[i].checked_add(1) == Some(lengths[i])) {
            let mut q = vec![0; s];
            q[i] = 1;
            (q, 1)
        } else {
            let mut successors = Vec::with_capacity(s);
            for i in 0..s {
                // p_i + 1 < l_i here, so neither step wraps.
                p[i] = p[i].saturating_add(1);
                successors.push(stage(p, b, lengths, step, memo)?);
                p[i] = p[i].saturating_sub(1);
            }
            let mut n = 1u64;
            for i in 0..s {
                let marks = b[i].checked_add(1)?;
                n = n.checked_add(successors[i].0[i].checked_sub(1)?.checked_mul(marks)?)?;
            }
            let mut q = Vec::with_capacity(s);
            for i in 0..s {
                let mut need = n.checked_sub(1)?.checked_mul(step)?.checked_add(1)?;
                for (j, succ) in successors.iter().enumerate() {
                    if j != i && succ.0[i] > 0 {
                        need = need.max(succ.0[i].checked_add(n.checked_mul(step)?)?);
                    }
                }
                q.push(need);
            }
            let longest = successors.iter().map(|s| s.1).max()?;
            (q, n.checked_add(longest)?)
        };
        if let Some(slot) = memo.get_mut(at) {
            *slot = Some(result.clone());
        }
        Some(result)
    }
    let mut p = vec![0; s];
    stage(&mut p, b, lengths, step, &mut memo).map(|(_, turns)| turns)
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::stage_bound;

    #[test]
    fn example_3_2_gives_440_turns() {
        assert_eq!(stage_bound(&[1, 2], &[3, 4]), Some(440));
    }
}
