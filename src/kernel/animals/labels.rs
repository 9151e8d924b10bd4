//! Pairings of a (3,q) mosaic by labelled edge ends (rule B10 of
//! docs/soundness.md; Bode, Sec. 8, Tables 47-51).
//!
//! Key decisions. Around every vertex the edge ends carry the labels
//! 1..q in counterclockwise order, and an edge whose end at one vertex
//! has label x has label f(x) at the other. The certificate gives f and
//! the pair labels; an edge with a pair label at either end pairs its two
//! triangles. The kernel checks f (an involution under which every
//! triangle closes up), that no triangle has two pair edges, and then
//! that every placement of the goal holds a pair. The labels make every
//! vertex look alike: a labelling is fixed by the labels at one vertex, so
//! the symmetry taking one vertex's labelled edges to another's keeps all
//! labels. Placements up to those symmetries are the goal's least code
//! drawn from the flags of the q triangles at one fixed vertex: 6q of
//! them. Labels are internally 0..q - 1.

// Arithmetic here is on labels (below q <= 64), code entries and
// triangle numbers within a disc; nothing can overflow.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::HashMap;

use super::flags::{FLAGS, Flag};
use super::mosaic::{self, Disc, Mosaic};
use crate::kernel::budget::{Budget, Exhausted};

/// Labels of edge ends, keyed by (vertex, the edge's other end).
type Ends = HashMap<(u32, u32), usize>;

/// Why labels are not a labelling the rule can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Not q labels in 1..q, f not an involution, a triangle that does not
    /// close up, or a pair label out of range.
    Inconsistent,
    /// A triangle with two edges that pair.
    TwoPairs,
}

/// A checked labelling: f and the pair labels.
#[derive(Clone, Debug)]
pub struct Labelling {
    /// f(x), the label at an edge's other end.
    other_end: Vec<usize>,
    /// Whether an end with this label makes its edge a pair.
    pairs: Vec<bool>,
}

impl Labelling {
    /// Checks `labels` (f(1) .. f(q)) and `pairs` (labels 1..q) for q.
    pub fn new(q: u8, labels: &[u64], pairs: &[u64]) -> Result<Labelling, Flaw> {
        let q = usize::from(q);
        let in_range = |l: u64| {
            usize::try_from(l)
                .ok()
                .filter(|l| (1..=q).contains(l))
                .map(|l| l - 1)
        };
        let other_end: Option<Vec<usize>> = labels.iter().map(|&l| in_range(l)).collect();
        let other_end = other_end
            .filter(|f| f.len() == q)
            .ok_or(Flaw::Inconsistent)?;
        let mut pair_labels = vec![false; q];
        for &p in pairs {
            pair_labels[in_range(p).ok_or(Flaw::Inconsistent)?] = true;
        }
        let labelling = Labelling {
            other_end,
            pairs: pair_labels,
        };
        let f = |x: usize| labelling.other_end[x];
        let next = |x: usize| (x + 1) % q;
        for x in 0..q {
            // Both ends agree, and walking around the triangle between the
            // edges x and x + 1 at a vertex comes back to edge x.
            if f(f(x)) != x || f(next(f(next(f(next(x)))))) != x {
                return Err(Flaw::Inconsistent);
            }
            // That triangle's edges, by their labels at one end each.
            let edges = [x, next(x), next(f(next(x)))];
            if edges.iter().filter(|&&e| labelling.pairs(e)).count() > 1 {
                return Err(Flaw::TwoPairs);
            }
        }
        Ok(labelling)
    }

    /// Whether the edge with label `x` at one end pairs its triangles.
    fn pairs(&self, x: usize) -> bool {
        self.pairs[x] || self.pairs[self.other_end[x]]
    }
}

/// Whether every placement of the animal with least code `code` holds
/// both triangles of a pair edge (`None` when the disc it needs is beyond
/// the kernel's limits).
pub fn every_placement_holds_a_pair(
    mosaic: Mosaic,
    labelling: &Labelling,
    code: &[u8],
    budget: &mut Budget,
) -> Result<Option<bool>, Exhausted> {
    let n = code.len() / 3;
    // The placements drawn from a flag of the first ring stay within n - 1
    // sides of it, so inside ring n, and so do the neighbours the drawing
    // looks up (A5: a step across a side moves at most one ring).
    let (Some(first_ring), Some(disc)) = (
        Disc::around_root(mosaic, 1, budget)?,
        Disc::around_root(mosaic, n.max(1), budget)?,
    ) else {
        return Ok(None);
    };
    // The fixed vertex: corner 0 of the root, whose q triangles the first
    // ring completes.
    let centre = first_ring.corners(0)[0];
    let fan: Vec<u32> = (0..first_ring.triangles() as u32)
        .filter(|&t| first_ring.corners(t).contains(&centre))
        .collect();
    let Some(labels) = label_ends(&disc, labelling, budget)? else {
        return Ok(None);
    };
    for &t in &fan {
        for index in 0..FLAGS {
            budget.tick()?;
            let flag = Flag { triangle: t, index };
            let Some(image) = mosaic::draw_cells_from(&disc, code, flag) else {
                return Ok(None);
            };
            match holds_a_pair(&disc, &image, &labels, labelling) {
                Some(true) => {}
                Some(false) => return Ok(Some(false)),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(true))
}

/// Whether two cells of `cells` share an edge that pairs (`None` if a
/// shared edge has no label).
fn holds_a_pair(disc: &Disc, cells: &[u32], labels: &Ends, labelling: &Labelling) -> Option<bool> {
    for &t in cells {
        for side in 0..3 {
            let Some(u) = disc.neighbour(t, side) else {
                continue;
            };
            if !cells.contains(&u) {
                continue;
            }
            let [a, b] = shared_corners(disc, t, u)?;
            if labelling.pairs(*labels.get(&(a, b))?) {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// The two corners triangles `t` and `u` share, in `t`'s order.
fn shared_corners(disc: &Disc, t: u32, u: u32) -> Option<[u32; 2]> {
    let theirs = disc.corners(u);
    let mine = disc.corners(t);
    let shared: Vec<u32> = mine.into_iter().filter(|v| theirs.contains(v)).collect();
    <[u32; 2]>::try_from(shared).ok()
}

/// The labels of the edge ends of the disc, keyed by (vertex, other
/// end): label 0 on the
/// root's side from corner 0 to corner 1, the rest by f and by one more
/// counterclockwise at every corner, triangle by triangle across shared
/// sides. `None` if two paths disagree (which f's checks rule out).
fn label_ends(
    disc: &Disc,
    labelling: &Labelling,
    budget: &mut Budget,
) -> Result<Option<Ends>, Exhausted> {
    let q = labelling.other_end.len();
    let f = |x: usize| labelling.other_end[x];
    let mut labels = Ends::new();
    let root = disc.corners(0);
    labels.insert((root[0], root[1]), 0);
    let mut done = vec![false; disc.triangles()];
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(t) = queue.pop_front() {
        if done[t as usize] {
            continue;
        }
        budget.charge(6)?;
        let c = disc.corners(t);
        // A side of t labelled already, counterclockwise in t.
        let Some(i) = (0..3).find(|&i| labels.contains_key(&(c[i], c[(i + 1) % 3]))) else {
            continue;
        };
        let (a, b, cc) = (c[i], c[(i + 1) % 3], c[(i + 2) % 3]);
        let x = labels[&(a, b)];
        let b_c = (f(x) + q - 1) % q;
        let c_a = (f(b_c) + q - 1) % q;
        let ends = [
            ((a, b), x),
            ((b, a), f(x)),
            ((a, cc), (x + 1) % q),
            ((b, cc), b_c),
            ((cc, b), f(b_c)),
            ((cc, a), c_a),
        ];
        for (end, label) in ends {
            if *labels.entry(end).or_insert(label) != label {
                return Ok(None);
            }
        }
        if f(c_a) != (x + 1) % q {
            return Ok(None);
        }
        done[t as usize] = true;
        for side in 0..3 {
            if let Some(u) = disc.neighbour(t, side)
                && !done[u as usize]
            {
                queue.push_back(u);
            }
        }
    }
    Ok(Some(labels))
}
