//! Pictures of the (3,q) mosaics: the kernel's disc drawn in the Poincaré
//! disc model, the root triangle filled and the rings around it shaded.
//!
//! Key decision: positions are not part of the board (the kernel has none),
//! so they are computed here from the disc's combinatorics: the root is an
//! equilateral triangle with angles 2π/q about the centre, and every later
//! triangle is its earlier neighbour reflected in their shared side, in
//! the hyperboloid model where a reflection is linear. q = 6 is drawn flat.

use std::fmt::Write as _;

use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::mosaic::{Disc, Mosaic};
use crate::kernel::budget::Budget;

/// About how many triangles a picture shows (whole rings).
const TRIANGLES: usize = 1200;
/// The picture's radius in pixels.
const RADIUS: f64 = 300.0;
/// The picture's centre (both coordinates), a margin in from its corner.
const CENTRE: f64 = RADIUS + 10.0;
/// Ring colours, from the first ring out.
const RING_TINTS: [&str; 2] = ["#dfe8f3", "#ffffff"];

/// A point of the model: the hyperboloid x0² - x1² - x2² = 1 for q >= 7,
/// the plane (x0 unused) for q = 6.
type Point = [f64; 3];

/// The SVG of a mosaic board: without cells given, its root filled and
/// its rings shaded; else the `filled` triangles filled and the `open`
/// ones tinted (an animal, or a situation's core and neighbourhood).
/// Triangles beyond the disc drawn are left out.
pub fn mosaic_svg(title: &str, mosaic: Mosaic, filled: &[Cell], open: &[Cell]) -> String {
    let disc = largest_disc(mosaic);
    let flat = mosaic.q() == 6;
    let positions = disc.as_ref().map(|d| place(d, mosaic.q()));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{s:.0}\" height=\"{s:.0}\" viewBox=\"0 0 {s:.1} {s:.1}\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        super::escape(title),
        s = 2.0 * CENTRE,
    );
    if !flat {
        let _ = writeln!(
            out,
            "<circle cx=\"{CENTRE:.1}\" cy=\"{CENTRE:.1}\" r=\"{RADIUS:.1}\" fill=\"#f6f7f9\" stroke=\"#1d2b3a\" stroke-width=\"1\"/>"
        );
    }
    let (Some(disc), Some(positions)) = (disc, positions) else {
        return out + "</svg>\n";
    };
    let scale = if flat {
        let far = positions.iter().flatten().map(|p| p[1].hypot(p[2]));
        0.95 / far.fold(1e-9, f64::max)
    } else {
        1.0
    };
    let screen = |p: &Point| -> (f64, f64) {
        let (x, y) = if flat {
            (p[1] * scale, p[2] * scale)
        } else {
            (p[1] / (1.0 + p[0]), p[2] / (1.0 + p[0]))
        };
        (CENTRE + RADIUS * x, CENTRE - RADIUS * y)
    };
    let rings = rings(&disc);
    for t in 0..disc.triangles() as u32 {
        let corners = disc.corners(t).map(|v| positions[v as usize]);
        let Some(corners) = corners.into_iter().collect::<Option<Vec<Point>>>() else {
            continue;
        };
        let cell = [t as i32, 0, 0];
        let fill = if filled.contains(&cell) {
            super::FILLED
        } else if open.contains(&cell) {
            super::OPEN_TINT
        } else {
            match rings[t as usize] {
                0 if filled.is_empty() && open.is_empty() => super::FILLED,
                r => RING_TINTS[r % 2],
            }
        };
        let points: Vec<(f64, f64)> = corners.iter().map(screen).collect();
        let mut path = format!("M{:.2} {:.2}", points[0].0, points[0].1);
        for i in 0..3 {
            let (a, b) = (points[i], points[(i + 1) % 3]);
            path += &side(a, b, !flat);
        }
        let _ = writeln!(
            out,
            "<path d=\"{path} Z\" fill=\"{fill}\" stroke=\"#1d2b3a\" stroke-width=\"0.6\"/>"
        );
    }
    out + "</svg>\n"
}

/// The disc of the most whole rings with at most TRIANGLES triangles.
fn largest_disc(mosaic: Mosaic) -> Option<std::sync::Arc<Disc>> {
    let mut best = None;
    for rings in 0..12 {
        let disc = Disc::around_root(mosaic, rings, &mut Budget::unlimited()).ok()??;
        if disc.triangles() > TRIANGLES {
            break;
        }
        best = Some(disc);
    }
    best
}

/// Each triangle's ring: its distance across sides from the root.
fn rings(disc: &Disc) -> Vec<usize> {
    let mut ring = vec![usize::MAX; disc.triangles()];
    ring[0] = 0;
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(t) = queue.pop_front() {
        for side in 0..3 {
            if let Some(u) = disc.neighbour(t, side)
                && ring[u as usize] == usize::MAX
            {
                ring[u as usize] = ring[t as usize] + 1;
                queue.push_back(u);
            }
        }
    }
    ring
}

/// The position of every vertex: the root's corners about the centre,
/// then each triangle's new corner as the reflection of its earlier
/// neighbour's far corner in their shared side.
fn place(disc: &Disc, q: u8) -> Vec<Option<Point>> {
    let flat = q == 6;
    let vertices = (0..disc.triangles() as u32)
        .flat_map(|t| disc.corners(t))
        .max()
        .map_or(0, |v| v as usize + 1);
    let mut at: Vec<Option<Point>> = vec![None; vertices];
    // The circumradius of the root: sinh r = sinh(a/2) / sin(π/3) with
    // cosh a = cos α / (1 - cos α), α = 2π/q (flat: 1).
    let alpha = 2.0 * std::f64::consts::PI / f64::from(q);
    let r = if flat {
        1.0
    } else {
        let a = (alpha.cos() / (1.0 - alpha.cos())).acosh();
        ((a / 2.0).sinh() / (std::f64::consts::PI / 3.0).sin()).asinh()
    };
    for (i, v) in disc.corners(0).into_iter().enumerate() {
        let theta = std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / 3.0;
        at[v as usize] = Some(if flat {
            [0.0, theta.cos(), theta.sin()]
        } else {
            [r.cosh(), r.sinh() * theta.cos(), r.sinh() * theta.sin()]
        });
    }
    for t in 1..disc.triangles() as u32 {
        let corners = disc.corners(t);
        for side in 0..3 {
            let Some(u) = disc.neighbour(t, side).filter(|&u| u < t) else {
                continue;
            };
            let (a, b) = (corners[side], corners[(side + 1) % 3]);
            let new = corners[(side + 2) % 3];
            let far = disc.corners(u).into_iter().find(|&v| v != a && v != b);
            if let (Some(pa), Some(pb), Some(pf), None) = (
                at[a as usize],
                at[b as usize],
                far.and_then(|f| at[f as usize]),
                at[new as usize],
            ) {
                at[new as usize] = Some(reflect(pf, pa, pb, flat));
            }
            break;
        }
    }
    at
}

/// `p` reflected in the line (flat) or geodesic through `a` and `b`.
fn reflect(p: Point, a: Point, b: Point, flat: bool) -> Point {
    if flat {
        let (dx, dy) = (b[1] - a[1], b[2] - a[2]);
        let t = ((p[1] - a[1]) * dx + (p[2] - a[2]) * dy) / (dx * dx + dy * dy);
        let foot = (a[1] + t * dx, a[2] + t * dy);
        return [0.0, 2.0 * foot.0 - p[1], 2.0 * foot.1 - p[2]];
    }
    // The plane through the origin, a and b has Minkowski normal n with
    // (n0, -n1, -n2) = a × b; the reflection is p - 2 <p,n>/<n,n> n.
    let m = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let n = [m[0], -m[1], -m[2]];
    let dot = |x: Point, y: Point| x[0] * y[0] - x[1] * y[1] - x[2] * y[2];
    let k = 2.0 * dot(p, n) / dot(n, n);
    [p[0] - k * n[0], p[1] - k * n[1], p[2] - k * n[2]]
}

/// The SVG path command from `a` to `b` (screen points): a straight line,
/// or on the hyperbolic disc the arc of the circle through them that meets
/// the boundary circle at right angles.
fn side(a: (f64, f64), b: (f64, f64), curved: bool) -> String {
    let straight = format!(" L{:.2} {:.2}", b.0, b.1);
    if !curved {
        return straight;
    }
    // In disc units about the centre: C·P = (|P|² + 1) / 2 for both ends.
    let unit = |p: (f64, f64)| ((p.0 - CENTRE) / RADIUS, (p.1 - CENTRE) / RADIUS);
    let (p, q) = (unit(a), unit(b));
    let det = p.0 * q.1 - p.1 * q.0;
    if det.abs() < 1e-6 {
        return straight;
    }
    let (u, v) = (
        (p.0 * p.0 + p.1 * p.1 + 1.0) / 2.0,
        (q.0 * q.0 + q.1 * q.1 + 1.0) / 2.0,
    );
    let c = ((u * q.1 - v * p.1) / det, (p.0 * v - q.0 * u) / det);
    let r = (c.0 * c.0 + c.1 * c.1 - 1.0).sqrt() * RADIUS;
    if !r.is_finite() || r > 1e5 {
        return straight;
    }
    let sweep = u8::from((p.0 - c.0) * (q.1 - c.1) - (p.1 - c.1) * (q.0 - c.0) > 0.0);
    format!(" A{r:.2} {r:.2} 0 0 {sweep} {:.2} {:.2}", b.0, b.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    /// The point of the hyperboloid at the centre of three corners.
    fn centre(p: [Point; 3]) -> Point {
        let s = [0, 1, 2].map(|i| p[0][i] + p[1][i] + p[2][i]);
        let norm = (s[0] * s[0] - s[1] * s[1] - s[2] * s[2]).sqrt();
        s.map(|x| x / norm)
    }

    /// The linear map taking the columns `from` to the columns `to`
    /// (a Lorentz isometry when both are corners of congruent triangles).
    fn map_onto(from: [Point; 3], to: [Point; 3]) -> [[f64; 3]; 3] {
        let m = |i: usize, j: usize| from[j][i];
        let det = m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1))
            - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0))
            + m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0));
        let cof = |i: usize, j: usize| {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            m(r0, c0) * m(r1, c1) - m(r0, c1) * m(r1, c0)
        };
        // inverse[j][i] = cof(i, j) / det; result = to * inverse.
        let mut out = [[0.0; 3]; 3];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                *x = (0..3).map(|k| to[k][r] * cof(c, k) / det).sum();
            }
        }
        out
    }

    /// Free animals (holes allowed) of the (3,q) mosaic counted with
    /// geometry instead of the kernel's codes: every connected set of
    /// triangles holding the root is listed naively, and two are the same
    /// animal when an isometry taking a flag of one onto the root's flag
    /// (a linear map of the hyperboloid, from corners to corners) takes
    /// the first's triangle centres onto the second's.
    /// A disc placed on the hyperboloid, with its triangles looked up by
    /// the position of their centres.
    struct Drawing {
        disc: std::sync::Arc<Disc>,
        at: Vec<Option<Point>>,
        by_centre: HashMap<(i64, i64), u32>,
    }

    impl Drawing {
        fn new(q: u8, rings: usize) -> Drawing {
            let mosaic = Mosaic::new(q).expect("q in range");
            let Ok(Some(disc)) = Disc::around_root(mosaic, rings, &mut Budget::unlimited()) else {
                panic!("disc for q = {q}");
            };
            let at = place(&disc, q);
            let mut drawing = Drawing {
                disc,
                at,
                by_centre: HashMap::new(),
            };
            drawing.by_centre = (0..drawing.disc.triangles() as u32)
                .map(|t| (key(centre(drawing.corners(t))), t))
                .collect();
            drawing
        }

        fn corners(&self, t: u32) -> [Point; 3] {
            self.disc
                .corners(t)
                .map(|v| self.at[v as usize].expect("placed"))
        }

        /// The triangle whose centre is `p`: its key or a neighbouring one
        /// (rounding may fall either side of a grid line).
        fn find(&self, p: Point) -> u32 {
            let (x, y) = key(p);
            (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (x + dx, y + dy)))
                .find_map(|k| self.by_centre.get(&k).copied())
                .expect("an image centre is a triangle's centre")
        }
    }

    /// A point's position in the Poincaré disc, rounded.
    fn key(p: Point) -> (i64, i64) {
        let (x, y) = (p[1] / (1.0 + p[0]), p[2] / (1.0 + p[0]));
        ((x * 1e6).round() as i64, (y * 1e6).round() as i64)
    }

    /// The image of a point under a linear map.
    fn apply(l: [[f64; 3]; 3], c: Point) -> Point {
        [0, 1, 2].map(|r| (0..3).map(|k| l[r][k] * c[k]).sum())
    }

    /// The kernel's flag congruences (rule A5, games) against geometry:
    /// the isometry of the hyperboloid taking the root's corners onto the
    /// corners of flag K of a triangle (in the flag's order) takes every
    /// triangle of two rings onto the triangle the kernel's walk names.
    #[test]
    fn flag_congruences_are_isometries() {
        use crate::kernel::animals::flags::{FLAGS, Flag, Frame};
        for q in [7u8, 8] {
            let drawing = Drawing::new(q, 5);
            let mosaic = Mosaic::new(q).expect("q in range");
            let mut budget = Budget::new(None, None, 1 << 24);
            let frame = Frame::reaching(mosaic, [0], |_| 5, &mut budget)
                .expect("budget")
                .expect("disc");
            let near = Disc::around_root(mosaic, 2, &mut budget)
                .expect("budget")
                .expect("disc")
                .triangles() as u32;
            let ring_one = Disc::around_root(mosaic, 1, &mut budget)
                .expect("budget")
                .expect("disc")
                .triangles() as u32;
            let root = drawing.corners(0);
            for t in 0..ring_one {
                let c = drawing.corners(t);
                for index in 0..FLAGS {
                    let k = usize::from(index / 2);
                    // Side j of the root goes to side k + j, or k - j
                    // mirrored: corners 0, 1, 2 to k, k + 1, k + 2, or to
                    // k + 1, k, k - 1.
                    let ordered = if index % 2 == 0 {
                        [c[k], c[(k + 1) % 3], c[(k + 2) % 3]]
                    } else {
                        [c[(k + 1) % 3], c[k], c[(k + 2) % 3]]
                    };
                    let l = map_onto(root, ordered);
                    let to = Flag { triangle: t, index };
                    for u in 0..near {
                        let geometric = drawing.find(apply(l, centre(drawing.corners(u))));
                        assert_eq!(frame.image(to, u), Some(geometric), "q {q}, {to:?}, {u}");
                    }
                }
            }
        }
    }

    /// Free animals (holes allowed) of the (3,q) mosaic counted with
    /// geometry instead of the kernel's codes: every connected set of
    /// triangles holding the root is listed naively, and two are the same
    /// animal when an isometry taking a flag of one onto the root's flag
    /// (a linear map of the hyperboloid, from corners to corners) takes
    /// the first's triangle centres onto the second's.
    #[test]
    fn geometry_counts_what_the_codes_count() {
        use crate::kernel::animals::enumerate::Kind;
        use crate::kernel::animals::mosaic;
        for (q, up_to) in [(7u8, 8usize), (8, 7)] {
            let mosaic = Mosaic::new(q).expect("q in range");
            let drawing = Drawing::new(q, up_to);
            let disc = &drawing.disc;
            let corners = |t: u32| drawing.corners(t);
            let root = corners(0);
            let mut sets: HashSet<Vec<u32>> = HashSet::from([vec![0]]);
            for n in 2..=up_to {
                sets = mosaic::testing::one_larger(disc, &sets);
                let mut animals: HashSet<Vec<u32>> = HashSet::new();
                for set in &sets {
                    let centres: Vec<Point> = set.iter().map(|&t| centre(corners(t))).collect();
                    let mut least: Option<Vec<u32>> = None;
                    for &t in set {
                        let p = corners(t);
                        for flag in [
                            [0, 1, 2],
                            [1, 2, 0],
                            [2, 0, 1],
                            [0, 2, 1],
                            [2, 1, 0],
                            [1, 0, 2],
                        ] {
                            let l = map_onto(flag.map(|i| p[i]), root);
                            let mut image: Vec<u32> =
                                centres.iter().map(|&c| drawing.find(apply(l, c))).collect();
                            image.sort_unstable();
                            if least.as_ref().is_none_or(|b| image < *b) {
                                least = Some(image);
                            }
                        }
                    }
                    animals.extend(least);
                }
                let counted = mosaic::count(mosaic, n, Kind::Free, &mut Budget::unlimited())
                    .expect("counted");
                assert_eq!(animals.len() as u64, counted, "q = {q}, {n} cells");
            }
        }
    }

    /// The kernel builds discs by combinatorics alone; drawn by reflections
    /// they must be hyperbolic geometry: every side of the length of the
    /// (3,q) triangle, every fan closing where the reflections say, and
    /// no two vertices at one point (an independent check of rule A5's
    /// disc).
    #[test]
    fn discs_are_pieces_of_the_hyperbolic_mosaic() {
        for (q, rings) in [(7u8, 6usize), (8, 5), (9, 4), (12, 3)] {
            let mosaic = Mosaic::new(q).expect("q in range");
            let Ok(Some(disc)) = Disc::around_root(mosaic, rings, &mut Budget::unlimited()) else {
                panic!("disc of {rings} rings for q = {q}");
            };
            let at = place(&disc, q);
            let alpha = 2.0 * std::f64::consts::PI / f64::from(q);
            let cosh_side = alpha.cos() / (1.0 - alpha.cos());
            let cosh = |a: Point, b: Point| a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
            for t in 0..disc.triangles() as u32 {
                let p = disc.corners(t).map(|v| at[v as usize].expect("placed"));
                for i in 0..3 {
                    let d = cosh(p[i], p[(i + 1) % 3]);
                    assert!(
                        (d - cosh_side).abs() < 1e-6 * cosh_side.max(d),
                        "q {q}: {d}"
                    );
                }
            }
            let points: Vec<Point> = at.iter().map(|p| p.expect("placed")).collect();
            for (i, &a) in points.iter().enumerate() {
                for &b in &points[..i] {
                    assert!(
                        cosh(a, b) > 1.0 + (cosh_side - 1.0) / 2.0,
                        "q {q}: two vertices meet"
                    );
                }
            }
        }
    }
}
