//! Upper bounds on the number of (1,1) winners of a finite board (rule B6
//! of docs/soundness.md): every polyomino that contains a cited loser is a
//! loser, so the winners are among the polyominoes that contain none.
//!
//! Key decision: the kernel enumerates the polyominoes size by size and
//! counts those containing no copy of a cited loser. It stops early at a
//! size where every connected face set contains a cited loser: every larger
//! connected set contains a connected set of that size (drop a leaf of a
//! spanning tree, one at a time), hence a loser, so no larger polyomino can
//! be a winner. `bound B size K winners <= W` counts size K only.

use crate::kernel::animals::Board;
use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::Side;
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{BoundFailure, Rejection, Rule, Undecided, Verdict};

use super::classify::decides_unbiased;

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
/// contain no cited loser, and one of them (0 when there is none).
fn candidates(
    claim: &BoundClaim,
    graph: &FaceGraph,
    losers: &[u128],
    budget: &mut Budget,
) -> Result<(u64, u128), Exhausted> {
    let group = graph.group(budget)?;
    // Every copy of every cited loser, as face sets.
    let mut copies: Vec<u128> = losers
        .iter()
        .flat_map(|&l| group.iter().map(move |p| solid::image(p, l)))
        .collect();
    copies.sort_unstable();
    copies.dedup();
    let last = claim.size.unwrap_or(graph.faces().saturating_sub(1));
    let (mut count, mut example) = (0u64, 0u128);
    for size in 1..=last.min(graph.faces().saturating_sub(1)) {
        let mut every_set_holds_a_loser = true;
        solid::for_each_connected(graph, size, budget, &mut |set| {
            if copies.iter().any(|&c| c & !set == 0) {
                return;
            }
            every_set_holds_a_loser = false;
            let counted = claim.size.is_none_or(|k| k == size)
                && solid::least_image(&group, set)
                && graph.connected(graph.all() & !set);
            if counted {
                count = count.saturating_add(1);
                if example == 0 {
                    example = set;
                }
            }
        })?;
        if every_set_holds_a_loser {
            break;
        }
    }
    Ok((count, example))
}
