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
use crate::kernel::maker::derived::{GameClaim, Side};
use crate::kernel::verdict::{ClassifyFailure, Refutation, Rule, Undecided, Verdict};

/// `classify BOARD = (W winners, L losers)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyClaim {
    pub board: Board,
    pub winners: u64,
    pub losers: u64,
}

/// Checks a classification from its citations (all verified). The
/// verdict's value is the number of animals.
pub fn check(claim: &ClassifyClaim, cited: &[GameClaim], mut budget: Budget) -> Verdict {
    let rule = Rule::Classification;
    let Some(graph) = claim.board.face_graph() else {
        return Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        };
    };
    match classify(claim, &graph, cited, &mut budget) {
        Ok(Ok(total)) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            value: total,
        },
        Ok(Err(failure)) => Verdict::Refuted {
            rule,
            refutation: Refutation::Classify(failure),
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// A cited goal as a face set, if the claim is about this board and
/// decides the (1,1) game (Lemma 5.2: a (1,b>=1) win, a (a>=1,1) loss).
fn decides_unbiased(c: &GameClaim, board: &Board) -> Option<(Side, u128)> {
    let applies = c.board == *board
        && match c.side {
            Side::Winner => c.a <= 1 && c.finish.is_none() && c.b >= 1,
            Side::Loser => c.a >= 1 && c.b <= 1,
        };
    let faces = c.goal.iter().try_fold(0u128, |set, cell| {
        let f = u32::try_from(cell[0]).ok().filter(|&f| f < 128)?;
        Some(set | 1u128 << f)
    })?;
    applies.then_some((c.side, faces))
}

fn classify(
    claim: &ClassifyClaim,
    graph: &FaceGraph,
    cited: &[GameClaim],
    budget: &mut Budget,
) -> Result<Result<u64, ClassifyFailure>, Exhausted> {
    let mut known = Vec::new();
    for (i, c) in cited.iter().enumerate() {
        match decides_unbiased(c, &claim.board) {
            Some(k) => known.push(k),
            None => return Ok(Err(ClassifyFailure::CitedOtherGame { citation: i + 1 })),
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
                (true, false) => winners += 1,
                (false, true) => losers += 1,
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
    if (winners, losers) != (claim.winners, claim.losers) {
        return Ok(Err(ClassifyFailure::Counts { winners, losers }));
    }
    Ok(Ok(winners + losers))
}
