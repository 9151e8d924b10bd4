//! The built-in periodic tilings (untrusted): the regular and archimedean
//! tilings of the plane, drawn with integer coordinates and handed to the
//! kernel, which checks that they tile and derives their symmetries.
//!
//! Each tiling is a few seed faces, the lattice of periods and generators
//! of its point group; the seeds' images under the generators, modulo the
//! periods, are the faces of the unit cell. Where regular polygons would
//! need irrational coordinates the drawing is a combinatorially equal one
//! with the same symmetries: rectangles for the squares of the hexagonal
//! family, a 12-gon with two side lengths, an octagon of Z², squares of
//! Z² at a slant for the snub square tiling. The kernel's derived group
//! order is compared with each tiling's wallpaper group in the tests.

use std::collections::HashSet;
use std::sync::Arc;

use super::{ElabError, ElabErrorKind};
use crate::kernel::animals::Board;
use crate::kernel::animals::tiling::{Affine, Basis, Point, Tiling, TilingError, TilingSpec};
use crate::syntax::ast::{BoardDecl, Span, TilingLine};

/// The names `tiling (...)` accepts, by vertex configuration.
pub const TILINGS: [&str; 11] = [
    "(3,3,3,3,3,3)",
    "(4,4,4,4)",
    "(6,6,6)",
    "(3,3,3,3,6)",
    "(3,3,3,4,4)",
    "(3,3,4,3,4)",
    "(3,4,6,4)",
    "(3,6,3,6)",
    "(3,12,12)",
    "(4,6,12)",
    "(4,8,8)",
];

const TURN_60: [[i64; 2]; 2] = [[0, -1], [1, 1]];
const TURN_90: [[i64; 2]; 2] = [[0, -1], [1, 0]];
const MIRROR_X: [[i64; 2]; 2] = [[1, 0], [0, -1]];

/// The six unit vectors of the triangular point lattice, counterclockwise.
const UNIT: [Point; 6] = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];

fn about_origin(linear: [[i64; 2]; 2]) -> Affine {
    Affine {
        linear,
        shift: [0, 0],
    }
}

/// The tiling a vertex configuration names, as a declaration.
pub fn builtin(name: &str) -> Option<TilingSpec> {
    let compact: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    let hexagon: Vec<Point> = UNIT.to_vec();
    let (basis, periods, seeds, generators) = match compact.as_str() {
        "(3,3,3,3,3,3)" => (
            Basis::Hexagonal,
            [[1, 0], [0, 1]],
            vec![vec![[0, 0], [1, 0], [0, 1]], vec![[1, 0], [1, 1], [0, 1]]],
            vec![],
        ),
        "(4,4,4,4)" => (
            Basis::Square,
            [[1, 0], [0, 1]],
            vec![vec![[0, 0], [1, 0], [1, 1], [0, 1]]],
            vec![],
        ),
        "(6,6,6)" => (Basis::Hexagonal, [[2, -1], [1, 1]], vec![hexagon], vec![]),
        "(3,3,3,3,6)" => {
            // The triangular tiling with the six triangles around every
            // point of an index-7 sublattice merged into a hexagon.
            let periods = [[2, 1], [-1, 3]];
            let mut seeds = vec![hexagon];
            for a in -3..=3 {
                for b in -3..=3 {
                    for t in [
                        vec![[a, b], [a + 1, b], [a, b + 1]],
                        vec![[a + 1, b], [a + 1, b + 1], [a, b + 1]],
                    ] {
                        if !t.iter().any(|&p| in_lattice(p, periods)) {
                            seeds.push(t);
                        }
                    }
                }
            }
            (
                Basis::Hexagonal,
                periods,
                seeds,
                vec![about_origin(TURN_60)],
            )
        }
        "(3,3,3,4,4)" => (
            Basis::Square,
            [[2, 0], [1, 3]],
            vec![
                vec![[0, 0], [2, 0], [2, 2], [0, 2]],
                vec![[0, 2], [2, 2], [1, 3]],
                vec![[2, 2], [3, 3], [1, 3]],
            ],
            vec![
                Affine {
                    linear: MIRROR_X,
                    shift: [0, 2],
                },
                about_origin([[-1, 0], [0, 1]]),
            ],
        ),
        "(3,3,4,3,4)" => (
            Basis::Square,
            [[6, 0], [0, 6]],
            vec![
                vec![[2, 1], [-1, 2], [-2, -1], [1, -2]],
                vec![[5, 2], [4, 5], [1, 4], [2, 1]],
                vec![[2, 1], [1, 4], [-1, 2]],
                vec![[1, -2], [4, -1], [2, 1]],
            ],
            vec![
                about_origin(TURN_90),
                Affine {
                    linear: [[0, -1], [-1, 0]],
                    shift: [3, 3],
                },
            ],
        ),
        "(3,4,6,4)" => (
            Basis::Hexagonal,
            [[2, 2], [-2, 4]],
            vec![
                hexagon,
                vec![[1, -1], [3, -2], [3, -1], [1, 0]],
                vec![[1, 0], [3, -1], [2, 1]],
            ],
            vec![about_origin(TURN_60), about_origin(MIRROR_X_HEX)],
        ),
        "(3,6,3,6)" => (
            Basis::Hexagonal,
            [[2, 0], [0, 2]],
            vec![
                hexagon,
                vec![[1, 0], [1, 1], [0, 1]],
                vec![[1, -1], [2, -1], [1, 0]],
            ],
            vec![about_origin(TURN_60), about_origin(MIRROR_X_HEX)],
        ),
        "(3,12,12)" => {
            // A hexagon of side 3 with its corners cut off by 1.
            let mut twelve = Vec::new();
            for k in 0..6 {
                let corner = [3 * UNIT[k][0], 3 * UNIT[k][1]];
                let (back, on) = (UNIT[(k + 4) % 6], UNIT[(k + 2) % 6]);
                twelve.push([corner[0] + back[0], corner[1] + back[1]]);
                twelve.push([corner[0] + on[0], corner[1] + on[1]]);
            }
            (
                Basis::Hexagonal,
                [[3, 3], [-3, 6]],
                vec![twelve, vec![[3, -1], [4, 0], [2, 1]]],
                vec![about_origin(TURN_60), about_origin(MIRROR_X_HEX)],
            )
        }
        "(4,6,12)" => {
            // Flag points of the hexagonal tiling (centres, corners and
            // side midpoints weighted equally), scaled by 6.
            let mut twelve = Vec::new();
            for k in 0..6 {
                let (u, prev, next) = (UNIT[k], UNIT[(k + 5) % 6], UNIT[(k + 1) % 6]);
                twelve.push([3 * u[0] + prev[0], 3 * u[1] + prev[1]]);
                twelve.push([3 * u[0] + next[0], 3 * u[1] + next[1]]);
            }
            (
                Basis::Hexagonal,
                [[12, -6], [6, 6]],
                vec![
                    twelve,
                    vec![[3, 1], [5, 3], [3, 5], [1, 3]],
                    vec![[3, 1], [4, -1], [8, -3], [9, -2], [7, 2], [5, 3]],
                ],
                vec![about_origin(TURN_60), about_origin(MIRROR_X_HEX)],
            )
        }
        "(4,8,8)" => (
            Basis::Square,
            [[4, 0], [0, 4]],
            vec![
                vec![
                    [2, -1],
                    [2, 1],
                    [1, 2],
                    [-1, 2],
                    [-2, 1],
                    [-2, -1],
                    [-1, -2],
                    [1, -2],
                ],
                vec![[2, 1], [3, 2], [2, 3], [1, 2]],
            ],
            vec![about_origin(TURN_90), about_origin(MIRROR_X)],
        ),
        _ => return None,
    };
    Some(TilingSpec {
        basis,
        periods,
        faces: close(basis, periods, seeds, &generators),
        symmetries: generators,
    })
}

/// `board NAME = tiling { ... }`: the declared tiling, checked by the
/// kernel; an error points at the line at fault.
pub fn declared(decl: &BoardDecl, lines: &[TilingLine]) -> Result<Board, ElabError> {
    let bad = |reason: String, span: Span| ElabError {
        kind: ElabErrorKind::BadTiling(reason),
        span,
    };
    let pairs = |line: &TilingLine, at_least: usize| -> Result<Vec<Point>, ElabError> {
        if line.tuples.len() < at_least {
            let reason = format!(
                "`{}` needs at least {at_least} points `(x,y)`",
                line.key.node
            );
            return Err(bad(reason, line.span));
        }
        line.tuples
            .iter()
            .map(|t| match t.node[..] {
                [x, y] => Ok([x, y]),
                _ => Err(bad("a point has two coordinates `(x,y)`".into(), t.span)),
            })
            .collect()
    };
    let (mut basis, mut periods) = (None, None);
    let (mut faces, mut face_spans, mut symmetries, mut symmetry_spans) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for line in lines {
        match line.key.node.as_str() {
            "basis" if basis.is_some() => return Err(bad("two `basis` lines".into(), line.span)),
            "basis" => {
                basis = Some(match line.word.as_ref().map(|w| w.node.as_str()) {
                    Some("square") => Basis::Square,
                    Some("hexagonal") => Basis::Hexagonal,
                    _ => {
                        return Err(bad(
                            "the basis is `square` or `hexagonal`".into(),
                            line.span,
                        ));
                    }
                });
            }
            "periods" if periods.is_some() => {
                return Err(bad("two `periods` lines".into(), line.span));
            }
            "periods" => match pairs(line, 2)?[..] {
                [a, b] => periods = Some([a, b]),
                _ => return Err(bad("`periods` takes two vectors".into(), line.span)),
            },
            "face" => {
                faces.push(pairs(line, 3)?);
                face_spans.push(line.span);
            }
            "symmetry" => match &line.tuples[..] {
                [m, shift] if m.node.len() == 4 && shift.node.len() == 2 => {
                    let v = &m.node;
                    symmetries.push(Affine {
                        linear: [[v[0], v[1]], [v[2], v[3]]],
                        shift: [shift.node[0], shift.node[1]],
                    });
                    symmetry_spans.push(line.span);
                }
                _ => {
                    return Err(bad(
                        "a symmetry is `(a,b,c,d) (e,f)`: x -> [a b; c d] x + (e,f)".into(),
                        line.span,
                    ));
                }
            },
            other => {
                let reason =
                    format!("`{other}` is not a tiling entry (basis, periods, face, symmetry)");
                return Err(bad(reason, line.key.span));
            }
        }
    }
    let (Some(basis), Some(periods)) = (basis, periods) else {
        return Err(bad(
            "a tiling needs a `basis` and a `periods` line".into(),
            decl.span,
        ));
    };
    let spec = TilingSpec {
        basis,
        periods,
        faces,
        symmetries,
    };
    let face_at = |face: usize| face_spans.get(face).copied().unwrap_or(decl.span);
    Tiling::new(spec)
        .map(|t| Board::Tiling(Arc::new(t)))
        .map_err(|e| match e {
            TilingError::TooLarge => bad(
                format!(
                    "at most {} faces of at most {} corners, coordinates up to {}",
                    crate::kernel::animals::tiling::MAX_FACES,
                    crate::kernel::animals::tiling::MAX_SIDES,
                    crate::kernel::animals::tiling::MAX_COORDINATE
                ),
                decl.span,
            ),
            TilingError::DegeneratePeriods => {
                bad("the two periods are parallel".into(), decl.span)
            }
            TilingError::NotConvex { face } => bad(
                format!("face {face} is not a strictly convex polygon listed counterclockwise"),
                face_at(face),
            ),
            TilingError::UnmatchedSide { face, side } => bad(
                format!(
                    "side {side} of face {face} meets no side of another face (the faces do not fit edge to edge)"
                ),
                face_at(face),
            ),
            TilingError::SideTwice { face, side } => bad(
                format!("side {side} of face {face} is also a side of another face in the same direction (they overlap)"),
                face_at(face),
            ),
            TilingError::FarNeighbour { face, side } => bad(
                format!(
                    "side {side} of face {face} meets a face more than {} unit cells away: choose periods closer together (a reduced basis)",
                    crate::kernel::animals::tiling::MAX_REACH
                ),
                face_at(face),
            ),
            TilingError::PeriodsNotPrimitive => bad(
                "a translation that is no combination of the periods maps the tiling onto itself: give periods that generate all its translations (a smaller unit cell)".into(),
                decl.span,
            ),
            TilingError::AreaMismatch { faces, cell } => bad(
                format!(
                    "the faces' area ({faces}/2) is not the unit cell's ({cell}/2): they leave gaps or overlap"
                ),
                decl.span,
            ),
            TilingError::NotAnIsometry { index } => bad(
                format!("symmetry {index} is not a rotation or reflection of the basis"),
                symmetry_spans.get(index).copied().unwrap_or(decl.span),
            ),
            TilingError::NotASymmetry { index, face } => bad(
                format!("symmetry {index} does not map the tiling onto itself: face {face} goes to no face"),
                symmetry_spans.get(index).copied().unwrap_or(decl.span),
            ),
        })
}

/// The reflection of the hexagonal basis in the e1 axis.
const MIRROR_X_HEX: [[i64; 2]; 2] = [[1, 1], [0, -1]];

fn in_lattice(p: Point, t: [Point; 2]) -> bool {
    let det = t[0][0] * t[1][1] - t[0][1] * t[1][0];
    let m = p[0] * t[1][1] - p[1] * t[1][0];
    let n = t[0][0] * p[1] - t[0][1] * p[0];
    m % det == 0 && n % det == 0
}

/// The seeds and all their images under the generators, one face per class
/// modulo the periods, each listed counterclockwise.
fn close(
    basis: Basis,
    periods: [Point; 2],
    seeds: Vec<Vec<Point>>,
    generators: &[Affine],
) -> Vec<Vec<Point>> {
    let mut seen = HashSet::new();
    let mut faces = Vec::new();
    let mut queue = seeds;
    while let Some(face) = queue.pop() {
        let face = counterclockwise(basis, reduced(face, periods));
        let mut key = face.clone();
        key.sort_unstable();
        if !seen.insert(key) {
            continue;
        }
        for g in generators {
            let [[a, b], [c, d]] = g.linear;
            queue.push(
                face.iter()
                    .map(|p| {
                        [
                            a * p[0] + b * p[1] + g.shift[0],
                            c * p[0] + d * p[1] + g.shift[1],
                        ]
                    })
                    .collect(),
            );
        }
        faces.push(face);
    }
    // Smaller polygons first: they come in the larger orbits, and the
    // enumeration grows free animals only from the first face of each
    // orbit.
    faces.sort_by_key(|f| (f.len(), f.clone()));
    faces
}

/// `face` moved by a period combination so that its least corner lies in
/// the unit cell.
fn reduced(face: Vec<Point>, t: [Point; 2]) -> Vec<Point> {
    let det = t[0][0] * t[1][1] - t[0][1] * t[1][0];
    let Some(&least) = face.iter().min() else {
        return face;
    };
    let m = (least[0] * t[1][1] - least[1] * t[1][0]).div_euclid(det);
    let n = (t[0][0] * least[1] - t[0][1] * least[0]).div_euclid(det);
    let shift = [m * t[0][0] + n * t[1][0], m * t[0][1] + n * t[1][1]];
    face.into_iter()
        .map(|p| [p[0] - shift[0], p[1] - shift[1]])
        .collect()
}

/// The corners in counterclockwise order around their centroid, starting
/// from the least.
fn counterclockwise(basis: Basis, mut face: Vec<Point>) -> Vec<Point> {
    let cartesian = |p: &Point| match basis {
        Basis::Square => (p[0] as f64, p[1] as f64),
        Basis::Hexagonal => (
            p[0] as f64 + p[1] as f64 / 2.0,
            p[1] as f64 * 3f64.sqrt() / 2.0,
        ),
    };
    let n = face.len() as f64;
    let (cx, cy) = face
        .iter()
        .map(cartesian)
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / n, y + b / n));
    face.sort_by(|p, q| {
        let angle = |p: &Point| {
            let (x, y) = cartesian(p);
            (y - cy).atan2(x - cx)
        };
        angle(p).total_cmp(&angle(q))
    });
    face
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::animals::tiling::Tiling;

    /// Faces per unit cell and point-group order of each tiling's
    /// wallpaper group (p6m 12, p4m 8, p6 6, cmm 4, p4g 8).
    #[test]
    fn every_builtin_tiling_tiles_with_its_full_group() {
        let expected = [
            ("(3,3,3,3,3,3)", 2, 12),
            ("(4,4,4,4)", 1, 8),
            ("(6,6,6)", 1, 12),
            ("(3,3,3,3,6)", 9, 6),
            ("(3,3,3,4,4)", 3, 4),
            ("(3,3,4,3,4)", 6, 8),
            ("(3,4,6,4)", 6, 12),
            ("(3,6,3,6)", 3, 12),
            ("(3,12,12)", 3, 12),
            ("(4,6,12)", 6, 12),
            ("(4,8,8)", 2, 8),
        ];
        for (name, faces, order) in expected {
            let spec = builtin(name).unwrap();
            let tiling = Tiling::new(spec).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert_eq!(
                (tiling.faces(), tiling.group_order()),
                (faces, order),
                "{name}"
            );
        }
    }
}
