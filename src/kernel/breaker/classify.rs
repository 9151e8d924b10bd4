//! Classification of a finite board for the (1,1) game (rule B4 of
//! docs/soundness.md, SPEC 3.5): every polyomino of the board, enumerated
//! here, is a sub-animal of a cited winner or contains a cited loser.
//!
//! Key decision: the kernel enumerates the animals itself (Bode's
//! polyominoes: connected proper face sets with a connected complement, up
//! to the board's automorphisms) and only looks the citations up, so an
//! animal the author forgot cannot go uncounted.

use crate::kernel::animals::Board;
use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{ClassifyFailure, Refutation, Rejection, Rule, Undecided, Verdict};

/// `classify BOARD = (W winners, L losers)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyClaim {
    pub board: Board,
    pub winners: u64,
    pub losers: u64,
}

/// Checks a classification from the theorems it cites (rule B4). The
/// verdict's measure is the number of animals.
pub fn check(claim: &ClassifyClaim, cited: &[&Theorem], mut budget: Budget) -> Verdict {
    let rule = Rule::Classification;
    let Some(graph) = claim.board.face_graph() else {
        return Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        };
    };
    match classify(claim, &graph, cited, &mut budget) {
        Ok(Ok((winners, losers))) if (winners, losers) == (claim.winners, claim.losers) => {
            Verdict::Verified {
                rule,
                nodes: budget.nodes(),
                measure: winners.saturating_add(losers),
                theorem: Theorem::new(Established::Classification(claim.clone())),
            }
        }
        // Every animal is accounted for by verified theorems: these are
        // the counts, so the claimed ones are false.
        Ok(Ok((winners, losers))) => Verdict::Refuted {
            rule,
            refutation: Refutation::ClassificationCounts { winners, losers },
        },
        Ok(Err(failure)) => Verdict::Rejected {
            rule,
            rejection: Rejection::Classify(failure),
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// A cited goal as a face set, if the claim is about this board and
/// decides the (1,1) game (Lemma 5.2: a win with one mark in every turn,
/// the completing one included, against b >= 1; a loss with a >= 1 marks
/// against b <= 1).
pub(super) fn decides_unbiased(c: &GameClaim, board: &Board) -> Option<(Side, u128)> {
    let applies = c.board == *board
        && match c.side {
            Side::Winner => c.a <= 1 && c.completing() <= 1 && c.b >= 1,
            Side::Loser => c.a >= 1 && c.b <= 1,
        };
    let faces = c.goal.iter().try_fold(0u128, |set, cell| {
        let f = u32::try_from(cell[0]).ok().filter(|&f| f < 128)?;
        Some(set | 1u128 << f)
    })?;
    applies.then_some((c.side, faces))
}

/// The (winners, losers) counts, or the first animal the citations do
/// not account for.
fn classify(
    claim: &ClassifyClaim,
    graph: &FaceGraph,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Result<(u64, u64), ClassifyFailure>, Exhausted> {
    let mut known = Vec::new();
    for (i, theorem) in cited.iter().enumerate() {
        let decides = theorem
            .game()
            .and_then(|(game, _)| decides_unbiased(game, &claim.board));
        match decides {
            Some(k) => known.push(k),
            None => {
                return Ok(Err(ClassifyFailure::CitedOtherGame {
                    citation: ordinal(i),
                }));
            }
        }
    }
    let group = graph.group(budget)?;
    // Some automorphism maps `small` into `large`.
    let inside =
        |small: u128, large: u128| group.iter().any(|p| solid::image(p, small) & !large == 0);
    let (mut winners, mut losers) = (0u64, 0u64);
    let mut unaccounted = None;
    for size in 1..graph.faces() {
        solid::for_each_connected(graph, size, budget, &mut |set| {
            let polyomino = solid::least_image(&group, set) && graph.connected(graph.all() & !set);
            if !polyomino || unaccounted.is_some() {
                return;
            }
            let wins = known
                .iter()
                .any(|&(side, w)| side == Side::Winner && inside(set, w));
            let loses = known
                .iter()
                .any(|&(side, l)| side == Side::Loser && inside(l, set));
            match (wins, loses) {
                (true, false) => winners = winners.saturating_add(1),
                (false, true) => losers = losers.saturating_add(1),
                _ => unaccounted = Some((set, wins)),
            }
        })?;
    }
    if let Some((set, both)) = unaccounted {
        let animal = solid::members(set).map(|f| [f as i32, 0, 0]).collect();
        return Ok(Err(if both {
            ClassifyFailure::Contradiction { animal }
        } else {
            ClassifyFailure::Unaccounted { animal }
        }));
    }
    Ok(Ok((winners, losers)))
}
