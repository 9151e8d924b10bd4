//! Boards and animals: the lattices of SPEC 3.1, canonical forms of animals
//! under their congruences, and counting claims checked by enumeration
//! (rule A1 of docs/soundness.md).

pub mod enumerate;
pub mod flags;
pub mod labels;
pub mod lattice;
pub mod levels;
pub mod mosaic;
pub mod orbits;
pub mod rings;
pub mod shape;
pub mod solid;
pub mod tiling;

use std::sync::Arc;

use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::{Refutation, Rule, Undecided, Verdict};
use enumerate::Kind;
use lattice::{Cell, Lattice};
use mosaic::Mosaic;
use solid::{FaceGraph, FiniteKind, Group, Solid};
use tiling::Tiling;

/// A board: what animals live on, and the congruences between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// An infinite lattice.
    Lattice(Lattice),
    /// A finite board given by its faces.
    Solid(Solid),
    /// A finite set of cells of a plane lattice (`square 5x5`, or a
    /// picture); congruences are the lattice's, placements must lie inside.
    Region(Arc<Region>),
    /// An explicit finite graph (`graph { ... }`): its vertices are the
    /// cells, congruences its automorphisms.
    Graph(Arc<FaceGraph>),
    /// A periodic plane tiling (`tiling (3,4,6,4)` or declared face by
    /// face): cells `[x, y, f]`, congruences the tiling's symmetries.
    Tiling(Arc<Tiling>),
    /// A hyperbolic (3,q) mosaic (`mosaic (3,7)`): cells `[t, 0, 0]`, the
    /// triangles numbered in ring order around a root (see `flags`).
    Mosaic(Mosaic),
}

/// A finite, nonempty set of cells of a plane lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The lattice the cells belong to.
    pub lattice: Lattice,
    /// The cells, sorted, without repeats.
    cells: Vec<Cell>,
}

impl Region {
    /// The cells 0 <= x < cols, 0 <= y < rows of `lattice`.
    pub fn rectangle(lattice: Lattice, rows: u16, cols: u16) -> Region {
        let cells = (0..i32::from(rows))
            .flat_map(|y| (0..i32::from(cols)).map(move |x| [x, y, 0]))
            .collect();
        Region::of_cells(lattice, cells)
    }

    /// The region of the given cells (repeats dropped).
    pub fn of_cells(lattice: Lattice, mut cells: Vec<Cell>) -> Region {
        cells.sort_unstable();
        cells.dedup();
        Region { lattice, cells }
    }

    /// Its cells, sorted.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Whether `c` is one of its cells.
    pub fn contains(&self, c: Cell) -> bool {
        self.cells.binary_search(&c).is_ok()
    }

    /// Its cells as a graph (vertex `i` is `cells()[i]`), when there are at
    /// most [`solid::MAX_FACES`] of them.
    pub fn graph(&self) -> Option<FaceGraph> {
        let edges = self.cells.iter().enumerate().flat_map(|(i, &c)| {
            self.lattice
                .neighbours(c)
                .into_iter()
                .filter_map(move |n| self.cells.binary_search(&n).ok().map(|j| (i, j)))
        });
        FaceGraph::from_edges(self.cells.len(), edges)
    }
}

impl Board {
    /// Whether cell `c` is a cell of the board (finite graphs: vertex
    /// numbers `[v, 0, 0]`).
    pub fn contains(&self, c: Cell) -> bool {
        match self {
            Board::Lattice(Lattice::Cubic) => true,
            Board::Lattice(_) => c[2] == 0,
            Board::Tiling(t) => (0..t.faces() as i32).contains(&c[2]),
            Board::Region(region) => region.contains(c),
            // Triangle numbers in ring order (see `flags`).
            Board::Mosaic(_) => {
                c[1] == 0 && c[2] == 0 && u32::try_from(c[0]).is_ok_and(|t| t < flags::MAX_CELL)
            }
            Board::Solid(_) | Board::Graph(_) => {
                // A graph board's size is read off it, not off a copy.
                let faces = match self {
                    Board::Graph(g) => g.faces(),
                    _ => self.face_graph().map_or(0, |g| g.faces()),
                };
                c[1] == 0 && c[2] == 0 && (0..faces as i32).contains(&c[0])
            }
        }
    }

    /// The lattice whose congruences the board uses, if it is a lattice or
    /// a region of one.
    pub fn lattice(&self) -> Option<Lattice> {
        match self {
            Board::Lattice(l) => Some(*l),
            Board::Region(region) => Some(region.lattice),
            Board::Solid(_) | Board::Graph(_) | Board::Tiling(_) | Board::Mosaic(_) => None,
        }
    }

    /// Coordinates per cell: 3 on the cubic lattice and on tilings (x, y
    /// and the face), 2 on the plane lattices and their regions, 1 (a
    /// vertex number) on solids and graph boards, and (a triangle number)
    /// on mosaics.
    pub fn dimension(&self) -> usize {
        if let Board::Tiling(_) = self {
            return 3;
        }
        match self.lattice() {
            Some(Lattice::Cubic) => 3,
            Some(_) => 2,
            None => 1,
        }
    }

    /// The graph of a solid or graph board, whose automorphisms are its
    /// congruences; `None` for lattices and regions.
    pub fn face_graph(&self) -> Option<FaceGraph> {
        match self {
            Board::Solid(solid) => FaceGraph::of(*solid),
            Board::Graph(graph) => Some(FaceGraph::clone(graph)),
            Board::Lattice(_) | Board::Region(_) | Board::Tiling(_) | Board::Mosaic(_) => None,
        }
    }

    /// The automorphism group of a solid or graph board (`None` for
    /// lattices and regions), listed within `budget` once per board.
    pub fn group(&self, budget: &mut Budget) -> Result<Option<Group>, Exhausted> {
        self.face_graph().map(|g| g.group(budget)).transpose()
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
    let kind = match claim.kind {
        Kind::Fixed => FiniteKind::Labelled,
        Kind::Free => FiniteKind::Free,
        Kind::FreeSimplyConnected => FiniteKind::FreeSimplyConnected,
    };
    let outside_limits = Verdict::Undecided {
        rule,
        reason: Undecided::OutsideLimits,
    };
    let counted = match &claim.board {
        Board::Lattice(lattice) => {
            enumerate::count(lattice, claim.size, claim.kind, threads, &mut budget)
        }
        Board::Tiling(tiling) => {
            enumerate::count(&**tiling, claim.size, claim.kind, threads, &mut budget)
        }
        Board::Region(region) => {
            let Some(graph) = region.graph() else {
                return outside_limits;
            };
            region_count(region, &graph, claim.size, claim.kind, &mut budget)
        }
        Board::Solid(_) | Board::Graph(_) => {
            let Some(graph) = claim.board.face_graph() else {
                return outside_limits;
            };
            solid::count(&graph, claim.size, kind, &mut budget)
        }
        Board::Mosaic(m) => match mosaic::count(*m, claim.size, claim.kind, &mut budget) {
            Ok(n) => Ok(n),
            Err(mosaic::Unreached::Budget(e)) => Err(e),
            Err(mosaic::Unreached::Limits) => return outside_limits,
        },
    };
    match counted {
        Ok(actual) if actual == claim.count => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: actual,
            theorem: Theorem::new(Established::AnimalCount(claim.clone())),
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

/// The animals of `size` cells that lie inside a region, counted as on its
/// lattice: up to translation (`Fixed`) or up to the lattice's congruences,
/// without holes in the lattice for Bode's polyominoes. Every connected set
/// of the region's cells is visited once and its lattice canonical form
/// collected, so a shape that fits in several places counts once.
fn region_count(
    region: &Region,
    graph: &FaceGraph,
    size: usize,
    kind: Kind,
    budget: &mut Budget,
) -> Result<u64, crate::kernel::budget::Exhausted> {
    let lattice = region.lattice;
    let mut shapes = std::collections::HashSet::new();
    solid::for_each_connected(graph, size, budget, &mut |set| {
        let cells: Vec<Cell> = solid::members(set).map(|i| region.cells[i]).collect();
        let shape = match kind {
            Kind::Fixed => enumerate::normalised(&lattice, &cells),
            Kind::Free => enumerate::canonical(&lattice, &cells),
            Kind::FreeSimplyConnected if enumerate::has_hole(lattice, &cells) => return,
            Kind::FreeSimplyConnected => enumerate::canonical(&lattice, &cells),
        };
        shapes.insert(shape);
    })?;
    Ok(shapes.len() as u64)
}
