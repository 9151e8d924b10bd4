//! Every cell a claim brings lies within [`MAX_COORDINATE`]: checked once,
//! before any rule runs, so that the kernel's arithmetic on coordinates
//! (point-group images, translations, sums of two cells) cannot overflow.
//!
//! Key decision: one visitor over the claim's data instead of checks at
//! each use. The elaborator already keeps coordinates within 2^20, but the
//! kernel does not rely on it.

use crate::kernel::animals::Board;
use crate::kernel::animals::lattice::Cell;
use crate::kernel::breaker::priority::Priority;
use crate::kernel::breaker::{Answer, Strategy};
use crate::kernel::claim::Claim;
use crate::kernel::game::GameClaim;
use crate::kernel::maker::congruence::Congruence;
use crate::kernel::maker::derived::DerivedRule;
use crate::kernel::maker::{Justification, MakerOption, ProofSequence};

/// The largest absolute value of a coordinate (2^24: a sum of a few such
/// values, turned by a point-group element, stays far inside i32).
pub const MAX_COORDINATE: u32 = 1 << 24;

fn cell(c: &Cell) -> bool {
    c.iter().all(|v| v.unsigned_abs() <= MAX_COORDINATE)
}

fn cells(list: &[Cell]) -> bool {
    list.iter().all(cell)
}

fn board(b: &Board) -> bool {
    match b {
        Board::Region(region) => cells(region.cells()),
        Board::Lattice(_)
        | Board::Solid(_)
        | Board::Graph(_)
        | Board::Tiling(_)
        | Board::Mosaic(_) => true,
    }
}

fn game(g: &GameClaim) -> bool {
    board(&g.board) && cells(&g.goal)
}

fn congruence(map: &Congruence) -> bool {
    match map {
        Congruence::Lattice { shift, .. } => cell(shift),
        Congruence::Permutation(_) => true,
        Congruence::Flag(flag) => flag.triangle <= MAX_COORDINATE,
    }
}

fn option(o: &MakerOption) -> bool {
    cells(&o.mark) && congruence(&o.map)
}

fn proof(p: &ProofSequence) -> bool {
    let situations = p.situations.iter().all(|(s, justification)| {
        cells(&s.core)
            && cells(&s.neighbourhood)
            && match justification {
                Justification::Options(options) => options.iter().all(option),
                Justification::Replies { replies, pass } => {
                    replies.iter().all(|(w, o)| cell(w) && option(o))
                        && pass.as_ref().is_none_or(option)
                }
            }
    });
    situations && congruence(&p.start.1)
}

fn strategy(s: &Strategy) -> bool {
    match s {
        Strategy::Paving(paving) => {
            cells(&paving.period) && paving.pairs.iter().all(|(u, w)| cell(u) && cell(w))
        }
        Strategy::Moves(moves) => moves.iter().all(|m| {
            cell(&m.mark)
                && match &m.answer {
                    Answer::Reply { reply, then } => cells(reply) && strategy(then),
                    Answer::Like { like, map } => cell(like) && congruence(map),
                }
        }),
        Strategy::Named { then, .. } => strategy(then),
        Strategy::Same { map, .. } => congruence(map),
    }
}

fn priority(p: &Priority) -> bool {
    cells(&p.period)
        && p.classes.iter().all(|class| {
            cell(&class.class)
                && class
                    .rules
                    .iter()
                    .all(|r| cells(&r.guard) && r.lists.iter().all(|l| cells(l)))
        })
}

/// Whether every cell of the claim lies within [`MAX_COORDINATE`].
pub fn within<C>(claim: &Claim<C>) -> bool {
    match claim {
        Claim::Impartial(..) | Claim::Partizan(..) => true,
        Claim::Animals(count) => board(&count.board),
        Claim::Maker(w, p) => board(&w.board) && cells(&w.goal) && proof(p),
        Claim::Derived(g, rule, _) => {
            game(g)
                && match rule {
                    DerivedRule::Proposition22 { placements } => {
                        placements.iter().all(|p| cells(p))
                    }
                    _ => true,
                }
        }
        Claim::Breaker(g, s) => game(g) && strategy(s),
        Claim::Priority(g, p) => game(g) && priority(p),
        Claim::Threshold(t, _) => board(&t.board) && cells(&t.goal),
        Claim::Classify(c, _) => board(&c.board),
        Claim::Bound(c, _) => board(&c.board),
    }
}
