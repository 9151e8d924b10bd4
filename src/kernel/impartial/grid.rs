//! Rectangular grid positions for Cram, Domino Juvavum and Juvavum.
//!
//! A position is a `rows x cols` rectangle with a bit per cell (bit
//! `r * cols + c`, set = free), at most [`MAX_CELLS`] cells, so that every
//! position is one `u64` and moves are bit operations. This module knows the
//! three rulesets' moves, splits a position into independent components and
//! puts a component into a canonical form under the rectangle's symmetries.
//!
//! Key decision: components are defined by the rules' *move hypergraph*, not by
//! plain adjacency. Two free cells belong together when one move can touch both
//! (Cram: the cells of one domino; Domino Juvavum: horizontally playable cells of
//! one row, vertically playable cells of one column; Juvavum: free cells of one
//! row or column). Moves of different components are then disjoint and never
//! change what the other component can do, so the position is a disjunctive sum
//! (docs/soundness.md, rule I2). Cells no move can ever use are dropped.
//! A Cram component is split further where two cells are twins around a
//! 2x2 square (rule I3b, [`twin_square_cut`]).

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Positions are
// bit boards of at most 64 cells: shifts, masks and indices stay below 64,
// and counts below 2^64.
#![allow(clippy::arithmetic_side_effects)]

/// The largest number of cells a grid position may have.
pub const MAX_CELLS: usize = 64;

/// The longest side a grid may have. A side of 64 would make a row or column
/// step a shift by 64 bits, which `u64` shifts do not support.
pub const MAX_SIDE: usize = 63;

/// A grid ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GridRules {
    /// One domino per move, anywhere.
    Cram,
    /// One or more non-overlapping dominoes inside one row (horizontal) or one column (vertical).
    DominoJuvavum,
    /// One or more coins on free cells of one row or of one column.
    Juvavum,
}

/// A rectangular position: which cells are free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    /// Number of rows (at least 1).
    pub rows: u8,
    /// Number of columns (at least 1).
    pub cols: u8,
    /// Bit `r * cols + c` is set when cell (r, c) is free.
    pub free: u64,
}

/// Masks of one rectangle shape, computed once and used by every bit operation
/// on positions of that shape (the inner loops must not recompute them).
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Number of rows.
    h: u32,
    /// Number of columns (the row stride).
    w: u32,
    /// Every cell.
    all: u64,
    /// Cells of row 0.
    row0: u64,
    /// Cells of column 0.
    col0: u64,
    /// Cells with a right neighbour.
    not_last: u64,
    /// Cells with a left neighbour.
    not_first: u64,
}

impl Frame {
    #[inline]
    fn of(rows: u8, cols: u8) -> Frame {
        let (h, w) = (rows as u32, cols as u32);
        let n = h * w;
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let col0 = FIRST_COLUMN[rows as usize][cols as usize];
        Frame {
            h,
            w,
            all,
            row0: if w >= 64 { u64::MAX } else { (1u64 << w) - 1 },
            col0,
            not_last: all & !(col0 << (w - 1)),
            not_first: all & !col0,
        }
    }

    /// The cells whose east (west, south, north) neighbour is in `m`.
    #[inline]
    fn east_in(&self, m: u64) -> u64 {
        (m >> 1) & self.not_last
    }

    #[inline]
    fn west_in(&self, m: u64) -> u64 {
        (m << 1) & self.not_first
    }

    #[inline]
    fn south_in(&self, m: u64) -> u64 {
        m >> self.w
    }

    #[inline]
    fn north_in(&self, m: u64) -> u64 {
        (m << self.w) & self.all
    }

    /// Cells edge-adjacent to some cell of `x`.
    #[inline]
    fn neighbours(&self, x: u64) -> u64 {
        self.east_in(x) | self.west_in(x) | self.north_in(x) | self.south_in(x)
    }

    #[inline]
    fn row(&self, r: u32) -> u64 {
        self.row0 << (r * self.w)
    }

    #[inline]
    fn col(&self, c: u32) -> u64 {
        self.col0 << c
    }

    /// The row of cell index `i`.
    #[inline]
    fn row_of(&self, i: u32) -> u32 {
        ROW_OF[self.w as usize][i as usize] as u32
    }
}

impl Grid {
    /// A position, or `None` when the rectangle is empty, too large, or `free`
    /// names cells outside it.
    pub fn new(rows: usize, cols: usize, free: u64) -> Option<Grid> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS {
            return None;
        }
        let grid = Grid {
            rows: rows as u8,
            cols: cols as u8,
            free,
        };
        (free & !grid.all() == 0).then_some(grid)
    }

    /// The empty `rows x cols` board.
    pub fn empty_board(rows: usize, cols: usize) -> Option<Grid> {
        let all = Grid::new(rows, cols, 0)?.all();
        Grid::new(rows, cols, all)
    }

    /// Mask of every cell of the rectangle.
    #[inline]
    pub fn all(&self) -> u64 {
        self.frame().all
    }

    #[inline]
    fn frame(&self) -> Frame {
        Frame::of(self.rows, self.cols)
    }

    /// The same rectangle with other free cells.
    #[inline]
    pub fn with(&self, free: u64) -> Grid {
        Grid { free, ..*self }
    }

    /// Calls `f` with the cells filled by each legal move (each move once).
    pub fn for_each_move<E>(
        &self,
        rules: GridRules,
        f: &mut impl FnMut(u64) -> Result<(), E>,
    ) -> Result<(), E> {
        let fr = self.frame();
        let w = fr.w;
        let h = self.free & (self.free >> 1) & fr.not_last;
        let v = self.free & (self.free >> w);
        match rules {
            GridRules::Cram => {
                for i in bits(h) {
                    f(0b11u64 << i)?;
                }
                for i in bits(v) {
                    f(1u64 << i | 1u64 << (i + w))?;
                }
            }
            GridRules::DominoJuvavum => {
                for r in 0..fr.h {
                    independent_subsets(h & fr.row(r), 1, 0, &mut |m| f(m | m << 1))?;
                }
                for c in 0..w {
                    independent_subsets(v & fr.col(c), w, 0, &mut |m| f(m | m << w))?;
                }
            }
            GridRules::Juvavum => {
                // Single coins are enumerated with the rows only, so that no move is listed twice.
                for r in 0..fr.h {
                    for_each_nonempty_subset(self.free & fr.row(r), 1, f)?;
                }
                for c in 0..w {
                    for_each_nonempty_subset(self.free & fr.col(c), 2, f)?;
                }
            }
        }
        Ok(())
    }

    /// The cells horizontal and vertical moves can still use.
    fn playable(&self, fr: &Frame, rules: GridRules) -> (u64, u64) {
        if rules == GridRules::Juvavum {
            return (self.free, self.free);
        }
        let h = self.free & (self.free >> 1) & fr.not_last;
        let v = self.free & (self.free >> fr.w);
        (h | h << 1, v | v << fr.w)
    }

    /// The independent components of this position, each as a canonical grid.
    /// Components without a move are left out.
    pub fn components(&self, rules: GridRules) -> Vec<Grid> {
        let mut out = Vec::new();
        self.components_into(rules, &mut out);
        out
    }

    /// As [`Grid::components`], appending to `out` (so a caller can reuse the buffer).
    /// Cram positions first lose their removable cells ([`without_removable_cells`]),
    /// and their components are cut at twin squares ([`twin_square_cut`]).
    pub fn components_into(&self, rules: GridRules, out: &mut Vec<Grid>) {
        let fr = self.frame();
        let (horizontal, vertical) = self.playable(&fr, rules);
        let mut live = horizontal | vertical;
        if rules == GridRules::Cram {
            live = without_removable_cells(&fr, live);
        }
        while live != 0 {
            let seed = live & live.wrapping_neg();
            if rules == GridRules::Cram {
                let comp = flood(&fr, seed, live);
                live &= !comp;
                self.canonical_part(&fr, comp).push_cram_part(None, out);
            } else {
                let comp = self.same_line_closure(&fr, seed, horizontal, vertical);
                live &= !comp;
                out.push(self.canonical_part(&fr, comp));
            }
        }
    }

    /// The two pieces rule I3b cuts this Cram component (a connected set of
    /// cells) into, if it has a twin square that cuts it (for tests, which
    /// compare it with a detector of their own).
    #[doc(hidden)]
    pub fn twin_square_cut(&self) -> Option<[u64; 2]> {
        twin_square_cut(&self.frame(), self.free)
    }

    /// Appends this canonical Cram component to `out`, or, when a twin
    /// square cuts it (rule I3b), the canonical components of the pieces,
    /// each cut again. With `small`, pieces whose shape gives their value
    /// ([`known_cram_value`]) are not listed but their values XORed into it.
    ///
    /// The cut is looked for in the canonical form, so that a component is
    /// cut the same way wherever it occurs, in whatever orientation.
    fn push_cram_part(self, mut small: Option<&mut u32>, out: &mut Vec<Grid>) {
        let fr = self.frame();
        let Some(pieces) = twin_square_cut(&fr, self.free) else {
            out.push(self);
            return;
        };
        // Each piece is split as a position of its own: cutting the
        // square's edges may leave removable cells (I3a).
        for piece in pieces {
            match small.as_deref_mut() {
                Some(small) => {
                    *small ^= self.cram_parts(&fr, without_removable_cells(&fr, piece), out);
                }
                None => self.with(piece).components_into(GridRules::Cram, out),
            }
        }
    }

    /// The Cram components left after filling `placed` (a domino) in this
    /// position, which must be one Cram component (as every canonical component is).
    ///
    /// A fast path for the search's inner loop: the rest of a connected set stays
    /// connected when the removed cells' neighbours are connected to each other
    /// inside the ring of cells around the domino. Only when that local test
    /// fails are the components flooded one by one from those neighbours.
    ///
    /// `images` are this position's images under its shape's symmetries
    /// ([`ShapeMaps::images`]); when the rest is one component that still spans
    /// the whole rectangle, its canonical form is read off them.
    ///
    /// Components whose values are known from their shape (paths, and sets
    /// of at most four cells: [`known_cram_value`]) are not listed, and the
    /// XOR of those values is returned instead. Components are cut at twin
    /// squares (rule I3b) as [`Grid::components_into`] cuts them.
    pub fn cram_components_after(&self, placed: u64, images: &Images, out: &mut Vec<Grid>) -> u32 {
        let fr = self.frame();
        let rest = self.free & !placed;
        // Cells that lost their last free neighbour can never be used again.
        let mut live = rest & fr.neighbours(rest);
        let reduced = without_removable_cells(&fr, live);
        if reduced != live {
            // Dropped cells may split the rest anywhere, so the local test
            // below does not apply: flood each component.
            return self.cram_parts(&fr, reduced, out);
        }
        let mut touching = fr.neighbours(placed) & live;
        if touching == 0 {
            return 0;
        }
        let across = placed | ((placed & fr.not_last) << 1) | ((placed & fr.not_first) >> 1);
        let ring = (across | across << fr.w | across >> fr.w) & live;
        // Every component of the rest touches the domino (the position was
        // connected), so it contains one of the groups of touching cells that
        // are connected inside the ring.
        let mut groups = [0u64; 8];
        let mut count = 0;
        while touching != 0 {
            let group = flood(&fr, touching & touching.wrapping_neg(), ring);
            touching &= !group;
            groups[count] = group;
            count += 1;
        }
        let mut small = 0;
        let mut rest_is_one = count == 1;
        if !rest_is_one {
            let mut finished = |comp: u64| self.add_cram_part(&fr, comp, &mut small, out);
            rest_is_one = split_in_step(&fr, &mut groups[..count], &mut live, &mut finished);
        }
        if rest_is_one {
            let last_col = fr.col(fr.w - 1);
            let last_row = fr.row(fr.h - 1);
            let spans = live & fr.row0 != 0
                && live & last_row != 0
                && live & fr.col0 != 0
                && live & last_col != 0;
            let part = if spans {
                self.with(images.least_image_without(self.free & !live))
            } else {
                self.canonical_part(&fr, live)
            };
            part.push_cram_part(Some(&mut small), out);
        }
        small
    }

    /// The Cram components of `live` (cells of this position's rectangle), as
    /// [`Grid::cram_components_after`] lists them.
    fn cram_parts(&self, fr: &Frame, mut live: u64, out: &mut Vec<Grid>) -> u32 {
        let mut small = 0;
        while live != 0 {
            let comp = flood(fr, live & live.wrapping_neg(), live);
            live &= !comp;
            self.add_cram_part(fr, comp, &mut small, out);
        }
        small
    }

    /// One Cram component `comp` of this position's rectangle: its value
    /// XORed into `small` when its shape gives it ([`known_cram_value`]),
    /// otherwise its canonical form appended to `out` (cut by rule I3b).
    fn add_cram_part(&self, fr: &Frame, comp: u64, small: &mut u32, out: &mut Vec<Grid>) {
        match known_cram_value(fr, comp) {
            Some(value) => *small ^= value,
            None => self
                .canonical_part(fr, comp)
                .push_cram_part(Some(small), out),
        }
    }

    /// The components left after filling `placed` in this position (one
    /// component, as every canonical one is), appended to `out`; Cram's
    /// fast path ([`Grid::cram_components_after`]) may fold small parts
    /// into the returned XOR of their values.
    pub fn parts_after(
        &self,
        rules: GridRules,
        placed: u64,
        images: &Images,
        out: &mut Vec<Grid>,
    ) -> u32 {
        if rules == GridRules::Cram {
            return self.cram_components_after(placed, images, out);
        }
        self.with(self.free & !placed).components_into(rules, out);
        0
    }

    /// The closure of `seed` under "same row, horizontally playable" and "same
    /// column, vertically playable".
    fn same_line_closure(&self, fr: &Frame, seed: u64, horizontal: u64, vertical: u64) -> u64 {
        let mut comp = seed;
        loop {
            let mut grown = comp;
            for r in 0..fr.h {
                let row = fr.row(r) & horizontal;
                if comp & row != 0 {
                    grown |= row;
                }
            }
            for c in 0..fr.w {
                let col = fr.col(c) & vertical;
                if comp & col != 0 {
                    grown |= col;
                }
            }
            if grown == comp {
                return comp;
            }
            comp = grown;
        }
    }

    /// The connected groups of free cells that have a free neighbour (the
    /// parts a domino game splits into), each cut to its bounding box and
    /// replaced by the least of its images under the flips that keep rows as
    /// rows: identity, upside down, left to right, half turn. Unlike
    /// [`Grid::canonical`] it never transposes, because in a partizan domino
    /// game a transpose exchanges the players.
    pub fn flip_components(&self) -> Vec<Grid> {
        let fr = self.frame();
        let mut live = self.free & fr.neighbours(self.free);
        let mut out = Vec::new();
        while live != 0 {
            let comp = flood(&fr, live & live.wrapping_neg(), live);
            live &= !comp;
            let boxed = self.boxed_part(&fr, comp);
            out.push(boxed.with(least_upright_image(&boxed.frame(), boxed.free)));
        }
        out
    }

    /// The transposed position: rows become columns.
    pub fn transposed(&self) -> Grid {
        self.transpose()
    }

    /// The cells `part` cut out to their bounding box and put in canonical form.
    fn canonical_part(&self, fr: &Frame, part: u64) -> Grid {
        self.boxed_part(fr, part).canonical()
    }

    /// The cells `part` cut out to their bounding box.
    fn boxed_part(&self, fr: &Frame, part: u64) -> Grid {
        let w = fr.w;
        let first_row = fr.row_of(part.trailing_zeros());
        let last_row = fr.row_of(63 - part.leading_zeros());
        let mut columns = 0u64;
        let mut r = first_row;
        while r <= last_row {
            columns |= part >> (r * w);
            r += 1;
        }
        columns &= fr.row0;
        let first_col = columns.trailing_zeros();
        let bw = 64 - columns.leading_zeros() - first_col;
        let h = last_row - first_row + 1;
        let shifted = part >> (first_row * w + first_col);
        let boxed = if bw == w {
            shifted
        } else {
            let row_bits = (1u64 << bw) - 1;
            let mut boxed = 0u64;
            let mut r = 0;
            while r < h {
                boxed |= ((shifted >> (r * w)) & row_bits) << (r * bw);
                r += 1;
            }
            boxed
        };
        Grid {
            rows: h as u8,
            cols: bw as u8,
            free: boxed,
        }
    }

    /// The least image of this position under the rectangle's eight symmetries,
    /// oriented so that it has no more rows than columns.
    ///
    /// This is on the hot path of every search, so it avoids the cell-by-cell
    /// [`Grid::transform`]: a half turn is a bit reversal of the whole board and
    /// a flip of the row order moves whole rows.
    pub fn canonical(&self) -> Grid {
        let upright = if self.rows > self.cols {
            self.transpose()
        } else {
            *self
        };
        let fr = upright.frame();
        let mut best = least_upright_image(&fr, upright.free);
        if upright.rows == upright.cols {
            best = best.min(least_upright_image(&fr, upright.transpose().free));
        }
        upright.with(best)
    }

    /// The transposed position (rows become columns).
    fn transpose(&self) -> Grid {
        let fr = self.frame();
        let mut out = 0u64;
        if fr.w <= 8 {
            // A row of at most eight cells is spread to its column in one lookup.
            let spread = &SPREAD[fr.h as usize];
            for r in 0..fr.h {
                out |= spread[((self.free >> (r * fr.w)) & fr.row0) as usize] << r;
            }
        } else {
            for r in 0..fr.h {
                for c in bits((self.free >> (r * fr.w)) & fr.row0) {
                    out |= 1u64 << (c * fr.h + r);
                }
            }
        }
        Grid {
            rows: self.cols,
            cols: self.rows,
            free: out,
        }
    }

    /// The symmetries of the rectangle that keep its shape (4, or 8 when square)
    /// and map this position's free cells onto themselves.
    pub fn stabiliser(&self) -> Vec<Symmetry> {
        let syms: &[Symmetry] = if self.rows == self.cols {
            &SYMMETRIES
        } else {
            &SYMMETRIES[..4]
        };
        syms.iter()
            .copied()
            .filter(|&s| self.transform(s) == *self)
            .collect()
    }

    /// The image of this position under `sym`, cell by cell.
    pub fn transform(&self, sym: Symmetry) -> Grid {
        let (h, w) = (self.rows as u32, self.cols as u32);
        let (h2, w2) = if sym.transpose { (w, h) } else { (h, w) };
        let mut out = 0u64;
        for i in bits(self.free) {
            let (r, c) = (i / w, i % w);
            let (r2, c2) = if sym.transpose { (c, r) } else { (r, c) };
            let r2 = if sym.flip_rows { h2 - 1 - r2 } else { r2 };
            let c2 = if sym.flip_cols { w2 - 1 - c2 } else { c2 };
            out |= 1u64 << (r2 * w2 + c2);
        }
        Grid {
            rows: h2 as u8,
            cols: w2 as u8,
            free: out,
        }
    }
}

/// Where each cell goes under each symmetry that keeps a rectangle's shape
/// (the first four of [`SYMMETRIES`], all eight when the rectangle is square).
#[derive(Clone, Debug)]
pub struct CellMaps {
    /// `cell[s][i]`: the image of cell `i` under symmetry `s`.
    cell: [[u8; MAX_CELLS]; 8],
    /// How many symmetries keep the shape (4 or 8).
    count: usize,
}

/// The cell maps of every rectangle shape met so far, built on first use.
#[derive(Default)]
pub struct ShapeMaps {
    /// Indexed by `rows * (MAX_CELLS + 1) + cols`.
    maps: Vec<Option<Box<CellMaps>>>,
}

/// A position's images under its shape's symmetries, with the maps that
/// produced them (so that subsets of the position can be mapped the same way).
pub struct Images<'a> {
    maps: &'a CellMaps,
    image: [u64; 8],
}

impl ShapeMaps {
    /// The images of `grid` under the symmetries that keep its shape.
    pub fn images(&mut self, grid: &Grid) -> Images<'_> {
        let index = grid.rows as usize * (MAX_CELLS + 1) + grid.cols as usize;
        if self.maps.len() <= index {
            self.maps.resize_with(index + 1, || None);
        }
        let maps = self.maps[index].get_or_insert_with(|| Box::new(CellMaps::of(grid)));
        let mut image = [0u64; 8];
        for (s, slot) in image.iter_mut().enumerate().take(maps.count) {
            *slot = maps.map(s, grid.free);
        }
        Images { maps, image }
    }
}

impl CellMaps {
    fn of(grid: &Grid) -> CellMaps {
        let count = if grid.rows == grid.cols { 8 } else { 4 };
        let mut cell = [[0u8; MAX_CELLS]; 8];
        for (s, &sym) in SYMMETRIES.iter().enumerate().take(count) {
            for i in bits(grid.all()) {
                let image = grid.with(1u64 << i).transform(sym).free;
                cell[s][i as usize] = image.trailing_zeros() as u8;
            }
        }
        CellMaps { cell, count }
    }

    #[inline]
    fn map(&self, s: usize, x: u64) -> u64 {
        bits(x).fold(0, |acc, i| acc | 1u64 << self.cell[s][i as usize])
    }
}

impl Images<'_> {
    /// The least image of the position with the cells `removed` taken away.
    /// This is the canonical form of what is left when that still spans the
    /// position's whole rectangle and the position is upright (as every
    /// canonical position is): [`Grid::canonical`] takes the least image under
    /// exactly these symmetries.
    #[inline]
    pub fn least_image_without(&self, removed: u64) -> u64 {
        let mut least = u64::MAX;
        for s in 0..self.maps.count {
            least = least.min(self.image[s] & !self.maps.map(s, removed));
        }
        least
    }
}

/// The normal-play Cram value of a connected set of cells when its shape
/// tells it: sets of at most four cells and paths; `None` otherwise.
///
/// Cram on a connected set is played on the graph of its cells (a move takes
/// both ends of an edge). A set whose cells have at most two neighbours each
/// and one edge fewer than cells is a path, and Cram on a path of n cells is
/// Dawson's Kayles (octal 0.07) on a heap of n: a move removes two adjacent
/// cells and leaves the paths on either side ([`PATH_VALUES`]). The other sets
/// of at most four cells are the 2x2 block, a 4-cycle, value 0 (every move
/// leaves one domino, value 1), and the T-tetromino, a star with three leaves,
/// value 1 (every move leaves two single cells, value 0). Rule I1 applied to
/// each graph; tests compare every board of up to 12 cells with a naive search.
#[inline]
fn known_cram_value(fr: &Frame, comp: u64) -> Option<u32> {
    let east = comp & (comp >> 1) & fr.not_last;
    let south = comp & (comp >> fr.w);
    let edges = east.count_ones() + south.count_ones();
    let cells = comp.count_ones();
    if edges + 1 == cells {
        // A tree: a path unless some cell has three or four neighbours.
        let (w, e) = (east << 1, east);
        let (n, s) = (south << fr.w, south);
        let three = (w & e & (n | s)) | (n & s & (w | e));
        if three == 0 {
            return Some(PATH_VALUES[cells as usize]);
        }
        // The only tree of at most four cells that is not a path: the T.
        return (cells == 4).then_some(1);
    }
    // The only set of at most four cells with a cycle: the 2x2 block.
    (cells == 4).then_some(0)
}

/// `PATH_VALUES[n]`: the Cram value of a path of `n` cells, which is the
/// value of a heap of `n` in Dawson's Kayles (octal 0.07), by rule I1.
static PATH_VALUES: [u32; MAX_CELLS + 1] = path_values();

const fn path_values() -> [u32; MAX_CELLS + 1] {
    let mut value = [0u32; MAX_CELLS + 1];
    let mut n = 2;
    while n <= MAX_CELLS {
        // Options: paths of a and n - 2 - a cells; values are below 64 here.
        let mut seen = 0u128;
        let mut a = 0;
        while a <= n - 2 {
            seen |= 1u128 << (value[a] ^ value[n - 2 - a]);
            a += 1;
        }
        value[n] = seen.trailing_ones();
        n += 1;
    }
    value
}

/// `live` (a Cram position without isolated cells) without its removable
/// cells, dropped round by round until none is left, and without the cells
/// that dropping them isolates. A cell `b` is *removable* when each of its
/// neighbours `n` has a leaf other than `b` (a cell whose only neighbour is
/// `n`). Filling `b` and `n` then isolates that leaf, which is the position
/// filling `n` and the leaf reaches without `b`, and every other move keeps
/// `b` removable; so with and without `b` the position has options of the
/// same values, in normal and in misère play and in every sum (docs/soundness.md,
/// I3a). Tests compare every position of small boards with the naive search.
#[inline]
fn without_removable_cells(fr: &Frame, mut live: u64) -> u64 {
    loop {
        let removable = removable_cells(fr, live);
        if removable == 0 {
            return live;
        }
        live &= !removable;
        live &= fr.neighbours(live);
    }
}

/// Removable cells of `p` (no isolated cells) that can all be dropped at
/// once: the removable cells that are not leaves, and of the leaves of one
/// cell all but the first of east, west, south, north. Dropping them one at
/// a time keeps each of the others removable: a removable cell that is not
/// a leaf has no leaf and no removable neighbour (a neighbour with a leaf
/// `t` is not removable, as `t` has no other leaf), so no cell a condition
/// names is dropped except the extra leaves, and each cell keeps one leaf.
#[inline]
fn removable_cells(fr: &Frame, p: u64) -> u64 {
    let (e, w, s, n) = (
        p & fr.east_in(p),
        p & fr.west_in(p),
        p & fr.south_in(p),
        p & fr.north_in(p),
    );
    let two_or_more = (e & w) | (s & n) | ((e | w) & (s | n));
    let leaf = (e | w | s | n) & !two_or_more;
    // The cells with a leaf to the east (west, south, north).
    let (le, lw, ls, ln) = (
        p & fr.east_in(leaf),
        p & fr.west_in(leaf),
        p & fr.south_in(leaf),
        p & fr.north_in(leaf),
    );
    // A neighbour to the east needs a leaf that is not on its west side,
    // where this cell is; and so on.
    let every_neighbour_has_another_leaf = (!e | fr.east_in(le | ls | ln))
        & (!w | fr.west_in(lw | ls | ln))
        & (!s | fr.south_in(ls | le | lw))
        & (!n | fr.north_in(ln | le | lw));
    let extra_leaves =
        fr.east_in(lw & le) | fr.north_in(ls & (le | lw)) | fr.south_in(ln & (le | lw | ls));
    (p & !leaf & every_neighbour_has_another_leaf) | extra_leaves
}

/// Rule I3b (docs/soundness.md): the two pieces of the Cram component
/// `comp` at its first *twin square* (in cell order) that cuts it, if any.
///
/// Twins are two diagonal cells x, y of a 2x2 square whose only
/// neighbours in `comp` are the square's other two cells p, q: the top
/// left and bottom right cells (nothing of `comp` above or left of the
/// first, below or right of the second), or the top right and bottom left
/// ones, mirrored. Dropping the square's two horizontal edges leaves a
/// game of the same value in every sum, in which x hangs on q alone and y
/// on p alone (p being y's horizontal neighbour). So that game falls in
/// two exactly when p and q are apart once x and y are gone, and its
/// pieces are p's part with y and q's part with x; each is the component
/// its cells form on the board, so `comp` is their sum.
fn twin_square_cut(fr: &Frame, comp: u64) -> Option<[u64; 2]> {
    if fr.h < 2 {
        return None;
    }
    let w = fr.w;
    // The cells whose neighbour above (below, left, right) is in `comp`.
    let (up_in, down_in) = (fr.north_in(comp), fr.south_in(comp));
    let (left_in, right_in) = (fr.west_in(comp), fr.east_in(comp));
    let top_left = comp & !up_in & !left_in & right_in & down_in;
    let bottom_right = comp & !down_in & !right_in & left_in & up_in;
    let top_right = comp & !up_in & !right_in & left_in & down_in;
    let bottom_left = comp & !down_in & !left_in & right_in & up_in;
    // Squares by their top left cell a (b right of it, c below, d both).
    let a_and_d = top_left & (bottom_right >> (w + 1));
    let b_and_c = (top_right & (bottom_left >> (w - 1))) >> 1;
    let mut squares = a_and_d | b_and_c;
    while squares != 0 {
        let a = squares & squares.wrapping_neg();
        squares &= squares - 1;
        let (b, c, d) = (a << 1, a << w, a << (w + 1));
        let (x, y, p, q) = if a_and_d & a != 0 {
            (a, d, b, c)
        } else {
            (b, c, a, d)
        };
        let p_side = flood(fr, p, comp & !(x | y));
        if p_side & q == 0 {
            return Some([p_side | y, comp & !(p_side | y)]);
        }
    }
    None
}

/// Splits `live` into its connected components, given `groups`: disjoint
/// connected sets such that every component contains at least one of them.
///
/// All groups grow a layer at a time, side by side; groups that meet merge,
/// and a group that stops growing is a whole component, which is passed to
/// `finished` and taken out of `live`. So the work is bounded by the radius of
/// the smaller components, not of the largest one. Returns whether what is
/// left in `live` is one more component (which is not passed to `finished`).
fn split_in_step(
    fr: &Frame,
    groups: &mut [u64],
    live: &mut u64,
    finished: &mut impl FnMut(u64),
) -> bool {
    let mut active = groups.len();
    loop {
        if active <= 1 {
            return active == 1;
        }
        let mut i = 0;
        while i < active {
            let grown = groups[i] | (fr.neighbours(groups[i]) & *live);
            if grown == groups[i] {
                finished(grown);
                *live &= !grown;
                active -= 1;
                groups[i] = groups[active];
                continue;
            }
            groups[i] = grown;
            // Groups that meet belong to one component.
            let mut j = 0;
            while j < i {
                if groups[j] & grown != 0 {
                    groups[j] |= grown;
                    active -= 1;
                    groups[i] = groups[active];
                    break;
                }
                j += 1;
            }
            if j == i {
                i += 1;
            }
        }
    }
}

/// The connected part of `within` (4-adjacency) that contains `seed`.
#[inline]
fn flood(fr: &Frame, seed: u64, within: u64) -> u64 {
    let mut comp = seed;
    loop {
        let grown = comp | (fr.neighbours(comp) & within);
        if grown == comp {
            return comp;
        }
        comp = grown;
    }
}

/// The least of the four images of `x` under the symmetries that keep the
/// orientation: itself, rows reversed, half turn, and half turn of rows reversed.
#[inline]
fn least_upright_image(fr: &Frame, x: u64) -> u64 {
    let mut flipped = 0u64;
    let mut r = 0;
    while r < fr.h {
        flipped |= ((x >> (r * fr.w)) & fr.row0) << ((fr.h - 1 - r) * fr.w);
        r += 1;
    }
    let unused = 64 - fr.h * fr.w;
    let half_turn = |y: u64| y.reverse_bits() >> unused;
    x.min(flipped).min(half_turn(x)).min(half_turn(flipped))
}

/// `FIRST_COLUMN[rows][cols]`: the cells of column 0 of a `rows x cols` grid
/// (zero where the grid would exceed 64 cells).
static FIRST_COLUMN: [[u64; MAX_CELLS + 1]; MAX_CELLS + 1] = first_column_table();

const fn first_column_table() -> [[u64; MAX_CELLS + 1]; MAX_CELLS + 1] {
    let mut table = [[0u64; MAX_CELLS + 1]; MAX_CELLS + 1];
    let mut rows = 1;
    while rows <= MAX_CELLS {
        let mut cols = 1;
        while rows * cols <= MAX_CELLS {
            let mut mask = 0u64;
            let mut r = 0;
            while r < rows {
                mask |= 1u64 << (r * cols);
                r += 1;
            }
            table[rows][cols] = mask;
            cols += 1;
        }
        rows += 1;
    }
    table
}

/// `SPREAD[h][b]`: bit `c` of the byte `b` moved to bit `c * h`, for the
/// `c` with `c * h < 64` (a row of a grid `h` rows tall becomes its column in
/// the transpose).
static SPREAD: [[u64; 256]; MAX_CELLS + 1] = spread_table();

const fn spread_table() -> [[u64; 256]; MAX_CELLS + 1] {
    let mut table = [[0u64; 256]; MAX_CELLS + 1];
    let mut h = 1;
    while h <= MAX_CELLS {
        let mut b = 0;
        while b < 256 {
            let mut c = 0;
            while c < 8 && c * h < 64 {
                if b >> c & 1 == 1 {
                    table[h][b] |= 1u64 << (c * h);
                }
                c += 1;
            }
            b += 1;
        }
        h += 1;
    }
    table
}

/// `ROW_OF[w][i]`: the row of cell index `i` in a grid `w` columns wide (a
/// table, because integer division is slow in the inner loop).
static ROW_OF: [[u8; 64]; MAX_CELLS + 1] = row_of_table();

const fn row_of_table() -> [[u8; 64]; MAX_CELLS + 1] {
    let mut table = [[0u8; 64]; MAX_CELLS + 1];
    let mut w = 1;
    while w <= MAX_CELLS {
        let mut i = 0;
        while i < 64 {
            table[w][i] = (i / w) as u8;
            i += 1;
        }
        w += 1;
    }
    table
}

/// A symmetry of a rectangle: optionally transpose, then flip rows and/or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

const fn sym(transpose: bool, flip_rows: bool, flip_cols: bool) -> Symmetry {
    Symmetry {
        transpose,
        flip_rows,
        flip_cols,
    }
}

/// The eight symmetries; the first four keep the rectangle's orientation.
const SYMMETRIES: [Symmetry; 8] = [
    sym(false, false, false),
    sym(false, false, true),
    sym(false, true, false),
    sym(false, true, true),
    sym(true, false, false),
    sym(true, false, true),
    sym(true, true, false),
    sym(true, true, true),
];

/// The indices of the set bits of `x`, lowest first.
pub fn bits(mut x: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros();
            x &= x - 1;
            i
        })
    })
}

/// Calls `f` with every nonempty subset of `avail` in which no two chosen bits
/// are `gap` apart (non-overlapping dominoes whose left/top cells are the bits).
fn independent_subsets<E>(
    avail: u64,
    gap: u32,
    chosen: u64,
    f: &mut impl FnMut(u64) -> Result<(), E>,
) -> Result<(), E> {
    if avail == 0 {
        return if chosen != 0 { f(chosen) } else { Ok(()) };
    }
    let low = avail & avail.wrapping_neg();
    independent_subsets(avail & !low, gap, chosen, f)?;
    independent_subsets(avail & !low & !(low << gap), gap, chosen | low, f)
}

/// Calls `f` with every subset of `set` with at least `min_size` elements (min_size >= 1).
fn for_each_nonempty_subset<E>(
    set: u64,
    min_size: u32,
    f: &mut impl FnMut(u64) -> Result<(), E>,
) -> Result<(), E> {
    let mut sub = set;
    while sub != 0 {
        if sub.count_ones() >= min_size {
            f(sub)?;
        }
        sub = (sub - 1) & set;
    }
    Ok(())
}
