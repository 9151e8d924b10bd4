//! Boards and animals: the lattices of SPEC 3.1, canonical forms of animals
//! under their congruences, and counting claims checked by enumeration
//! (rule A1 of docs/soundness.md).

pub mod enumerate;
pub mod lattice;
pub mod shape;
pub mod solid;

use crate::kernel::budget::Budget;
use crate::kernel::verdict::{Refutation, Rule, Undecided, Verdict};
use enumerate::Kind;
use lattice::Lattice;
use solid::{FaceGraph, FiniteKind, Solid};

/// A board a counting claim is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// An infinite lattice.
    Lattice(Lattice),
    /// A finite board given by its faces.
    Solid(Solid),
}

/// `count [all|fixed] animals on BOARD size n = k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountClaim {
    /// The board.
    pub board: Board,
    /// What is counted.
    pub kind: Kind,
    /// The number of cells.
    pub size: usize,
    /// The claimed count.
    pub count: u64,
}

/// Checks a counting claim by enumeration with `threads` threads.
pub fn check(claim: &CountClaim, mut budget: Budget, threads: usize) -> Verdict {
    let rule = Rule::AnimalEnumeration;
    let counted = match claim.board {
        Board::Lattice(lattice) => {
            enumerate::count(lattice, claim.size, claim.kind, threads, &mut budget)
        }
        Board::Solid(solid) => {
            let Some(graph) = FaceGraph::of(solid) else {
                return Verdict::Undecided {
                    rule,
                    reason: Undecided::OutsideLimits,
                };
            };
            let kind = match claim.kind {
                Kind::Fixed => FiniteKind::Labelled,
                Kind::Free => FiniteKind::Free,
                Kind::FreeSimplyConnected => FiniteKind::FreeSimplyConnected,
            };
            solid::count(&graph, claim.size, kind, &mut budget)
        }
    };
    match counted {
        Ok(actual) if actual == claim.count => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            value: actual,
        },
        Ok(actual) => Verdict::Refuted {
            rule,
            refutation: Refutation::AnimalCount {
                claimed: claim.count,
                actual,
            },
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}
