//! Short partizan games as an interned graph of positions, with their options.
//!
//! Key decision: a game is a [`Term`] when it comes in (a plain tree the
//! elaborator builds) and a node id of a [`Games`] arena inside the kernel.
//! Interning puts every node in a normal form that is *isomorphic* to what it
//! stands for (rule P2 of docs/soundness.md): sums are flattened and sorted
//! and lose their zero summands, negations are pushed into numbers, nimbers,
//! sums, Domineering boards (transposed) and Hackenbush graphs (colours
//! swapped), Domineering and Hackenbush positions are split into their
//! independent parts, and Domineering parts are cut to their bounding box and
//! flipped to a least image. Isomorphic game trees are equal games, so none of
//! this changes a value; it only lets the comparison memo meet the same
//! position twice. Options are generated on demand and cached.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Node ids index
// the arena, whose size the budget caps; Hackenbush pictures have at most 64
// edges, Domineering boards 64 cells.
#![allow(clippy::arithmetic_side_effects)]

use std::sync::Arc;

use super::dyadic::Dyadic;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::grid::Grid;

/// A node of a [`Games`] arena.
pub type Id = u32;

/// The most edges a Hackenbush position may have (one `u64` of edges).
pub const MAX_EDGES: usize = 64;

/// An edge colour: who may cut it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Left (blue, `l`).
    Blue,
    /// Right (red, `r`).
    Red,
    /// Either player (green, `e`).
    Green,
}

/// The most nodes a game written in a verdict has in full (a larger one is
/// abbreviated): enough for the positions a reader checks by hand.
pub const DESCRIBED_NODES: usize = 200;

/// A Hackenbush picture: edges between vertices, vertex 0 being the ground.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hackenbush {
    /// `(u, v, colour)`; at most [`MAX_EDGES`] edges.
    pub edges: Vec<(u32, u32, Colour)>,
}

/// A game as the elaborator hands it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `{L1, L2, ... | R1, ...}`.
    Options(Vec<Term>, Vec<Term>),
    /// A number in its standard form.
    Number(Dyadic),
    /// `*n`.
    Nimber(u32),
    /// A disjunctive sum.
    Sum(Vec<Term>),
    /// The negative (roles exchanged).
    Neg(Box<Term>),
    /// A Hackenbush picture with every edge present.
    Hackenbush(Arc<Hackenbush>),
    /// A Domineering position (Left places vertical dominoes).
    Domineering(Grid),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    Options(Vec<Id>, Vec<Id>),
    Number(Dyadic),
    Nimber(u32),
    Sum(Vec<Id>),
    Neg(Id),
    /// A picture of the arena's list and the edges still present.
    Hackenbush(u32, u64),
    Domineering(Grid),
}

/// The left and right options of a game.
pub type Options = (Vec<Id>, Vec<Id>);

/// The player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Left (blue, vertical dominoes).
    Left,
    /// Right (red, horizontal dominoes).
    Right,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        }
    }
}

/// The interned games of one claim.
#[derive(Default)]
pub struct Games {
    nodes: Vec<Node>,
    /// Option and summand ids the nodes hold (a sum of k games holds k).
    stored: usize,
    index: FastMap<Node, Id>,
    options: Vec<Option<Arc<Options>>>,
    pictures: Vec<Picture>,
    picture_index: FastMap<Arc<Hackenbush>, u32>,
}

/// A Hackenbush picture with, for each vertex, the mask of its edges.
struct Picture {
    shape: Arc<Hackenbush>,
    incident: Vec<u64>,
}

impl Games {
    /// An empty arena.
    pub fn new() -> Games {
        Games::default()
    }

    /// Number of interned nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The arena's size in memo entries (about 64 bytes each) for the
    /// memory cap: a node is kept twice (list and index), and a sum of k
    /// games holds k ids in each copy. Without it, options of long sums
    /// filled memory while the memo stayed small.
    pub fn weight(&self) -> usize {
        (2 * self.nodes.len()).saturating_add(self.stored / 8)
    }

    /// Interns a term.
    pub fn term(&mut self, term: &Term) -> Id {
        match term {
            Term::Options(left, right) => {
                let left = left.iter().map(|t| self.term(t)).collect();
                let right = right.iter().map(|t| self.term(t)).collect();
                self.options_node(left, right)
            }
            Term::Number(x) => self.intern(Node::Number(x.clone())),
            Term::Nimber(n) => self.nimber(*n),
            Term::Sum(parts) => {
                let parts = parts.iter().map(|t| self.term(t)).collect();
                self.sum(parts)
            }
            Term::Neg(inner) => {
                let inner = self.term(inner);
                self.neg(inner)
            }
            Term::Hackenbush(picture) => {
                let all = all_edges(picture.edges.len());
                let id = self.picture(picture.clone());
                self.hackenbush(id, all)
            }
            Term::Domineering(grid) => self.domineering(*grid),
        }
    }

    /// The number `x`.
    pub fn number(&mut self, x: Dyadic) -> Id {
        self.intern(Node::Number(x))
    }

    /// Zero.
    pub fn zero(&mut self) -> Id {
        self.number(Dyadic::zero())
    }

    /// `*n` (`*0` is zero).
    pub fn nimber(&mut self, n: u32) -> Id {
        if n == 0 {
            self.zero()
        } else {
            self.intern(Node::Nimber(n))
        }
    }

    /// `{left | right}` with the options as given (sorted, duplicates kept
    /// once: a set of options is what defines the game).
    pub fn options_node(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Id {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        if left.is_empty() && right.is_empty() {
            return self.zero();
        }
        self.intern(Node::Options(left, right))
    }

    /// The disjunctive sum of `parts`.
    pub fn sum(&mut self, parts: Vec<Id>) -> Id {
        let mut flat = Vec::with_capacity(parts.len());
        for p in parts {
            match &self.nodes[p as usize] {
                Node::Sum(inner) => flat.extend_from_slice(inner),
                Node::Number(x) if x.signum() == 0 => {}
                _ => flat.push(p),
            }
        }
        flat.sort_unstable();
        match flat.len() {
            0 => self.zero(),
            1 => flat[0],
            _ => self.intern(Node::Sum(flat)),
        }
    }

    /// The negative of `g`.
    pub fn neg(&mut self, g: Id) -> Id {
        match self.nodes[g as usize].clone() {
            Node::Number(x) => self.number(x.neg()),
            Node::Nimber(_) => g,
            Node::Neg(inner) => inner,
            Node::Sum(parts) => {
                let parts = parts.into_iter().map(|p| self.neg(p)).collect();
                self.sum(parts)
            }
            Node::Domineering(grid) => self.domineering(grid.transposed()),
            Node::Hackenbush(picture, edges) => {
                let swapped = Hackenbush {
                    edges: self.pictures[picture as usize]
                        .shape
                        .edges
                        .iter()
                        .map(|&(u, v, c)| {
                            let c = match c {
                                Colour::Blue => Colour::Red,
                                Colour::Red => Colour::Blue,
                                Colour::Green => Colour::Green,
                            };
                            (u, v, c)
                        })
                        .collect(),
                };
                let id = self.picture(Arc::new(swapped));
                self.hackenbush(id, edges)
            }
            Node::Options(..) => self.intern(Node::Neg(g)),
        }
    }

    /// The summands of `g` when it is a sum.
    pub fn sum_parts(&self, g: Id) -> Option<Vec<Id>> {
        match &self.nodes[g as usize] {
            Node::Sum(parts) => Some(parts.clone()),
            _ => None,
        }
    }

    /// Whether `g` is a number node, and which.
    pub fn as_number(&self, g: Id) -> Option<&Dyadic> {
        match &self.nodes[g as usize] {
            Node::Number(x) => Some(x),
            _ => None,
        }
    }

    /// The number the sum node `g` equals when its summands are all number
    /// nodes (rule P3: a sum of numbers is the number of their sum).
    pub fn sum_of_numbers(&self, g: Id) -> Option<Dyadic> {
        let Node::Sum(parts) = &self.nodes[g as usize] else {
            return None;
        };
        parts.iter().try_fold(Dyadic::zero(), |total, &p| {
            Some(total.add(self.as_number(p)?))
        })
    }

    /// Whether `g` is a sum node.
    pub fn is_sum(&self, g: Id) -> bool {
        matches!(self.nodes[g as usize], Node::Sum(_))
    }

    /// `n` when `g` is the nimber node `*n`.
    pub fn as_nimber(&self, g: Id) -> Option<u32> {
        match &self.nodes[g as usize] {
            Node::Nimber(n) => Some(*n),
            _ => None,
        }
    }

    /// The options of `g` when it is written out as `{...|...}` (zero is
    /// `{|}`), `None` for numbers, nimbers, sums and ruleset positions.
    pub fn explicit_options(&self, g: Id) -> Option<(Vec<Id>, Vec<Id>)> {
        match &self.nodes[g as usize] {
            Node::Options(l, r) => Some((l.clone(), r.clone())),
            Node::Number(x) if x.signum() == 0 => Some((Vec::new(), Vec::new())),
            _ => None,
        }
    }

    /// `g` in the notation of the language: in full when it has at most
    /// [`DESCRIBED_NODES`] nodes, so that it can be pasted into a claim;
    /// a larger game's options are cut at three levels and written `{...}`.
    pub fn describe(&self, g: Id) -> String {
        let mut nodes = DESCRIBED_NODES;
        let full = self.describe_to(g, usize::MAX, &mut nodes);
        if nodes > 0 {
            return full;
        }
        let mut unlimited = usize::MAX;
        self.describe_to(g, 3, &mut unlimited)
    }

    /// `g` to `depth` levels of options, using up one of `nodes` per node
    /// written; options past either limit are written `{...}`.
    fn describe_to(&self, g: Id, depth: usize, nodes: &mut usize) -> String {
        *nodes = nodes.saturating_sub(1);
        let cut = depth == 0 || *nodes == 0;
        let mut list = |ids: &[Id]| -> String {
            ids.iter()
                .map(|&o| self.describe_to(o, depth.saturating_sub(1), nodes))
                .collect::<Vec<_>>()
                .join(",")
        };
        match &self.nodes[g as usize] {
            Node::Number(x) => x.to_string(),
            Node::Nimber(1) => "*".to_string(),
            Node::Nimber(n) => format!("*{n}"),
            Node::Options(..) | Node::Neg(_) if cut => "{...}".to_string(),
            Node::Options(l, r) => {
                let left = list(l);
                format!("{{{left}|{}}}", list(r))
            }
            Node::Neg(inner) => format!("-({})", self.describe_to(*inner, depth, nodes)),
            Node::Sum(parts) => parts
                .iter()
                .map(|&p| self.describe_to(p, depth, nodes))
                .collect::<Vec<_>>()
                .join(" + "),
            Node::Hackenbush(picture, edges) => {
                let shape = &self.pictures[*picture as usize].shape;
                let drawn: Vec<String> = shape
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|(e, _)| edges & (1u64 << e) != 0)
                    .map(|(_, &(u, v, c))| {
                        let c = match c {
                            Colour::Blue => 'l',
                            Colour::Red => 'r',
                            Colour::Green => 'e',
                        };
                        format!("{u}-{v} {c}")
                    })
                    .collect();
                // The graph form of the input syntax, so that a witness
                // can be pasted into a claim (vertex 0 is the ground).
                format!("hackenbush \"{}\"", drawn.join(", "))
            }
            Node::Domineering(grid) => {
                let rows: Vec<String> = (0..u32::from(grid.rows))
                    .map(|r| {
                        (0..u32::from(grid.cols))
                            .map(|c| {
                                let cell = 1u64 << (r * u32::from(grid.cols) + c);
                                if grid.free & cell != 0 { '.' } else { '#' }
                            })
                            .collect()
                    })
                    .collect();
                format!("domineering \"{}\"", rows.join("|"))
            }
        }
    }

    /// The height of `g`'s game tree: the longest sequence of moves (by
    /// either player, in any order) from `g`; numbers count their standard
    /// forms' height. Bounded by the budget.
    pub fn height(&mut self, g: Id, budget: &mut Budget) -> Result<u32, Exhausted> {
        let mut memo: FastMap<Id, u32> = FastMap::default();
        self.height_memo(g, budget, &mut memo)
    }

    fn height_memo(
        &mut self,
        g: Id,
        budget: &mut Budget,
        memo: &mut FastMap<Id, u32>,
    ) -> Result<u32, Exhausted> {
        if let Some(&h) = memo.get(&g) {
            return Ok(h);
        }
        if let Some(x) = self.as_number(g) {
            // Integer n: |n| moves; m/2^k: its integer part plus k + 1.
            let whole = (x.numerator().magnitude() >> x.exponent()).clone();
            let whole = u32::try_from(whole).unwrap_or(u32::MAX);
            let h = if x.is_integer() {
                whole
            } else {
                whole.saturating_add(x.exponent()).saturating_add(1)
            };
            memo.insert(g, h);
            return Ok(h);
        }
        budget.tick()?;
        if let Node::Sum(parts) = self.nodes[g as usize].clone() {
            // The longest play of a sum plays out each summand in turn.
            let mut h = 0u32;
            for p in parts {
                h = h.saturating_add(self.height_memo(p, budget, memo)?);
            }
            memo.insert(g, h);
            return Ok(h);
        }
        let options = self.options(g, budget)?;
        let mut h = 0u32;
        for &o in options.0.iter().chain(options.1.iter()) {
            h = h.max(self.height_memo(o, budget, memo)?.saturating_add(1));
        }
        memo.insert(g, h);
        Ok(h)
    }

    /// The left and right options of `g`; the arena's growth is held to
    /// `budget`'s memory cap ([`Games::weight`]).
    pub fn options(&mut self, g: Id, budget: &Budget) -> Result<Arc<Options>, Exhausted> {
        if let Some(Some(cached)) = self.options.get(g as usize) {
            return Ok(Arc::clone(cached));
        }
        let both = Arc::new(self.generate(g, budget)?);
        if self.options.len() <= g as usize {
            self.options.resize(g as usize + 1, None);
        }
        self.options[g as usize] = Some(Arc::clone(&both));
        Ok(both)
    }

    /// Left and right options of `g`.
    fn generate(&mut self, g: Id, budget: &Budget) -> Result<Options, Exhausted> {
        Ok(match self.nodes[g as usize].clone() {
            Node::Options(left, right) => (left, right),
            Node::Number(x) => {
                let (l, r) = x.options();
                let left = l.into_iter().map(|x| self.number(x)).collect();
                let right = r.into_iter().map(|x| self.number(x)).collect();
                (left, right)
            }
            Node::Nimber(n) => {
                let all: Vec<Id> = (0..n).map(|k| self.nimber(k)).collect();
                (all.clone(), all)
            }
            Node::Neg(inner) => {
                let both = self.options(inner, budget)?;
                let left = both.1.iter().map(|&o| self.neg(o)).collect();
                let right = both.0.iter().map(|&o| self.neg(o)).collect();
                (left, right)
            }
            Node::Sum(parts) => {
                let (mut left, mut right) = (Vec::new(), Vec::new());
                for i in 0..parts.len() {
                    // Parts are sorted: moving in either of two equal parts
                    // reaches the same sum, so a repeat adds nothing (^n is
                    // n equal parts).
                    if i > 0 && parts[i] == parts[i - 1] {
                        continue;
                    }
                    let both = self.options(parts[i], budget)?;
                    for (side, out) in [(&both.0, &mut left), (&both.1, &mut right)] {
                        for &o in side {
                            budget.hold(self.weight())?;
                            let mut next = parts.clone();
                            next[i] = o;
                            out.push(self.sum(next));
                        }
                    }
                }
                (left, right)
            }
            Node::Hackenbush(picture, edges) => {
                let (mut left, mut right) = (Vec::new(), Vec::new());
                let colours: Vec<Colour> = self.pictures[picture as usize]
                    .shape
                    .edges
                    .iter()
                    .map(|e| e.2)
                    .collect();
                let mut rest = edges;
                while rest != 0 {
                    let e = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let after = self.hackenbush(picture, edges & !(1u64 << e));
                    if colours[e] != Colour::Red {
                        left.push(after);
                    }
                    if colours[e] != Colour::Blue {
                        right.push(after);
                    }
                }
                (left, right)
            }
            Node::Domineering(grid) => {
                let (mut left, mut right) = (Vec::new(), Vec::new());
                let (rows, cols) = (u32::from(grid.rows), u32::from(grid.cols));
                for r in 0..rows {
                    for c in 0..cols {
                        let cell = 1u64 << (r * cols + c);
                        if grid.free & cell == 0 {
                            continue;
                        }
                        if r + 1 < rows && grid.free & (cell << cols) != 0 {
                            let free = grid.free & !(cell | cell << cols);
                            left.push(self.domineering(grid.with(free)));
                        }
                        if c + 1 < cols && grid.free & (cell << 1) != 0 {
                            let free = grid.free & !(cell | cell << 1);
                            right.push(self.domineering(grid.with(free)));
                        }
                    }
                }
                (left, right)
            }
        })
    }

    fn intern(&mut self, node: Node) -> Id {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = self.nodes.len() as Id;
        self.stored += match &node {
            Node::Sum(parts) => parts.len(),
            Node::Options(left, right) => left.len() + right.len(),
            _ => 0,
        };
        self.nodes.push(node.clone());
        self.index.insert(node, id);
        id
    }

    fn picture(&mut self, shape: Arc<Hackenbush>) -> u32 {
        if let Some(&i) = self.picture_index.get(&shape) {
            return i;
        }
        let vertices = shape
            .edges
            .iter()
            .map(|&(u, v, _)| u.max(v) as usize + 1)
            .max()
            .unwrap_or(1);
        let mut incident = vec![0u64; vertices];
        for (e, &(u, v, _)) in shape.edges.iter().enumerate() {
            incident[u as usize] |= 1u64 << e;
            incident[v as usize] |= 1u64 << e;
        }
        let id = self.pictures.len() as u32;
        self.picture_index.insert(Arc::clone(&shape), id);
        self.pictures.push(Picture { shape, incident });
        id
    }

    /// The picture made of the edges `edges` of picture `picture` alone, in
    /// their order, with the vertices renumbered in order of first use (the
    /// ground stays 0): the same position whichever picture it came from.
    fn redrawn(&mut self, picture: u32, edges: u64) -> u32 {
        let shape = &self.pictures[picture as usize].shape;
        let mut names: Vec<u32> = vec![0];
        let mut name = |v: u32| -> u32 {
            match names.iter().position(|&n| n == v) {
                Some(i) => i as u32,
                None => {
                    names.push(v);
                    (names.len() - 1) as u32
                }
            }
        };
        let drawn: Vec<(u32, u32, Colour)> = shape
            .edges
            .iter()
            .enumerate()
            .filter(|(e, _)| edges & (1u64 << e) != 0)
            .map(|(_, &(u, v, c))| (name(u), name(v), c))
            .collect();
        self.picture(Arc::new(Hackenbush { edges: drawn }))
    }

    /// The Hackenbush position of picture `picture` with the edges `edges`
    /// still drawn: edges no longer joined to the ground fall away, and the
    /// parts that meet only at the ground are summands.
    fn hackenbush(&mut self, picture: u32, edges: u64) -> Id {
        let parts = split_at_ground(&self.pictures[picture as usize], edges);
        let parts = parts
            .into_iter()
            .map(|part| {
                let redrawn = self.redrawn(picture, part);
                let all = all_edges(self.pictures[redrawn as usize].shape.edges.len());
                self.intern(Node::Hackenbush(redrawn, all))
            })
            .collect();
        self.sum(parts)
    }

    /// A Domineering position as the sum of its parts.
    fn domineering(&mut self, grid: Grid) -> Id {
        let parts = grid
            .flip_components()
            .into_iter()
            .map(|part| self.intern(Node::Domineering(part)))
            .collect();
        self.sum(parts)
    }
}

/// The mask of the first `n` edges.
fn all_edges(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The edge sets of the parts of a Hackenbush position: the edges still
/// joined to the ground, grouped by which are joined to each other other than
/// through the ground.
fn split_at_ground(picture: &Picture, edges: u64) -> Vec<u64> {
    let mut parts = Vec::new();
    let mut ground_edges = edges & picture.incident[0];
    let mut seen = vec![false; picture.incident.len()];
    while ground_edges != 0 {
        let first = ground_edges.trailing_zeros() as usize;
        let mut part = 1u64 << first;
        let mut stack: Vec<u32> = Vec::new();
        let (u, v, _) = picture.shape.edges[first];
        stack.extend([u, v].into_iter().filter(|&x| x != 0));
        while let Some(x) = stack.pop() {
            if std::mem::replace(&mut seen[x as usize], true) {
                continue;
            }
            let mut new = picture.incident[x as usize] & edges & !part;
            part |= new;
            while new != 0 {
                let e = new.trailing_zeros() as usize;
                new &= new - 1;
                let (u, v, _) = picture.shape.edges[e];
                stack.extend([u, v].into_iter().filter(|&y| y != 0 && !seen[y as usize]));
            }
        }
        ground_edges &= !part;
        parts.push(part);
    }
    parts
}
