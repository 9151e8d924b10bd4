//! Classification of an infinite board (a plane lattice, a tiling or a
//! hyperbolic mosaic) for the (1,1) game by its elementary winners and
//! losers (rule B7 of docs/soundness.md): every polyomino up to one size
//! past the largest cited winner is enumerated here and found inside a
//! cited winner or holding a cited loser.
//!
//! Key decision: the kernel picks the last size itself. Past the largest
//! cited winner no polyomino can lie inside one, so every polyomino of
//! that size must hold a cited loser; every larger polyomino holds a
//! polyomino of that size (a simply connected animal of k > 1 cells keeps
//! one of k - 1 cells: the argument is in docs/soundness.md), hence a
//! loser. A certificate whose losers stop covering one size too early is
//! rejected with the polyomino they miss.

use crate::kernel::animals::Board;
use crate::kernel::animals::enumerate::{self, Geometry, Kind};
use crate::kernel::animals::flags::cell;
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::mosaic::{self, Mosaic, Unreached};
use crate::kernel::animals::shape::sub_animal;
use crate::kernel::breaker::classify::{ClassifyClaim, settles_unbiased};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::Side;
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{ClassifyFailure, Refutation, Rejection, Rule, Undecided, Verdict};

/// The largest polyomino size the enumeration goes to (one past the
/// largest cited winner): beyond it the lists grow past what a check
/// should hold.
pub const MAX_SIZE: usize = 16;

/// Checks `classify BOARD = (W elementary winners, L elementary losers)`
/// on a plane lattice, a tiling or a hyperbolic mosaic from the theorems
/// it cites.
pub fn check(claim: &ClassifyClaim, cited: &[&Theorem], mut budget: Budget) -> Verdict {
    let rule = Rule::Classification;
    let outcome = match &claim.board {
        Board::Lattice(l) if *l != Lattice::Cubic => {
            classify(&plane_lister(l), claim, cited, &mut budget)
        }
        Board::Tiling(t) => classify(&plane_lister(&**t), claim, cited, &mut budget),
        Board::Mosaic(m) => classify(&mosaic_lister(*m), claim, cited, &mut budget),
        _ => {
            return Verdict::Undecided {
                rule,
                reason: Undecided::OutsideLimits,
            };
        }
    };
    match outcome {
        Ok(Some(Ok(counts))) if counts == (claim.winners, claim.losers) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: counts.0.saturating_add(counts.1),
            theorem: Theorem::new(Established::Classification(claim.clone())),
        },
        Ok(Some(Ok((winners, losers)))) => Verdict::Refuted {
            rule,
            refutation: Refutation::ClassificationCounts {
                winners,
                losers,
                elementary: true,
            },
        },
        Ok(Some(Err(failure))) => Verdict::Rejected {
            rule,
            rejection: Rejection::Classify(failure),
        },
        Ok(None) => Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// The polyominoes (free, simply connected, one per class) of a size, or
/// `None` when the board's enumeration does not reach that size.
type Lister<'a> = dyn Fn(usize, &mut Budget) -> Result<Option<Vec<Vec<Cell>>>, Exhausted> + 'a;

/// The lister of a lattice's or a tiling's polyominoes.
fn plane_lister(
    geometry: &impl Geometry,
) -> impl Fn(usize, &mut Budget) -> Result<Option<Vec<Vec<Cell>>>, Exhausted> + '_ {
    |size, budget| enumerate::list(geometry, size, Kind::FreeSimplyConnected, budget).map(Some)
}

/// The lister of a mosaic's polyominoes (its animals without holes, A5).
fn mosaic_lister(
    m: Mosaic,
) -> impl Fn(usize, &mut Budget) -> Result<Option<Vec<Vec<Cell>>>, Exhausted> {
    move |size, budget| match mosaic::animals(m, size, Kind::FreeSimplyConnected, budget) {
        Ok(list) => Ok(Some(
            list.into_iter()
                .map(|triangles| triangles.into_iter().map(cell).collect())
                .collect(),
        )),
        Err(Unreached::Limits) => Ok(None),
        Err(Unreached::Budget(e)) => Err(e),
    }
}

/// The elementary (winners, losers) counts, or what the citations leave
/// undecided; `None` when the largest cited winner is too large, or the
/// board's enumeration or containment tests do not reach that far.
#[allow(clippy::type_complexity)]
fn classify(
    list: &Lister,
    claim: &ClassifyClaim,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Option<Result<(u64, u64), ClassifyFailure>>, Exhausted> {
    let board = &claim.board;
    let (mut winners, mut losers): (Vec<&[Cell]>, Vec<&[Cell]>) = (Vec::new(), Vec::new());
    for (i, theorem) in cited.iter().enumerate() {
        // A cited claim counts for the (1,1) game on this board by Lemma
        // 5.2, as in rule B4.
        let decides = theorem
            .game()
            .filter(|(c, _)| settles_unbiased(c, board))
            .map(|(c, _)| (c.side, c.goal.as_slice()));
        match decides {
            Some((Side::Winner, goal)) => winners.push(goal),
            Some((Side::Loser, goal)) => losers.push(goal),
            None => {
                return Ok(Some(Err(ClassifyFailure::CitedOtherGame {
                    citation: ordinal(i),
                })));
            }
        }
    }
    for &w in &winners {
        // A larger loser cannot lie inside w (and on a mosaic would ask for
        // a needlessly large disc).
        for &l in losers.iter().filter(|l| l.len() <= w.len()) {
            let Some(inside) = sub_animal(board, l, w, budget)? else {
                return Ok(None);
            };
            if inside {
                return Ok(Some(Err(ClassifyFailure::Contradiction {
                    animal: w.to_vec(),
                    dimension: board.dimension(),
                })));
            }
        }
    }
    let last = winners
        .iter()
        .map(|w| w.len())
        .max()
        .unwrap_or(0)
        .saturating_add(1);
    if last > MAX_SIZE {
        return Ok(None);
    }
    let (mut won, mut lost): (Vec<Vec<Cell>>, Vec<Vec<Cell>>) = (Vec::new(), Vec::new());
    for size in 1..=last {
        let Some(polyominoes) = list(size, budget)? else {
            return Ok(None);
        };
        for p in polyominoes {
            let Some(in_winner) = any_inside(board, &[&p], &winners, budget)? else {
                return Ok(None);
            };
            if in_winner {
                won.push(p);
                continue;
            }
            let Some(holds_loser) = any_inside(board, &losers, &[&p], budget)? else {
                return Ok(None);
            };
            if holds_loser {
                lost.push(p);
            } else {
                return Ok(Some(Err(ClassifyFailure::Unaccounted {
                    animal: p,
                    dimension: board.dimension(),
                })));
            }
        }
    }
    // Every polyomino up to `last` is decided, and every larger one holds a
    // loser of size `last`: the elementary ones are among these.
    let mut elementary_winners = 0u64;
    for w in &won {
        let larger: Vec<&[Cell]> = won
            .iter()
            .filter(|v| v.len() > w.len())
            .map(Vec::as_slice)
            .collect();
        let Some(inside) = any_inside(board, &[w], &larger, budget)? else {
            return Ok(None);
        };
        if !inside {
            elementary_winners = elementary_winners.saturating_add(1);
        }
    }
    let mut elementary_losers = 0u64;
    for l in &lost {
        let smaller: Vec<&[Cell]> = lost
            .iter()
            .filter(|m| m.len() < l.len())
            .map(Vec::as_slice)
            .collect();
        let Some(holds) = any_inside(board, &smaller, &[l], budget)? else {
            return Ok(None);
        };
        if !holds {
            elementary_losers = elementary_losers.saturating_add(1);
        }
    }
    Ok(Some(Ok((elementary_winners, elementary_losers))))
}

/// Whether some animal of `small` is congruent to a subset of some animal
/// of `large`; `None` when a test on a mosaic needs discs beyond the
/// kernel's (neither answer is known then).
fn any_inside(
    board: &Board,
    small: &[&[Cell]],
    large: &[&[Cell]],
    budget: &mut Budget,
) -> Result<Option<bool>, Exhausted> {
    let mut known = true;
    for &a in small {
        for &b in large {
            budget.tick()?;
            if a.len() <= b.len() {
                match sub_animal(board, a, b, budget)? {
                    Some(true) => return Ok(Some(true)),
                    Some(false) => {}
                    None => known = false,
                }
            }
        }
    }
    Ok(known.then_some(false))
}
