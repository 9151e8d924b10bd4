//! The four infinite lattices of SPEC 3.1: cells, neighbours, point groups
//! and translations.
//!
//! Key decision: every cell is an integer triple (unused coordinates 0), and
//! every lattice symmetry is computed from the geometry rather than listed:
//! square and cubic symmetries permute and negate coordinates; hexagon
//! symmetries rotate and reflect cube coordinates; triangle cells are mapped
//! to their three corner points of the triangular point lattice, the corners
//! are rotated or reflected there (a linear map of the skew basis), and the
//! image triangle is read back. Translations are the lattice's own: any shift
//! on square, cubic and hexagon; on the triangle lattice the shifts by corner
//! points, which keep pointing-up cells pointing up.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Cells a claim
// brings lie within MAX_COORDINATE (kernel::claim checks every one before a
// rule runs), and the kernel adds at most a few of them or applies a
// point-group element (coordinates permuted, negated, or summed in pairs), so
// every value stays far inside i32.
#![allow(clippy::arithmetic_side_effects)]

/// A cell: `(x, y, z)`; `z` is 0 except on the cubic lattice.
pub type Cell = [i32; 3];

/// The infinite lattices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lattice {
    /// Squares (x, y), 4 neighbours, point group of order 8.
    Square,
    /// Triangles (x, y), up when x + y is even; 3 neighbours; order 12.
    Triangle,
    /// Hexagons in axial coordinates (q, r); 6 neighbours; order 12.
    Hexagon,
    /// Cubes (x, y, z); 6 neighbours; order 48 (reflections included).
    Cubic,
}

impl Lattice {
    /// The cells sharing an edge (a face, on the cubic lattice) with `c`:
    /// the first `n` entries of the array, `n` being the second value.
    #[inline]
    pub fn neighbour_array(self, c: Cell) -> ([Cell; 6], usize) {
        let [x, y, z] = c;
        match self {
            Lattice::Square => (
                [
                    [x + 1, y, 0],
                    [x - 1, y, 0],
                    [x, y + 1, 0],
                    [x, y - 1, 0],
                    c,
                    c,
                ],
                4,
            ),
            Lattice::Triangle => {
                let third = if (x + y).rem_euclid(2) == 0 {
                    y - 1
                } else {
                    y + 1
                };
                ([[x + 1, y, 0], [x - 1, y, 0], [x, third, 0], c, c, c], 3)
            }
            Lattice::Hexagon => (
                [
                    [x + 1, y, 0],
                    [x - 1, y, 0],
                    [x, y + 1, 0],
                    [x, y - 1, 0],
                    [x + 1, y - 1, 0],
                    [x - 1, y + 1, 0],
                ],
                6,
            ),
            Lattice::Cubic => (
                [
                    [x + 1, y, z],
                    [x - 1, y, z],
                    [x, y + 1, z],
                    [x, y - 1, z],
                    [x, y, z + 1],
                    [x, y, z - 1],
                ],
                6,
            ),
        }
    }

    /// The cells sharing an edge (a face, on the cubic lattice) with `c`.
    pub fn neighbours(self, c: Cell) -> Vec<Cell> {
        let (cells, n) = self.neighbour_array(c);
        cells[..n].to_vec()
    }

    /// The order of the point group.
    pub fn point_group_order(self) -> usize {
        match self {
            Lattice::Square => 8,
            Lattice::Triangle | Lattice::Hexagon => 12,
            Lattice::Cubic => 48,
        }
    }

    /// The image of `c` under point-group element `g` (0 is the identity).
    pub fn transform(self, g: usize, c: Cell) -> Cell {
        match self {
            Lattice::Square => {
                let [x, y, _] = c;
                let (x, y) = if g & 4 != 0 { (y, x) } else { (x, y) };
                let x = if g & 1 != 0 { -x } else { x };
                let y = if g & 2 != 0 { -y } else { y };
                [x, y, 0]
            }
            Lattice::Cubic => {
                const PERMUTATIONS: [[usize; 3]; 6] = [
                    [0, 1, 2],
                    [0, 2, 1],
                    [1, 0, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [2, 1, 0],
                ];
                let p = PERMUTATIONS[g / 8];
                let mut out = [c[p[0]], c[p[1]], c[p[2]]];
                for (axis, v) in out.iter_mut().enumerate() {
                    if g & (1 << axis) != 0 {
                        *v = -*v;
                    }
                }
                out
            }
            Lattice::Hexagon => {
                // Cube coordinates (q, r, s = -q - r): a 60-degree turn maps
                // (q, r, s) to (-r, -s, -q); a reflection swaps r and s.
                let (mut q, mut r) = (c[0], c[1]);
                if g >= 6 {
                    let s = -q - r;
                    r = s;
                }
                for _ in 0..g % 6 {
                    let s = -q - r;
                    (q, r) = (-r, -s);
                }
                [q, r, 0]
            }
            Lattice::Triangle => {
                let corners = triangle_corners(c);
                let image = corners.map(|p| rotate_point(g, p));
                triangle_from_corners(image)
            }
        }
    }

    /// `c` moved by the translation that takes `from` to `to`, where `from`
    /// and `to` are cells of the same orientation.
    pub fn translate(self, c: Cell, from: Cell, to: Cell) -> Cell {
        [
            c[0] - from[0] + to[0],
            c[1] - from[1] + to[1],
            c[2] - from[2] + to[2],
        ]
    }

    /// Whether a translation can take `a` to `b` (on the triangle lattice the
    /// two must point the same way).
    pub fn same_orientation(self, a: Cell, b: Cell) -> bool {
        self != Lattice::Triangle || (a[0] + a[1]).rem_euclid(2) == (b[0] + b[1]).rem_euclid(2)
    }

    /// The origin of `c`'s orientation: the one of [`Lattice::origins`] a
    /// translation can take `c` to.
    pub fn origin_of(self, c: Cell) -> Cell {
        if self.same_orientation([0, 0, 0], c) {
            [0, 0, 0]
        } else {
            [1, 0, 0]
        }
    }

    /// The cells that start a fixed animal: one per translation class of
    /// cells (two on the triangle lattice: an up and a down triangle).
    pub fn origins(self) -> Vec<Cell> {
        match self {
            Lattice::Triangle => vec![[0, 0, 0], [1, 0, 0]],
            _ => vec![[0, 0, 0]],
        }
    }
}

/// Packs a cell into a `u64` whose order is the (z, y, x) order, and which
/// is linear in the coordinates (fields of 21 bits, offset by 2^20: cells
/// of animals, and a tiling's corner and side ids, stay far inside them).
pub fn pack(c: Cell) -> u64 {
    const OFFSET: i64 = 1 << 20;
    let part = |v: i32| (i64::from(v) + OFFSET) as u64;
    part(c[2]) << 42 | part(c[1]) << 21 | part(c[0])
}

/// The three corner points (skew coordinates of the triangular point
/// lattice) of triangle cell `c`. Row y lies between corner rows y and y + 1;
/// the up triangle x = 2i + y has corners (i,y), (i+1,y), (i,y+1); the down
/// triangle x = 2j + y + 1 has corners (j+1,y), (j,y+1), (j+1,y+1).
fn triangle_corners(c: Cell) -> [[i32; 2]; 3] {
    let [x, y, _] = c;
    if (x + y).rem_euclid(2) == 0 {
        let i = (x - y).div_euclid(2);
        [[i, y], [i + 1, y], [i, y + 1]]
    } else {
        let j = (x - y - 1).div_euclid(2);
        [[j + 1, y], [j, y + 1], [j + 1, y + 1]]
    }
}

/// The triangle cell with these three corners.
fn triangle_from_corners(p: [[i32; 2]; 3]) -> Cell {
    let low = p.iter().map(|q| q[1]).min().unwrap_or(0);
    let on_low: Vec<&[i32; 2]> = p.iter().filter(|q| q[1] == low).collect();
    if on_low.len() == 2 {
        let i = on_low[0][0].min(on_low[1][0]);
        [2 * i + low, low, 0]
    } else {
        let j = on_low.first().map_or(0, |q| q[0]) - 1;
        [2 * j + low + 1, low, 0]
    }
}

/// Point-group element `g` of the triangular point lattice (order 12): `g % 6`
/// turns by 60 degrees, `g >= 6` first reflects in the first basis axis.
/// In the skew basis e1 = (1, 0), e2 = (1/2, sqrt 3 / 2) a turn maps (a, b) to
/// (-b, a + b) and the reflection maps (a, b) to (a + b, -b).
fn rotate_point(g: usize, p: [i32; 2]) -> [i32; 2] {
    let [mut a, mut b] = p;
    if g >= 6 {
        (a, b) = (a + b, -b);
    }
    for _ in 0..g % 6 {
        (a, b) = (-b, a + b);
    }
    [a, b]
}
