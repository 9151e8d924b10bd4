//! Animals as cell sets on a board: validation, congruence, sub-animals,
//! site perimeter (SPEC 3.1).
//!
//! Key decision: an animal is validated and compared in the kernel, on the
//! same adjacency and congruences the enumeration uses, so that a declared
//! animal and an enumerated one agree on what "the same animal" means.

use super::Board;
use super::enumerate::{Geometry, canonical};
use super::flags::{FLAGS, Flag, Frame, cell, triangle};
use super::lattice::Cell;
use super::mosaic::{self, Mosaic};
use super::solid::{FaceGraph, Group, image};
use crate::kernel::budget::{Budget, Exhausted};

/// Why a cell set is not an animal of its board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// No cells.
    Empty,
    /// The cell at this index is not a cell of the board.
    OffBoard(usize),
    /// The cell at this index appears twice.
    Repeated(usize),
    /// The cells do not form one edge-connected piece; the index is a cell
    /// not connected to the first.
    Disconnected(usize),
}

/// The cells adjacent to `c` on `board` (`graph`: the board's face graph,
/// for solids and graph boards; `frame`: a disc holding `c` and its
/// neighbours, for mosaics).
fn neighbours(
    board: &Board,
    graph: Option<&FaceGraph>,
    frame: Option<&Frame>,
    c: Cell,
) -> Vec<Cell> {
    if let (Board::Mosaic(_), Some(frame)) = (board, frame) {
        return triangle(c)
            .and_then(|t| frame.neighbours(t))
            .map_or_else(Vec::new, |n| n.map(cell).to_vec());
    }
    match (board, graph) {
        (Board::Lattice(lattice), _) => lattice.neighbours(c),
        (Board::Tiling(tiling), _) => {
            let mut out = Vec::new();
            tiling.for_each_neighbour(c, |n| out.push(n));
            out
        }
        (Board::Region(region), _) => region
            .lattice
            .neighbours(c)
            .into_iter()
            .filter(|&n| region.contains(n))
            .collect(),
        (Board::Solid(_) | Board::Graph(_), Some(g)) => {
            let f = c[0] as usize;
            (0..g.faces())
                .filter(|&h| g.adjacent[f] & (1u128 << h) != 0)
                .map(|h| [h as i32, 0, 0])
                .collect()
        }
        (Board::Solid(_) | Board::Graph(_), None) | (Board::Mosaic(_), _) => Vec::new(),
    }
}

/// A finite board's face graph and its automorphisms (`None` for lattices
/// and regions), the group listed within `budget` once per board.
fn finite_group(
    board: &Board,
    budget: &mut Budget,
) -> Result<Option<(FaceGraph, Group)>, Exhausted> {
    let Some(g) = board.face_graph() else {
        return Ok(None);
    };
    let group = g.group(budget)?;
    Ok(Some((g, group)))
}

/// The faces of a solid's animal as a bit set (cells are `[face, 0, 0]`).
fn face_set(cells: &[Cell]) -> u128 {
    cells.iter().fold(0u128, |m, c| m | 1u128 << c[0])
}

/// The triangle numbers of cells of a mosaic (`None` if one is not a
/// mosaic cell).
fn triangles(cells: &[Cell]) -> Option<Vec<u32>> {
    cells.iter().map(|&c| triangle(c)).collect()
}

/// The entries of the memory charge a disc for a shape may hold: discs are
/// bounded by the mosaic's own cap, this only keeps the charge finite.
const SHAPE_DISC_ENTRIES: usize = 1 << 22;

/// The work (disc building) a shape check on a mosaic may do: a bound on
/// steps, not on time, so that a verdict does not depend on the machine.
const SHAPE_DISC_STEPS: u64 = 50_000_000;

/// A disc holding `cells` and every triangle within `extra` rings beyond
/// the largest one's ring, if the kernel builds one that large.
fn frame_around(board: &Board, cells: &[Cell], extra: usize) -> Option<Frame> {
    let Board::Mosaic(m) = board else {
        return None;
    };
    let mut budget = Budget::new(None, None, SHAPE_DISC_ENTRIES).with_step_limit(SHAPE_DISC_STEPS);
    Frame::reaching(
        *m,
        triangles(cells)?,
        |r| r.saturating_add(extra),
        &mut budget,
    )
    .ok()
    .flatten()
}

/// Checks that `cells` is an animal of `board`.
pub fn validate(board: &Board, cells: &[Cell]) -> Result<(), ShapeError> {
    if cells.is_empty() {
        return Err(ShapeError::Empty);
    }
    let graph = board.face_graph();
    // On a mosaic, a disc one ring beyond the cells holds their neighbours;
    // a cell beyond the discs the kernel builds is not one of its cells.
    let frame = frame_around(board, cells, 1);
    if let (Board::Mosaic(_), None) = (board, &frame) {
        let largest = (0..cells.len()).max_by_key(|&i| cells[i][0]).unwrap_or(0);
        return Err(ShapeError::OffBoard(largest));
    }
    for (i, c) in cells.iter().enumerate() {
        let on_board = board.contains(*c);
        if !on_board {
            return Err(ShapeError::OffBoard(i));
        }
        if cells[..i].contains(c) {
            return Err(ShapeError::Repeated(i));
        }
    }
    let mut reached = vec![cells[0]];
    let mut frontier = vec![cells[0]];
    while let Some(c) = frontier.pop() {
        for n in neighbours(board, graph.as_ref(), frame.as_ref(), c) {
            if cells.contains(&n) && !reached.contains(&n) {
                reached.push(n);
                frontier.push(n);
            }
        }
    }
    match cells.iter().position(|c| !reached.contains(c)) {
        Some(i) => Err(ShapeError::Disconnected(i)),
        None => Ok(()),
    }
}

/// The canonical form of an animal under its board's congruences: two
/// animals are congruent exactly when their canonical forms are equal.
pub fn canonical_form(
    board: &Board,
    cells: &[Cell],
    budget: &mut Budget,
) -> Result<Vec<Cell>, Exhausted> {
    if let Some(lattice) = board.lattice() {
        return Ok(canonical(&lattice, cells));
    }
    if let Board::Tiling(tiling) = board {
        return Ok(canonical(&**tiling, cells));
    }
    if let Board::Mosaic(m) = board {
        return mosaic_code(*m, cells, budget);
    }
    let Some((g, group)) = finite_group(board, budget)? else {
        return Ok(Vec::new());
    };
    let set = face_set(cells);
    let least = group.iter().map(|p| image(p, set)).min().unwrap_or(set);
    Ok((0..g.faces() as i32)
        .filter(|&f| least >> f & 1 == 1)
        .map(|f| [f, 0, 0])
        .collect())
}

/// A mosaic animal's canonical form: its least code (see
/// [`mosaic::least_code`]), one entry per cell `[entry, 0, 0]`. It is
/// compared, never placed; an animal too large for codes, or beyond the
/// kernel's discs, has the empty form, which no animal has.
fn mosaic_code(m: Mosaic, cells: &[Cell], budget: &mut Budget) -> Result<Vec<Cell>, Exhausted> {
    let board = Board::Mosaic(m);
    let (Some(frame), Some(list)) = (frame_around(&board, cells, 1), triangles(cells)) else {
        return Ok(Vec::new());
    };
    if list.len() > mosaic::MAX_SIZE {
        return Ok(Vec::new());
    }
    let code = mosaic::least_code(frame.disc(), &list, budget)?;
    Ok(code.into_iter().map(|e| [i32::from(e), 0, 0]).collect())
}

/// The site perimeter: the cells outside the animal adjacent to it.
pub fn site_perimeter(board: &Board, cells: &[Cell]) -> usize {
    let graph = board.face_graph();
    let frame = frame_around(board, cells, 1);
    let mut outside: Vec<Cell> = Vec::new();
    for &c in cells {
        for n in neighbours(board, graph.as_ref(), frame.as_ref(), c) {
            if !cells.contains(&n) && !outside.contains(&n) {
                outside.push(n);
            }
        }
    }
    outside.len()
}

/// Whether `a` is congruent to a subset of `b` (both animals of `board`),
/// `false` when the kernel cannot tell (see [`sub_animal`]): a rule that
/// reads `true` only may use this.
pub fn is_sub_animal(
    board: &Board,
    a: &[Cell],
    b: &[Cell],
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    Ok(sub_animal(board, a, b, budget)?.unwrap_or(false))
}

/// Whether `a` is congruent to a subset of `b` (both animals of `board`),
/// or `None` when the kernel cannot tell: on a lattice or tiling some
/// image of `a` under the point group, translated, lies inside `b`; on a
/// mosaic see [`mosaic_embeds`] (`None` beyond the kernel's discs); on a
/// finite graph some automorphism maps `a` into `b` (`None` without the
/// board's face graph).
pub fn sub_animal(
    board: &Board,
    a: &[Cell],
    b: &[Cell],
    budget: &mut Budget,
) -> Result<Option<bool>, Exhausted> {
    if let Some(lattice) = board.lattice() {
        return Ok(Some(embeds(&lattice, a, b)));
    }
    if let Board::Tiling(tiling) = board {
        return Ok(Some(embeds(&**tiling, a, b)));
    }
    if let Board::Mosaic(m) = board {
        return mosaic_embeds(*m, a, b, budget);
    }
    let Some((_, group)) = finite_group(board, budget)? else {
        return Ok(None);
    };
    let (aset, bset) = (face_set(a), face_set(b));
    Ok(Some(group.iter().any(|p| image(p, aset) & !bset == 0)))
}

/// Whether some congruence of the mosaic takes animal `a` into `b`: `a`
/// drawn again from the root's flag (by its least code), then taken by
/// the congruence of every flag of `b`'s cells; every congruence taking
/// the copy into `b` takes the root's flag to one of those flags, since
/// the copy holds the root. `None` when the discs
/// needed are beyond the kernel's (or a cell is not a mosaic's).
fn mosaic_embeds(
    m: Mosaic,
    a: &[Cell],
    b: &[Cell],
    budget: &mut Budget,
) -> Result<Option<bool>, Exhausted> {
    let board = Board::Mosaic(m);
    let (Some(a_list), Some(b_list)) = (triangles(a), triangles(b)) else {
        return Ok(None);
    };
    if a_list.is_empty() {
        return Ok(Some(true));
    }
    if a_list.len() > mosaic::MAX_SIZE {
        return Ok(None);
    }
    // The copy lies within |a| - 1 rings of the root (each of its cells is
    // a side away from an earlier one), and so do the parent chains of its
    // cells; their images under the congruence of a flag in ring r lie
    // within r + |a| rings (docs/soundness.md, "Games on mosaics"). The
    // disc holds a's cells too, for its code.
    let both: Vec<Cell> = a.iter().chain(b).copied().collect();
    let Some(frame) = frame_around(&board, &both, a.len()) else {
        return Ok(None);
    };
    let code = mosaic::least_code(frame.disc(), &a_list, budget)?;
    let Some(copy) = mosaic::draw_cells(frame.disc(), &code) else {
        return Ok(None);
    };
    for &t in &b_list {
        for index in 0..FLAGS {
            budget.tick()?;
            let to = Flag { triangle: t, index };
            let inside = copy
                .iter()
                .all(|&c| frame.image(to, c).is_some_and(|u| b_list.contains(&u)));
            if inside {
                return Ok(Some(true));
            }
        }
    }
    Ok(Some(false))
}

/// Whether some image of `a` under the symmetries, translated, lies in `b`.
fn embeds(geometry: &impl Geometry, a: &[Cell], b: &[Cell]) -> bool {
    let Some(&first) = a.first() else {
        return true;
    };
    (0..geometry.group_order()).any(|g| {
        let image: Vec<Cell> = a.iter().map(|&c| geometry.transform(g, c)).collect();
        let anchor = geometry.transform(g, first);
        b.iter().any(|&target| {
            geometry.origin_of(anchor) == geometry.origin_of(target)
                && image
                    .iter()
                    .all(|&c| b.contains(&geometry.translate(c, anchor, target)))
        })
    })
}

/// The images of an animal under the symmetries, each normalised by
/// translation.
fn orientations(geometry: &impl Geometry, cells: &[Cell]) -> Vec<Vec<Cell>> {
    (0..geometry.group_order())
        .map(|g| {
            let image: Vec<Cell> = cells.iter().map(|&c| geometry.transform(g, c)).collect();
            super::enumerate::normalised(geometry, &image)
        })
        .collect()
}

/// The placements of an animal: on a lattice or tiling, its distinct images under the
/// point group, each normalised by translation (the placements modulo
/// translations); on a solid, its distinct images under the automorphisms
/// (every placement on the board). Each placement is a sorted cell list.
pub fn placements(
    board: &Board,
    cells: &[Cell],
    budget: &mut Budget,
) -> Result<Vec<Vec<Cell>>, Exhausted> {
    let mut out: Vec<Vec<Cell>> = match board {
        Board::Lattice(lattice) => orientations(lattice, cells),
        Board::Tiling(tiling) => orientations(&**tiling, cells),
        Board::Mosaic(_) => Vec::new(),
        Board::Region(region) => {
            // Every orientation, moved onto every cell of the region that
            // its least cell can be translated to; kept when inside.
            let lattice = region.lattice;
            let mut all = Vec::new();
            for g in 0..lattice.point_group_order() {
                let image: Vec<Cell> = cells.iter().map(|&c| lattice.transform(g, c)).collect();
                let shape = super::enumerate::normalised(&lattice, &image);
                let Some(&anchor) = shape.first() else {
                    continue;
                };
                for &target in region.cells() {
                    if !lattice.same_orientation(anchor, target) {
                        continue;
                    }
                    let placed: Vec<Cell> = shape
                        .iter()
                        .map(|&c| lattice.translate(c, anchor, target))
                        .collect();
                    if placed.iter().all(|&c| region.contains(c)) {
                        let mut placed = placed;
                        placed.sort_unstable();
                        all.push(placed);
                    }
                }
            }
            all
        }
        Board::Solid(_) | Board::Graph(_) => {
            let Some((_, group)) = finite_group(board, budget)? else {
                return Ok(Vec::new());
            };
            group
                .iter()
                .map(|p| {
                    let mut image: Vec<Cell> = cells
                        .iter()
                        .map(|c| [i32::from(p[c[0] as usize]), 0, 0])
                        .collect();
                    image.sort_unstable();
                    image
                })
                .collect()
        }
    };
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
