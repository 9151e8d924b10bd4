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

/// The largest number of cells a grid position may have.
pub const MAX_CELLS: usize = 64;

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

impl Grid {
    /// A position, or `None` when the rectangle is empty, too large, or `free`
    /// names cells outside it.
    pub fn new(rows: usize, cols: usize, free: u64) -> Option<Grid> {
        if rows == 0 || cols == 0 || rows * cols > MAX_CELLS {
            return None;
        }
        let grid = Grid {
            rows: rows as u8,
            cols: cols as u8,
            free,
        };
        (free & !grid.all()).eq(&0).then_some(grid)
    }

    /// The empty `rows x cols` board.
    pub fn empty_board(rows: usize, cols: usize) -> Option<Grid> {
        let all = Grid::new(rows, cols, 0)?.all();
        Grid::new(rows, cols, all)
    }

    /// Mask of every cell of the rectangle.
    #[inline]
    pub fn all(&self) -> u64 {
        let n = self.rows as u32 * self.cols as u32;
        if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
    }

    #[inline]
    fn row_mask(&self, r: u32) -> u64 {
        let cols = self.cols as u32;
        let row = if cols == 64 { u64::MAX } else { (1u64 << cols) - 1 };
        row << (r * cols)
    }

    #[inline]
    fn col_mask(&self, c: u32) -> u64 {
        FIRST_COLUMN[self.rows as usize][self.cols as usize] << c
    }

    /// Cells not in the last column (those with a right neighbour).
    #[inline]
    fn not_last_col(&self) -> u64 {
        self.all() & !self.col_mask(self.cols as u32 - 1)
    }

    /// Cells not in the first column (those with a left neighbour).
    #[inline]
    fn not_first_col(&self) -> u64 {
        self.all() & !self.col_mask(0)
    }

    /// Cells edge-adjacent to some cell of `x`.
    #[inline]
    fn neighbours(&self, x: u64) -> u64 {
        let w = self.cols as u32;
        (((x & self.not_last_col()) << 1) | ((x & self.not_first_col()) >> 1) | (x << w) | (x >> w))
            & self.all()
    }

    /// The Cram components left after filling `placed` (a domino) in this
    /// position, which must be one Cram component (as every canonical component is).
    ///
    /// A fast path for the search's inner loop: the rest of a connected set stays
    /// connected when the removed cells' neighbours are connected to each other
    /// inside the ring of cells around the domino. Only when that local test
    /// fails is the full flood fill of [`Grid::components_into`] run.
    pub fn cram_components_after(&self, placed: u64, out: &mut Vec<Grid>) {
        let rest = Grid { free: self.free & !placed, ..*self };
        // Cells that lost their last free neighbour can never be used again.
        let live = rest.free & rest.neighbours(rest.free);
        if live == 0 {
            return;
        }
        let touching = rest.neighbours(placed) & live;
        let across = placed | ((placed & self.not_last_col()) << 1) | ((placed & self.not_first_col()) >> 1);
        let ring = (across | across << self.cols | across >> self.cols) & live;
        let mut reached = touching & touching.wrapping_neg();
        loop {
            let grown = reached | (rest.neighbours(reached) & ring);
            if grown == reached {
                break;
            }
            reached = grown;
        }
        if touching & !reached == 0 {
            out.push(rest.canonical_part(live));
        } else {
            rest.components_into(GridRules::Cram, out);
        }
    }

    /// Free cells with a free right neighbour: the left cells of horizontal dominoes.
    #[inline]
    fn horizontal_pairs(&self) -> u64 {
        self.free & (self.free >> 1) & self.not_last_col()
    }

    /// Free cells with a free cell below: the top cells of vertical dominoes.
    #[inline]
    fn vertical_pairs(&self) -> u64 {
        self.free & (self.free >> self.cols)
    }

    /// Calls `f` with the cells filled by each legal move (each move once).
    pub fn for_each_move<E>(
        &self,
        rules: GridRules,
        f: &mut impl FnMut(u64) -> Result<(), E>,
    ) -> Result<(), E> {
        let w = self.cols as u32;
        let (h, v) = (self.horizontal_pairs(), self.vertical_pairs());
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
                for r in 0..self.rows as u32 {
                    independent_subsets(h & self.row_mask(r), 1, 0, &mut |m| f(m | m << 1))?;
                }
                for c in 0..w {
                    independent_subsets(v & self.col_mask(c), w, 0, &mut |m| f(m | m << w))?;
                }
            }
            GridRules::Juvavum => {
                // Single coins are enumerated with the rows only, so that no move is listed twice.
                for r in 0..self.rows as u32 {
                    for_each_nonempty_subset(self.free & self.row_mask(r), 1, f)?;
                }
                for c in 0..w {
                    for_each_nonempty_subset(self.free & self.col_mask(c), 2, f)?;
                }
            }
        }
        Ok(())
    }

    /// Cells some move can still use, and for the row/column rulesets the cells
    /// that horizontal and vertical moves can use.
    fn playable(&self, rules: GridRules) -> (u64, u64) {
        let (h, v) = (self.horizontal_pairs(), self.vertical_pairs());
        let horizontal = h | h << 1;
        let vertical = v | v << self.cols;
        match rules {
            GridRules::Cram | GridRules::DominoJuvavum => (horizontal, vertical),
            GridRules::Juvavum => (self.free, self.free),
        }
    }

    /// The independent components of this position, each as a canonical grid.
    /// Components without a move are left out.
    pub fn components(&self, rules: GridRules) -> Vec<Grid> {
        let mut out = Vec::new();
        self.components_into(rules, &mut out);
        out
    }

    /// As [`Grid::components`], appending to `out` (so a caller can reuse the buffer).
    pub fn components_into(&self, rules: GridRules, out: &mut Vec<Grid>) {
        let (horizontal, vertical) = self.playable(rules);
        let mut live = horizontal | vertical;
        if live == 0 {
            return;
        }
        let (not_last, w) = (self.not_last_col(), self.cols as u32);
        while live != 0 {
            let mut comp = live & live.wrapping_neg();
            loop {
                let grown = match rules {
                    GridRules::Cram => {
                        let across = fill_runs(comp, live, live & not_last, w);
                        across | (((across << w) | (across >> w)) & live)
                    }
                    _ => self.same_line_closure(comp, horizontal, vertical),
                };
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            live &= !comp;
            out.push(self.canonical_part(comp));
        }
    }

    /// Adds to `comp` every horizontally playable cell of a row it meets
    /// horizontally, and every vertically playable cell of a column it meets vertically.
    fn same_line_closure(&self, comp: u64, horizontal: u64, vertical: u64) -> u64 {
        let mut grown = comp;
        for r in 0..self.rows as u32 {
            let row = self.row_mask(r) & horizontal;
            if comp & row != 0 {
                grown |= row;
            }
        }
        for c in 0..self.cols as u32 {
            let col = self.col_mask(c) & vertical;
            if comp & col != 0 {
                grown |= col;
            }
        }
        grown
    }

    /// The cells `part` cut out to their bounding box and put in canonical form.
    fn canonical_part(&self, part: u64) -> Grid {
        let w = self.cols as u32;
        let first_row = part.trailing_zeros() / w;
        let last_row = (63 - part.leading_zeros()) / w;
        let mut columns = 0u64;
        for r in first_row..=last_row {
            columns |= (part >> (r * w)) & self.row_mask(0);
        }
        let first_col = columns.trailing_zeros();
        let last_col = 63 - columns.leading_zeros();
        let (h, bw) = (last_row - first_row + 1, last_col - first_col + 1);
        let row_bits = (1u64 << bw) - 1;
        let mut boxed = 0u64;
        for r in 0..h {
            boxed |= ((part >> ((r + first_row) * w + first_col)) & row_bits) << (r * bw);
        }
        Grid {
            rows: h as u8,
            cols: bw as u8,
            free: boxed,
        }
        .canonical()
    }

    /// The least image of this position under the rectangle's eight symmetries,
    /// oriented so that it has no more rows than columns.
    ///
    /// This is on the hot path of every search, so it avoids the cell-by-cell
    /// [`Grid::transform`]: a half turn is a bit reversal of the whole board and
    /// a flip of the row order moves whole rows.
    pub fn canonical(&self) -> Grid {
        let upright = if self.rows > self.cols { self.transpose() } else { *self };
        let mut best = upright.least_upright_image();
        if upright.rows == upright.cols {
            best = best.min(upright.transpose().least_upright_image());
        }
        Grid { free: best, ..upright }
    }

    /// The least of the four images under the symmetries that keep the orientation.
    fn least_upright_image(&self) -> u64 {
        let x = self.free;
        let flipped = self.flip_rows();
        x.min(flipped).min(self.half_turn(x)).min(self.half_turn(flipped))
    }

    /// The rows in reverse order.
    fn flip_rows(&self) -> u64 {
        let (h, w) = (self.rows as u32, self.cols as u32);
        let row = self.row_mask(0);
        (0..h).fold(0, |out, r| out | ((self.free >> (r * w)) & row) << ((h - 1 - r) * w))
    }

    /// `x` (a set of cells of this rectangle) turned by 180 degrees.
    fn half_turn(&self, x: u64) -> u64 {
        x.reverse_bits() >> (64 - self.rows as u32 * self.cols as u32)
    }

    /// The transposed position (rows become columns).
    fn transpose(&self) -> Grid {
        let (h, w) = (self.rows as u32, self.cols as u32);
        let row = self.row_mask(0);
        let mut out = 0u64;
        for r in 0..h {
            for c in bits((self.free >> (r * w)) & row) {
                out |= 1u64 << (c * h + r);
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
        let syms: &[Symmetry] = if self.rows == self.cols { &SYMMETRIES } else { &SYMMETRIES[..4] };
        syms.iter().copied().filter(|&s| self.transform(s) == *self).collect()
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

/// `FIRST_COLUMN[rows][cols]`: the cells of column 0 of a `rows x cols` grid
/// (zero where the grid would exceed 64 cells). A table, because column masks
/// are needed in the innermost loops of every search.
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

/// A symmetry of a rectangle: optionally transpose, then flip rows and/or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

const fn sym(transpose: bool, flip_rows: bool, flip_cols: bool) -> Symmetry {
    Symmetry { transpose, flip_rows, flip_cols }
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

/// The cells of `x` in the same horizontal run (within a row) as some seed of
/// `seeds` (a subset of `x`); `x_inner` is `x` without its last-column cells.
///
/// Upwards (towards higher columns) a carry does the whole run at once: adding
/// the seeds to `x` clears every run bit from the lowest seed up, and the last
/// column is left out of the addend so that no carry crosses into the next row.
/// Downwards a logarithmic (Kogge-Stone) fill covers runs of up to `width` cells.
#[inline]
fn fill_runs(seeds: u64, x: u64, x_inner: u64, width: u32) -> u64 {
    let inner_seeds = seeds & x_inner;
    let up = ((x_inner.wrapping_add(inner_seeds) ^ x_inner) & x) | seeds;
    let mut filled = up;
    let mut propagate = x_inner;
    // Constant shift amounts compile to single instructions; the loop stops
    // once the steps span the row.
    for step in [1u32, 2, 4, 8, 16, 32] {
        filled |= propagate & (filled >> step);
        if step * 2 >= width {
            break;
        }
        propagate &= propagate >> step;
    }
    filled
}

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
