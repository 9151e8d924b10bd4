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

use super::lattice::{Cell, Lattice, pack};
use super::tiling::{IdSet, Tiling};
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

/// What the enumeration needs of a board with translations: neighbours,
/// the symmetries modulo translations, and the translation classes of
/// cells. The lattices and the periodic tilings provide it.
pub trait Geometry: Sync {
    /// Calls `f` with each neighbour of `c`.
    fn for_each_neighbour(&self, c: Cell, f: impl FnMut(Cell));
    /// Number of symmetries modulo translations.
    fn group_order(&self) -> usize;
    /// The image of `c` under symmetry `g` (0 is the identity).
    fn transform(&self, g: usize, c: Cell) -> Cell;
    /// The cell of `c`'s translation class that animals are grown from.
    fn origin_of(&self, c: Cell) -> Cell;
    /// `c` moved by the translation taking `from` to `to` (same class).
    fn translate(&self, c: Cell, from: Cell, to: Cell) -> Cell;
    /// One origin per translation class of cells.
    fn origins(&self) -> Vec<Cell>;
    /// The z coordinate whose cells symmetry `g` maps to cells with z
    /// coordinate `z`, when z coordinates are layers that symmetries
    /// permute (the faces of a tiling), else `None`.
    fn preimage_layer(&self, _g: usize, _z: usize) -> Option<usize> {
        None
    }
    /// Whether animals grown from `origin` can be the ones counted for
    /// their class (free kinds): on a tiling, only when its face is the
    /// least of its orbit under the symmetries, since the counted image
    /// has the most cells on the lowest faces.
    fn leads_orbit(&self, _origin: Cell) -> bool {
        true
    }
    /// Whether the animal encloses a cell outside it.
    fn has_hole(&self, cells: &[Cell], seen: &mut IdSet) -> bool;
    /// Per face: the ids of its corners and of its sides (as
    /// [`Tiling::boundary`]), when holes are found by Euler characteristic.
    fn boundary(&self) -> Option<[&[Vec<Cell>]; 2]> {
        None
    }
    /// The extent of cells an animal of `size` cells grown from an origin
    /// can reach: (radius in x and y, number of z layers, z of layer 0).
    fn reach(&self, size: usize) -> (i32, usize, i32);
}

impl Geometry for Lattice {
    #[inline]
    fn for_each_neighbour(&self, c: Cell, mut f: impl FnMut(Cell)) {
        let (cells, n) = self.neighbour_array(c);
        for &m in &cells[..n] {
            f(m);
        }
    }
    fn group_order(&self) -> usize {
        self.point_group_order()
    }
    #[inline]
    fn transform(&self, g: usize, c: Cell) -> Cell {
        Lattice::transform(*self, g, c)
    }
    fn origin_of(&self, c: Cell) -> Cell {
        Lattice::origin_of(*self, c)
    }
    fn translate(&self, c: Cell, from: Cell, to: Cell) -> Cell {
        Lattice::translate(*self, c, from, to)
    }
    fn origins(&self) -> Vec<Cell> {
        Lattice::origins(*self)
    }
    fn has_hole(&self, cells: &[Cell], _: &mut IdSet) -> bool {
        has_hole(*self, cells)
    }
    fn reach(&self, size: usize) -> (i32, usize, i32) {
        // Triangle cells move two x steps per corner step: allow twice the reach.
        let radius = 2 * size as i32 + 3;
        if *self == Lattice::Cubic {
            (radius, (2 * radius + 1) as usize, radius)
        } else {
            (radius, 1, 0)
        }
    }
}

impl Geometry for Tiling {
    #[inline]
    fn for_each_neighbour(&self, c: Cell, f: impl FnMut(Cell)) {
        Tiling::for_each_neighbour(self, c, f);
    }
    fn group_order(&self) -> usize {
        Tiling::group_order(self)
    }
    #[inline]
    fn transform(&self, g: usize, c: Cell) -> Cell {
        Tiling::transform(self, g, c)
    }
    fn origin_of(&self, c: Cell) -> Cell {
        [0, 0, c[2]]
    }
    #[inline]
    fn preimage_layer(&self, g: usize, z: usize) -> Option<usize> {
        self.preimage_face(g, z)
    }
    fn leads_orbit(&self, origin: Cell) -> bool {
        (0..self.group_order()).all(|g| self.transform(g, origin)[2] >= origin[2])
    }
    fn translate(&self, c: Cell, from: Cell, to: Cell) -> Cell {
        [c[0] - from[0] + to[0], c[1] - from[1] + to[1], c[2]]
    }
    fn origins(&self) -> Vec<Cell> {
        (0..self.faces() as i32).map(|f| [0, 0, f]).collect()
    }
    fn has_hole(&self, cells: &[Cell], seen: &mut IdSet) -> bool {
        Tiling::has_hole(self, cells, seen)
    }
    fn boundary(&self) -> Option<[&[Vec<Cell>]; 2]> {
        Some(Tiling::boundary(self))
    }
    fn reach(&self, size: usize) -> (i32, usize, i32) {
        (Tiling::reach(self) * size as i32 + 2, self.faces(), 0)
    }
}

/// The number of animals of `size` cells of `kind` on `geometry`, counted
/// by `threads` threads (each takes every `threads`-th subtree of the
/// enumeration below a fixed depth; the sum does not depend on the split).
pub fn count<G: Geometry>(
    geometry: &G,
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
        return count_share(geometry, size, kind, (0, 1), budget, None);
    }
    let results: Vec<Result<u64, Exhausted>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mut own = budget.clone();
                scope.spawn(move || count_share(geometry, size, kind, (t, threads), &mut own, None))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(Exhausted::Cancelled)))
            .collect()
    });
    results.into_iter().sum()
}

/// The most cells the enumeration's marks grid may span (one byte each).
const MAX_GRID_CELLS: usize = 1 << 28;

/// The depth at which subtrees are dealt out to threads.
const SPLIT_DEPTH: usize = 4;

/// Every animal of `size` cells of `kind` on `geometry`, one per class
/// (the one the count counts), listed on this thread (the budget's entry
/// cap bounds the list).
pub fn list<G: Geometry>(
    geometry: &G,
    size: usize,
    kind: Kind,
    budget: &mut Budget,
) -> Result<Vec<Vec<Cell>>, Exhausted> {
    let mut out = Vec::new();
    if size > 0 {
        count_share(geometry, size, kind, (0, 1), budget, Some(&mut out))?;
    }
    Ok(out)
}

fn count_share<G: Geometry>(
    geometry: &G,
    size: usize,
    kind: Kind,
    share: (usize, usize),
    budget: &mut Budget,
    mut listed: Option<&mut Vec<Vec<Cell>>>,
) -> Result<u64, Exhausted> {
    let mut total = 0;
    let images = match kind {
        Kind::Fixed => ImageTable::default(),
        _ => ImageTable::new(geometry, &Grid::new(geometry.reach(size))?),
    };
    for origin in geometry.origins() {
        if kind != Kind::Fixed && !geometry.leads_orbit(origin) {
            continue;
        }
        let mut run = Run {
            geometry,
            size,
            kind,
            origin,
            grid: Grid::new(geometry.reach(size))?,
            euler: match kind {
                Kind::FreeSimplyConnected => Euler::new(geometry, geometry.reach(size).0),
                _ => None,
            },
            cells: Vec::with_capacity(size),
            levels: vec![Vec::new(); size + 1],
            fresh: Vec::new(),
            share,
            dealt: 0,
            scratch: Scratch::default(),
            images: &images,
            found: 0,
            budget: &mut *budget,
            listed: listed.as_deref_mut(),
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

struct Run<'b, G> {
    geometry: &'b G,
    size: usize,
    kind: Kind,
    origin: Cell,
    grid: Grid,
    /// The branch's vertices and sides, when holes are found from them.
    euler: Option<Euler<'b>>,
    cells: Vec<Cell>,
    /// The untried cells of each level of the recursion.
    levels: Vec<Vec<Cell>>,
    /// The cells each level of the recursion marked, to unmark (a stack).
    fresh: Vec<Cell>,
    /// This thread's part: (index, of how many).
    share: (usize, usize),
    /// Subtrees met at the split depth so far.
    dealt: usize,
    scratch: Scratch,
    /// Every grid cell's packed image under every symmetry.
    images: &'b ImageTable,
    found: u64,
    budget: &'b mut Budget,
    /// Where each animal counted goes, when listing rather than counting.
    listed: Option<&'b mut Vec<Vec<Cell>>>,
}

impl<G: Geometry> Run<'_, G> {
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
                    if let Some(listed) = self.listed.as_mut() {
                        self.budget.expand(listed.len())?;
                        listed.push(self.cells.clone());
                    }
                }
            } else {
                let mut next = std::mem::take(&mut self.levels[depth + 1]);
                next.clear();
                next.extend_from_slice(&self.levels[depth]);
                let before = next.len();
                let (origin, grid) = (self.origin, &mut self.grid);
                self.geometry.for_each_neighbour(c, |m| {
                    if after(m, origin) && !grid.marked(m) {
                        grid.mark(m);
                        next.push(m);
                    }
                });
                let marked_from = self.fresh.len();
                self.fresh.extend_from_slice(&next[before..]);
                self.levels[depth + 1] = next;
                if let Some(euler) = self.euler.as_mut() {
                    euler.add(c, 1);
                }
                if self.cells.len() + 1 == self.size && self.kind != Kind::Fixed {
                    let prefix = &mut self.scratch.prefix;
                    prefix.clear();
                    prefix.extend(self.cells.iter().map(|&c| pack(c)));
                    prefix.sort_unstable();
                }
                self.grow(depth + 1)?;
                if let Some(euler) = self.euler.as_mut() {
                    euler.add(c, -1);
                }
                for &m in &self.fresh[marked_from..] {
                    self.grid.unmark(m);
                }
                self.fresh.truncate(marked_from);
            }
            self.cells.pop();
        }
        Ok(())
    }

    fn accept(&mut self) -> bool {
        match self.kind {
            Kind::Fixed => true,
            Kind::Free => {
                self.scratch
                    .is_least_image(self.geometry, self.images, &self.grid, &self.cells)
            }
            Kind::FreeSimplyConnected => {
                self.scratch
                    .is_least_image(self.geometry, self.images, &self.grid, &self.cells)
                    && match (&self.euler, self.cells.last()) {
                        (Some(euler), Some(&last)) => {
                            euler.simply_connected_with(last, self.cells.len())
                        }
                        _ => !self.geometry.has_hole(&self.cells, &mut self.scratch.seen),
                    }
            }
        }
    }
}

/// The vertices and sides of the union of the closed faces of a branch's
/// cells (all but the last of an animal), as counts per vertex and side id
/// in a dense box: χ = V - E + F of the animal is then found from the last
/// face's corners and sides alone (docs/soundness.md, A4).
struct Euler<'a> {
    /// Per face: corner ids, side ids; per kind (vertices, sides) below.
    tables: [&'a [Vec<Cell>]; 2],
    /// How many of the cells hold each id.
    counts: [Vec<u16>; 2],
    /// The number of ids held (V and E), and of classes of ids.
    held: [i64; 2],
    classes: [usize; 2],
    /// The least x and y of an id, and the box's width in x.
    least: [i32; 2],
    width: usize,
}

/// The most counts an [`Euler`] box holds per kind (two bytes each; a
/// count is at most the faces at a vertex, under 64 faces of 24 corners).
const MAX_EULER_IDS: usize = 1 << 22;

impl<'a> Euler<'a> {
    /// Counts for the ids of cells within `radius` of the origin, when the
    /// geometry has boundary tables and the box is not too large.
    fn new(geometry: &'a impl Geometry, radius: i32) -> Option<Euler<'a>> {
        let tables = geometry.boundary()?;
        let ids = || tables.iter().flat_map(|t| t.iter().flatten());
        // Per axis: the offsets' range (faces may be drawn far from the
        // unit cell, all their ids offset alike).
        let range = |a: usize| {
            let (lo, hi) = (ids().map(|k| k[a]).min()?, ids().map(|k| k[a]).max()?);
            Some((
                lo.checked_sub(radius)?,
                usize::try_from(hi - lo).ok()? + 2 * radius as usize + 1,
            ))
        };
        let ((x0, width), (y0, height)) = (range(0)?, range(1)?);
        let classes = tables.map(|t| t.iter().flatten().map(|k| k[2] as usize + 1).max());
        let classes = classes.map(|c| c.unwrap_or(0));
        let size = |c: usize| width.saturating_mul(height).saturating_mul(c);
        if classes.iter().any(|&c| size(c) > MAX_EULER_IDS) {
            return None;
        }
        let counts = classes.map(|c| vec![0; size(c)]);
        let (held, least) = ([0, 0], [x0, y0]);
        Some(Euler {
            tables,
            counts,
            held,
            classes,
            least,
            width,
        })
    }

    /// The ids of kind `kind` of cell `c`'s face, as box indices.
    fn ids(&self, kind: usize, c: Cell) -> impl Iterator<Item = usize> + 'a {
        let ([x0, y0], width, classes) = (self.least, self.width, self.classes[kind]);
        let list = self.tables[kind].get(c[2] as usize).into_iter().flatten();
        list.map(move |k| {
            let (x, y) = ((c[0] + k[0] - x0) as usize, (c[1] + k[1] - y0) as usize);
            (y * width + x) * classes + k[2] as usize
        })
    }

    /// Adds cell `c` to the union (`step` 1) or takes it back out (-1).
    fn add(&mut self, c: Cell, step: i8) {
        for kind in 0..2 {
            for i in self.ids(kind, c) {
                let count = &mut self.counts[kind][i];
                let was = i64::from(*count != 0);
                *count = if step > 0 { *count + 1 } else { *count - 1 };
                self.held[kind] += i64::from(*count != 0) - was;
            }
        }
    }

    /// Whether the union with cell `c` added, `faces` cells in all, has
    /// Euler characteristic 1 (no hole: the cells are edge-connected).
    fn simply_connected_with(&self, c: Cell, faces: usize) -> bool {
        let new = |kind: usize| {
            self.ids(kind, c)
                .filter(|&i| self.counts[kind][i] == 0)
                .count()
        };
        let [v, e] = [0, 1].map(|kind| self.held[kind] + new(kind) as i64);
        v - e + faces as i64 == 1
    }
}

/// Buffers for the canonical-form test, reused across animals.
#[derive(Default)]
struct Scratch {
    /// The packed cells of the animal but its last, sorted: set by the
    /// parent before its children are tried.
    prefix: Vec<u64>,
    own: Vec<u64>,
    seen: IdSet,
    packed: Vec<u64>,
}

impl Scratch {
    /// Whether the animal's normalised form is the least of its images'.
    /// An image is compared element by element as its sorted order is
    /// found (a selection step each), which nearly always decides within
    /// the first two elements: no image is sorted in full unless it ties.
    fn is_least_image(
        &mut self,
        geometry: &impl Geometry,
        images: &ImageTable,
        grid: &Grid,
        cells: &[Cell],
    ) -> bool {
        // Grown from its origin, the animal is its own normal form: its
        // cells packed and sorted, the parent's sorted form with the last
        // cell inserted.
        self.own.clear();
        self.own.extend_from_slice(&self.prefix);
        if let Some(&last) = cells.last() {
            let last = pack(last);
            self.own
                .insert(self.own.partition_point(|&p| p < last), last);
        }
        // Where z coordinates are layers that symmetries permute (the faces
        // of a tiling), animals are ordered first by how many cells each
        // layer holds, more cells on lower layers first (lexicographically),
        // then by their normal forms: any total order on an orbit's
        // translation classes picks one of them. An image's counts are the
        // animal's permuted, so most images are decided without moving a
        // cell. (Equal counts mean equal least layers: the normal forms'
        // first cells agree.)
        let mut counts = [0u8; 64];
        let layered = geometry.preimage_layer(0, 0).is_some();
        if layered {
            for c in cells {
                if let Some(n) = counts.get_mut(c[2] as usize) {
                    *n = n.saturating_add(1);
                }
            }
        }
        'images: for g in 1..geometry.group_order() {
            if layered {
                for z in 0..counts.len() {
                    let Some(from) = geometry.preimage_layer(g, z) else {
                        break;
                    };
                    let image = counts.get(from).copied().unwrap_or(0);
                    match image.cmp(&counts[z]) {
                        std::cmp::Ordering::Greater => return false,
                        std::cmp::Ordering::Less => continue 'images,
                        std::cmp::Ordering::Equal => {}
                    }
                }
            }
            // Packing is linear in the coordinates (each field stays in its
            // range), so the image translated is the image packed plus one
            // constant: the packed image is compared with the own form
            // minus that constant, without a pass to translate.
            self.packed.clear();
            let (mut least, mut delta) = (u64::MAX, 0);
            for &c in cells {
                let (p, d) = images.image(geometry, g, grid, c);
                if p < least {
                    (least, delta) = (p, d);
                }
                self.packed.push(p);
            }
            let image = &mut self.packed;
            for k in 0..image.len() {
                let mut at = k;
                for i in k + 1..image.len() {
                    if image[i] < image[at] {
                        at = i;
                    }
                }
                image.swap(k, at);
                match image[k].wrapping_add(delta).cmp(&self.own[k]) {
                    std::cmp::Ordering::Less => return false,
                    std::cmp::Ordering::Greater => break,
                    std::cmp::Ordering::Equal => {}
                }
            }
        }
        true
    }
}

/// The packed image of every cell of an enumeration's grid under every
/// symmetry, with the constant that translates a packed image so that the
/// cell lies on the origin of its class: the canonical-form test's work per
/// cell becomes one load. Empty (images computed as asked) for a grid too
/// large to tabulate.
#[derive(Default)]
struct ImageTable {
    /// Grid cells per symmetry.
    cells: usize,
    entries: Vec<(u64, u64)>,
}

/// The most entries an image table holds (16 bytes each).
const MAX_IMAGE_ENTRIES: usize = 1 << 22;

impl ImageTable {
    fn new(geometry: &impl Geometry, grid: &Grid) -> ImageTable {
        let cells = grid.marks.len();
        let order = geometry.group_order();
        if cells.saturating_mul(order) > MAX_IMAGE_ENTRIES {
            return ImageTable::default();
        }
        let mut entries = Vec::with_capacity(cells * order);
        for g in 0..order {
            for index in 0..cells {
                entries.push(packed_image(geometry, g, grid.cell(index)));
            }
        }
        ImageTable { cells, entries }
    }

    /// The packed image of `c` under `g` and its translating constant.
    #[inline]
    fn image(&self, geometry: &impl Geometry, g: usize, grid: &Grid, c: Cell) -> (u64, u64) {
        match self.entries.get(g * self.cells + grid.index(c)) {
            Some(&entry) => entry,
            None => packed_image(geometry, g, c),
        }
    }
}

/// `c`'s image under `g`, packed, and what translating the image to the
/// origin of its class adds to it (packing is linear).
fn packed_image(geometry: &impl Geometry, g: usize, c: Cell) -> (u64, u64) {
    let t = geometry.transform(g, c);
    let p = pack(t);
    let origin = geometry.origin_of(t);
    (p, pack(geometry.translate(t, t, origin)).wrapping_sub(p))
}

/// `cells` sorted and translated so that its least cell is the origin of
/// that cell's orientation.
pub fn normalised(geometry: &impl Geometry, cells: &[Cell]) -> Vec<Cell> {
    let mut v = cells.to_vec();
    v.sort_by_key(key);
    let Some(&least) = v.first() else {
        return v;
    };
    let origin = geometry.origin_of(least);
    for c in &mut v {
        *c = geometry.translate(*c, least, origin);
    }
    v
}

/// The canonical form of an animal: the least normalised image under the
/// point group.
pub fn canonical(geometry: &impl Geometry, cells: &[Cell]) -> Vec<Cell> {
    least(&normal_images(geometry, cells))
}

/// The normalised images of an animal under the point group, one per
/// symmetry (repeats kept): every congruent copy normalises to one of them.
pub fn normal_images(geometry: &impl Geometry, cells: &[Cell]) -> Vec<Vec<Cell>> {
    (0..geometry.group_order())
        .map(|g| {
            let image: Vec<Cell> = cells.iter().map(|&c| geometry.transform(g, c)).collect();
            normalised(geometry, &image)
        })
        .collect()
}

/// The least of normalised images, the canonical form (empty for none).
pub fn least(images: &[Vec<Cell>]) -> Vec<Cell> {
    images
        .iter()
        .min_by(|a, b| a.iter().map(key).cmp(b.iter().map(key)))
        .cloned()
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
    z0: i32,
}

impl Grid {
    /// Marks for cells within `radius` of the origin in x and y, in
    /// `depth` z layers from `-z0`; refused before it is allocated when a
    /// board's reach makes it larger than [`MAX_GRID_CELLS`].
    fn new((radius, depth, z0): (i32, usize, i32)) -> Result<Grid, Exhausted> {
        let width = usize::try_from(radius)
            .unwrap_or(usize::MAX)
            .saturating_mul(2)
            .saturating_add(1);
        let cells = width.saturating_mul(width).saturating_mul(depth);
        if cells > MAX_GRID_CELLS {
            return Err(Exhausted::Memory(cells));
        }
        Ok(Grid {
            marks: vec![false; cells],
            radius,
            width,
            z0,
        })
    }

    /// The cell at `index` (the inverse of [`Grid::index`]).
    fn cell(&self, index: usize) -> Cell {
        let w = self.width;
        let coordinate = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
        [
            coordinate(index % w) - self.radius,
            coordinate(index / w % w) - self.radius,
            coordinate(index / (w * w)) - self.z0,
        ]
    }

    fn index(&self, c: Cell) -> usize {
        let r = self.radius;
        let w = self.width;
        ((c[2] + self.z0) as usize * w + (c[1] + r) as usize) * w + (c[0] + r) as usize
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
