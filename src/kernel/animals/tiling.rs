//! Periodic plane tilings as boards (rule A4 of docs/soundness.md): the
//! kernel takes a unit cell of convex polygons and two periods, checks that
//! their translates tile the plane edge to edge, and derives from the
//! geometry the cells, their neighbours and the congruence group.
//!
//! Key decisions. Coordinates are integers in one of two bases: the square
//! basis (orthonormal) or the hexagonal one (e1 = (1, 0), e2 = (1/2, √3/2)),
//! so every check is exact; a tiling whose regular polygons need other
//! irrationals is given by a combinatorially equal drawing with the same
//! symmetries (an octagon of Z², say). A cell is `[x, y, f]`: face `f` of
//! the unit cell moved by x t1 + y t2, so translations keep the face number
//! and the enumeration's (z, y, x) order is translation invariant.
//!
//! Tiling check: every face strictly convex and counterclockwise, every
//! side of every face met by exactly one reversed side of a translate, and
//! the faces' areas summing to the cell's. Then the glued faces form a
//! closed surface mapped onto the torus R²/Λ by an orientation-preserving
//! branched covering of degree area(faces) / area(cell) = 1, which is a
//! homeomorphism: the translates cover the plane once, edge to edge.
//!
//! Congruences: every isometry of the basis's point group (8 square, 12
//! hexagonal maps) that keeps the periods' lattice, combined with each shift
//! that takes face 0's first corner to a corner of a face of as many sides,
//! is tried on every face of the unit cell; those that map every face onto a
//! face are the symmetries, kept one per class modulo translations.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): a tiling is
// accepted only with coordinates of at most MAX_COORDINATE in absolute value,
// at most MAX_FACES faces of at most MAX_SIDES sides, so every product of two
// coordinates and every sum of a cell's areas stays far inside i64; cells of
// animals stay within a few hundred unit cells of the origin.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::HashMap;

use super::lattice::{Cell, pack};

/// Largest coordinate (absolute value) a tiling may use.
pub const MAX_COORDINATE: i64 = 1 << 20;
/// Most faces in a unit cell.
pub const MAX_FACES: usize = 64;
/// Most sides of a face.
pub const MAX_SIDES: usize = 24;
/// The most unit cells apart two neighbouring faces may lie (in each
/// coordinate): the enumeration's grid grows with it, and a skewed choice
/// of periods is the only way to exceed it.
pub const MAX_REACH: i64 = 16;
/// The largest entry of a symmetry's matrix on unit-cell offsets (larger
/// ones come only from skewed periods, and would overflow cell arithmetic).
const MAX_MATRIX_ENTRY: i32 = 64;
/// The largest unit-cell offset of a face's image under a symmetry (larger
/// ones come only from faces drawn far apart, and would overflow a packed
/// cell).
const MAX_IMAGE_OFFSET: i32 = 1 << 16;

/// A point in basis coordinates.
pub type Point = [i64; 2];

/// The metric the integer coordinates are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basis {
    /// (1, 0) and (0, 1), orthonormal.
    Square,
    /// (1, 0) and (1/2, √3/2): the triangular point lattice.
    Hexagonal,
}

/// An affine map x -> linear x + shift in basis coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Affine {
    /// Rows of the linear part.
    pub linear: [[i64; 2]; 2],
    /// The shift.
    pub shift: Point,
}

impl Affine {
    fn apply(&self, p: Point) -> Point {
        let [[a, b], [c, d]] = self.linear;
        [
            a * p[0] + b * p[1] + self.shift[0],
            c * p[0] + d * p[1] + self.shift[1],
        ]
    }

    fn linear_part(&self, p: Point) -> Point {
        let [[a, b], [c, d]] = self.linear;
        [a * p[0] + b * p[1], c * p[0] + d * p[1]]
    }

    fn det(&self) -> i64 {
        let [[a, b], [c, d]] = self.linear;
        a * d - b * c
    }
}

/// A tiling as given: what a certificate declares, or a built-in drawing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TilingSpec {
    /// How coordinates are read.
    pub basis: Basis,
    /// The two periods t1, t2.
    pub periods: [Point; 2],
    /// The faces of one unit cell, each a polygon given by its corners.
    pub faces: Vec<Vec<Point>>,
    /// Symmetries the author asserts (each is checked; the group used is
    /// always the full one the kernel derives).
    pub symmetries: Vec<Affine>,
}

/// Why a declared tiling is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilingError {
    /// Coordinates, faces or sides beyond the kernel's limits.
    TooLarge,
    /// The periods are parallel (or zero).
    DegeneratePeriods,
    /// A face is not a strictly convex polygon listed counterclockwise.
    NotConvex {
        /// The face's number.
        face: usize,
    },
    /// A side of a face is met by no reversed side of any face's translate.
    UnmatchedSide {
        /// The face's number.
        face: usize,
        /// The side's number (from corner `side` to the next).
        side: usize,
    },
    /// Two faces' translates claim the same side in the same direction
    /// (they overlap).
    SideTwice {
        /// The face's number.
        face: usize,
        /// The side's number.
        side: usize,
    },
    /// Neighbouring faces lie more than [`MAX_REACH`] unit cells apart
    /// (periods far from a reduced basis).
    FarNeighbour {
        /// The face's number.
        face: usize,
        /// The side's number.
        side: usize,
    },
    /// Some translation that is not a combination of the periods maps the
    /// tiling onto itself: the unit cell is larger than a fundamental one.
    PeriodsNotPrimitive,
    /// The faces do not cover the cell exactly once: twice their total
    /// area against twice the cell's, in basis units.
    AreaMismatch {
        /// Twice the faces' total area.
        faces: i64,
        /// Twice the cell's area.
        cell: i64,
    },
    /// A declared symmetry is not an isometry of the basis.
    NotAnIsometry {
        /// The symmetry's number.
        index: usize,
    },
    /// A declared symmetry does not map the tiling onto itself.
    NotASymmetry {
        /// The symmetry's number.
        index: usize,
        /// A face whose image is no face.
        face: usize,
    },
}

/// Why a candidate map is not kept as a symmetry.
enum Unmapped {
    /// This face's image is no face: not a symmetry.
    Face(usize),
    /// A symmetry whose action on unit-cell offsets is too large to hold.
    TooLarge,
}

/// A symmetry modulo translations, as it acts on cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CellMap {
    /// How it maps unit-cell offsets (columns: images of t1 and t2).
    matrix: [[i32; 2]; 2],
    /// The image of face f of the unit cell at offset (0, 0).
    images: Vec<Cell>,
}

/// A checked periodic tiling with its derived structure.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tiling {
    spec: TilingSpec,
    /// Per face: its neighbours as cells relative to offset (0, 0).
    neighbours: Vec<Vec<Cell>>,
    /// Per face: its corners as `[dx, dy, vertex class]`.
    corners: Vec<Vec<Cell>>,
    /// Per face: its sides as `[dx, dy, side class]`.
    sides: Vec<Vec<Cell>>,
    /// Number of symmetries modulo translations.
    order: usize,
    /// The symmetries modulo translations, the identity first, flat for
    /// the enumeration's inner loop: per symmetry g and face f, at
    /// g * faces + f, the matrix and the face's image.
    flat: Vec<([[i32; 2]; 2], Cell)>,
    /// Per symmetry g and face f, at g * faces + f: the face g maps to f.
    preimages: Vec<usize>,
    /// The largest offset between neighbours, in unit cells.
    reach: i32,
}

fn cross(a: Point, b: Point) -> i64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1]]
}

/// m t1 + n t2.
fn combination(t: &[Point; 2], m: i64, n: i64) -> Point {
    [m * t[0][0] + n * t[1][0], m * t[0][1] + n * t[1][1]]
}

/// Reduction modulo the periods' lattice, the periods in the order
/// declared (cells `(x,y,f)` read them so).
struct Periods {
    t: [Point; 2],
    /// t1 × t2, of either sign.
    det: i64,
}

impl Periods {
    /// (m, n, r) with p = m t1 + n t2 + r and r in the half-open cell.
    fn reduce(&self, p: Point) -> (i64, i64, Point) {
        // m = (p × t2) / det and n = (t1 × p) / det exactly for lattice
        // points; floored with the divisor made positive.
        let (sign, size) = (self.det.signum(), self.det.abs());
        let m = (sign * cross(p, self.t[1])).div_euclid(size);
        let n = (sign * cross(self.t[0], p)).div_euclid(size);
        (m, n, sub(p, combination(&self.t, m, n)))
    }

    /// The lattice coefficients of `p`, when it is a lattice vector.
    fn coefficients(&self, p: Point) -> Option<(i64, i64)> {
        let (m, n, r) = self.reduce(p);
        (r == [0, 0]).then_some((m, n))
    }
}

/// The isometries of the basis that fix the origin.
fn point_group(basis: Basis) -> Vec<[[i64; 2]; 2]> {
    match basis {
        Basis::Square => {
            let mut out = Vec::new();
            for swap in [false, true] {
                for sx in [1, -1] {
                    for sy in [1, -1] {
                        out.push(if swap {
                            [[0, sx], [sy, 0]]
                        } else {
                            [[sx, 0], [0, sy]]
                        });
                    }
                }
            }
            out
        }
        Basis::Hexagonal => {
            // A turn by 60 degrees maps a e1 + b e2 to -b e1 + (a + b) e2; the
            // reflection in the e1 axis maps it to (a + b) e1 - b e2.
            let turn = [[0, -1], [1, 1]];
            let mirror = [[1, 1], [0, -1]];
            let mut out = Vec::new();
            let mut m = [[1, 0], [0, 1]];
            for _ in 0..6 {
                out.push(m);
                out.push(multiply(m, mirror));
                m = multiply(turn, m);
            }
            out
        }
    }
}

fn multiply(a: [[i64; 2]; 2], b: [[i64; 2]; 2]) -> [[i64; 2]; 2] {
    [
        [
            a[0][0] * b[0][0] + a[0][1] * b[1][0],
            a[0][0] * b[0][1] + a[0][1] * b[1][1],
        ],
        [
            a[1][0] * b[0][0] + a[1][1] * b[1][0],
            a[1][0] * b[0][1] + a[1][1] * b[1][1],
        ],
    ]
}

/// Whether `poly` is strictly convex, counterclockwise, turning once.
fn strictly_convex(poly: &[Point]) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let side = |i: usize| sub(poly[(i + 1) % n], poly[i]);
    // Directions in angular order from the positive x axis: the half they
    // lie in, then the cross product.
    let half = |d: Point| i32::from(!(d[1] > 0 || (d[1] == 0 && d[0] > 0)));
    let before = |a: Point, b: Point| half(a).cmp(&half(b)).then(0.cmp(&cross(a, b)));
    let mut wraps = 0;
    for i in 0..n {
        let (a, b) = (side(i), side((i + 1) % n));
        if cross(a, b) <= 0 {
            return false;
        }
        if before(b, a).is_lt() {
            wraps += 1;
        }
    }
    // Left turns only, and the sides' directions wrap around once: the
    // boundary turns through exactly one full turn.
    wraps == 1
}

/// Twice the signed area of a polygon, in basis units.
fn twice_area(poly: &[Point]) -> i64 {
    (0..poly.len())
        .map(|i| cross(poly[i], poly[(i + 1) % poly.len()]))
        .sum()
}

impl Tiling {
    /// Checks `spec` and derives its structure.
    pub fn new(spec: TilingSpec) -> Result<Tiling, TilingError> {
        let within = |p: &Point| p.iter().all(|v| v.abs() <= MAX_COORDINATE);
        if spec.faces.is_empty()
            || spec.faces.len() > MAX_FACES
            || spec.faces.iter().any(|f| f.len() > MAX_SIDES)
            || !spec.faces.iter().flatten().all(within)
            || !spec.periods.iter().all(within)
            || spec.symmetries.len() > MAX_FACES
            || !spec
                .symmetries
                .iter()
                .all(|s| within(&s.shift) && s.linear.iter().flatten().all(|v| v.abs() <= 2))
        {
            return Err(TilingError::TooLarge);
        }
        let t = spec.periods;
        let det = cross(t[0], t[1]);
        if det == 0 {
            return Err(TilingError::DegeneratePeriods);
        }
        let periods = Periods { t, det };
        for (face, poly) in spec.faces.iter().enumerate() {
            if !strictly_convex(poly) {
                return Err(TilingError::NotConvex { face });
            }
        }
        // Directed sides: (class of the start, direction) -> (face, offset
        // of the start's unit cell).
        let mut directed: HashMap<(Point, Point), (usize, i64, i64)> = HashMap::new();
        for (face, poly) in spec.faces.iter().enumerate() {
            for (side, &p) in poly.iter().enumerate() {
                let q = poly[(side + 1) % poly.len()];
                let (m, n, r) = periods.reduce(p);
                if directed.insert((r, sub(q, p)), (face, m, n)).is_some() {
                    return Err(TilingError::SideTwice { face, side });
                }
            }
        }
        let faces_area: i64 = spec.faces.iter().map(|f| twice_area(f)).sum();
        if faces_area != 2 * det.abs() {
            return Err(TilingError::AreaMismatch {
                faces: faces_area,
                cell: 2 * det.abs(),
            });
        }
        let mut vertex_classes: HashMap<Point, i32> = HashMap::new();
        let mut side_classes: HashMap<(Point, Point), i32> = HashMap::new();
        let mut neighbours = Vec::new();
        let mut corners = Vec::new();
        let mut sides = Vec::new();
        let mut reach = 0;
        for (face, poly) in spec.faces.iter().enumerate() {
            let (mut around, mut at, mut along) = (Vec::new(), Vec::new(), Vec::new());
            for (side, &p) in poly.iter().enumerate() {
                let q = poly[(side + 1) % poly.len()];
                let (qm, qn, qr) = periods.reduce(q);
                let &(g, gm, gn) = directed
                    .get(&(qr, sub(p, q)))
                    .ok_or(TilingError::UnmatchedSide { face, side })?;
                let (dx, dy) = (qm - gm, qn - gn);
                if dx.abs() > MAX_REACH || dy.abs() > MAX_REACH {
                    return Err(TilingError::FarNeighbour { face, side });
                }
                let offset = [dx as i32, dy as i32, g as i32];
                reach = reach.max(offset[0].abs()).max(offset[1].abs());
                around.push(offset);
                let (m, n, r) = periods.reduce(p);
                let next = vertex_classes.len() as i32;
                let v = *vertex_classes.entry(r).or_insert(next);
                at.push([m as i32, n as i32, v]);
                // A side is named from its lesser end.
                let (a, b) = if p < q { (p, q) } else { (q, p) };
                let (am, an, ar) = periods.reduce(a);
                let next = side_classes.len() as i32;
                let e = *side_classes.entry((ar, sub(b, a))).or_insert(next);
                along.push([am as i32, an as i32, e]);
            }
            neighbours.push(around);
            corners.push(at);
            sides.push(along);
        }
        let mut tiling = Tiling {
            spec,
            neighbours,
            corners,
            sides,
            order: 0,
            flat: Vec::new(),
            preimages: Vec::new(),
            reach,
        };
        let symmetries = tiling.derive_symmetries(&periods, &directed)?;
        // A symmetry that only translates, by a vector outside the periods'
        // lattice, means the periods miss translations of the tiling: its
        // congruences would then not keep that lattice, and fixed animals
        // would be counted up to too few translations.
        if symmetries
            .iter()
            .skip(1)
            .any(|s| s.matrix == [[1, 0], [0, 1]])
        {
            return Err(TilingError::PeriodsNotPrimitive);
        }
        tiling.order = symmetries.len();
        tiling.flat = symmetries
            .iter()
            .flat_map(|s| s.images.iter().map(|&i| (s.matrix, i)))
            .collect();
        // The enumeration packs images of cells into 21-bit fields.
        if tiling
            .flat
            .iter()
            .any(|(_, i)| i[0].abs().max(i[1].abs()) > MAX_IMAGE_OFFSET)
        {
            return Err(TilingError::TooLarge);
        }
        let faces = tiling.faces();
        tiling.preimages = vec![0; tiling.flat.len()];
        for (at, &(_, image)) in tiling.flat.iter().enumerate() {
            let (g, f) = (at / faces, at % faces);
            if let Some(slot) = tiling.preimages.get_mut(g * faces + image[2] as usize) {
                *slot = f;
            }
        }
        for (index, s) in tiling.spec.symmetries.iter().enumerate() {
            if !point_group(tiling.spec.basis).contains(&s.linear) {
                return Err(TilingError::NotAnIsometry { index });
            }
            match tiling.cell_map(s, &periods, &directed) {
                Ok(_) => {}
                Err(Unmapped::Face(face)) => {
                    return Err(TilingError::NotASymmetry { index, face });
                }
                Err(Unmapped::TooLarge) => return Err(TilingError::TooLarge),
            }
        }
        Ok(tiling)
    }

    /// Every symmetry modulo translations, the identity first.
    fn derive_symmetries(
        &self,
        periods: &Periods,
        directed: &HashMap<(Point, Point), (usize, i64, i64)>,
    ) -> Result<Vec<CellMap>, TilingError> {
        let faces = &self.spec.faces;
        let first = faces[0][0];
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for linear in point_group(self.spec.basis) {
            let image = Affine {
                linear,
                shift: [0, 0],
            }
            .apply(first);
            for target in faces.iter().filter(|f| f.len() == faces[0].len()) {
                for &corner in target {
                    let map = Affine {
                        linear,
                        shift: sub(corner, image),
                    };
                    let (_, _, class) = periods.reduce(map.shift);
                    if !seen.insert((linear, class)) {
                        continue;
                    }
                    match self.cell_map(&map, periods, directed) {
                        Ok(cells) => out.push(cells),
                        Err(Unmapped::Face(_)) => {}
                        // A symmetry the kernel cannot hold would be missing
                        // from the group: refused, never dropped.
                        Err(Unmapped::TooLarge) => return Err(TilingError::TooLarge),
                    }
                }
            }
        }
        // The identity (linear part 1, shift 0) is tried first.
        Ok(out)
    }

    /// How `map` acts on cells, or why it does not: a face whose image is
    /// no face, or offsets too large to hold.
    fn cell_map(
        &self,
        map: &Affine,
        periods: &Periods,
        directed: &HashMap<(Point, Point), (usize, i64, i64)>,
    ) -> Result<CellMap, Unmapped> {
        let column = |t: Point| periods.coefficients(map.linear_part(t));
        let (Some(a), Some(b)) = (column(periods.t[0]), column(periods.t[1])) else {
            return Err(Unmapped::Face(0));
        };
        let reverses = map.det() < 0;
        let mut images = Vec::new();
        for (face, poly) in self.spec.faces.iter().enumerate() {
            let mut image: Vec<Point> = poly.iter().map(|&p| map.apply(p)).collect();
            if reverses {
                image.reverse();
            }
            let (p, q) = (image[0], image[1 % image.len()]);
            let (m, n, r) = periods.reduce(p);
            let Some(&(g, gm, gn)) = directed.get(&(r, sub(q, p))) else {
                return Err(Unmapped::Face(face));
            };
            // The face g moved by (m - gm, n - gn) has this side; it is the
            // image only if every corner agrees.
            let shift = combination(&periods.t, m - gm, n - gn);
            let target = &self.spec.faces[g];
            let start = target
                .iter()
                .position(|&c| [c[0] + shift[0], c[1] + shift[1]] == p);
            let agrees = target.len() == image.len()
                && start.is_some_and(|s| {
                    (0..image.len()).all(|i| {
                        let c = target[(s + i) % target.len()];
                        [c[0] + shift[0], c[1] + shift[1]] == image[i]
                    })
                });
            if !agrees {
                return Err(Unmapped::Face(face));
            }
            let (Ok(x), Ok(y)) = (i32::try_from(m - gm), i32::try_from(n - gn)) else {
                return Err(Unmapped::TooLarge);
            };
            images.push([x, y, g as i32]);
        }
        let entry = |v: i64| {
            i32::try_from(v)
                .ok()
                .filter(|e| e.abs() <= MAX_MATRIX_ENTRY)
        };
        let (Some(a0), Some(b0), Some(a1), Some(b1)) =
            (entry(a.0), entry(b.0), entry(a.1), entry(b.1))
        else {
            return Err(Unmapped::TooLarge);
        };
        Ok(CellMap {
            matrix: [[a0, b0], [a1, b1]],
            images,
        })
    }

    /// The declaration it was built from.
    pub fn spec(&self) -> &TilingSpec {
        &self.spec
    }

    /// Number of faces in the unit cell.
    pub fn faces(&self) -> usize {
        self.spec.faces.len()
    }

    /// Number of symmetries modulo translations.
    pub fn group_order(&self) -> usize {
        self.order
    }

    /// The largest unit-cell offset between neighbouring faces.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// Calls `f` with each neighbour of cell `c`.
    #[inline]
    pub fn for_each_neighbour(&self, c: Cell, mut f: impl FnMut(Cell)) {
        if let Some(list) = self.neighbours.get(c[2] as usize) {
            for n in list {
                f([c[0] + n[0], c[1] + n[1], n[2]]);
            }
        }
    }

    /// The image of cell `c` under symmetry `g` (0 is the identity).
    #[inline]
    pub fn transform(&self, g: usize, c: Cell) -> Cell {
        let Some(&([[a, b], [d, e]], i)) = self.flat.get(g * self.faces() + c[2] as usize) else {
            return c;
        };
        [a * c[0] + b * c[1] + i[0], d * c[0] + e * c[1] + i[1], i[2]]
    }

    /// The face symmetry `g` maps onto face `f` (symmetries permute the
    /// faces of the unit cell, up to translation).
    #[inline]
    pub fn preimage_face(&self, g: usize, f: usize) -> Option<usize> {
        if f >= self.faces() {
            return None;
        }
        self.preimages.get(g * self.faces() + f).copied()
    }

    /// Whether the union of the closed faces of `cells` (an edge-connected
    /// set) encloses a hole: its Euler characteristic V - E + F is 1 minus
    /// the number of holes (the bounded parts of the complement).
    pub fn has_hole(&self, cells: &[Cell], seen: &mut IdSet) -> bool {
        // Ids are compared whole: a face drawn far from the unit cell has
        // offsets beyond a packed field's range.
        let mut distinct = |table: &Vec<Vec<Cell>>| {
            seen.clear();
            let mut count = 0i64;
            for c in cells {
                for k in &table[c[2] as usize] {
                    if seen.insert([c[0] + k[0], c[1] + k[1], k[2]]) {
                        count += 1;
                    }
                }
            }
            count
        };
        let v = distinct(&self.corners);
        let e = distinct(&self.sides);
        v - e + cells.len() as i64 != 1
    }

    /// Per face: its corners and its sides as `[dx, dy, class]`, ids of the
    /// vertices and sides of the tiling once moved by the face's cell.
    pub fn boundary(&self) -> [&[Vec<Cell>]; 2] {
        [&self.corners, &self.sides]
    }

    /// The corners of cell `c`'s face in basis coordinates (for pictures).
    pub fn corners_of(&self, c: Cell) -> Vec<Point> {
        let Some(poly) = self.spec.faces.get(c[2] as usize) else {
            return Vec::new();
        };
        let shift = combination(&self.spec.periods, i64::from(c[0]), i64::from(c[1]));
        poly.iter()
            .map(|p| [p[0] + shift[0], p[1] + shift[1]])
            .collect()
    }
}

/// A set of ids `[x, y, class]` for one animal at a time: open addressing
/// in a table that is emptied by a new generation mark instead of a pass.
#[derive(Clone, Debug, Default)]
pub struct IdSet {
    keys: Vec<Cell>,
    marks: Vec<u32>,
    generation: u32,
}

impl IdSet {
    /// Room for this many ids before the table is doubled.
    const START: usize = 1 << 10;

    /// Empties the set.
    pub fn clear(&mut self) {
        if self.keys.is_empty() {
            self.keys = vec![[0; 3]; Self::START];
            self.marks = vec![0; Self::START];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
    }

    /// Adds `id`; whether it was new.
    pub fn insert(&mut self, id: Cell) -> bool {
        if self.keys.is_empty() {
            self.clear();
        }
        let mask = self.keys.len() - 1;
        // Packing only spreads the hash; equality compares the whole id.
        let mut i = (pack(id).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize & mask;
        for _ in 0..self.keys.len() {
            if self.marks[i] != self.generation {
                self.marks[i] = self.generation;
                self.keys[i] = id;
                return true;
            }
            if self.keys[i] == id {
                return false;
            }
            i = (i + 1) & mask;
        }
        // Full (an animal with more corners than the table holds): grow,
        // keeping this generation's ids.
        let old: Vec<Cell> = (0..self.keys.len())
            .filter(|&j| self.marks[j] == self.generation)
            .map(|j| self.keys[j])
            .collect();
        let size = self.keys.len() * 2;
        self.keys = vec![[0; 3]; size];
        self.marks = vec![0; size];
        for k in old {
            self.insert(k);
        }
        self.insert(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> TilingSpec {
        TilingSpec {
            basis: Basis::Square,
            periods: [[1, 0], [0, 1]],
            faces: vec![vec![[0, 0], [1, 0], [1, 1], [0, 1]]],
            symmetries: Vec::new(),
        }
    }

    #[test]
    fn the_square_tiling_has_four_neighbours_and_eight_symmetries() {
        let Ok(t) = Tiling::new(square()) else {
            return assert!(Tiling::new(square()).is_ok());
        };
        assert_eq!(t.group_order(), 8);
        let mut n = Vec::new();
        t.for_each_neighbour([0, 0, 0], |c| n.push(c));
        n.sort_unstable();
        assert_eq!(n, vec![[-1, 0, 0], [0, -1, 0], [0, 1, 0], [1, 0, 0]]);
    }

    #[test]
    fn a_pentagram_is_not_convex() {
        let star = [[0, 10], [6, -8], [-10, 3], [10, 3], [-6, -8]];
        assert!(!strictly_convex(&star));
        assert!(strictly_convex(&[[0, 0], [2, 0], [1, 1]]));
    }

    #[test]
    fn inconsistent_tilings_are_refused() {
        let mut gap = square();
        gap.periods = [[2, 0], [0, 1]];
        assert!(matches!(
            Tiling::new(gap.clone()),
            Err(TilingError::AreaMismatch { faces: 2, cell: 4 })
        ));
        let mut overlap = gap.clone();
        overlap.faces.push(vec![[1, 0], [2, 0], [3, 1], [2, 1]]);
        assert!(matches!(
            Tiling::new(overlap),
            Err(TilingError::SideTwice { face: 1, side: 2 })
        ));
        let mut shifted = gap;
        shifted.periods = [[4, 0], [0, 2]];
        shifted.faces = vec![
            vec![[0, 0], [2, 0], [2, 2], [0, 2]],
            vec![[2, 1], [4, 1], [4, 3], [2, 3]],
        ];
        assert!(matches!(
            Tiling::new(shifted),
            Err(TilingError::UnmatchedSide { face: 0, side: 1 })
        ));
        let mut twice = square();
        twice.faces.push(twice.faces[0].clone());
        assert_eq!(
            Tiling::new(twice),
            Err(TilingError::SideTwice { face: 1, side: 0 })
        );
        let mut not_one = square();
        not_one.symmetries.push(Affine {
            linear: [[1, 0], [0, 1]],
            shift: [0, 0],
        });
        not_one.faces = vec![vec![[0, 0], [2, 0], [2, 1], [0, 1]]];
        not_one.periods = [[2, 0], [0, 1]];
        not_one.symmetries = vec![Affine {
            linear: [[0, 1], [1, 0]],
            shift: [0, 0],
        }];
        assert_eq!(
            Tiling::new(not_one),
            Err(TilingError::NotASymmetry { index: 0, face: 0 })
        );
    }
}
