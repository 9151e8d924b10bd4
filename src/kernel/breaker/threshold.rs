//! Threshold sequences (rule B3 of docs/soundness.md, SPEC 3.5): tau(A) =
//! (b_1, ..., b_{k-1}, inf) assembled from cited, verified winner and loser
//! claims about the same goal and board.
//!
//! Key decision: a cited claim counts for every game Lemma 5.2 derives
//! from it (a win for more maker or fewer breaker marks, a loss the other
//! way round), so a table can cite the strongest result once.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{
    GameFact, Malformed, Refutation, Rejection, Rule, ThresholdFailure, Undecided, Verdict,
};

/// `threshold A on B = (b_1, ..., inf)`; `None` is inf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThresholdClaim {
    pub board: Board,
    pub goal: Vec<Cell>,
    pub sequence: Vec<Option<u64>>,
}

/// Checks a threshold claim from the theorems it cites. Hypotheses (rule
/// B3): the sequence ends with its one `inf`, at k >= |A| maker marks, and
/// the goal has a placement (then the maker marks one in his first turn,
/// whatever b); for every n < k an (n, b_n) win and an (n, b_n + 1) loss,
/// each from a cited theorem about this goal and board by Lemma 5.2, or
/// the win by Cor. 3.4 (b_n < n on an infinite lattice).
pub fn check(claim: &ThresholdClaim, cited: &[&Theorem], mut budget: Budget) -> Verdict {
    let rule = Rule::Threshold;
    let Some(k) = claim
        .sequence
        .iter()
        .position(Option::is_none)
        .filter(|&k| k.checked_add(1) == Some(claim.sequence.len()))
    else {
        return Verdict::Malformed {
            rule,
            reason: Malformed::ThresholdShape,
        };
    };
    // Index k is the game with k + 1 maker marks.
    let marks = claim.sequence.len();
    if marks < claim.goal.len() {
        // With fewer marks than cells the maker needs two turns, and a
        // breaker with enough marks per turn surrounds his first ones.
        return Verdict::Refuted {
            rule,
            refutation: Refutation::InfinityTooEarly {
                n: marks,
                size: claim.goal.len(),
            },
        };
    }
    let game = GameClaim {
        side: Side::Winner,
        board: claim.board.clone(),
        goal: claim.goal.clone(),
        a: marks,
        finish: None,
        b: 0,
    };
    match game.fits(&mut budget) {
        Ok(true) => {}
        Ok(false) => {
            return Verdict::Refuted {
                rule,
                refutation: Refutation::Game(GameFact::NoPlacement),
            };
        }
        Err(e) => {
            return Verdict::Undecided {
                rule,
                reason: Undecided::Budget(e),
            };
        }
    }
    match failure(claim, k, cited, &mut budget) {
        Ok(None) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: claim.sequence.len() as u64,
            theorem: Theorem::new(Established::Threshold(claim.clone())),
        },
        Ok(Some(f)) => Verdict::Rejected {
            rule,
            rejection: Rejection::Threshold(f),
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// The first entry before `inf` (index `k`) the citations do not establish.
fn failure(
    claim: &ThresholdClaim,
    k: usize,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Option<ThresholdFailure>, Exhausted> {
    let goal = shape::canonical_form(&claim.board, &claim.goal, budget)?;
    let mut games = Vec::new();
    for (i, theorem) in cited.iter().enumerate() {
        let about = match theorem.game() {
            Some((g, _)) if g.board == claim.board => {
                (shape::canonical_form(&g.board, &g.goal, budget)? == goal).then_some(g)
            }
            _ => None,
        };
        let Some(g) = about else {
            return Ok(Some(ThresholdFailure::CitedOtherGoal {
                citation: ordinal(i),
            }));
        };
        games.push(g);
    }
    for (i, b) in claim.sequence[..k].iter().enumerate() {
        let n = ordinal(i);
        let b = usize::try_from(b.unwrap_or_default()).unwrap_or(usize::MAX);
        if !won(claim, &games, n, b) {
            return Ok(Some(ThresholdFailure::MissingWinner { n, b }));
        }
        let Some(more) = b.checked_add(1) else {
            return Ok(Some(ThresholdFailure::MissingLoser { n, b }));
        };
        if !lost(&games, n, more) {
            return Ok(Some(ThresholdFailure::MissingLoser { n, b: more }));
        }
    }
    Ok(None)
}

/// Whether the (n,b) game is a maker win by a cited theorem (Lemma 5.2: a
/// win with at most n marks in every turn, the completing one included,
/// against at least b), or by Cor. 3.4 (b < n on an infinite lattice).
fn won(claim: &ThresholdClaim, cited: &[&GameClaim], n: usize, b: usize) -> bool {
    let corollary34 = matches!(claim.board, Board::Lattice(_)) && b < n;
    corollary34
        || cited
            .iter()
            .any(|c| c.side == Side::Winner && c.a <= n && c.completing() <= n && c.b >= b)
}

/// Whether the (n,b) game is a breaker win by a cited theorem (Lemma 5.2:
/// a loss with at least n marks in every turn against at most b).
fn lost(cited: &[&GameClaim], n: usize, b: usize) -> bool {
    cited
        .iter()
        .any(|c| c.side == Side::Loser && c.a >= n && c.b <= b)
}
