//! Upper bounds on the number of (1,1) winners of a finite board (rule B6
//! of docs/soundness.md): every polyomino that contains a cited loser is a
//! loser, so the winners are among the polyominoes that contain none.
//!
//! Key decision: the kernel enumerates the polyominoes size by size and
//! counts those containing no copy of a cited loser. It grows only the
//! connected face sets that hold no loser (Redelmeier's enumeration grows
//! every set through subsets of it, so no loser-free set is missed), and so
//! stops by itself once every set of some size holds one. `bound B size K
//! winners <= W` counts size K only.

use crate::kernel::animals::Board;
use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::Side;
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{BoundFailure, Rejection, Rule, Undecided, Verdict};

use super::classify::{decides_unbiased, loser_free};

/// `bound BOARD [size K] winners <= W`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundClaim {
    pub board: Board,
    /// Only polyominoes of this size (`None`: all sizes).
    pub size: Option<usize>,
    pub at_most: u64,
}

/// Checks a bound from the cited losers (rule B6). The verdict's measure is
/// the number of polyominoes left as possible winners.
pub fn check(claim: &BoundClaim, cited: &[&Theorem], mut budget: Budget) -> Verdict {
    let rule = Rule::Bound;
    let Some(graph) = claim.board.face_graph() else {
        return Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        };
    };
    let mut losers = Vec::new();
    for (i, theorem) in cited.iter().enumerate() {
        match theorem
            .game()
            .and_then(|(game, _)| decides_unbiased(game, &claim.board))
        {
            Some((Side::Loser, set)) => losers.push(set),
            _ => {
                return Verdict::Rejected {
                    rule,
                    rejection: Rejection::Bound(BoundFailure::CitedOtherGame {
                        citation: ordinal(i),
                    }),
                };
            }
        }
    }
    match candidates(claim, &graph, &losers, &mut budget) {
        Ok((count, _)) if count <= claim.at_most => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: count,
            theorem: Theorem::new(Established::Bound(claim.clone())),
        },
        // The citations leave more possible winners than claimed; the
        // bound may still hold (other losers may exist), so this rejects.
        Ok((count, example)) => Verdict::Rejected {
            rule,
            rejection: Rejection::Bound(BoundFailure::TooMany {
                candidates: count,
                example: solid::members(example).map(|f| [f as i32, 0, 0]).collect(),
            }),
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// The number of polyominoes (of the claim's size, or of any size) that
/// contain no cited loser, and one of them (0 when there is none). Only
/// sets without a loser are grown: every set a polyomino is grown through
/// is a subset of it, so none of a loser-free polyomino's is pruned.
fn candidates(
    claim: &BoundClaim,
    graph: &FaceGraph,
    losers: &[u128],
    budget: &mut Budget,
) -> Result<(u64, u128), Exhausted> {
    let group = graph.group(budget)?;
    let last = claim.size.unwrap_or(graph.faces());
    let (mut count, mut example) = (0u64, 0u128);
    loser_free(graph, &group, losers, last, budget, &mut |set| {
        if claim.size.is_none_or(|k| k == set.count_ones() as usize) {
            count = count.saturating_add(1);
            example = if example == 0 { set } else { example };
        }
    })?;
    Ok((count, example))
}
