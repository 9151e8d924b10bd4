//! Periodic b-paving search on plane boards (untrusted; the kernel
//! re-checks every paving written).
//!
//! A period is a sublattice of translations; a pairing with that period is
//! a set of pair types (a class of cells modulo the period and an offset to
//! the partner). It blocks a polyomino when every placement of it, modulo
//! the period, holds both cells of some pair. The search turns each
//! placement into the list of pair types it could hold, drops placements
//! that repeat or contain another's list (hitting the smaller list hits
//! them too), and backtracks on the open placement with the fewest pair
//! types still allowed, with per-class partner counts kept in arrays.
//!
//! Periods are listed by number of classes; on the square and hexagon
//! lattices, periods that a point-group symmetry maps onto an earlier one
//! are skipped, since every orientation of the polyomino is placed anyway
//! (the search for the image period is the search for the image
//! polyomino, which is among the placements).

// Coordinates here stay within a few dozen (periods of at most
// MAX_CLASSES classes, polyominoes of a few dozen cells).
#![allow(clippy::arithmetic_side_effects)]

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::budget::{Budget, Exhausted};

/// The largest number of classes of a period tried.
pub const MAX_CLASSES: i32 = 40;

/// A placement modulo translation: its cells, and the pairs of them (as
/// indices) that a pair of the pairing may be made of.
pub type Orientation = (Vec<Cell>, Vec<(usize, usize)>);

/// A period `(p, q), (0, r)` with `0 <= q < r` and its class
/// representatives `(x, y)` with `0 <= x < p`, `0 <= y < r`.
pub struct Period {
    pub basis: [Cell; 2],
    pub reps: Vec<Cell>,
}

impl Period {
    fn new(p: i32, q: i32, r: i32) -> Period {
        Period {
            basis: [[p, q, 0], [0, r, 0]],
            reps: (0..p)
                .flat_map(|x| (0..r).map(move |y| [x, y, 0]))
                .collect(),
        }
    }

    /// The representative of `c` (a tiling's face number in z is kept).
    pub fn reduce(&self, c: Cell) -> Cell {
        let [p, q] = [self.basis[0][0], self.basis[0][1]];
        let r = self.basis[1][1];
        let k = c[0].div_euclid(p);
        let y = c[1] - k * q;
        [c[0] - k * p, y.rem_euclid(r), c[2]]
    }

    /// The class number of `c` (its representative's index times the
    /// number of faces, plus its face).
    fn class(&self, c: Cell, faces: i32) -> usize {
        let rep = self.reduce(c);
        ((rep[0] * self.basis[1][1] + rep[1]) * faces + rep[2]) as usize
    }
}

/// The Hermite normal form `(p, q, r)` of the lattice spanned by two
/// independent integer vectors.
fn hermite(a: [i32; 2], b: [i32; 2]) -> (i32, i32, i32) {
    // Row-reduce on the x components (Euclid), keeping the span.
    let (mut u, mut v) = (a, b);
    while v[0] != 0 {
        let k = u[0].div_euclid(v[0]);
        u = [u[0] - k * v[0], u[1] - k * v[1]];
        std::mem::swap(&mut u, &mut v);
    }
    if u[0] < 0 {
        u = [-u[0], -u[1]];
    }
    let r = v[1].abs();
    (u[0], u[1].rem_euclid(r), r)
}

/// Candidate periods by increasing number of classes: upper-triangular
/// bases whose vectors are translations of the board; on the square and
/// hexagon lattices one per orbit under the point group. Listed once per
/// lattice (a survey asks for them for every polyomino and property).
pub fn periods(lattice: Option<Lattice>) -> &'static [Period] {
    static LISTS: [OnceLock<Vec<Period>>; 4] = [const { OnceLock::new() }; 4];
    let slot = match lattice {
        None => 0,
        Some(Lattice::Square) => 1,
        Some(Lattice::Triangle) => 2,
        Some(Lattice::Hexagon) => 3,
        Some(Lattice::Cubic) => return &[],
    };
    LISTS[slot].get_or_init(|| list_periods(lattice))
}

fn list_periods(lattice: Option<Lattice>) -> Vec<Period> {
    let mut out = Vec::new();
    // Symmetries act linearly on the coordinates of these two lattices.
    let linear = matches!(lattice, Some(Lattice::Square | Lattice::Hexagon));
    let mut seen = HashSet::new();
    for classes in 1..=MAX_CLASSES {
        for p in (1..=classes).filter(|p| classes % p == 0) {
            let r = classes / p;
            for q in 0..r {
                let basis = [[p, q, 0], [0, r, 0]];
                let translations = basis
                    .iter()
                    .all(|&v| lattice.is_none_or(|l| l.same_orientation([0, 0, 0], v)));
                if !translations {
                    continue;
                }
                if let (true, Some(l)) = (linear, lattice) {
                    if !seen.insert((p, q, r)) {
                        continue;
                    }
                    for g in 0..l.point_group_order() {
                        let [a, b] = basis.map(|v| l.transform(g, v));
                        seen.insert(hermite([a[0], a[1]], [b[0], b[1]]));
                    }
                }
                out.push(Period::new(p, q, r));
            }
        }
    }
    out
}

/// A periodic b-paving with this period blocking every placement (each a
/// list of cells modulo translation, with the pairs of its cells that may
/// be paired), found by backtracking; `faces` is the number of faces per
/// unit cell (1 on a lattice).
pub fn search(
    period: &Period,
    orientations: &[Orientation],
    same_orientation: impl Fn(Cell) -> bool,
    faces: i32,
    b: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<(Cell, Cell)>>, Exhausted> {
    // Pair types: the smaller of (class of u, offset to w) and the same
    // from w, numbered as met.
    let mut types = PairTypes::default();
    let mut placements: Vec<Vec<usize>> = Vec::new();
    for (cells, pairs) in orientations {
        for &t in &period.reps {
            if !same_orientation(t) {
                continue;
            }
            let at = |c: Cell| [c[0] + t[0], c[1] + t[1], c[2]];
            let list: Vec<usize> = pairs
                .iter()
                .filter_map(|&(i, j)| {
                    let (u, w) = (at(cells[i]), at(cells[j]));
                    let (cu, cw) = (period.class(u, faces), period.class(w, faces));
                    // Same class: the pair uses two of the class's b partners.
                    if cu == cw && b < 2 {
                        return None;
                    }
                    let d = [w[0] - u[0], w[1] - u[1], w[2] - u[2]];
                    let key = (period.reduce(u), d).min((period.reduce(w), d.map(|x| -x)));
                    Some(types.id(key, (cu, cw, u, w)))
                })
                .collect();
            placements.push(list);
        }
    }
    types.solve(placements, period.reps.len() * faces as usize, b, budget)
}

/// A b-pairing of the cells of a finite board blocking every placement
/// (each a list of cells; any two of its cells may be paired).
pub fn pairing(
    placements: &[Vec<Cell>],
    b: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<(Cell, Cell)>>, Exhausted> {
    let mut cells: HashMap<Cell, usize> = HashMap::new();
    let mut types = PairTypes::default();
    let mut lists = Vec::new();
    for placement in placements {
        let mut list = Vec::new();
        for (i, &u) in placement.iter().enumerate() {
            for &w in &placement[i + 1..] {
                let (u, w) = (u.min(w), u.max(w));
                let next = cells.len();
                let cu = *cells.entry(u).or_insert(next);
                let next = cells.len();
                let cw = *cells.entry(w).or_insert(next);
                list.push(types.id((u, w), (cu, cw, u, w)));
            }
        }
        lists.push(list);
    }
    types.solve(lists, cells.len(), b, budget)
}

/// Pair types numbered as met: per type, the classes of its two cells and
/// one pair of cells.
#[derive(Default)]
struct PairTypes {
    ids: HashMap<(Cell, Cell), usize>,
    ends: Vec<(usize, usize, Cell, Cell)>,
}

impl PairTypes {
    /// The number of the type with this key, `ends` its ends if new.
    fn id(&mut self, key: (Cell, Cell), ends: (usize, usize, Cell, Cell)) -> usize {
        let next = self.ends.len();
        let id = *self.ids.entry(key).or_insert(next);
        if id == next {
            self.ends.push(ends);
        }
        id
    }

    /// Pair types, at most b per class of `classes`, such that every list
    /// (a placement's possible types) holds a chosen one; their pairs.
    fn solve(
        &self,
        lists: Vec<Vec<usize>>,
        classes: usize,
        b: usize,
        budget: &mut Budget,
    ) -> Result<Option<Vec<(Cell, Cell)>>, Exhausted> {
        if lists.iter().any(Vec::is_empty) {
            return Ok(None);
        }
        let lists = minimal_lists(lists);
        let mut state = Backtrack {
            placements: &lists,
            ends: &self.ends,
            chosen: vec![false; self.ends.len()],
            degree: vec![0; classes],
            b,
        };
        Ok(state.run(budget)?.then(|| state.chosen_pairs()))
    }
}

/// The lists (each sorted) without repeats and without any that contains another (a
/// pairing holding a pair of the smaller one holds one of the larger).
fn minimal_lists(mut lists: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for list in &mut lists {
        list.sort_unstable();
        list.dedup();
    }
    lists.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    lists.dedup();
    let mut kept: Vec<Vec<usize>> = Vec::new();
    for list in lists {
        let covered = kept
            .iter()
            .any(|k| k.iter().all(|t| list.binary_search(t).is_ok()));
        if !covered {
            kept.push(list);
        }
    }
    kept
}

struct Backtrack<'a> {
    placements: &'a [Vec<usize>],
    /// Per pair type: the classes of its two cells and one pair of cells.
    ends: &'a [(usize, usize, Cell, Cell)],
    chosen: Vec<bool>,
    degree: Vec<usize>,
    b: usize,
}

impl Backtrack<'_> {
    /// The pairs of cells of the chosen pair types.
    fn chosen_pairs(&self) -> Vec<(Cell, Cell)> {
        self.ends
            .iter()
            .zip(&self.chosen)
            .filter(|&(_, &on)| on)
            .map(|(&(_, _, u, w), _)| (u, w))
            .collect()
    }

    /// Whether pair type `t` can be added within b partners per class.
    fn fits(&self, t: usize) -> bool {
        let (cu, cw, _, _) = self.ends[t];
        if cu == cw {
            self.degree[cu] + 2 <= self.b
        } else {
            self.degree[cu] < self.b && self.degree[cw] < self.b
        }
    }

    fn set(&mut self, t: usize, on: bool) {
        let (cu, cw, _, _) = self.ends[t];
        self.chosen[t] = on;
        for c in [cu, cw] {
            if on {
                self.degree[c] += 1;
            } else {
                self.degree[c] -= 1;
            }
        }
    }

    fn run(&mut self, budget: &mut Budget) -> Result<bool, Exhausted> {
        // A backtracking step counts as a position, so that a node budget
        // (`--budget 200000`) bounds the search as a time budget does.
        budget.expand(0)?;
        // The open placement with the fewest pair types still possible is
        // branched on; one with none fails this branch at once.
        let mut open: Option<(usize, usize)> = None;
        for (i, list) in self.placements.iter().enumerate() {
            if list.iter().any(|&t| self.chosen[t]) {
                continue;
            }
            let choices = list.iter().filter(|&&t| self.fits(t)).count();
            if choices == 0 {
                return Ok(false);
            }
            if open.is_none_or(|(_, fewest)| choices < fewest) {
                open = Some((i, choices));
            }
        }
        let Some((open, _)) = open else {
            return Ok(true);
        };
        for &t in &self.placements[open] {
            if !self.fits(t) {
                continue;
            }
            self.set(t, true);
            if self.run(budget)? {
                return Ok(true);
            }
            self.set(t, false);
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermite_form_spans_the_same_lattice() {
        assert_eq!(hermite([2, 0], [0, 3]), (2, 0, 3));
        assert_eq!(hermite([0, 3], [2, 1]), (2, 1, 3));
        assert_eq!(hermite([-2, -1], [0, -3]), (2, 1, 3));
        // (4, 1), (2, 0) span x in 2Z with y = 1 at x = 0: (2, 0), (0, 1).
        assert_eq!(hermite([4, 1], [2, 0]), (2, 0, 1));
    }

    #[test]
    fn symmetric_periods_are_listed_once() {
        // Two classes on the square lattice: stripes one way, stripes the
        // other way (a mirror image of the first, dropped), checkerboard.
        let two: Vec<_> = periods(Some(Lattice::Square))
            .iter()
            .filter(|p| p.reps.len() == 2)
            .map(|p| (p.basis[0][0], p.basis[0][1], p.basis[1][1]))
            .collect();
        assert_eq!(two, vec![(1, 0, 2), (1, 1, 2)]);
    }

    #[test]
    fn hexagon_periods_match_bodes_table_29() {
        // Bode 2000, Table 29: minimal periodicities per period 1..24.
        let table = [
            1, 1, 2, 3, 2, 3, 3, 5, 4, 4, 3, 8, 4, 5, 6, 9, 4, 8, 5, 10, 8, 7, 5, 15,
        ];
        let listed = periods(Some(Lattice::Hexagon));
        for (n, &expected) in (1..).zip(&table) {
            let count = listed.iter().filter(|p| p.reps.len() == n).count();
            assert_eq!(count, expected, "period {n}");
        }
    }

    #[test]
    fn dominated_lists_are_dropped() {
        let lists = vec![vec![1, 2, 3], vec![2], vec![2], vec![4, 5], vec![2, 4]];
        assert_eq!(minimal_lists(lists), vec![vec![2], vec![4, 5]]);
    }
}
