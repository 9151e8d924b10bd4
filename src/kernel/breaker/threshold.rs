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
use crate::kernel::maker::derived::{GameClaim, Side};
use crate::kernel::verdict::{Refutation, Rule, ThresholdFailure, Undecided, Verdict};

/// `threshold A on B = (b_1, ..., inf)`; `None` is inf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThresholdClaim {
    pub board: Board,
    pub goal: Vec<Cell>,
    pub sequence: Vec<Option<u64>>,
}

/// Checks a threshold claim from its citations (all verified); `budget`
/// bounds listing a finite board's congruences.
pub fn check(claim: &ThresholdClaim, cited: &[GameClaim], mut budget: Budget) -> Verdict {
    let rule = Rule::Threshold;
    match failure(claim, cited, &mut budget) {
        Ok(None) => Verdict::Verified {
            rule,
            nodes: 0,
            value: claim.sequence.len() as u64,
        },
        Ok(Some(f)) => Verdict::Refuted {
            rule,
            refutation: Refutation::Threshold(f),
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

fn failure(
    claim: &ThresholdClaim,
    cited: &[GameClaim],
    budget: &mut Budget,
) -> Result<Option<ThresholdFailure>, Exhausted> {
    let infinite_at = claim.sequence.iter().position(Option::is_none);
    let Some(k) = infinite_at.filter(|&k| k + 1 == claim.sequence.len()) else {
        return Ok(Some(ThresholdFailure::NotEndingInInfinity));
    };
    // k maker marks (0-based index k is the game with k + 1 marks).
    let marks = k + 1;
    if marks < claim.goal.len() {
        // With fewer marks than cells the maker needs two turns, and a
        // breaker with enough marks per turn surrounds his first ones.
        return Ok(Some(ThresholdFailure::InfinityTooEarly {
            n: marks,
            size: claim.goal.len(),
        }));
    }
    let goal = shape::canonical_form(&claim.board, &claim.goal, budget)?;
    for (i, c) in cited.iter().enumerate() {
        if c.board != claim.board || shape::canonical_form(&c.board, &c.goal, budget)? != goal {
            return Ok(Some(ThresholdFailure::CitedOtherGoal { citation: i + 1 }));
        }
    }
    for (i, b) in claim.sequence[..k].iter().enumerate() {
        let (n, b) = (i + 1, b.unwrap_or_default() as usize);
        if !won(claim, cited, n, b) {
            return Ok(Some(ThresholdFailure::MissingWinner { n, b }));
        }
        if !lost(cited, n, b + 1) {
            return Ok(Some(ThresholdFailure::MissingLoser { n, b: b + 1 }));
        }
    }
    Ok(None)
}

/// Whether the (n,b) game is a maker win by a cited claim (Lemma 5.2), or
/// by Cor. 3.4 (b < n on a lattice: every turn gains the maker a cell).
fn won(claim: &ThresholdClaim, cited: &[GameClaim], n: usize, b: usize) -> bool {
    let corollary34 = matches!(claim.board, Board::Lattice(_)) && b < n;
    corollary34
        || cited
            .iter()
            .any(|c| c.side == Side::Winner && c.finish.is_none() && c.a <= n && c.b >= b)
}

/// Whether the (n,b) game is a breaker win by a cited claim (Lemma 5.2).
fn lost(cited: &[GameClaim], n: usize, b: usize) -> bool {
    cited
        .iter()
        .any(|c| c.side == Side::Loser && c.finish.is_none() && c.a >= n && c.b <= b)
}
