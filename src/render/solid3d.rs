//! A solid board drawn as a solid: shaded faces in two orthographic views
//! (front and back), each face numbered as the kernel numbers it, the
//! faces of an animal filled, and pairs of a pairing linked.
//!
//! Key decision: only the face graph is known (the kernel builds solids
//! combinatorially), so the solid is rebuilt from it. The planar drawing of
//! the face graph ([`planar`]) gives the cyclic order of each face's
//! neighbours; its regions are the solid's vertices (the faces meeting at a
//! corner), so every face's outline is the cycle of corners around it, and
//! faces share an edge exactly where the board's faces do. Coordinates come
//! from normals spread over the sphere (neighbours pull, all faces push),
//! each corner where its faces' planes nearly meet, then canonicalised in
//! the manner of Hart's canonical polyhedra (every edge pulled to touch the
//! unit sphere, every face pulled flat). This is presentation only; nothing
//! here is trusted.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use super::planar;

type Vec3 = [f64; 3];

/// Relaxation rounds: the normals settle well before this.
const ROUNDS: usize = 1_500;

/// A solid as its corners and, for each face, its outward normal and its
/// corners in order around it.
pub struct Shape {
    corners: Vec<Vec3>,
    faces: Vec<Vec<usize>>,
    normals: Vec<Vec3>,
}

/// The shapes made so far, by face graph: a file draws one solid for every
/// animal and pairing on it, and making the shape is the costly part.
static SHAPES: Mutex<BTreeMap<Vec<u128>, Arc<Shape>>> = Mutex::new(BTreeMap::new());

impl Shape {
    /// The shape of the solid whose face graph is `adjacent`, made once
    /// per face graph.
    pub fn of_board(adjacent: &[u128]) -> Arc<Shape> {
        let made = SHAPES.lock().ok().and_then(|s| s.get(adjacent).cloned());
        made.unwrap_or_else(|| {
            let shape = Arc::new(Shape::of(adjacent));
            if let Ok(mut shapes) = SHAPES.lock() {
                shapes.insert(adjacent.to_vec(), Arc::clone(&shape));
            }
            shape
        })
    }

    /// The shape of the solid whose face graph is `adjacent` (bit sets).
    pub fn of(adjacent: &[u128]) -> Shape {
        let (around, faces, corner_faces) = corners(adjacent);
        let normals = relaxed_normals(adjacent, &around);
        let start: Vec<Vec3> = corner_faces
            .iter()
            .map(|around| meeting_point(around.iter().map(|&f| normals[f])))
            .collect();
        let mut shape = Shape {
            corners: start,
            faces,
            normals: Vec::new(),
        };
        // Most solids settle in a few hundred rounds; those with large
        // faces next to small ones (decagons and triangles) take thousands,
        // and a tetrahedron, once settled, slowly drifts off again: the
        // best convex drawing seen is kept.
        let mut best: Option<(f64, Vec<Vec3>)> = None;
        for _ in 0..MAX_CANONICAL_ROUNDS / CANONICAL_ROUNDS {
            canonicalise(&mut shape.corners, &shape.faces);
            shape.set_normals();
            let off = shape.off_canonical() + shape.flatness();
            if shape.convex() && best.as_ref().is_none_or(|(b, _)| off < *b) {
                best = Some((off, shape.corners.clone()));
            }
            if best.as_ref().is_some_and(|(b, _)| *b < 1e-5) {
                break;
            }
        }
        if let Some((_, corners)) = best {
            shape.corners = corners;
            shape.set_normals();
        }
        shape
    }

    fn set_normals(&mut self) {
        self.normals = self
            .faces
            .iter()
            .map(|f| face_normal(&self.corners, f))
            .collect();
    }

    /// The faces of the drawn solid that share an edge (two consecutive
    /// corners), as bit sets like the board's.
    pub fn adjacency(&self) -> Vec<u128> {
        let edge_of = |f: usize| {
            let c = &self.faces[f];
            (0..c.len()).map(move |i| {
                let (a, b) = (c[i], c[(i + 1) % c.len()]);
                (a.min(b), a.max(b))
            })
        };
        let mut by_edge: std::collections::BTreeMap<(usize, usize), Vec<usize>> =
            std::collections::BTreeMap::new();
        for f in 0..self.faces.len() {
            for e in edge_of(f) {
                by_edge.entry(e).or_default().push(f);
            }
        }
        let mut adjacent = vec![0u128; self.faces.len()];
        for faces in by_edge.values() {
            for &f in faces {
                for &g in faces.iter().filter(|&&g| g != f) {
                    adjacent[f] |= 1 << g;
                }
            }
        }
        adjacent
    }

    /// The largest distance of a face from its plane, relative to the
    /// solid's size: how flat the drawn faces are.
    pub fn flatness(&self) -> f64 {
        let size = self.corners.iter().map(|&p| norm(p)).fold(1e-12, f64::max);
        self.faces
            .iter()
            .zip(&self.normals)
            .map(|(face, &n)| {
                let c = centroid(face.iter().map(|&v| self.corners[v]));
                face.iter()
                    .map(|&v| dot(sub(self.corners[v], c), n).abs())
                    .fold(0.0, f64::max)
            })
            .fold(0.0, |worst: f64, x| {
                if x.is_finite() {
                    worst.max(x)
                } else {
                    f64::INFINITY
                }
            })
            / size
    }

    /// Whether every corner lies on the inner side of every face's plane
    /// (up to a small tolerance): the drawing is of a convex solid.
    pub fn convex(&self) -> bool {
        let finite = self.corners.iter().flatten().all(|x| x.is_finite());
        let size = self.corners.iter().map(|&p| norm(p)).fold(1e-12, f64::max);
        finite
            && self.faces.iter().zip(&self.normals).all(|(face, &n)| {
                let level = dot(centroid(face.iter().map(|&v| self.corners[v])), n);
                self.corners
                    .iter()
                    .all(|&p| dot(p, n) <= level + 1e-3 * size)
            })
    }

    /// How far the drawing is from canonical: the largest distance from
    /// 1 of an edge's distance to the centre (canonical solids have every
    /// edge touching the unit sphere; a flattened drawing has not).
    pub fn off_canonical(&self) -> f64 {
        self.faces
            .iter()
            .flat_map(|face| (0..face.len()).map(move |i| (face[i], face[(i + 1) % face.len()])))
            .map(|(a, b)| (norm(touch(self.corners[a], self.corners[b])) - 1.0).abs())
            .fold(0.0, |worst: f64, x| {
                if x.is_finite() {
                    worst.max(x)
                } else {
                    f64::INFINITY
                }
            })
    }

    fn outline(&self, f: usize) -> impl Iterator<Item = Vec3> + '_ {
        self.faces[f].iter().map(|&v| self.corners[v])
    }
}

/// What to mark on a drawing.
#[derive(Default)]
pub struct Marks<'a> {
    /// Faces filled in colour (an animal).
    pub filled: &'a [usize],
    /// Faces tinted lighter (a situation's free neighbourhood).
    pub open: &'a [usize],
    /// Pairs of faces linked (a pairing).
    pub links: &'a [(usize, usize)],
}

/// The SVG of the solid in two views, front and back.
pub fn svg(title: &str, shape: &Shape, marks: &Marks) -> String {
    const VIEW: f64 = 360.0;
    const MARGIN: f64 = 20.0;
    let radius = shape.corners.iter().map(|&p| norm(p)).fold(1e-9, f64::max);
    let scale = (VIEW / 2.0 - MARGIN) / radius;
    let (width, height) = (2.0 * VIEW, VIEW + 24.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.1} {height:.1}\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        super::escape(title)
    );
    for (k, (name, turn)) in [("front", 0.0), ("back", std::f64::consts::PI)]
        .into_iter()
        .enumerate()
    {
        let view = View::new(turn, (k as f64 + 0.5) * VIEW, VIEW / 2.0, scale);
        view.draw(shape, marks, &mut out);
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#1d2b3a\">{name}</text>",
            (k as f64 + 0.5) * VIEW,
            VIEW + 16.0
        );
    }
    out.push_str("</svg>\n");
    out
}

/// An orthographic view: a rotation, then x to the right and y up, the
/// viewer on the positive z axis.
struct View {
    rotation: [Vec3; 3],
    centre: (f64, f64),
    scale: f64,
}

/// Where the light comes from, in view coordinates (upper left, front).
const LIGHT: Vec3 = [-0.45, 0.6, 0.66];

/// Colours of pairing links, in turn.
const LINK_COLOURS: [&str; 6] = [
    "#d1495b", "#edae49", "#00798c", "#66a182", "#8d5a97", "#e07a5f",
];

impl View {
    /// Tilted so no symmetry axis points at the viewer, then turned by
    /// `turn` about the picture's vertical axis (half a turn shows exactly
    /// the faces the front hides).
    fn new(turn: f64, x: f64, y: f64, scale: f64) -> View {
        let (a, b): (f64, f64) = (0.43, 0.38);
        let about_vertical = |a: f64| {
            [
                [a.cos(), 0.0, a.sin()],
                [0.0, 1.0, 0.0],
                [-a.sin(), 0.0, a.cos()],
            ]
        };
        let pitch = [
            [1.0, 0.0, 0.0],
            [0.0, b.cos(), -b.sin()],
            [0.0, b.sin(), b.cos()],
        ];
        View {
            rotation: matmul(about_vertical(turn), matmul(pitch, about_vertical(a))),
            centre: (x, y),
            scale,
        }
    }

    fn turn(&self, p: Vec3) -> Vec3 {
        [
            dot(self.rotation[0], p),
            dot(self.rotation[1], p),
            dot(self.rotation[2], p),
        ]
    }

    fn project(&self, p: Vec3) -> (f64, f64) {
        let q = self.turn(p);
        (
            self.centre.0 + self.scale * q[0],
            self.centre.1 - self.scale * q[1],
        )
    }

    /// The faces facing the viewer, shaded, numbered, marked.
    fn draw(&self, shape: &Shape, marks: &Marks, out: &mut String) {
        let mut centres = vec![None; shape.normals.len()];
        for (f, centre) in centres.iter_mut().enumerate() {
            let normal = self.turn(shape.normals[f]);
            if normal[2] <= 1e-9 {
                continue;
            }
            let light = 0.45 + 0.55 * dot(normal, normalise(LIGHT)).max(0.0);
            let base = if marks.filled.contains(&f) {
                [74.0, 126.0, 187.0]
            } else if marks.open.contains(&f) {
                [244.0, 214.0, 120.0]
            } else {
                [226.0, 230.0, 236.0]
            };
            let [r, g, b] = base.map(|c: f64| (c * light).round().clamp(0.0, 255.0) as u8);
            let points: Vec<(f64, f64)> = shape.outline(f).map(|p| self.project(p)).collect();
            let list: Vec<String> = points
                .iter()
                .map(|(x, y)| format!("{x:.1},{y:.1}"))
                .collect();
            let _ = writeln!(
                out,
                "<polygon data-face=\"{f}\"{} points=\"{}\" fill=\"rgb({r},{g},{b})\" stroke=\"#1d2b3a\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
                if marks.filled.contains(&f) {
                    " class=\"filled\""
                } else if marks.open.contains(&f) {
                    " class=\"open\""
                } else {
                    ""
                },
                list.join(" ")
            );
            let middle = self.project(centroid(shape.outline(f)));
            *centre = Some((middle, inradius(&points, middle)));
        }
        for (k, &(f, g)) in marks.links.iter().enumerate() {
            if let (Some(Some(((x1, y1), _))), Some(Some(((x2, y2), _)))) =
                (centres.get(f), centres.get(g))
            {
                let colour = LINK_COLOURS[k % LINK_COLOURS.len()];
                let _ = writeln!(
                    out,
                    "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{colour}\" stroke-width=\"4\" stroke-linecap=\"round\"/>"
                );
            }
        }
        for (f, centre) in centres.iter().enumerate() {
            let Some(((x, y), room)) = centre else {
                continue;
            };
            let size = (room * 0.9).clamp(7.0, 16.0);
            let ink = if marks.filled.contains(&f) {
                "white"
            } else {
                "#1d2b3a"
            };
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"sans-serif\" font-size=\"{size:.0}\" fill=\"{ink}\">{f}</text>"
            );
        }
    }
}

/// Unit normals for the faces: a planar drawing lifted onto the sphere,
/// then relaxed. The face with the most sides goes to the north pole, its
/// neighbours (in their order `around` it) round the equator, and the rest
/// inside, where Tutte's drawing of the board without that face puts them:
/// a start that is already untangled and close to round.
fn relaxed_normals(adjacent: &[u128], around: &[Vec<usize>]) -> Vec<Vec3> {
    let n = adjacent.len();
    let neighbours: Vec<Vec<usize>> = adjacent
        .iter()
        .map(|&set| (0..n).filter(|&g| set >> g & 1 == 1).collect())
        .collect();
    let pole = (0..n)
        .max_by_key(|&f| (neighbours[f].len(), std::cmp::Reverse(f)))
        .unwrap_or(0);
    let without: Vec<u128> = adjacent
        .iter()
        .enumerate()
        .map(|(f, &set)| if f == pole { 0 } else { set & !(1u128 << pole) })
        .collect();
    let mut p: Vec<Vec3> = planar::tutte(&without, &around[pole])
        .into_iter()
        .map(|(x, y)| {
            // Inverse stereographic projection from the north pole, the
            // ring a little south of the equator (on it, a tetrahedron's
            // three would stay in one plane with the pole's).
            let (x, y) = (0.8 * x, 0.8 * y);
            let d = 1.0 + x * x + y * y;
            [2.0 * x / d, 2.0 * y / d, (x * x + y * y - 1.0) / d]
        })
        .collect();
    if let Some(top) = p.get_mut(pole) {
        *top = [0.0, 0.0, 1.0];
    }
    // A face with more sides takes more room: its push is stronger.
    let charge: Vec<f64> = neighbours.iter().map(|v| v.len().max(3) as f64).collect();
    let mean_charge = charge.iter().sum::<f64>() / n.max(1) as f64;
    for round in 0..ROUNDS {
        let step = 0.05 * (1.0 - round as f64 / ROUNDS as f64) + 0.002;
        let mut next = p.clone();
        for f in 0..n {
            let mut force = [0.0; 3];
            for &g in &neighbours[f] {
                force = add(force, scale(sub(p[g], p[f]), 0.5));
            }
            for g in (0..n).filter(|&g| g != f) {
                let d = sub(p[f], p[g]);
                let r2 = dot(d, d).max(1e-6);
                let push = charge[f] * charge[g] / (mean_charge * mean_charge) / (r2 * r2.sqrt());
                force = add(force, scale(d, push * 4.0 / n as f64));
            }
            next[f] = normalise(add(p[f], scale(force, step)));
        }
        // A closed solid's face normals, weighted by area, sum to zero
        // (Minkowski): keep their weighted mean at the centre, so they
        // never gather in one hemisphere.
        let total: f64 = charge.iter().sum();
        let mean = (0..n).fold([0.0; 3], |m, f| add(m, scale(next[f], charge[f] / total)));
        p = next.into_iter().map(|q| normalise(sub(q, mean))).collect();
    }
    p
}

/// The solid's combinatorial structure from the face graph: each face's
/// corners in cyclic order, and each corner's faces. The corners are the
/// regions of the planar drawing of the face graph: a region bounded by
/// faces f1 ... fk is where those faces meet.
#[allow(clippy::type_complexity)]
fn corners(adjacent: &[u128]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let n = adjacent.len();
    let at = planar::layout(adjacent);
    // Each face's neighbours counterclockwise in the drawing.
    let around: Vec<Vec<usize>> = (0..n)
        .map(|f| {
            let mut ns: Vec<usize> = (0..n).filter(|&g| adjacent[f] >> g & 1 == 1).collect();
            let angle = |g: usize| (at[g].1 - at[f].1).atan2(at[g].0 - at[f].0);
            ns.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
            ns
        })
        .collect();
    // Walking a region: after the step u -> w, turn to the neighbour of w
    // just before u counterclockwise.
    let next = |u: usize, w: usize| {
        let ring = &around[w];
        let i = ring.iter().position(|&x| x == u).unwrap_or(0);
        (w, ring[(i + ring.len() - 1) % ring.len()])
    };
    let mut region_of = std::collections::BTreeMap::new();
    let mut corner_faces: Vec<Vec<usize>> = Vec::new();
    for (u, ring) in around.iter().enumerate() {
        for &w in ring {
            if region_of.contains_key(&(u, w)) {
                continue;
            }
            let id = corner_faces.len();
            let (mut step, mut faces) = ((u, w), Vec::new());
            while !region_of.contains_key(&step) && faces.len() <= 4 * n {
                region_of.insert(step, id);
                faces.push(step.0);
                step = next(step.0, step.1);
            }
            corner_faces.push(faces);
        }
    }
    // Face f's corners: the regions entered by the steps u -> f, in the
    // order of u around f.
    let faces = (0..n)
        .map(|f| {
            around[f]
                .iter()
                .map(|&u| region_of.get(&(u, f)).copied().unwrap_or(0))
                .collect()
        })
        .collect();
    (around, faces, corner_faces)
}

/// The point nearest to lying on every plane `x . n = 1` (least squares),
/// held near the unit sphere in the direction of the normals' mean where
/// the planes are nearly parallel and would meet far out.
fn meeting_point(normals: impl Iterator<Item = Vec3>) -> Vec3 {
    const HOLD: f64 = 0.1;
    let normals: Vec<Vec3> = normals.collect();
    let towards = normalise(normals.iter().fold([0.0; 3], |s, &n| add(s, n)));
    // Normal equations (sum n n^T + HOLD I) x = sum n + HOLD towards,
    // solved by Cramer's rule.
    let mut m = [[0.0; 3]; 3];
    let mut rhs = scale(towards, HOLD);
    for n in &normals {
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += n[i] * n[j];
            }
            rhs[i] += n[i];
        }
    }
    for (i, row) in m.iter_mut().enumerate() {
        row[i] += HOLD;
    }
    let det = |a: [Vec3; 3]| dot(a[0], cross(a[1], a[2]));
    let d = det(m);
    let column = |j: usize| {
        let mut a = m;
        for (i, row) in a.iter_mut().enumerate() {
            row[j] = rhs[i];
        }
        det(a) / d
    };
    [column(0), column(1), column(2)]
}

/// Hart's canonicalisation, [`CANONICAL_ROUNDS`] rounds: every edge moved to
/// touch the unit sphere, the solid kept centred, every face pulled onto
/// its plane.
fn canonicalise(corners: &mut [Vec3], faces: &[Vec<usize>]) {
    let mut edges = std::collections::BTreeSet::new();
    for face in faces {
        for i in 0..face.len() {
            let (a, b) = (face[i], face[(i + 1) % face.len()]);
            edges.insert((a.min(b), a.max(b)));
        }
    }
    for _ in 0..CANONICAL_ROUNDS {
        let mut touch_sum = [0.0; 3];
        for &(a, b) in &edges {
            let touch = touch(corners[a], corners[b]);
            let r = norm(touch);
            let push = scale(touch, 0.5 * (1.0 - r));
            corners[a] = add(corners[a], push);
            corners[b] = add(corners[b], push);
            touch_sum = add(touch_sum, touch);
        }
        let shift = scale(touch_sum, 1.0 / edges.len().max(1) as f64);
        for c in corners.iter_mut() {
            *c = sub(*c, shift);
        }
        for face in faces {
            let n = face_normal(corners, face);
            let c = centroid(face.iter().map(|&v| corners[v]));
            for &v in face {
                let off = dot(sub(corners[v], c), n);
                corners[v] = sub(corners[v], scale(n, 0.3 * off));
            }
        }
    }
}

/// The point of the line through `p` and `q` nearest the centre.
fn touch(p: Vec3, q: Vec3) -> Vec3 {
    let d = sub(q, p);
    let t = -dot(p, d) / dot(d, d).max(1e-12);
    add(p, scale(d, t))
}

/// Canonicalisation rounds between checks whether the drawing has settled.
const CANONICAL_ROUNDS: usize = 100;

/// The most canonicalisation rounds.
const MAX_CANONICAL_ROUNDS: usize = 40_000;

/// A face's unit normal (Newell's method), pointing away from the centre.
fn face_normal(corners: &[Vec3], face: &[usize]) -> Vec3 {
    let mut n = [0.0; 3];
    for i in 0..face.len() {
        n = add(
            n,
            cross(corners[face[i]], corners[face[(i + 1) % face.len()]]),
        );
    }
    let n = normalise(n);
    let c = centroid(face.iter().map(|&v| corners[v]));
    if dot(n, c) < 0.0 { scale(n, -1.0) } else { n }
}

fn centroid(points: impl Iterator<Item = Vec3>) -> Vec3 {
    let (sum, k) = points.fold(([0.0; 3], 0.0), |(s, k), p| (add(s, p), k + 1.0));
    scale(sum, 1.0 / f64::max(k, 1.0))
}

/// The distance from `centre` to the nearest side of the drawn polygon.
fn inradius(points: &[(f64, f64)], centre: (f64, f64)) -> f64 {
    (0..points.len())
        .map(|i| {
            let (p, q) = (points[i], points[(i + 1) % points.len()]);
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let length = (dx * dx + dy * dy).sqrt().max(1e-9);
            ((centre.0 - p.0) * dy - (centre.1 - p.1) * dx).abs() / length
        })
        .fold(f64::MAX, f64::min)
}

fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: Vec3, k: f64) -> Vec3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: Vec3) -> f64 {
    dot(a, a).sqrt()
}

fn normalise(a: Vec3) -> Vec3 {
    scale(a, 1.0 / norm(a).max(1e-12))
}

fn matmul(a: [Vec3; 3], b: [Vec3; 3]) -> [Vec3; 3] {
    let column = |j: usize| [b[0][j], b[1][j], b[2][j]];
    a.map(|row| {
        [
            dot(row, column(0)),
            dot(row, column(1)),
            dot(row, column(2)),
        ]
    })
}
