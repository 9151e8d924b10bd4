//! A straight-line drawing of a finite board's graph (its faces as points,
//! an edge where two faces meet): Tutte's barycentric embedding.
//!
//! Key decision: the face graph of a convex polyhedron is planar and
//! 3-connected, and for such a graph Tutte's theorem says that fixing one
//! face cycle on a convex polygon and putting every other vertex at the
//! average of its neighbours gives a drawing without crossings: a Schlegel
//! diagram of the dual solid. The faces of such a graph are exactly its
//! induced cycles whose removal leaves it connected, so the outer cycle is
//! found by a bounded search for one. Graphs without such a cycle (trees,
//! tiny graphs) are drawn on a circle. This is presentation only; nothing
//! here is trusted.

/// Longest outer cycle looked for.
const MAX_CYCLE: usize = 12;

/// Steps the outer-cycle search may take before settling for what it found.
const SEARCH_STEPS: usize = 200_000;

/// Averaging sweeps; the drawing is settled to well under a pixel by then.
const SWEEPS: usize = 2_000;

/// A position for every vertex of the graph `adjacent` (bit sets), in a
/// disc of radius 1 around the origin.
pub fn layout(adjacent: &[u128]) -> Vec<(f64, f64)> {
    let n = adjacent.len();
    let outer = outer_cycle(adjacent).unwrap_or_else(|| (0..n).collect());
    tutte(adjacent, &outer)
}

/// Tutte's drawing with the cycle `outer` on the unit circle, in its order,
/// and every other vertex at the average of its neighbours.
pub fn tutte(adjacent: &[u128], outer: &[usize]) -> Vec<(f64, f64)> {
    let n = adjacent.len();
    let mut pos = vec![(0.0, 0.0); n];
    let mut fixed = vec![false; n];
    for (k, &v) in outer.iter().enumerate() {
        let angle = std::f64::consts::TAU * k as f64 / outer.len() as f64;
        pos[v] = (angle.sin(), -angle.cos());
        fixed[v] = true;
    }
    for _ in 0..SWEEPS {
        for v in (0..n).filter(|&v| !fixed[v]) {
            let neighbours: Vec<usize> = members(adjacent[v]).collect();
            if neighbours.is_empty() {
                continue;
            }
            let (sx, sy) = neighbours
                .iter()
                .fold((0.0, 0.0), |(x, y), &u| (x + pos[u].0, y + pos[u].1));
            let k = neighbours.len() as f64;
            pos[v] = (sx / k, sy / k);
        }
    }
    pos
}

/// The longest induced cycle (of at most [`MAX_CYCLE`] vertices) whose
/// removal leaves the graph connected, found within [`SEARCH_STEPS`].
fn outer_cycle(adjacent: &[u128]) -> Option<Vec<usize>> {
    let n = adjacent.len();
    let all = if n == 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    };
    let mut best: Option<Vec<usize>> = None;
    let mut steps = 0;
    for start in 0..n {
        let mut path = vec![start];
        extend(adjacent, all, &mut path, &mut best, &mut steps);
        if steps >= SEARCH_STEPS {
            break;
        }
    }
    best
}

/// Grows `path` (a chordless path from its least vertex) by vertices
/// greater than its start, recording the cycles it closes.
fn extend(
    adjacent: &[u128],
    all: u128,
    path: &mut Vec<usize>,
    best: &mut Option<Vec<usize>>,
    steps: &mut usize,
) {
    let (start, last) = (path[0], path[path.len() - 1]);
    // The path's vertices other than its ends: a cycle through v would have
    // a chord if v were adjacent to one of them.
    let inner: u128 = path[1..]
        .iter()
        .rev()
        .skip(1)
        .fold(0, |m, &v| m | 1u128 << v);
    for v in members(adjacent[last]) {
        *steps += 1;
        if *steps >= SEARCH_STEPS {
            return;
        }
        if v <= start || path.contains(&v) || adjacent[v] & inner != 0 {
            continue;
        }
        path.push(v);
        if path.len() >= 3 && adjacent[v] & (1u128 << start) != 0 {
            let on_cycle = path.iter().fold(0u128, |m, &u| m | 1u128 << u);
            let longer = best.as_ref().is_none_or(|b| b.len() < path.len());
            if longer && connected(adjacent, all & !on_cycle) {
                *best = Some(path.clone());
            }
        } else if path.len() < MAX_CYCLE {
            extend(adjacent, all, path, best, steps);
        }
        path.pop();
    }
}

/// Whether the vertices `set` induce a connected graph (empty counts).
fn connected(adjacent: &[u128], set: u128) -> bool {
    if set == 0 {
        return true;
    }
    let mut reached = set & set.wrapping_neg();
    loop {
        let grown = members(reached).fold(reached, |m, v| m | (adjacent[v] & set));
        if grown == reached {
            return reached == set;
        }
        reached = grown;
    }
}

/// The indices of the set bits of `x`.
fn members(mut x: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::animals::solid::{FaceGraph, Operator, Platonic, Solid};

    /// Whether segments ab and cd cross at a point inside both.
    fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
        let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        };
        let (d1, d2) = (orient(a, b, c), orient(a, b, d));
        let (d3, d4) = (orient(c, d, a), orient(c, d, b));
        let eps = 1e-9;
        ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
            && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
    }

    /// Every solid's face graph is drawn without crossing edges and without
    /// two faces on one point: Tutte's theorem at work, and a check that
    /// the outer cycle found is a face.
    #[test]
    fn solids_are_drawn_without_crossings() {
        use Operator::*;
        use Platonic::*;
        let mut solids = vec![
            Solid::Tetrahedron,
            Solid::Cube,
            Solid::Octahedron,
            Solid::Dodecahedron,
            Solid::Icosahedron,
            Solid::Prism(5),
            Solid::Antiprism(7),
        ];
        for (op, base) in [
            (Truncate, Tetrahedron),
            (Ambo, Cube),
            (Truncate, Cube),
            (Truncate, Octahedron),
            (Expand, Cube),
            (Bevel, Cube),
            (Snub, Cube),
            (Ambo, Dodecahedron),
            (Truncate, Dodecahedron),
            (Truncate, Icosahedron),
            (Expand, Dodecahedron),
            (Bevel, Dodecahedron),
            (Snub, Dodecahedron),
        ] {
            solids.push(Solid::Archimedean(op, base));
        }
        for solid in solids {
            let g = FaceGraph::of(solid).expect("a solid");
            let pos = layout(&g.adjacent);
            let n = g.faces();
            let edges: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| {
                    members(g.adjacent[a])
                        .filter(move |&b| b > a)
                        .map(move |b| (a, b))
                })
                .collect();
            for (i, &(a, b)) in edges.iter().enumerate() {
                for &(c, d) in &edges[i + 1..] {
                    if [a, b].contains(&c) || [a, b].contains(&d) {
                        continue;
                    }
                    assert!(
                        !cross(pos[a], pos[b], pos[c], pos[d]),
                        "{solid:?}: edges {a}-{b} and {c}-{d} cross"
                    );
                }
            }
            for a in 0..n {
                for b in a + 1..n {
                    let (dx, dy) = (pos[a].0 - pos[b].0, pos[a].1 - pos[b].1);
                    assert!(dx.hypot(dy) > 1e-6, "{solid:?}: faces {a} and {b} coincide");
                }
            }
        }
    }
}
