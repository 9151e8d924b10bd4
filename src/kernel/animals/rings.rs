//! The rings around a vertex of a hyperbolic (3,q) mosaic, q >= 7, for the
//! ring pairing (rule B8 of docs/soundness.md): whether an animal can lie
//! inside one ring; and, for the fan pairing of even q (rule B9), whether
//! it can lie inside the fan of one vertex.
//!
//! Key decisions. Ring 1 around a vertex v is its fan of q triangles;
//! ring k + 1 is what one step of the disc construction of rule A5 adds
//! around the disc of rings 1..k. Every triangle then shares exactly one
//! side with a triangle of another ring, and the triangles of one ring
//! form a cycle through their other sides. So an animal inside a ring is
//! a path of triangles along it (or the whole first ring), and a path is
//! known up to congruence by its turns: at each inner cell, whether the
//! side it leaves by follows the side it came in by around the pivot
//! vertex on the ring's inner border (`Inner`) or on its outer border
//! (`Outer`). The turns of ring k + 1 depend only on how many triangles
//! of rings 1..k each border vertex has (2 or 3), and those of the next
//! border likewise, so the words of turns of all rings, infinitely many,
//! are covered by a finite closure of windows (see [`ring_turns`]). The
//! animal itself is read from its least code (rule A5), which lists its
//! cells' sides in one sense for the whole animal.

// Arithmetic here is on code entries (below MAX_SIZE), window lengths
// (below MAX_SIZE) and q (at most 64); nothing can overflow.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::HashSet;

use super::mosaic::MAX_SIZE;
use crate::kernel::budget::{Budget, Exhausted};

/// The fewest triangles at a vertex for which the rings are argued.
pub const MIN_RING_Q: u8 = 7;

/// How a path of triangles turns at one of its inner cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Turn {
    /// Around the pivot vertex on the ring's inner border.
    Inner,
    /// Around the pivot vertex on the ring's outer border.
    Outer,
}

impl Turn {
    fn swapped(self) -> Turn {
        match self {
            Turn::Inner => Turn::Outer,
            Turn::Outer => Turn::Inner,
        }
    }
}

/// How an animal's cells are joined, which is all a pairing of sides
/// between triangles can tell apart.
enum Shape {
    /// Some cell has three neighbours in the animal.
    Branched,
    /// Every cell has two: a cycle of this many cells.
    Cycle(usize),
    /// A path of triangles, with its turns at the inner cells read from
    /// one end (none for one or two cells).
    Path(Vec<Turn>),
}

/// The shape of the animal with least code `code` (three entries per
/// cell, as `mosaic::least_code` writes them), if the code reads as one.
fn shape(code: &[u8]) -> Option<Shape> {
    let links = links(code)?;
    let n = links.len();
    let degree = |cell: &[Option<usize>; 3]| cell.iter().flatten().count();
    if links.iter().any(|cell| degree(cell) > 2) {
        return Some(Shape::Branched);
    }
    let sides: usize = links.iter().map(degree).sum();
    // Connected (a code is one walk), no cell with three neighbours: a
    // path, or a cycle when there are as many shared sides as cells.
    if sides / 2 != n.saturating_sub(1) {
        return Some(Shape::Cycle(n));
    }
    if n <= 2 {
        return Some(Shape::Path(Vec::new()));
    }
    path_turns(&links).map(Shape::Path)
}

/// Whether the animal with least code `code` may lie inside one ring
/// around some vertex of the (3,q) mosaic, q >= 7. `false` means no
/// placement of it does: every placement has two cells sharing a side that
/// joins two rings. Anything this function cannot read counts as "may".
pub fn may_lie_in_a_ring(q: u8, code: &[u8], budget: &mut Budget) -> Result<bool, Exhausted> {
    let q_cells = usize::from(q);
    match shape(code) {
        None => Ok(true),
        // A triangle has one side towards another ring, so at most two of
        // its neighbours share its ring.
        Some(Shape::Branched) => Ok(false),
        // Inside a ring a cycle is the whole ring. Rings after the first
        // have q(q - 3) or more triangles, beyond MAX_SIZE.
        Some(Shape::Cycle(n)) => Ok(n == q_cells || n >= q_cells * (q_cells - 3)),
        Some(Shape::Path(word)) if word.is_empty() => Ok(true),
        Some(Shape::Path(word)) => {
            let candidates = ring_turns(q, word.len(), budget)?;
            let swapped: Vec<Turn> = word.iter().map(|t| t.swapped()).collect();
            let reversed = |w: &[Turn]| -> Vec<Turn> { w.iter().rev().copied().collect() };
            // Read from the other end, or in the other sense (a mirror
            // image), every turn changes sides.
            let readings = [reversed(&word), reversed(&swapped), word, swapped];
            Ok(readings.iter().any(|w| candidates.contains(w)))
        }
    }
}

/// Whether the animal with least code `code` may lie inside the fan of
/// the q triangles around one vertex. `false` means it is neither a path
/// turning always the same way (around the fan's centre) nor the whole
/// fan of q cells. Anything this function cannot read counts as "may".
pub fn may_lie_in_a_fan(q: u8, code: &[u8]) -> bool {
    match shape(code) {
        None => true,
        Some(Shape::Branched) => false,
        Some(Shape::Cycle(n)) => n == usize::from(q),
        Some(Shape::Path(word)) => word.windows(2).all(|pair| pair[0] == pair[1]),
    }
}

/// The cells' neighbours within the animal, per side in the code's sense
/// starting from the side each cell was entered by (`None` if the code is
/// not one of at most MAX_SIZE cells whose links agree both ways).
fn links(code: &[u8]) -> Option<Vec<[Option<usize>; 3]>> {
    if code.is_empty() || !code.len().is_multiple_of(3) || code.len() / 3 > MAX_SIZE {
        return None;
    }
    let n = code.len() / 3;
    let mut links = Vec::with_capacity(n);
    for entries in code.chunks(3) {
        let mut cell = [None; 3];
        for (side, &e) in entries.iter().enumerate() {
            if e != 0 {
                let other = usize::from(e) - 1;
                if other >= n {
                    return None;
                }
                cell[side] = Some(other);
            }
        }
        links.push(cell);
    }
    let agree = (0..n).all(|c| {
        links[c]
            .iter()
            .flatten()
            .all(|&o| o != c && links[o].contains(&Some(c)))
    });
    agree.then_some(links)
}

/// The turns at the inner cells of a path of triangles (every cell with
/// at most two neighbours, one fewer shared side than cells), read from
/// one end.
fn path_turns(links: &[[Option<usize>; 3]]) -> Option<Vec<Turn>> {
    let n = links.len();
    let end = (0..n).find(|&c| links[c].iter().flatten().count() == 1)?;
    let mut order = vec![end];
    let mut previous = None;
    let mut current = end;
    while order.len() < n {
        let next = links[current]
            .iter()
            .flatten()
            .copied()
            .find(|&o| Some(o) != previous)?;
        previous = Some(current);
        current = next;
        order.push(current);
    }
    let side_to = |cell: usize, other: usize| links[cell].iter().position(|&o| o == Some(other));
    order
        .windows(3)
        .map(|w| {
            let (from, at, to) = (w[0], w[1], w[2]);
            let (entry, exit) = (side_to(at, from)?, side_to(at, to)?);
            // Two sides of a triangle that follow each other in the
            // code's sense share the vertex after the first.
            Some(if (exit + 3 - entry) % 3 == 1 {
                Turn::Inner
            } else {
                Turn::Outer
            })
        })
        .collect()
}

/// Every word of `length` consecutive turns of a path along some ring
/// around a vertex of the (3,q) mosaic, q >= 7, walked with the inner
/// border on the left (a superset: windows of border words that never
/// occur may add words, which can only lose a verdict).
///
/// Ring 1 turns always around the centre: `Inner` q times (cyclically).
/// For a border vertex u of the disc of rings 1..k with c_u of its
/// triangles (2 or 3), ring k + 1 has the triangle across the border side
/// ending at u (turning `Outer`, at its fresh vertex) and then the
/// q - c_u - 2 triangles of u's fan (turning `Inner`, at u); the next border has,
/// for u, that fresh vertex (3 triangles) and q - c_u - 3 fan vertices (2
/// triangles). The first border is q vertices of 2. Windows of M letters
/// of the border words are closed under that substitution: every image is
/// at least 2 letters long, so a window of M >= 2 letters of a border lies
/// in the image of at most M consecutive letters of the border before.
/// Likewise every image in turns is at least 3 letters long, so a window
/// of `length` >= 2 turns lies in the image of at most `length` letters.
fn ring_turns(q: u8, length: usize, budget: &mut Budget) -> Result<HashSet<Vec<Turn>>, Exhausted> {
    if length == 0 {
        return Ok(HashSet::from([Vec::new()]));
    }
    let q = usize::from(q.max(MIN_RING_Q));
    let m = length.max(2);
    let border_image = |c: u8| -> Vec<u8> {
        let mut image = vec![3];
        image.resize(q - usize::from(c) - 2, 2);
        image
    };
    let turns_image = |c: u8| -> Vec<Turn> {
        let mut image = vec![Turn::Outer];
        image.resize(q - usize::from(c) - 1, Turn::Inner);
        image
    };
    let first = vec![2u8; m];
    let mut windows: HashSet<Vec<u8>> = HashSet::from([first.clone()]);
    let mut pending = vec![first];
    while let Some(window) = pending.pop() {
        budget.tick()?;
        let image: Vec<u8> = window.iter().flat_map(|&c| border_image(c)).collect();
        for next in image.windows(m) {
            if !windows.contains(next) {
                budget.charge(1)?;
                windows.insert(next.to_vec());
                pending.push(next.to_vec());
            }
        }
    }
    let mut words: HashSet<Vec<Turn>> = HashSet::from([vec![Turn::Inner; length]]);
    for window in &windows {
        budget.tick()?;
        let image: Vec<Turn> = window.iter().flat_map(|&c| turns_image(c)).collect();
        words.extend(image.windows(length).map(<[Turn]>::to_vec));
    }
    Ok(words)
}
