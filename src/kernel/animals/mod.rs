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
    /// The cells 0 <= x < cols, 0 <= y < rows of a plane lattice (`square
    /// 5x5`); congruences are the lattice's, placements must lie inside.
    Region {
        lattice: Lattice,
        rows: u16,
        cols: u16,
    },
}

impl Board {
    /// Whether cell `c` is a cell of the board (solids: face numbers).
    pub fn contains(self, c: lattice::Cell) -> bool {
        match self {
            Board::Lattice(Lattice::Cubic) => true,
            Board::Lattice(_) => c[2] == 0,
            Board::Region { rows, cols, .. } => {
                c[2] == 0
                    && (0..i32::from(cols)).contains(&c[0])
                    && (0..i32::from(rows)).contains(&c[1])
            }
            Board::Solid(solid) => FaceGraph::of(solid)
                .is_some_and(|g| c[1] == 0 && c[2] == 0 && (0..g.faces() as i32).contains(&c[0])),
        }
    }

    /// The lattice whose congruences the board uses, if it is a lattice or
    /// a region of one.
    pub fn lattice(self) -> Option<Lattice> {
        match self {
            Board::Lattice(l) | Board::Region { lattice: l, .. } => Some(l),
            Board::Solid(_) => None,
        }
    }
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
        Board::Region { .. } => {
            return Verdict::Undecided {
                rule,
                reason: Undecided::CountOnRegion,
            };
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
