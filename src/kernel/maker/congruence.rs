//! Congruences of a board, as certificates write them: a point-group
//! element and a translation on a lattice, a region or a tiling, a
//! permutation of the cells on a solid or graph board, the image of the
//! root's flag on a hyperbolic mosaic.

use crate::kernel::animals::Board;
use crate::kernel::animals::flags::{FLAGS, Flag, Frame, triangle};
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::solid::FaceGraph;
use crate::kernel::animals::tiling::Tiling;

/// A congruence of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Congruence {
    /// `c -> transform(element, c) + shift` on a lattice (or a region of
    /// one), or on a tiling (`element` one of its symmetries, `shift` a
    /// move by whole unit cells, z = 0).
    Lattice { element: usize, shift: Cell },
    /// `f -> image[f]` on a finite graph board.
    Permutation(Vec<u16>),
    /// On a mosaic, the isometry taking the root's flag to this one.
    Flag(Flag),
}

impl Congruence {
    /// The identity of `board`'s kind.
    pub fn identity(board: &Board) -> Congruence {
        if let Board::Mosaic(_) = board {
            return Congruence::Flag(Flag::ROOT);
        }
        match board.face_graph() {
            Some(g) => Congruence::Permutation((0..g.faces() as u16).collect()),
            None => Congruence::Lattice {
                element: 0,
                shift: [0, 0, 0],
            },
        }
    }
}

impl Congruence {
    /// The image of a cell, the congruence read in `space`, or `None` when
    /// the congruence does not act there (a translation on a graph board, a
    /// permutation on a lattice, a cell that is not a vertex or not a face
    /// of the tiling). Applies the congruence as written; [`Map::of`]
    /// checks that it is one of the board.
    #[inline]
    pub fn image_in(&self, space: Space<'_>, c: Cell) -> Option<Cell> {
        match (self, space) {
            (Congruence::Lattice { element, shift }, Space::Tiling(tiling)) => {
                if *element >= tiling.group_order() || c[2] < 0 || c[2] as usize >= tiling.faces() {
                    return None;
                }
                let t = tiling.transform(*element, c);
                Some([
                    t[0].checked_add(shift[0])?,
                    t[1].checked_add(shift[1])?,
                    t[2],
                ])
            }
            (Congruence::Lattice { element, shift }, Space::Lattice(lattice)) => {
                let t = lattice.transform(*element, c);
                Some([
                    t[0].checked_add(shift[0])?,
                    t[1].checked_add(shift[1])?,
                    t[2].checked_add(shift[2])?,
                ])
            }
            (Congruence::Permutation(image), Space::Graph) => {
                let f = usize::try_from(c[0]).ok()?;
                (c[1] == 0 && c[2] == 0)
                    .then(|| image.get(f).map(|&v| [i32::from(v), 0, 0]))
                    .flatten()
            }
            (Congruence::Flag(to), Space::Mosaic(frame)) => {
                let image = frame.image(*to, triangle(c)?)?;
                Some([i32::try_from(image).ok()?, 0, 0])
            }
            _ => None,
        }
    }
}

/// Where congruences act: a lattice (or a region of one), a tiling, a
/// finite graph board, or a disc of a mosaic.
#[derive(Clone, Copy, Debug)]
pub enum Space<'a> {
    /// A lattice's cells.
    Lattice(Lattice),
    /// A tiling's cells `[x, y, f]`.
    Tiling(&'a Tiling),
    /// A finite board's faces `[f, 0, 0]`.
    Graph,
    /// A mosaic's triangles `[t, 0, 0]` within a disc.
    Mosaic(&'a Frame),
    /// A mosaic without a disc: no congruence acts.
    Unmapped,
}

impl<'a> Space<'a> {
    /// The space of `board`'s cells (a mosaic's is [`Space::Unmapped`]:
    /// its congruences act within a disc, [`Space::Mosaic`]).
    pub fn of(board: &'a Board) -> Space<'a> {
        match (board, board.lattice()) {
            (Board::Tiling(t), _) => Space::Tiling(t),
            (Board::Mosaic(_), _) => Space::Unmapped,
            (_, Some(l)) => Space::Lattice(l),
            (_, None) => Space::Graph,
        }
    }
}

/// A congruence checked against its board, ready to map cells.
pub struct Map<'a> {
    congruence: &'a Congruence,
    space: Space<'a>,
}

impl<'a> Map<'a> {
    /// The congruence as a map of the cells of `space` (a board's, see
    /// [`Space::of`]), or `None` when it is not one: an element outside the
    /// point group, a translation that turns triangles over or leaves the
    /// plane, a permutation that is not an automorphism of the board's
    /// graph, a flag that is not one of the disc's. (`graph` is the board's
    /// face graph, passed in so that it is built once per claim.)
    pub fn of(
        congruence: &'a Congruence,
        space: Space<'a>,
        graph: Option<&FaceGraph>,
    ) -> Option<Map<'a>> {
        let valid = match (congruence, space, graph) {
            (&Congruence::Lattice { element, shift }, Space::Lattice(lattice), _) => {
                let flat = lattice == Lattice::Cubic || shift[2] == 0;
                let keeps_orientation = lattice.same_orientation([0, 0, 0], shift);
                element < lattice.point_group_order() && flat && keeps_orientation
            }
            // A tiling's symmetries (mod translations) with a move by whole
            // unit cells.
            (&Congruence::Lattice { element, shift }, Space::Tiling(tiling), _) => {
                element < tiling.group_order() && shift[2] == 0
            }
            (Congruence::Permutation(image), Space::Graph, Some(g)) => is_automorphism(g, image),
            // Every flag names an isometry of the mosaic (rule A5).
            (Congruence::Flag(to), Space::Mosaic(frame), _) => {
                to.index < FLAGS && frame.holds(to.triangle)
            }
            _ => false,
        };
        valid.then_some(Map { congruence, space })
    }

    /// The image of a cell (on a graph board, `None` for a cell that is not
    /// a vertex).
    #[inline]
    pub fn apply(&self, c: Cell) -> Option<Cell> {
        self.congruence.image_in(self.space, c)
    }
}

/// Whether `image` is a bijection of the graph's vertices that keeps
/// adjacency (both ways: a bijection that maps edges to edges maps the
/// equally many edges onto all edges).
fn is_automorphism(g: &FaceGraph, image: &[u16]) -> bool {
    let n = g.faces();
    if image.len() != n {
        return false;
    }
    let mut seen = 0u128;
    for &v in image {
        if usize::from(v) >= n || seen >> v & 1 == 1 {
            return false;
        }
        seen |= 1u128 << v;
    }
    (0..n).all(|a| {
        let mapped = (0..n)
            .filter(|&b| g.adjacent[a] >> b & 1 == 1)
            .fold(0u128, |m, b| m | 1u128 << image[b]);
        mapped == g.adjacent[usize::from(image[a])]
    })
}
