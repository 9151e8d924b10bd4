//! Rule A1: counting animals of a lattice by Redelmeier's enumeration.
//!
//! Every fixed animal (a connected cell set up to translation) of size n is
//! generated exactly once: the enumeration grows sets from an origin cell,
//! adding only cells after the origin in (z, y, x) order, and never adds a
//! cell it has already decided about in the same branch (Redelmeier 1981).
//! Each translation class has one least cell; translated onto the origin of
//! its orientation it is the set the enumeration reaches from that origin.
//! A free animal is counted at the one fixed animal of its orbit that is the
//! least (as a sorted, normalised cell list) among the images under the
//! point group; a hole is a cell of the complement that cannot reach the
//! outside of the animal's bounding box (widened by one cell) through the
//! complement.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Enumeration
// works on animals of at most MAX_ANIMAL_SIZE cells grown from the origin, so
// coordinates stay within a few dozen; counts are bounded by the budget.
#![allow(clippy::arithmetic_side_effects)]

use super::lattice::{Cell, Lattice};
use crate::kernel::budget::{Budget, Exhausted};

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Up to translation (holes allowed).
    Fixed,
    /// Up to the lattice's congruences (holes allowed).
    Free,
    /// Up to congruence and without holes (Bode's polyominoes).
    FreeSimplyConnected,
}

/// The number of animals of `size` cells of `kind` on `lattice`, counted by
/// `threads` threads (each takes every `threads`-th subtree of the
/// enumeration below a fixed depth; the sum does not depend on the split).
pub fn count(
    lattice: Lattice,
    size: usize,
    kind: Kind,
    threads: usize,
    budget: &mut Budget,
) -> Result<u64, Exhausted> {
    if size == 0 {
        return Ok(0);
    }
    // Animals smaller than the split depth are never dealt out: one thread.
    let threads = if size < SPLIT_DEPTH {
        1
    } else {
        threads.max(1)
    };
    if threads == 1 {
        return count_share(lattice, size, kind, (0, 1), budget);
    }
    let results: Vec<Result<u64, Exhausted>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mut own = budget.clone();
                scope.spawn(move || count_share(lattice, size, kind, (t, threads), &mut own))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(Exhausted::Cancelled)))
            .collect()
    });
    results.into_iter().sum()
}

/// The depth at which subtrees are dealt out to threads.
const SPLIT_DEPTH: usize = 4;

fn count_share(
    lattice: Lattice,
    size: usize,
    kind: Kind,
    share: (usize, usize),
    budget: &mut Budget,
) -> Result<u64, Exhausted> {
    let mut total = 0;
    for origin in lattice.origins() {
        let mut run = Run {
            lattice,
            size,
            kind,
            origin,
            grid: Grid::new(lattice, size),
            cells: Vec::with_capacity(size),
            levels: vec![Vec::new(); size + 1],
            share,
            dealt: 0,
            scratch: Scratch::default(),
            found: 0,
            budget,
        };
        run.grid.mark(origin);
        run.levels[0].push(origin);
        run.grow(0)?;
        total += run.found;
    }
    Ok(total)
}

/// The sort key of a cell: (z, y, x).
fn key(c: &Cell) -> (i32, i32, i32) {
    (c[2], c[1], c[0])
}

/// Whether `c` may join animals grown from `origin`: it comes after it.
fn after(c: Cell, origin: Cell) -> bool {
    key(&c) > key(&origin)
}

struct Run<'b> {
    lattice: Lattice,
    size: usize,
    kind: Kind,
    origin: Cell,
    grid: Grid,
    cells: Vec<Cell>,
    /// The untried cells of each level of the recursion.
    levels: Vec<Vec<Cell>>,
    /// This thread's part: (index, of how many).
    share: (usize, usize),
    /// Subtrees met at the split depth so far.
    dealt: usize,
    scratch: Scratch,
    found: u64,
    budget: &'b mut Budget,
}

impl Run<'_> {
    /// Redelmeier's step at `depth`: try each untried cell of the level in
    /// turn; a tried cell stays marked, so later siblings never add it again.
    fn grow(&mut self, depth: usize) -> Result<(), Exhausted> {
        while let Some(c) = self.levels[depth].pop() {
            self.budget.tick()?;
            self.cells.push(c);
            if self.cells.len() == SPLIT_DEPTH && self.share.1 > 1 {
                self.dealt += 1;
                if (self.dealt - 1) % self.share.1 != self.share.0 {
                    self.cells.pop();
                    continue;
                }
            }
            if self.cells.len() == self.size {
                if self.accept() {
                    self.found += 1;
                }
            } else {
                let mut next = std::mem::take(&mut self.levels[depth + 1]);
                next.clear();
                next.extend_from_slice(&self.levels[depth]);
                let before = next.len();
                let (neighbours, n) = self.lattice.neighbour_array(c);
                for &m in &neighbours[..n] {
                    if after(m, self.origin) && !self.grid.marked(m) {
                        self.grid.mark(m);
                        next.push(m);
                    }
                }
                let fresh: Vec<Cell> = next[before..].to_vec();
                self.levels[depth + 1] = next;
                self.grow(depth + 1)?;
                for m in fresh {
                    self.grid.unmark(m);
                }
            }
            self.cells.pop();
        }
        Ok(())
    }

    fn accept(&mut self) -> bool {
        match self.kind {
            Kind::Fixed => true,
            Kind::Free => self.scratch.is_least_image(self.lattice, &self.cells),
            Kind::FreeSimplyConnected => {
                self.scratch.is_least_image(self.lattice, &self.cells)
                    && !has_hole(self.lattice, &self.cells)
            }
        }
    }
}

/// Packs a cell into a `u64` whose order is the (z, y, x) order.
fn pack(c: Cell) -> u64 {
    const OFFSET: i64 = 1 << 20;
    let part = |v: i32| (i64::from(v) + OFFSET) as u64;
    part(c[2]) << 42 | part(c[1]) << 21 | part(c[0])
}

/// Buffers for the canonical-form test, reused across animals.
#[derive(Default)]
struct Scratch {
    own: Vec<u64>,
    image: Vec<Cell>,
    packed: Vec<u64>,
}

impl Scratch {
    /// Whether the animal's normalised form is the least of its images'.
    fn is_least_image(&mut self, lattice: Lattice, cells: &[Cell]) -> bool {
        normalised_packed(lattice, cells, 0, &mut self.image, &mut self.own);
        for g in 1..lattice.point_group_order() {
            normalised_packed(lattice, cells, g, &mut self.image, &mut self.packed);
            if self.packed < self.own {
                return false;
            }
        }
        true
    }
}

/// The image of `cells` under point-group element `g`, normalised (see
/// [`normalised`]) and packed into `out`; `image` is scratch space.
fn normalised_packed(
    lattice: Lattice,
    cells: &[Cell],
    g: usize,
    image: &mut Vec<Cell>,
    out: &mut Vec<u64>,
) {
    image.clear();
    image.extend(cells.iter().map(|&c| lattice.transform(g, c)));
    let least = image.iter().copied().min_by_key(key).unwrap_or([0, 0, 0]);
    let origin = lattice.origin_of(least);
    out.clear();
    out.extend(
        image
            .iter()
            .map(|&c| pack(lattice.translate(c, least, origin))),
    );
    out.sort_unstable();
}

/// `cells` sorted and translated so that its least cell is the origin of
/// that cell's orientation.
pub fn normalised(lattice: Lattice, cells: &[Cell]) -> Vec<Cell> {
    let mut v = cells.to_vec();
    v.sort_by_key(key);
    let Some(&least) = v.first() else {
        return v;
    };
    let origin = lattice.origin_of(least);
    for c in &mut v {
        *c = lattice.translate(*c, least, origin);
    }
    v
}

/// The canonical form of an animal: the least normalised image under the
/// point group.
pub fn canonical(lattice: Lattice, cells: &[Cell]) -> Vec<Cell> {
    (0..lattice.point_group_order())
        .map(|g| {
            let image: Vec<Cell> = cells.iter().map(|&c| lattice.transform(g, c)).collect();
            normalised(lattice, &image)
        })
        .min_by(|a, b| a.iter().map(key).cmp(b.iter().map(key)))
        .unwrap_or_default()
}

/// Whether some cell outside the animal is enclosed by it.
pub fn has_hole(lattice: Lattice, cells: &[Cell]) -> bool {
    let margin = if lattice == Lattice::Triangle { 2 } else { 1 };
    let lo = |i: usize| cells.iter().map(|c| c[i]).min().unwrap_or(0);
    let hi = |i: usize| cells.iter().map(|c| c[i]).max().unwrap_or(0);
    let (x0, x1) = (lo(0) - margin, hi(0) + margin);
    let (y0, y1) = (lo(1) - 1, hi(1) + 1);
    let (z0, z1) = if lattice == Lattice::Cubic {
        (lo(2) - 1, hi(2) + 1)
    } else {
        (0, 0)
    };
    let inside = |c: &Cell| {
        (x0..=x1).contains(&c[0]) && (y0..=y1).contains(&c[1]) && (z0..=z1).contains(&c[2])
    };
    let (w, h) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
    let d = (z1 - z0 + 1) as usize;
    let index =
        |c: &Cell| ((c[2] - z0) as usize * h + (c[1] - y0) as usize) * w + (c[0] - x0) as usize;
    let mut filled = vec![false; w * h * d];
    for c in cells {
        filled[index(c)] = true;
    }
    // Flood the complement from a corner of the widened box.
    let start = [x0, y0, z0];
    let mut reached = vec![false; w * h * d];
    reached[index(&start)] = true;
    let mut stack = vec![start];
    let mut count = 1usize;
    while let Some(c) = stack.pop() {
        for n in lattice.neighbours(c) {
            if inside(&n) && !filled[index(&n)] && !reached[index(&n)] {
                reached[index(&n)] = true;
                count += 1;
                stack.push(n);
            }
        }
    }
    count + cells.len() < w * h * d
}

/// A dense marking of the cells within reach of the origins.
struct Grid {
    marks: Vec<bool>,
    radius: i32,
    width: usize,
}

impl Grid {
    fn new(lattice: Lattice, size: usize) -> Grid {
        // Triangle cells move two x steps per corner step: allow twice the reach.
        let radius = 2 * size as i32 + 3;
        let width = (2 * radius + 1) as usize;
        let depth = if lattice == Lattice::Cubic { width } else { 1 };
        Grid {
            marks: vec![false; width * width * depth],
            radius,
            width,
        }
    }

    fn index(&self, c: Cell) -> usize {
        let r = self.radius;
        let w = self.width;
        ((c[2] + if self.marks.len() > w * w { r } else { 0 }) as usize * w + (c[1] + r) as usize)
            * w
            + (c[0] + r) as usize
    }

    fn marked(&self, c: Cell) -> bool {
        self.marks[self.index(c)]
    }

    fn mark(&mut self, c: Cell) {
        let i = self.index(c);
        self.marks[i] = true;
    }

    fn unmark(&mut self, c: Cell) {
        let i = self.index(c);
        self.marks[i] = false;
    }
}
