//! The hyperbolic (3,q) mosaics as boards (rule A5 of docs/soundness.md):
//! the plane triangulated with q triangles at every vertex (q >= 7; q = 6
//! is the triangle lattice, built the same way as a cross-check).
//!
//! Key decisions. The mosaic has no translations, so the lattices'
//! machinery (normal forms by translation, unit cells) does not apply.
//! A finite disc is built ring by ring around a root triangle: each ring
//! completes the fan of every vertex on the disc's boundary with fresh
//! vertices. Nothing in a ring is a choice, so every disc is a piece of
//! the one mosaic, and two triangles of the disc share a side exactly when
//! they do in the mosaic. Animals are compared by codes: a breadth-first
//! walk through the animal from one of its flags (a cell, one of its
//! sides, a sense of turning) writes which neighbours belong to the animal
//! and in which order they were met. The mosaic's symmetries take any
//! flag to any other, so two animals are congruent exactly when their
//! least codes over all flags agree. Counting goes size by size from the
//! distinct codes of the size below, each animal drawn again around a
//! central cell, so a disc of radius about half the size suffices.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): triangle
// and vertex numbers are below MAX_TRIANGLES (checked as the disc grows),
// animals have at most MAX_SIZE cells, and a code's entries are below 255.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

use super::enumerate::Kind;
use super::flags::Flag;
use crate::kernel::budget::{Budget, Exhausted};

/// The fewest triangles at a vertex: q = 6 is the triangle lattice, fewer
/// close up into a sphere (the disc's rings would not stay rings).
pub const MIN_Q: u8 = 6;
/// The most triangles at a vertex a board may ask for.
pub const MAX_Q: u8 = 64;
/// The most cells an animal counted on a mosaic may have (codes number
/// cells in one byte).
pub const MAX_SIZE: usize = 24;
/// The most triangles a disc may have: about 150 MB of tables.
const MAX_TRIANGLES: usize = 6_000_000;

/// No neighbour recorded: the side lies on the disc's boundary.
const OUTSIDE: u32 = u32::MAX;

/// The (3,q) mosaic: triangles, q at every vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mosaic {
    /// Triangles at every vertex, MIN_Q..=MAX_Q.
    q: u8,
}

impl Mosaic {
    /// The (3,q) mosaic, if q is in MIN_Q..=MAX_Q.
    pub fn new(q: u8) -> Option<Mosaic> {
        (MIN_Q..=MAX_Q).contains(&q).then_some(Mosaic { q })
    }

    /// Triangles at every vertex.
    pub fn q(self) -> u8 {
        self.q
    }
}

/// A disc of the mosaic: triangle 0 is the root, the others come ring by
/// ring around it. Corners are listed counterclockwise; side `e` of a
/// triangle joins corners `e` and `e + 1`.
#[derive(Debug)]
pub struct Disc {
    /// The corners (vertex numbers) of each triangle.
    corners: Vec<[u32; 3]>,
    /// The triangle across each side, OUTSIDE on the boundary.
    across: Vec<[u32; 3]>,
}

/// One side of a disc's boundary, walked counterclockwise (the disc on the
/// left): it starts at vertex `from` and is side `side` of triangle `tri`.
#[derive(Clone, Copy)]
struct BoundarySide {
    from: u32,
    tri: u32,
    side: usize,
}

/// A disc being built, with its boundary and the triangles at each vertex.
struct Builder {
    q: usize,
    disc: Disc,
    triangles_at: Vec<u32>,
    boundary: Vec<BoundarySide>,
}

impl Builder {
    fn vertex(&mut self) -> u32 {
        self.triangles_at.push(0);
        (self.triangles_at.len() - 1) as u32
    }

    fn triangle(&mut self, corners: [u32; 3]) -> u32 {
        for v in corners {
            self.triangles_at[v as usize] += 1;
        }
        self.disc.corners.push(corners);
        self.disc.across.push([OUTSIDE; 3]);
        (self.disc.corners.len() - 1) as u32
    }

    fn join(&mut self, (a, side_a): (u32, usize), (b, side_b): (u32, usize)) {
        self.disc.across[a as usize][side_a] = b;
        self.disc.across[b as usize][side_b] = a;
    }

    /// Adds one ring: across every boundary side a triangle with a fresh
    /// corner, and at every boundary vertex b the fan of fresh triangles
    /// that brings b to q triangles. `None` if a vertex already has more
    /// than q - 3 triangles (only for q < 6).
    fn ring(&mut self, budget: &mut Budget) -> Result<Option<()>, Exhausted> {
        let sides = std::mem::take(&mut self.boundary);
        let m = sides.len();
        let fresh: Vec<u32> = (0..m).map(|_| self.vertex()).collect();
        // The triangle across side i: its corners are the side's ends
        // reversed (the disc lies on the other side) and fresh[i].
        let mut outer = Vec::with_capacity(m);
        for (i, s) in sides.iter().enumerate() {
            let to = sides[(i + 1) % m].from;
            let t = self.triangle([to, s.from, fresh[i]]);
            self.join((t, 0), (s.tri, s.side));
            outer.push(t);
        }
        for i in 0..m {
            budget.charge(self.q)?;
            let b = sides[i].from;
            let before = (i + m - 1) % m;
            let Some(fan) = self.q.checked_sub(self.triangles_at[b as usize] as usize) else {
                return Ok(None);
            };
            if fan < 1 {
                return Ok(None);
            }
            // Around b from the triangle across the side ending at b to
            // the one across the side starting at b: side 2 of the first
            // is (fresh[before], b), side 1 of the last is (b, fresh[i]).
            let mut last = (outer[before], 2);
            let mut x = fresh[before];
            for j in 1..=fan {
                let y = if j == fan { fresh[i] } else { self.vertex() };
                let t = self.triangle([b, x, y]);
                self.join((t, 0), last);
                self.boundary.push(BoundarySide {
                    from: x,
                    tri: t,
                    side: 1,
                });
                last = (t, 2);
                x = y;
            }
            self.join(last, (outer[i], 1));
            if self.disc.corners.len() > MAX_TRIANGLES {
                return Ok(None);
            }
            budget.hold(self.disc.bytes() / ENTRY_BYTES)?;
        }
        Ok(Some(()))
    }

    /// Whether every vertex off the boundary has exactly q triangles and
    /// every recorded neighbour records the triangle back: what the ring
    /// construction promises, checked once more.
    fn sound(&self) -> bool {
        let on_boundary: HashSet<u32> = self.boundary.iter().map(|s| s.from).collect();
        let fans_closed = self
            .triangles_at
            .iter()
            .enumerate()
            .all(|(v, &n)| on_boundary.contains(&(v as u32)) || n as usize == self.q);
        let symmetric = self.disc.across.iter().enumerate().all(|(t, sides)| {
            sides
                .iter()
                .all(|&u| u == OUTSIDE || self.disc.across[u as usize].contains(&(t as u32)))
        });
        fans_closed && symmetric
    }
}

/// The discs built so far, by (q, rings), `None` for one refused as too
/// large: a board's disc is built once however many claims count on it.
/// Only discs of at most CACHED_TRIANGLES are kept (a few MB each, growing
/// geometrically with the rings, so at most about 10 MB per q); larger ones
/// are built for their claim and dropped with it.
static DISCS: Mutex<BTreeMap<DiscKey, Option<Arc<Disc>>>> = Mutex::new(BTreeMap::new());

/// A disc's q and number of rings.
type DiscKey = (u8, usize);

/// The largest disc kept between claims.
const CACHED_TRIANGLES: usize = 250_000;

/// Bytes per budget entry (DEFAULT_MAX_ENTRIES is about 2-3 GiB).
const ENTRY_BYTES: usize = 64;

impl Disc {
    /// The root triangle and `rings` rings around it; `None` when that
    /// would exceed MAX_TRIANGLES.
    pub fn around_root(
        mosaic: Mosaic,
        rings: usize,
        budget: &mut Budget,
    ) -> Result<Option<Arc<Disc>>, Exhausted> {
        let key = (mosaic.q, rings);
        if let Some(kept) = DISCS.lock().ok().and_then(|m| m.get(&key).cloned()) {
            if let Some(disc) = &kept {
                budget.charge(disc.corners.len())?;
                budget.hold(disc.bytes() / ENTRY_BYTES)?;
            }
            return Ok(kept);
        }
        let mut b = Builder {
            q: usize::from(mosaic.q),
            disc: Disc {
                corners: Vec::new(),
                across: Vec::new(),
            },
            triangles_at: Vec::new(),
            boundary: Vec::new(),
        };
        let corners = [b.vertex(), b.vertex(), b.vertex()];
        let root = b.triangle(corners);
        b.boundary = (0..3)
            .map(|side| BoundarySide {
                from: corners[side],
                tri: root,
                side,
            })
            .collect();
        let mut built = true;
        for _ in 0..rings {
            if b.ring(budget)?.is_none() {
                built = false;
                break;
            }
        }
        let disc = (built && b.sound()).then(|| Arc::new(b.disc));
        if disc
            .as_ref()
            .is_none_or(|d| d.triangles() <= CACHED_TRIANGLES)
            && let Ok(mut m) = DISCS.lock()
        {
            m.insert(key, disc.clone());
        }
        Ok(disc)
    }

    /// Number of triangles.
    pub fn triangles(&self) -> usize {
        self.corners.len()
    }

    /// About how many bytes it holds.
    fn bytes(&self) -> usize {
        self.corners.len() * 28
    }

    /// The corners of triangle `t`, counterclockwise (vertex numbers).
    pub fn corners(&self, t: u32) -> [u32; 3] {
        self.corners[t as usize]
    }

    /// The triangle across side `side` of `t`, if it is in the disc.
    pub fn neighbour(&self, t: u32, side: usize) -> Option<u32> {
        let u = self.across[t as usize][side];
        (u != OUTSIDE).then_some(u)
    }

    /// The side of `u` that it shares with `t`.
    pub(crate) fn side_towards(&self, u: u32, t: u32) -> usize {
        self.across[u as usize]
            .iter()
            .position(|&x| x == t)
            .unwrap_or(0)
    }
}

/// Why a count could not be made.
#[derive(Debug)]
pub enum Unreached {
    /// Out of budget.
    Budget(Exhausted),
    /// The disc needed is larger than MAX_TRIANGLES, or an animal reached
    /// its boundary, or the kind is not one a mosaic has.
    Limits,
}

impl From<Exhausted> for Unreached {
    fn from(e: Exhausted) -> Unreached {
        Unreached::Budget(e)
    }
}

/// An animal drawn in a disc: its cells, and for each cell the position
/// in `cells` of its neighbour across each side (`NOT_IN` if none).
struct Drawn {
    cells: Vec<u32>,
    links: Vec<[u8; 3]>,
}

/// No neighbour inside the animal.
const NOT_IN: u8 = u8::MAX;

impl Drawn {
    /// The animal of the given cells (distinct, at most MAX_SIZE).
    fn new(disc: &Disc, cells: Vec<u32>) -> Drawn {
        let links = cells
            .iter()
            .map(|&c| {
                std::array::from_fn(|side| {
                    disc.neighbour(c, side)
                        .and_then(|u| cells.iter().position(|&x| x == u))
                        .map_or(NOT_IN, |p| p as u8)
                })
            })
            .collect();
        Drawn { cells, links }
    }

    /// The code of the animal read from flag (cell `start`, side `first`,
    /// turning counterclockwise if `ccw`): cells in breadth-first order,
    /// each with three entries, its sides in the flag's order; an entry is
    /// 0 for a side with no cell of the animal across, else 1 + the
    /// breadth-first number of the cell across.
    fn code(&self, disc: &Disc, start: usize, first: usize, ccw: bool) -> Vec<u8> {
        let n = self.cells.len();
        let mut number = vec![NOT_IN; n];
        let mut order: Vec<(usize, usize)> = Vec::with_capacity(n);
        number[start] = 0;
        order.push((start, first));
        let mut code = Vec::with_capacity(3 * n);
        let mut next = 0;
        while let Some(&(cell, entry)) = order.get(next) {
            next += 1;
            for turn in 0..3 {
                let side = if ccw {
                    (entry + turn) % 3
                } else {
                    (entry + 3 - turn) % 3
                };
                let other = self.links[cell][side];
                if other == NOT_IN {
                    code.push(0);
                    continue;
                }
                let other = usize::from(other);
                if number[other] == NOT_IN {
                    number[other] = order.len() as u8;
                    let back = disc.side_towards(self.cells[other], self.cells[cell]);
                    order.push((other, back));
                }
                code.push(number[other] + 1);
            }
        }
        code
    }

    /// The least code over all flags: equal for two animals exactly when
    /// they are congruent.
    fn canonical(&self, disc: &Disc, budget: &mut Budget) -> Result<Vec<u8>, Exhausted> {
        let n = self.cells.len();
        budget.charge(6 * n * n)?;
        let mut best: Option<Vec<u8>> = None;
        for start in 0..n {
            for first in 0..3 {
                for ccw in [true, false] {
                    let code = self.code(disc, start, first, ccw);
                    if best.as_ref().is_none_or(|b| code < *b) {
                        best = Some(code);
                    }
                }
            }
        }
        Ok(best.unwrap_or_default())
    }

    /// A cell whose greatest distance (within the animal) to the others
    /// is least.
    fn centre(&self) -> usize {
        let n = self.cells.len();
        let eccentricity = |s: usize| {
            let mut dist = vec![usize::MAX; n];
            dist[s] = 0;
            let mut queue = vec![s];
            let mut i = 0;
            while let Some(&c) = queue.get(i) {
                i += 1;
                for &o in &self.links[c] {
                    if o != NOT_IN && dist[usize::from(o)] == usize::MAX {
                        dist[usize::from(o)] = dist[c] + 1;
                        queue.push(usize::from(o));
                    }
                }
            }
            dist.into_iter().max().unwrap_or(0)
        };
        (0..n).min_by_key(|&s| eccentricity(s)).unwrap_or(0)
    }

    /// Whether the union of its closed triangles has a hole: V - E + F,
    /// which is 1 minus the number of holes for a connected set.
    fn has_hole(&self, disc: &Disc) -> bool {
        let faces = self.cells.len();
        let shared = self
            .links
            .iter()
            .flatten()
            .filter(|&&o| o != NOT_IN)
            .count()
            / 2;
        let sides = 3 * faces - shared;
        let vertices: HashSet<u32> = self
            .cells
            .iter()
            .flat_map(|&c| disc.corners[c as usize])
            .collect();
        vertices.len() + faces != sides + 1
    }
}

/// The least code of the animal of `cells` (distinct triangles of the
/// disc, at most MAX_SIZE, every neighbour in the disc): equal for two
/// animals exactly when they are congruent.
pub fn least_code(disc: &Disc, cells: &[u32], budget: &mut Budget) -> Result<Vec<u8>, Exhausted> {
    Drawn::new(disc, cells.to_vec()).canonical(disc, budget)
}

/// The triangles of the animal with `code` drawn from the root's flag,
/// if the disc holds them (the root first).
pub fn draw_cells(disc: &Disc, code: &[u8]) -> Option<Vec<u32>> {
    draw_cells_from(disc, code, Flag::ROOT)
}

/// The triangles of the animal with `code` drawn from `flag`, if the disc
/// holds them (the flag's triangle first).
pub fn draw_cells_from(disc: &Disc, code: &[u8], flag: Flag) -> Option<Vec<u32>> {
    draw(disc, code, flag).map(|d| d.cells)
}

/// The animal with `code` drawn from `flag` (its side is the first entry's,
/// its sense the walk's); `None` if it would leave the disc or the code is
/// not one this disc can draw.
fn draw(disc: &Disc, code: &[u8], flag: Flag) -> Option<Drawn> {
    let (start, side, ccw) = (flag.triangle, flag.side(), !flag.mirrored());
    if start as usize >= disc.triangles() {
        return None;
    }
    let mut cells = vec![start];
    let mut entries = vec![side % 3];
    for (i, entry) in code.chunks(3).enumerate() {
        let (cell, first) = (*cells.get(i)?, entries[i]);
        for (turn, &e) in entry.iter().enumerate() {
            if usize::from(e) == cells.len() + 1 {
                let across = if ccw {
                    (first + turn) % 3
                } else {
                    (first + 3 - turn) % 3
                };
                let u = disc.neighbour(cell, across)?;
                entries.push(disc.side_towards(u, cell));
                cells.push(u);
            }
        }
    }
    Some(Drawn::new(disc, cells))
}

/// The number of animals of `size` cells on the mosaic, up to its
/// congruences (`Free`), and without holes too (`FreeSimplyConnected`).
pub fn count(
    mosaic: Mosaic,
    size: usize,
    kind: Kind,
    budget: &mut Budget,
) -> Result<u64, Unreached> {
    Ok(animals(mosaic, size, kind, budget)?.len() as u64)
}

/// One animal of `size` cells per class of [`count`]'s, as its triangles
/// (numbered as in every disc around the root; the root among them).
pub fn animals(
    mosaic: Mosaic,
    size: usize,
    kind: Kind,
    budget: &mut Budget,
) -> Result<Vec<Vec<u32>>, Unreached> {
    if size == 0 {
        // Animals are nonempty.
        return Ok(Vec::new());
    }
    if kind == Kind::Fixed || size > MAX_SIZE {
        return Err(Unreached::Limits);
    }
    // What one animal kept costs: its cells and links, and its code.
    let entry_weight = 1 + (10 * size + 100) / ENTRY_BYTES;
    // Animals of k cells are drawn around a central cell, within k / 2
    // of it; one more cell reaches one further.
    let rings = size.div_ceil(2);
    let disc = Disc::around_root(mosaic, rings, budget)?.ok_or(Unreached::Limits)?;
    let mut level: Vec<Drawn> = vec![Drawn::new(&disc, vec![0])];
    for _ in 1..size {
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut next = Vec::new();
        for animal in &level {
            for (i, &c) in animal.cells.iter().enumerate() {
                for side in 0..3 {
                    if animal.links[i][side] != NOT_IN {
                        continue;
                    }
                    let u = disc.neighbour(c, side).ok_or(Unreached::Limits)?;
                    let mut cells = animal.cells.clone();
                    cells.push(u);
                    let grown = Drawn::new(&disc, cells);
                    let code = grown.canonical(&disc, budget)?;
                    if seen.contains(&code) {
                        continue;
                    }
                    budget.expand((seen.len() + next.len() + level.len()) * entry_weight)?;
                    let centre = grown.centre();
                    let centred = draw(&disc, &grown.code(&disc, centre, 0, true), Flag::ROOT)
                        .ok_or(Unreached::Limits)?;
                    seen.insert(code);
                    next.push(centred);
                }
            }
        }
        level = next;
    }
    let simply_connected = kind == Kind::FreeSimplyConnected;
    Ok(level
        .into_iter()
        .filter(|a| !simply_connected || !a.has_hole(&disc))
        .map(|a| a.cells)
        .collect())
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    fn budget() -> Budget {
        Budget::new(None, None, 1 << 24)
    }

    fn counts(q: u8, kind: Kind, up_to: usize) -> Vec<u64> {
        let mosaic = Mosaic::new(q).expect("q in range");
        (1..=up_to)
            .map(|n| count(mosaic, n, kind, &mut budget()).expect("counted"))
            .collect()
    }

    #[test]
    fn q6_gives_the_triangle_lattice() {
        // Free polyiamonds (OEIS A000577), and without holes (Bode's
        // Table 46, q = 6): the first with a hole has 9 cells.
        assert_eq!(
            counts(6, Kind::Free, 10),
            [1, 1, 1, 3, 4, 12, 24, 66, 160, 448]
        );
        assert_eq!(
            counts(6, Kind::FreeSimplyConnected, 10),
            [1, 1, 1, 3, 4, 12, 24, 66, 159, 444]
        );
    }

    /// Bode's remark on Table 46: for q >= n the count of n cells does not
    /// depend on q (the animals are trees of triangles, but for the full
    /// fan of q = n cells, which is one animal whatever q).
    #[test]
    fn counts_settle_once_q_reaches_the_size() {
        for n in 3..=9 {
            let at = |q: usize| counts(q as u8, Kind::Free, n)[n - 1];
            assert_eq!(at(n.max(6)), at(n.max(6) + 1), "size {n}");
            assert_eq!(at(n.max(6)), at(n.max(6) + 3), "size {n}");
        }
    }

    /// Orbit counting as an oracle for the codes: the connected sets of n
    /// cells that hold the root, listed naively in the disc, are
    /// sum over animals P of 6n / |Aut P| (an isometry is fixed by the
    /// cell of P sent to the root and the flag it lands on, and |Aut P|
    /// of them give each set). Codes that merged two animals or split one
    /// would break the equation.
    #[test]
    fn codes_agree_with_a_naive_listing_of_sets() {
        for (q, up_to) in [(7u8, 8usize), (9, 7)] {
            let mosaic = Mosaic::new(q).expect("q in range");
            let disc = Disc::around_root(mosaic, up_to, &mut budget())
                .expect("budget")
                .expect("small disc");
            let mut sets: HashSet<Vec<u32>> = HashSet::from([vec![0]]);
            let mut animals: HashSet<Vec<u8>> = HashSet::from([vec![0, 0, 0]]);
            for n in 2..=up_to {
                sets = testing::one_larger(&disc, &sets);
                let mut budget = budget();
                animals = sets
                    .iter()
                    .map(|s| Drawn::new(&disc, s.clone()).canonical(&disc, &mut budget))
                    .collect::<Result<_, _>>()
                    .expect("budget");
                let mut orbit_sum = 0;
                for code in &animals {
                    let animal = draw(&disc, code, Flag::ROOT).expect("drawn");
                    let automorphisms = (0..n)
                        .flat_map(|s| (0..3).flat_map(move |f| [(s, f, true), (s, f, false)]))
                        .filter(|&(s, f, ccw)| animal.code(&disc, s, f, ccw) == *code)
                        .count();
                    orbit_sum += 6 * n / automorphisms;
                }
                assert_eq!(orbit_sum, sets.len(), "q {q}, size {n}");
            }
            assert_eq!(
                animals.len() as u64,
                counts(q, Kind::Free, up_to)[up_to - 1]
            );
        }
    }
}

/// Test helpers shared with the pictures' tests.
#[cfg(test)]
#[allow(clippy::expect_used)]
pub(crate) mod testing {
    use super::Disc;
    use std::collections::HashSet;

    /// The connected sets of triangles one larger than those of `sets`
    /// (sorted triangle lists), listed naively: every set grown by every
    /// neighbour, which must lie in the disc.
    pub(crate) fn one_larger(disc: &Disc, sets: &HashSet<Vec<u32>>) -> HashSet<Vec<u32>> {
        let mut next = HashSet::new();
        for set in sets {
            for &c in set {
                for side in 0..3 {
                    let u = disc.neighbour(c, side).expect("inside the disc");
                    if !set.contains(&u) {
                        let mut grown = set.clone();
                        grown.push(u);
                        grown.sort_unstable();
                        next.insert(grown);
                    }
                }
            }
        }
        next
    }
}
