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

use std::collections::HashSet;
use std::sync::Mutex;

use crate::kernel::animals::Board;
use crate::kernel::animals::enumerate::{Geometry, canonical};
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::levels;
use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::Side;
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{BoundFailure, Rejection, Rule, Undecided, Verdict};

use super::classify::{decides_unbiased, loser_free, settles_unbiased};

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
    let counted = match &claim.board {
        Board::Lattice(l) if *l != Lattice::Cubic => plane_candidates(l, claim, cited, &mut budget),
        Board::Tiling(t) => plane_candidates(&**t, claim, cited, &mut budget),
        board => match board.face_graph() {
            Some(graph) => solid_candidates(claim, &graph, cited, &mut budget),
            None => Ok(Err(None)),
        },
    };
    match counted {
        Ok(Ok((count, _))) if count <= claim.at_most => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: count,
            theorem: Theorem::new(Established::Bound(claim.clone())),
        },
        // The citations leave more possible winners than claimed; the
        // bound may still hold (other losers may exist), so this rejects.
        Ok(Ok((count, example))) => Verdict::Rejected {
            rule,
            rejection: Rejection::Bound(BoundFailure::TooMany {
                candidates: count,
                example,
                dimension: claim.board.dimension(),
            }),
        },
        Ok(Err(Some(failure))) => Verdict::Rejected {
            rule,
            rejection: Rejection::Bound(failure),
        },
        Ok(Err(None)) => Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

/// The polyominoes a bound counts and one of them, or why they are not
/// counted: a failure, or `None` when the board or size is outside the
/// rule's limits.
type Counted = Result<(u64, Vec<Cell>), Option<BoundFailure>>;

/// The cited claims as (1,1) losers of the board, by a test on each.
fn cited_losers<'t, T>(
    cited: &[&'t Theorem],
    decides: impl Fn(&'t Theorem) -> Option<(Side, T)>,
) -> Result<Vec<T>, BoundFailure> {
    let mut losers = Vec::new();
    for (i, theorem) in cited.iter().enumerate() {
        match decides(theorem) {
            Some((Side::Loser, loser)) => losers.push(loser),
            _ => {
                return Err(BoundFailure::CitedOtherGame {
                    citation: ordinal(i),
                });
            }
        }
    }
    Ok(losers)
}

fn solid_candidates(
    claim: &BoundClaim,
    graph: &FaceGraph,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Counted, Exhausted> {
    let losers = match cited_losers(cited, |t| {
        t.game()
            .and_then(|(game, _)| decides_unbiased(game, &claim.board))
    }) {
        Ok(losers) => losers,
        Err(failure) => return Ok(Err(Some(failure))),
    };
    let (count, example) = candidates(claim, graph, &losers, budget)?;
    let example = solid::members(example).map(|f| [f as i32, 0, 0]).collect();
    Ok(Ok((count, example)))
}

/// The loser-free polyominoes of a plane lattice or tiling: the cited
/// losers' canonical forms tell the level enumeration which sets are
/// losers; every other set is kept, so it counts the polyominoes holding
/// no cited loser.
fn plane_candidates(
    geometry: &impl Geometry,
    claim: &BoundClaim,
    cited: &[&Theorem],
    budget: &mut Budget,
) -> Result<Counted, Exhausted> {
    let mut key = match cited_losers(cited, |t| {
        t.game()
            .filter(|(game, _)| settles_unbiased(game, &claim.board))
            .map(|(game, _)| (game.side, canonical(geometry, &game.goal)))
    }) {
        Ok(losers) => losers,
        Err(failure) => return Ok(Err(Some(failure))),
    };
    key.sort_unstable();
    key.dedup();
    let last = claim.size.unwrap_or(levels::MAX_SIZE);
    let tally = plane_tally(geometry, &claim.board, key, last, budget)?;
    // Past the last level kept, a tally that stopped at a level without
    // polyominoes has none; one cut off at `last` knows no more.
    let kept = tally.by_size.len();
    if !tally.complete && claim.size.is_none_or(|k| k > kept) {
        return Ok(Err(None));
    }
    let sizes = match claim.size {
        Some(k) => k..=k,
        None => 1..=kept,
    };
    let (mut count, mut example) = (0u64, None);
    for k in sizes {
        // Size 0 has no polyomino.
        if let Some((n, e)) = k.checked_sub(1).and_then(|i| tally.by_size.get(i)) {
            count = count.saturating_add(*n);
            example = example.or_else(|| e.clone());
        }
    }
    Ok(Ok((count, example.unwrap_or_default())))
}

/// The loser-free polyominoes of a plane board per size from 1: how many
/// and one of them; `complete` when the last level has none (so no larger
/// one is loser-free).
#[derive(Clone, Debug)]
struct PlaneTally {
    by_size: Vec<(u64, Option<Vec<Cell>>)>,
    complete: bool,
}

/// Plane tallies already taken, by board and sorted cited losers.
static PLANE_TALLIES: Memo<(Board, Vec<Vec<Cell>>), PlaneTally> = Memo::new();

/// The plane tally up to `last` (or complete).
fn plane_tally(
    geometry: &impl Geometry,
    board: &Board,
    losers: Vec<Vec<Cell>>,
    last: usize,
    budget: &mut Budget,
) -> Result<PlaneTally, Exhausted> {
    let enough = |t: &PlaneTally| t.complete || t.by_size.len() >= last;
    PLANE_TALLIES.get_or_run((board.clone(), losers), enough, budget, |key, budget| {
        let forms: HashSet<&[Cell]> = key.1.iter().map(Vec::as_slice).collect();
        let mut by_size = Vec::new();
        let mut complete = false;
        levels::loser_free(
            geometry,
            last,
            &mut |set, _| Ok(forms.contains(set)),
            &mut |_, level| {
                by_size.push((level.polyominoes, level.example.clone()));
                complete = level.polyominoes == 0;
            },
            budget,
        )?;
        Ok(PlaneTally { by_size, complete })
    })
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
    // No polyomino has more faces than the board.
    let last = claim.size.unwrap_or(graph.faces()).min(graph.faces());
    let tally = tally(graph, losers, last, budget)?;
    let sizes = match claim.size {
        Some(k) => k..=k,
        None => 1..=last,
    };
    let (mut count, mut example) = (0u64, 0u128);
    for k in sizes {
        if let Some(&(n, e)) = tally.by_size.get(k) {
            count = count.saturating_add(n);
            example = if example == 0 { e } else { example };
        }
    }
    Ok((count, example))
}

/// The loser-free polyominoes of up to `last` faces, by size: how many and
/// the first one seen (0: none).
#[derive(Clone, Debug)]
struct Tally {
    last: usize,
    by_size: Vec<(u64, u128)>,
}

/// Tallies already taken, by board (its faces' neighbours) and cited
/// losers, sorted.
static TALLIES: Memo<(Vec<u128>, Vec<u128>), Tally> = Memo::new();

/// The tally of the loser-free polyominoes of up to `last` faces.
fn tally(
    graph: &FaceGraph,
    losers: &[u128],
    last: usize,
    budget: &mut Budget,
) -> Result<Tally, Exhausted> {
    let mut sorted = losers.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let key = (
        (0..graph.faces()).map(|f| graph.neighbours(f)).collect(),
        sorted,
    );
    TALLIES.get_or_run(
        key,
        |t| t.last >= last,
        budget,
        |_, budget| {
            let group = graph.group(budget)?;
            let mut by_size = vec![(0u64, 0u128); last.saturating_add(1)];
            loser_free(graph, &group, losers, last, budget, &mut |set| {
                if let Some(entry) = by_size.get_mut(set.count_ones() as usize) {
                    entry.0 = entry.0.saturating_add(1);
                    entry.1 = if entry.1 == 0 { set } else { entry.1 };
                }
            })?;
            Ok(Tally { last, by_size })
        },
    )
}

/// Tallies already taken. A tally is a function of its key (the board and
/// the cited losers) alone, so one taken as far or farther (a total
/// bound's, for the per-size bounds that cite the same losers) is reused;
/// its work is charged again, so a step budget gives the same verdict in
/// any order.
struct Memo<K, T>(Mutex<Vec<(K, T, u64)>>);

impl<K: PartialEq, T: Clone> Memo<K, T> {
    const fn new() -> Self {
        Memo(Mutex::new(Vec::new()))
    }

    /// A kept result for `key` that is `enough`, or `run`'s (then kept).
    fn get_or_run(
        &self,
        key: K,
        enough: impl Fn(&T) -> bool,
        budget: &mut Budget,
        run: impl FnOnce(&K, &mut Budget) -> Result<T, Exhausted>,
    ) -> Result<T, Exhausted> {
        let known = self.0.lock().ok().and_then(|kept| {
            kept.iter()
                .find(|(k, t, _)| *k == key && enough(t))
                .map(|(_, t, ticks)| (t.clone(), *ticks))
        });
        if let Some((tally, ticks)) = known {
            budget.charge(usize::try_from(ticks).unwrap_or(usize::MAX))?;
            return Ok(tally);
        }
        let before = budget.ticks();
        let tally = run(&key, budget)?;
        let ticks = budget.ticks().saturating_sub(before);
        if let Ok(mut kept) = self.0.lock() {
            kept.push((key, tally.clone(), ticks));
        }
        Ok(tally)
    }
}
