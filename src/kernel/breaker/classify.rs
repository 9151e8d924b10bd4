//! Classification of a finite board for the (1,1) game (rule B4 of
//! docs/soundness.md, SPEC 3.5): every polyomino of the board, enumerated
//! here, is a sub-animal of a cited winner or contains a cited loser.
//!
//! Key decision: the kernel enumerates the animals itself (Bode's
//! polyominoes: connected proper face sets with a connected complement, up
//! to the board's automorphisms) and only looks the citations up, so an
//! animal the author forgot cannot go uncounted.

use crate::kernel::animals::Board;
use crate::kernel::animals::orbits::polyomino_orbits;
use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{ClassifyFailure, Refutation, Rejection, Rule, Undecided, Verdict};

/// `classify BOARD = (W winners, L losers)`; with `elementary`, W and L
/// count the elementary winners (in no other winner) and losers (holding
/// no other loser), the form for infinite boards (rule B7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyClaim {
    pub board: Board,
    pub winners: u64,
    pub losers: u64,
    pub elementary: bool,
}

/// Checks a classification from the theorems it cites (rule B4). The
/// verdict's measure is the number of animals.
pub fn check(claim: &ClassifyClaim, cited: &[&Theorem], mut budget: Budget) -> Verdict {
    let rule = Rule::Classification;
    if claim.elementary {
        return super::plane::check(claim, cited, budget);
    }
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
            refutation: Refutation::ClassificationCounts {
                winners,
                losers,
                elementary: false,
            },
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
    let applies = settles_unbiased(c, board);
    let faces = c.goal.iter().try_fold(0u128, |set, cell| {
        let f = u32::try_from(cell[0]).ok().filter(|&f| f < 128)?;
        Some(set | 1u128 << f)
    })?;
    applies.then_some((c.side, faces))
}

/// Whether claim `c` is about `board` and decides its (1,1) game (Lemma
/// 5.2: a win with one mark in every turn, the completing one included,
/// against b >= 1; a loss with a >= 1 marks against b <= 1).
pub(super) fn settles_unbiased(c: &GameClaim, board: &Board) -> bool {
    c.board == *board
        && match c.side {
            Side::Winner => c.a <= 1 && c.completing() <= 1 && c.b >= 1,
            Side::Loser => c.a >= 1 && c.b <= 1,
        }
}

/// The (winners, losers) counts, or the first animal the citations do
/// not account for. The winners are the polyominoes that contain no cited
/// loser (each must lie inside a cited winner), enumerated one per orbit;
/// the losers are all the others, counted by orbits (a polyomino holding a
/// cited loser is a loser whatever else it holds, once no cited loser lies
/// inside a cited winner).
fn classify(
    claim: &ClassifyClaim,
    graph: &FaceGraph,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Result<(u64, u64), ClassifyFailure>, Exhausted> {
    let (mut winners_cited, mut losers_cited) = (Vec::new(), Vec::new());
    for (i, theorem) in cited.iter().enumerate() {
        let decides = theorem
            .game()
            .and_then(|(game, _)| decides_unbiased(game, &claim.board));
        match decides {
            Some((Side::Winner, w)) => winners_cited.push(w),
            Some((Side::Loser, l)) => losers_cited.push(l),
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
    let as_animal = |set: u128| solid::members(set).map(|f| [f as i32, 0, 0]).collect();
    // A polyomino inside a winner and holding a loser would be both; so
    // would the winner, whatever the polyomino.
    let holding_a_loser = |&&w: &&u128| losers_cited.iter().any(|&l| inside(l, w));
    if let Some(&w) = winners_cited.iter().find(holding_a_loser) {
        return Ok(Err(ClassifyFailure::Contradiction {
            dimension: 1,
            animal: as_animal(w),
        }));
    }
    let (mut winners, mut unaccounted) = (0u64, None);
    loser_free(
        graph,
        &group,
        &losers_cited,
        graph.faces(),
        budget,
        &mut |set| {
            if winners_cited.iter().any(|&w| inside(set, w)) {
                winners = winners.saturating_add(1);
            } else {
                unaccounted = unaccounted.or(Some(set));
            }
        },
    )?;
    if let Some(set) = unaccounted {
        return Ok(Err(ClassifyFailure::Unaccounted {
            dimension: 1,
            animal: as_animal(set),
        }));
    }
    let Some(orbits) = polyomino_orbits(graph, &group, budget)? else {
        return Ok(Err(ClassifyFailure::NoGroup));
    };
    let polyominoes = orbits.iter().fold(0u64, |t, &k| t.saturating_add(k));
    Ok(Ok((winners, polyominoes.saturating_sub(winners))))
}

/// Calls `visit` with every polyomino of at most `last` faces, one per
/// class, that contains no image of a face set of `losers` under `group`.
/// Only connected sets without such an image are grown: Redelmeier's
/// enumeration reaches a set through subsets of it, which have none either.
pub fn loser_free(
    graph: &FaceGraph,
    group: &[Vec<u8>],
    losers: &[u128],
    last: usize,
    budget: &mut Budget,
    visit: &mut impl FnMut(u128),
) -> Result<(), Exhausted> {
    let mut copies: Vec<u128> = losers
        .iter()
        .flat_map(|&l| group.iter().map(move |p| solid::image(p, l)))
        .collect();
    copies.sort_unstable();
    copies.dedup();
    // A set is grown only from a parent holding no copy, so a copy inside
    // it holds the face added last: only those copies are looked at.
    let mut holding: Vec<Vec<u128>> = vec![Vec::new(); graph.faces()];
    for &c in &copies {
        for f in solid::members(c) {
            holding[f].push(c);
        }
    }
    let all = graph.all();
    // One set per class: the leading image, whose least face leads its
    // orbit, so only those faces are roots.
    let roots = solid::orbit_leaders(group, graph.faces());
    solid::for_each_connected_from(graph, roots, budget, &mut |set, added, _: Option<()>| {
        if holding[added].iter().any(|&c| c & !set == 0) {
            return None;
        }
        if solid::leading_image(group, set) && graph.connected(all & !set) {
            visit(set);
        }
        // Sets of `last` faces are not grown: nothing larger is visited.
        ((set.count_ones() as usize) < last).then_some(())
    })
}
