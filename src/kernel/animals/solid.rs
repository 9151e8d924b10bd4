//! Finite boards given by their face-adjacency graph: the platonic solids,
//! prisms and antiprisms; their automorphism groups and animal counts.
//!
//! Key decision: the solids are built combinatorially, never from coordinate
//! tables. A solid's faces are the vertices of its dual's skeleton, so each
//! face graph is built as that skeleton: the tetrahedron's is K4, the cube's
//! the octahedron graph (each face adjacent to all but the opposite one), the
//! octahedron's the 3-cube graph, the dodecahedron's the icosahedron graph
//! (two poles over two rings of five joined as an antiprism), and the
//! icosahedron's is read off the icosahedron graph itself: its faces are the
//! triangles of that graph, adjacent when they share an edge. Congruences are
//! the graph automorphisms, found by backtracking (rule A2).

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Face numbers
// are below 128 (MAX_FACES) and sets are u128 bit masks; counts of sets are
// bounded by the budget.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::kernel::budget::{Budget, Exhausted};

/// The faces at positions before `depth` of a breadth-first order.
fn mapped_set(order: &[(usize, usize)], depth: usize) -> u128 {
    order[..depth]
        .iter()
        .fold(0u128, |m, &(g, _)| m | 1u128 << g)
}

/// An automorphism group, each element the image of every face.
pub type Group = Arc<Vec<Vec<u8>>>;

/// The groups listed so far, by adjacency: a board's group is listed once
/// however many claims use it. Only complete listings are kept, so one cut
/// short by a claim's budget is tried again by the next claim, within its
/// own budget.
static GROUPS: Mutex<BTreeMap<Vec<u128>, Group>> = Mutex::new(BTreeMap::new());

/// The most faces a board may have (one `u128` of faces).
pub const MAX_FACES: usize = 128;

/// The most steps the listing of one board's automorphisms may take: the
/// solids need a few thousand, adversarial graphs are cut off (UNDECIDED)
/// within about a second whatever the run's budget.
const GROUP_STEPS: u64 = 20_000_000;

/// A finite board: faces and which share an edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceGraph {
    /// `adjacent[f]`: the faces sharing an edge with face `f`.
    pub adjacent: Vec<u128>,
}

/// The board kinds built here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solid {
    /// 4 triangles.
    Tetrahedron,
    /// 6 squares.
    Cube,
    /// 8 triangles.
    Octahedron,
    /// 12 pentagons.
    Dodecahedron,
    /// 20 triangles.
    Icosahedron,
    /// Two n-gons joined by n squares (n >= 3).
    Prism(usize),
    /// Two n-gons joined by 2n triangles (n >= 3).
    Antiprism(usize),
    /// An archimedean solid: an operator applied to a platonic one.
    Archimedean(Operator, Platonic),
}

/// The platonic solids an archimedean one is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platonic {
    /// 4 triangles.
    Tetrahedron,
    /// 6 squares.
    Cube,
    /// 8 triangles.
    Octahedron,
    /// 12 pentagons.
    Dodecahedron,
    /// 20 triangles.
    Icosahedron,
}

/// Conway's operators, as they act on faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// Truncate (t): every vertex cut off.
    Truncate,
    /// Ambo (a): faces and vertex figures, meeting at the old edges' midpoints.
    Ambo,
    /// Expand (e = aa): faces, vertex figures and a square per edge.
    Expand,
    /// Bevel (b = ta): faces, vertex figures and a square per edge, all
    /// truncated.
    Bevel,
    /// Snub (s): faces, vertex figures and two triangles per edge, twisted.
    Snub,
}

impl FaceGraph {
    fn with_faces(n: usize) -> FaceGraph {
        FaceGraph {
            adjacent: vec![0; n],
        }
    }

    fn join(&mut self, a: usize, b: usize) {
        self.adjacent[a] |= 1u128 << b;
        self.adjacent[b] |= 1u128 << a;
    }

    /// Number of faces.
    pub fn faces(&self) -> usize {
        self.adjacent.len()
    }

    /// The face graph of a solid; `None` for prisms and antiprisms too large
    /// for [`MAX_FACES`] or with fewer than 3 sides.
    pub fn of(solid: Solid) -> Option<FaceGraph> {
        Some(match solid {
            Solid::Tetrahedron => complete(4),
            Solid::Cube => {
                // Faces 2i and 2i+1 are opposite.
                let mut g = FaceGraph::with_faces(6);
                for a in 0..6 {
                    for b in a + 1..6 {
                        if a / 2 != b / 2 {
                            g.join(a, b);
                        }
                    }
                }
                g
            }
            Solid::Octahedron => {
                // Faces are the 8 octants: adjacent when one sign differs.
                let mut g = FaceGraph::with_faces(8);
                for a in 0..8usize {
                    for bit in 0..3 {
                        let b = a ^ (1 << bit);
                        if a < b {
                            g.join(a, b);
                        }
                    }
                }
                g
            }
            Solid::Dodecahedron => icosahedron_skeleton(),
            Solid::Icosahedron => triangles_of(&icosahedron_skeleton()),
            Solid::Prism(n) => {
                if !(3..=MAX_FACES - 2).contains(&n) {
                    return None;
                }
                // Faces 0 and 1 are the n-gons, 2..n+2 the squares around.
                let mut g = FaceGraph::with_faces(n + 2);
                for i in 0..n {
                    g.join(0, 2 + i);
                    g.join(1, 2 + i);
                    g.join(2 + i, 2 + (i + 1) % n);
                }
                g
            }
            Solid::Archimedean(op, base) => Polyhedron::platonic(base).operated(op),
            Solid::Antiprism(n) => {
                if !(3..=(MAX_FACES - 2) / 2).contains(&n) {
                    return None;
                }
                // Faces 0 and 1 are the n-gons; the band of 2n triangles
                // alternates between them.
                let mut g = FaceGraph::with_faces(2 * n + 2);
                for i in 0..2 * n {
                    g.join(2 + i, 2 + (i + 1) % (2 * n));
                    g.join(if i % 2 == 0 { 0 } else { 1 }, 2 + i);
                }
                g
            }
        })
    }

    /// The automorphism group, listed within `budget` the first time any
    /// caller asks for it and shared afterwards. The listing charges time
    /// and memory but no nodes, so that a node budget gives the same
    /// verdict whichever claim happens to list the group first.
    pub fn group(&self, budget: &mut Budget) -> Result<Group, Exhausted> {
        let cached = GROUPS
            .lock()
            .ok()
            .and_then(|g| g.get(&self.adjacent).cloned());
        if let Some(group) = cached {
            return Ok(group);
        }
        let group = Arc::new(self.automorphisms(budget)?);
        if let Ok(mut groups) = GROUPS.lock() {
            groups.insert(self.adjacent.clone(), Arc::clone(&group));
        }
        Ok(group)
    }

    /// All automorphisms of the graph, each as the image of every face
    /// (listed anew; [`FaceGraph::group`] lists each graph's once).
    pub fn automorphisms(&self, budget: &mut Budget) -> Result<Vec<Vec<u8>>, Exhausted> {
        let n = self.faces();
        // Faces in an order where each comes with a parent, a neighbour
        // mapped before it. Each next face is one with the most neighbours
        // already mapped (then one next to the face mapped last): each new
        // face is then pinned by several mapped neighbours, and the search
        // does not try every arrangement of the many faces around a large
        // one (an antiprism's band, taken breadth-first from an n-gon,
        // made it factorial).
        let mut order = vec![(0usize, 0usize)];
        let mut seen = 1u128;
        let mut last = 0usize;
        while let Some(f) = bits(self.all() & !seen)
            .filter(|&g| self.adjacent[g] & seen != 0)
            .max_by_key(|&g| {
                let mapped = (self.adjacent[g] & seen).count_ones();
                (mapped, self.adjacent[g] >> last & 1, std::cmp::Reverse(g))
            })
        {
            let last_neighbour = order
                .iter()
                .rev()
                .find(|&&(m, _)| self.adjacent[f] >> m & 1 == 1)
                .map_or(0, |&(m, _)| m);
            seen |= 1u128 << f;
            order.push((f, last_neighbour));
            last = f;
        }
        let mut found = Vec::new();
        if order.len() != n {
            // A disconnected board: only the identity is tried.
            found.push((0..n as u8).collect());
            return Ok(found);
        }
        let mut image = vec![u8::MAX; n];
        let mut used = 0u128;
        // A fixed cap on the search, the same on every machine and under
        // every budget (a node budget does not apply to the listing).
        let mut listing = budget.clone().with_more_steps(GROUP_STEPS);
        self.extend(&order, 0, &mut image, &mut used, &mut found, &mut listing)?;
        Ok(found)
    }

    /// Extends a partial automorphism (`image` on the faces of `order`
    /// before `depth`, `used` its image set) in every way.
    fn extend(
        &self,
        order: &[(usize, usize)],
        depth: usize,
        image: &mut Vec<u8>,
        used: &mut u128,
        found: &mut Vec<Vec<u8>>,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let Some(&(f, parent)) = order.get(depth) else {
            budget.hold(found.len() + 1)?;
            found.push(image.clone());
            return Ok(());
        };
        // The faces mapped so far that are f's neighbours, and their images.
        let mapped_neighbours = self.adjacent[f] & mapped_set(order, depth);
        let wanted = bits(mapped_neighbours).fold(0u128, |m, g| m | 1u128 << image[g]);
        // f's image is a neighbour of its parent's image (the first face,
        // with nothing mapped, may go anywhere).
        let candidates = if depth == 0 {
            self.all()
        } else {
            self.adjacent[usize::from(image[parent])] & !*used
        };
        for candidate in bits(candidates) {
            budget.tick()?;
            // Adjacency to every face mapped so far is kept both ways: the
            // candidate's neighbours among the images are exactly the
            // images of f's mapped neighbours.
            let fits = self.adjacent[candidate].count_ones() == self.adjacent[f].count_ones()
                && self.adjacent[candidate] & *used == wanted;
            if !fits {
                continue;
            }
            image[f] = candidate as u8;
            *used |= 1u128 << candidate;
            self.extend(order, depth + 1, image, used, found, budget)?;
            *used &= !(1u128 << candidate);
            image[f] = u8::MAX;
        }
        Ok(())
    }

    /// The faces next to `face`.
    pub fn neighbours(&self, face: usize) -> u128 {
        self.adjacent[face]
    }

    /// Whether `set` is connected, given that `set` with the face `removed`
    /// added is: exactly when `removed`'s neighbours in `set` are all
    /// reached from one of them (every part of `set` touches `removed`).
    /// The search stops as soon as they are, usually near `removed`.
    pub fn connected_without(&self, set: u128, removed: usize) -> bool {
        let around = self.adjacent[removed] & set;
        let start = around & around.wrapping_neg();
        around != 0 && self.reached(set, start, around) & around == around
    }

    /// Whether the faces `set` are connected (an empty set is not).
    pub fn connected(&self, set: u128) -> bool {
        set != 0 && self.component(set, set & set.wrapping_neg()) == set
    }

    /// The faces of `set` reached from the faces `start` (a subset of
    /// `set`) through faces of `set`.
    pub fn component(&self, set: u128, start: u128) -> u128 {
        self.reached(set, start, set)
    }

    /// The faces of `set` reached from `start` through faces of `set`, the
    /// search stopping early once every face of `until` is reached.
    fn reached(&self, set: u128, start: u128, until: u128) -> u128 {
        // Breadth first: each face's neighbours are looked up once.
        let mut reached = start;
        let mut frontier = start;
        while frontier != 0 && until & !reached != 0 {
            let around = bits(frontier).fold(0u128, |m, f| m | self.adjacent[f]);
            frontier = around & set & !reached;
            reached |= frontier;
        }
        reached
    }

    /// The graph with `n` vertices and the given edges; `None` when `n` is 0
    /// or above [`MAX_FACES`], or an edge has an end outside or is a loop.
    pub fn from_edges(
        n: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
    ) -> Option<FaceGraph> {
        if n == 0 || n > MAX_FACES {
            return None;
        }
        let mut g = FaceGraph::with_faces(n);
        for (a, b) in edges {
            if a >= n || b >= n || a == b {
                return None;
            }
            g.join(a, b);
        }
        Some(g)
    }

    /// Every vertex, as a set.
    pub fn all(&self) -> u128 {
        if self.faces() == 128 {
            u128::MAX
        } else {
            (1u128 << self.faces()) - 1
        }
    }
}

/// A polyhedron as its faces, each a cycle of vertices, all oriented the same
/// way (every edge is run through once in each direction).
struct Polyhedron {
    faces: Vec<Vec<usize>>,
    vertices: usize,
}

impl Polyhedron {
    /// The platonic solids: the tetrahedron, octahedron and icosahedron as
    /// the triangles of their skeletons, the cube and dodecahedron as the
    /// duals of the octahedron and icosahedron.
    fn platonic(base: Platonic) -> Polyhedron {
        match base {
            Platonic::Tetrahedron => Polyhedron::triangulated(&complete(4)),
            Platonic::Octahedron => Polyhedron::triangulated(&octahedron_skeleton()),
            Platonic::Icosahedron => Polyhedron::triangulated(&icosahedron_skeleton()),
            Platonic::Cube => Polyhedron::triangulated(&octahedron_skeleton()).dual(),
            Platonic::Dodecahedron => Polyhedron::triangulated(&icosahedron_skeleton()).dual(),
        }
    }

    /// The polyhedron whose faces are the triangles of a triangulated
    /// sphere's skeleton, oriented consistently.
    fn triangulated(g: &FaceGraph) -> Polyhedron {
        let n = g.faces();
        let mut faces = Vec::new();
        for a in 0..n {
            for b in bits(g.adjacent[a]).filter(|&b| b > a) {
                for c in bits(g.adjacent[a] & g.adjacent[b]).filter(|&c| c > b) {
                    faces.push(vec![a, b, c]);
                }
            }
        }
        orient(&mut faces);
        Polyhedron { faces, vertices: n }
    }

    /// Each directed edge (a, b) of a face, with the face.
    fn darts(&self) -> std::collections::HashMap<(usize, usize), usize> {
        let mut darts = std::collections::HashMap::new();
        for (f, cycle) in self.faces.iter().enumerate() {
            for i in 0..cycle.len() {
                darts.insert((cycle[i], cycle[(i + 1) % cycle.len()]), f);
            }
        }
        darts
    }

    /// The dual: a vertex per face, a face per vertex (the faces around it).
    fn dual(&self) -> Polyhedron {
        let darts = self.darts();
        let mut faces = Vec::new();
        for v in 0..self.vertices {
            let Some(first) = darts.keys().filter(|d| d.0 == v).map(|d| d.1).min() else {
                continue;
            };
            // The face holding dart (v, out) also holds (prev, v); the face
            // across that edge holds (v, prev): the next face around v.
            let mut ring = Vec::new();
            let mut out = first;
            while ring.len() <= self.faces.len() {
                let f = darts[&(v, out)];
                ring.push(f);
                let cycle = &self.faces[f];
                let i = cycle.iter().position(|&x| x == v).unwrap_or(0);
                out = cycle[(i + cycle.len() - 1) % cycle.len()];
                if out == first {
                    break;
                }
            }
            faces.push(ring);
        }
        orient(&mut faces);
        Polyhedron {
            vertices: self.faces.len(),
            faces,
        }
    }

    /// The face graph of an operator applied to this polyhedron.
    fn operated(&self, op: Operator) -> FaceGraph {
        let (nf, nv) = (self.faces.len(), self.vertices);
        let darts = self.darts();
        let mut edges: Vec<(usize, usize)> =
            darts.keys().filter(|&&(a, b)| a < b).copied().collect();
        edges.sort_unstable();
        let ne = edges.len();
        // Cells: faces first, then vertex figures, then edge cells.
        let face = |f: usize| f;
        let vertex = |v: usize| nf + v;
        let edge = |e: usize| nf + nv + e;
        let cells = match op {
            Operator::Truncate | Operator::Ambo => nf + nv,
            Operator::Expand | Operator::Bevel => nf + nv + ne,
            Operator::Snub => nf + nv + 2 * ne,
        };
        let mut g = FaceGraph::with_faces(cells);
        for (e, &(a, b)) in edges.iter().enumerate() {
            let (f, h) = (darts[&(a, b)], darts[&(b, a)]);
            match op {
                Operator::Truncate => {
                    g.join(face(f), face(h));
                    for v in [a, b] {
                        g.join(vertex(v), face(f));
                        g.join(vertex(v), face(h));
                    }
                }
                Operator::Ambo => {
                    for v in [a, b] {
                        g.join(vertex(v), face(f));
                        g.join(vertex(v), face(h));
                    }
                }
                Operator::Expand | Operator::Bevel => {
                    g.join(edge(e), face(f));
                    g.join(edge(e), face(h));
                    g.join(edge(e), vertex(a));
                    g.join(edge(e), vertex(b));
                    if op == Operator::Bevel {
                        for v in [a, b] {
                            g.join(vertex(v), face(f));
                            g.join(vertex(v), face(h));
                        }
                    }
                }
                Operator::Snub => {
                    // Two triangles per edge: the one on dart (a, b) touches
                    // that dart's face and its tail a; the other, on (b, a),
                    // touches face h and vertex b. Always taking the tail
                    // twists every edge the same way (one of the two mirror
                    // images).
                    let (t1, t2) = (nf + nv + 2 * e, nf + nv + 2 * e + 1);
                    g.join(t1, t2);
                    g.join(t1, face(f));
                    g.join(t1, vertex(a));
                    g.join(t2, face(h));
                    g.join(t2, vertex(b));
                }
            }
        }
        g
    }
}

/// Orients triangles (or any faces) so that adjacent faces run through
/// their shared edge in opposite directions (breadth-first from face 0).
fn orient(faces: &mut [Vec<usize>]) {
    let n = faces.len();
    let mut done = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        done[0] = true;
        queue.push_back(0);
    }
    while let Some(f) = queue.pop_front() {
        let cycle = faces[f].clone();
        for i in 0..cycle.len() {
            let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
            for g in 0..n {
                if done[g] || !(faces[g].contains(&a) && faces[g].contains(&b)) {
                    continue;
                }
                // g must run through the edge as (b, a).
                let other = &faces[g];
                let j = other.iter().position(|&x| x == a).unwrap_or(0);
                if other[(j + 1) % other.len()] == b {
                    faces[g].reverse();
                }
                done[g] = true;
                queue.push_back(g);
            }
        }
    }
}

/// The octahedron's skeleton: six vertices, each joined to all but its
/// opposite (2i and 2i+1 are opposite).
fn octahedron_skeleton() -> FaceGraph {
    let mut g = FaceGraph::with_faces(6);
    for a in 0..6 {
        for b in a + 1..6 {
            if a / 2 != b / 2 {
                g.join(a, b);
            }
        }
    }
    g
}

/// K_n.
fn complete(n: usize) -> FaceGraph {
    let mut g = FaceGraph::with_faces(n);
    for a in 0..n {
        for b in a + 1..n {
            g.join(a, b);
        }
    }
    g
}

/// The icosahedron's skeleton: a top vertex over a ring of five, a bottom
/// vertex under another ring of five, the rings joined as an antiprism.
fn icosahedron_skeleton() -> FaceGraph {
    let mut g = FaceGraph::with_faces(12);
    let (top, bottom) = (0, 11);
    let upper = |i: usize| 1 + i % 5;
    let lower = |i: usize| 6 + i % 5;
    for i in 0..5 {
        g.join(top, upper(i));
        g.join(bottom, lower(i));
        g.join(upper(i), upper(i + 1));
        g.join(lower(i), lower(i + 1));
        g.join(upper(i), lower(i));
        g.join(upper(i + 1), lower(i));
    }
    g
}

/// The graph whose vertices are the triangles of `g`, adjacent when they
/// share an edge (for a triangulated sphere: its dual's skeleton).
fn triangles_of(g: &FaceGraph) -> FaceGraph {
    let n = g.faces();
    let mut triangles = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                let ab = g.adjacent[a] & (1u128 << b) != 0;
                let bc = g.adjacent[b] & (1u128 << c) != 0;
                let ac = g.adjacent[a] & (1u128 << c) != 0;
                if ab && bc && ac {
                    triangles.push((1u128 << a) | (1u128 << b) | (1u128 << c));
                }
            }
        }
    }
    let mut out = FaceGraph::with_faces(triangles.len());
    for i in 0..triangles.len() {
        for j in i + 1..triangles.len() {
            if (triangles[i] & triangles[j]).count_ones() == 2 {
                out.join(i, j);
            }
        }
    }
    out
}

/// The vertices of the set `set`, in increasing order.
pub fn members(set: u128) -> impl Iterator<Item = usize> {
    bits(set)
}

/// The indices of the set bits of `x`.
fn bits(mut x: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

/// What is counted on a finite board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FiniteKind {
    /// Connected proper subsets, labelled (no symmetry).
    Labelled,
    /// Connected proper subsets up to automorphism.
    Free,
    /// Connected proper subsets with a connected complement, up to
    /// automorphism (Bode's polyominoes).
    FreeSimplyConnected,
}

/// The number of animals of `size` faces of `kind` on the board.
pub fn count(
    graph: &FaceGraph,
    size: usize,
    kind: FiniteKind,
    budget: &mut Budget,
) -> Result<u64, Exhausted> {
    let n = graph.faces();
    if size == 0 || size >= n {
        return Ok(0);
    }
    // Complementing is a bijection between the polyominoes of k faces and
    // those of n - k that commutes with every automorphism, so it maps
    // classes onto classes: the smaller side is enumerated.
    let size = match kind {
        FiniteKind::FreeSimplyConnected => size.min(n - size),
        FiniteKind::Labelled | FiniteKind::Free => size,
    };
    let group = if kind == FiniteKind::Labelled {
        Group::default()
    } else {
        graph.group(budget)?
    };
    let mut found = 0;
    for_each_connected(graph, size, budget, &mut |set| {
        let accept = match kind {
            FiniteKind::Labelled => true,
            FiniteKind::Free => least_image(&group, set),
            FiniteKind::FreeSimplyConnected => {
                least_image(&group, set) && graph.connected(graph.all() & !set)
            }
        };
        found += u64::from(accept);
    })?;
    Ok(found)
}

/// Calls `visit` once for every connected set of `size` vertices of the
/// graph.
pub fn for_each_connected(
    graph: &FaceGraph,
    size: usize,
    budget: &mut Budget,
    visit: &mut impl FnMut(u128),
) -> Result<(), Exhausted> {
    for_each_connected_while(graph, budget, &mut |set, _, _: Option<()>| {
        let reached = set.count_ones() as usize >= size;
        if reached {
            visit(set);
        }
        (!reached).then_some(())
    })
}

/// Calls `visit` once for every connected set of vertices of the graph
/// that is reached: each set is grown once, from its least vertex, through
/// vertices greater than it (Redelmeier on the graph), and only from sets
/// for which `visit` returned a value. Every set grown on the way to a set
/// is a subset of it, so a condition that holds for a set holds for every
/// set on its way (a size cap, containing no loser) can prune. `visit(set,
/// added, parent)` gets the vertex added last and the value its parent set
/// returned (`None` for a single vertex).
pub fn for_each_connected_while<S: Copy>(
    graph: &FaceGraph,
    budget: &mut Budget,
    visit: &mut impl FnMut(u128, usize, Option<S>) -> Option<S>,
) -> Result<(), Exhausted> {
    for_each_connected_from(graph, graph.all(), budget, visit)
}

/// [`for_each_connected_while`] for the sets whose least vertex is one of
/// `roots` only.
pub fn for_each_connected_from<S: Copy>(
    graph: &FaceGraph,
    roots: u128,
    budget: &mut Budget,
    visit: &mut impl FnMut(u128, usize, Option<S>) -> Option<S>,
) -> Result<(), Exhausted> {
    for root in bits(roots & graph.all()) {
        let allowed = graph.all() & !((1u128 << root) - 1) & !(1u128 << root);
        let frontier = graph.adjacent[root] & allowed;
        let mut step = Step {
            graph,
            allowed,
            visit,
            budget,
            value: std::marker::PhantomData,
        };
        step.grow(
            1u128 << root,
            root,
            None,
            frontier,
            (1u128 << root) | frontier,
        )?;
    }
    Ok(())
}

/// Redelmeier's enumeration on one root's vertices `allowed`.
struct Step<'a, S, V> {
    graph: &'a FaceGraph,
    allowed: u128,
    visit: &'a mut V,
    budget: &'a mut Budget,
    value: std::marker::PhantomData<S>,
}

impl<S: Copy, V: FnMut(u128, usize, Option<S>) -> Option<S>> Step<'_, S, V> {
    /// Visits `set` (the animal so far, `added` its last vertex) and, if
    /// asked to, every animal grown from it: `untried` are the cells that
    /// may still be added, `seen` every cell already decided about.
    fn grow(
        &mut self,
        set: u128,
        added: usize,
        parent: Option<S>,
        mut untried: u128,
        seen: u128,
    ) -> Result<(), Exhausted> {
        self.budget.tick()?;
        let Some(value) = (self.visit)(set, added, parent) else {
            return Ok(());
        };
        while untried != 0 {
            let f = untried.trailing_zeros() as usize;
            untried &= untried - 1;
            let fresh = self.graph.adjacent[f] & self.allowed & !seen;
            self.grow(
                set | (1u128 << f),
                f,
                Some(value),
                untried | fresh,
                seen | fresh,
            )?;
        }
        Ok(())
    }
}

/// Whether `set` is the least of its images under `group`.
pub fn least_image(group: &[Vec<u8>], set: u128) -> bool {
    group.iter().all(|p| image(p, set) >= set)
}

/// Whether `set` is, of its images under `group`, the one that holds the
/// lowest faces: read from face 0 up, the first face where it and another
/// image differ is its own. Such a set's least face is the least of its
/// orbit under `group` (an image holding a lower one would come first).
pub fn leading_image(group: &[Vec<u8>], set: u128) -> bool {
    let key = set.reverse_bits();
    group.iter().all(|p| image(p, set).reverse_bits() <= key)
}

/// The faces that are the least of their orbit under `group`.
pub fn orbit_leaders(group: &[Vec<u8>], faces: usize) -> u128 {
    (0..faces)
        .filter(|&f| group.iter().all(|p| p[f] as usize >= f))
        .fold(0u128, |m, f| m | 1u128 << f)
}

/// The image of the face set `set` under the automorphism `p`.
pub fn image(p: &[u8], set: u128) -> u128 {
    bits(set).fold(0u128, |m, f| m | 1u128 << p[f])
}
