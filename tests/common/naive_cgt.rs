//! A deliberately naive reference for short partizan games (Conway games).
//!
//! Everything here is written straight from the definitions, with no
//! cleverness and nothing from the `gamecert` crate (std only), so that it
//! can serve as an independent oracle in tests:
//!
//! * a game is a plain tree `G { left, right }`;
//! * sums and negatives are built by the recursive definitions;
//! * comparison is the recursive definition of `>=`, memoised on pairs of
//!   trees, with no canonical forms involved;
//! * canonical forms are computed by repeatedly deleting dominated options
//!   and bypassing reversible ones;
//! * the rulesets (Blue-Red-Green Hackenbush, Domineering) enumerate moves
//!   one by one on a bit mask and build plain trees, with no decomposition
//!   into components.
//!
//! It is meant for small games only: trees are cloned and hashed freely.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;

/// A short partizan game as a plain tree of options.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct G {
    pub left: Vec<G>,
    pub right: Vec<G>,
}

impl G {
    /// `0 = { | }`.
    pub fn zero() -> G {
        G {
            left: Vec::new(),
            right: Vec::new(),
        }
    }

    /// `{ left | right }`.
    pub fn new(left: Vec<G>, right: Vec<G>) -> G {
        G { left, right }
    }

    /// The integer `n`: `{n-1 | }` for `n > 0`, `{ | n+1}` for `n < 0`.
    pub fn integer(n: i64) -> G {
        if n == 0 {
            G::zero()
        } else if n > 0 {
            G::new(vec![G::integer(n - 1)], vec![])
        } else {
            G::new(vec![], vec![G::integer(n + 1)])
        }
    }

    /// The dyadic rational `num / 2^exp` in its simplest form: after
    /// reducing the fraction, an integer as in [`G::integer`], otherwise
    /// `{(num-1)/2^exp | (num+1)/2^exp}` (both reduced) for odd `num`.
    pub fn dyadic(num: i64, exp: u32) -> G {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        if exp == 0 {
            G::integer(num)
        } else {
            G::new(vec![G::dyadic(num - 1, exp)], vec![G::dyadic(num + 1, exp)])
        }
    }

    /// The nimber `*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}`.
    pub fn star(n: u32) -> G {
        let opts: Vec<G> = (0..n).map(G::star).collect();
        G::new(opts.clone(), opts)
    }

    /// `^ = {0 | *}`.
    pub fn up() -> G {
        G::new(vec![G::zero()], vec![G::star(1)])
    }

    /// `v = {* | 0}`.
    pub fn down() -> G {
        G::new(vec![G::star(1)], vec![G::zero()])
    }

    /// `-G = {-G^R | -G^L}`.
    pub fn neg(&self) -> G {
        G::new(
            self.right.iter().map(G::neg).collect(),
            self.left.iter().map(G::neg).collect(),
        )
    }

    /// The disjunctive sum, by definition:
    /// `G + H = {G^L + H, G + H^L | G^R + H, G + H^R}`.
    pub fn add(&self, other: &G) -> G {
        let mut left = Vec::new();
        let mut right = Vec::new();
        for gl in &self.left {
            left.push(gl.add(other));
        }
        for hl in &other.left {
            left.push(self.add(hl));
        }
        for gr in &self.right {
            right.push(gr.add(other));
        }
        for hr in &other.right {
            right.push(self.add(hr));
        }
        G::new(left, right)
    }

    /// `G - H = G + (-H)`.
    pub fn sub(&self, other: &G) -> G {
        self.add(&other.neg())
    }

    /// Number of nodes in the tree (for keeping tests small).
    pub fn node_count(&self) -> usize {
        1 + self.left.iter().map(G::node_count).sum::<usize>()
            + self.right.iter().map(G::node_count).sum::<usize>()
    }

    /// The birthday of this form (height of the tree).
    pub fn birthday(&self) -> u32 {
        self.left
            .iter()
            .chain(self.right.iter())
            .map(|o| o.birthday() + 1)
            .max()
            .unwrap_or(0)
    }
}

impl fmt::Display for G {
    /// `0` for the empty game, otherwise `{a,b|c}` recursively.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.left.is_empty() && self.right.is_empty() {
            return write!(f, "0");
        }
        write!(f, "{{")?;
        for (i, o) in self.left.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{o}")?;
        }
        write!(f, "|")?;
        for (i, o) in self.right.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{o}")?;
        }
        write!(f, "}}")
    }
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

/// A memo for the recursive comparison. Reuse one across many calls on
/// related games to save work; the free functions below make a fresh one
/// per call.
#[derive(Default)]
pub struct Cmp {
    memo: HashMap<(G, G), bool>,
}

impl Cmp {
    pub fn new() -> Cmp {
        Cmp::default()
    }

    /// `a >= b` iff there is no `a^R <= b` and no `b^L >= a`.
    pub fn ge(&mut self, a: &G, b: &G) -> bool {
        let key = (a.clone(), b.clone());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut result = true;
        for ar in &a.right {
            // a^R <= b
            if self.ge(b, ar) {
                result = false;
                break;
            }
        }
        if result {
            for bl in &b.left {
                // a <= b^L
                if self.ge(bl, a) {
                    result = false;
                    break;
                }
            }
        }
        self.memo.insert(key, result);
        result
    }

    pub fn le(&mut self, a: &G, b: &G) -> bool {
        self.ge(b, a)
    }

    pub fn eq(&mut self, a: &G, b: &G) -> bool {
        self.ge(a, b) && self.ge(b, a)
    }

    pub fn gt(&mut self, a: &G, b: &G) -> bool {
        self.ge(a, b) && !self.ge(b, a)
    }

    pub fn lt(&mut self, a: &G, b: &G) -> bool {
        self.gt(b, a)
    }

    /// `a || b`: neither `a >= b` nor `a <= b`.
    pub fn confused(&mut self, a: &G, b: &G) -> bool {
        !self.ge(a, b) && !self.ge(b, a)
    }

    /// 'L' (G > 0), 'R' (G < 0), 'P' (G = 0), 'N' (G || 0).
    pub fn outcome(&mut self, g: &G) -> char {
        let zero = G::zero();
        match (self.ge(g, &zero), self.ge(&zero, g)) {
            (true, true) => 'P',
            (true, false) => 'L',
            (false, true) => 'R',
            (false, false) => 'N',
        }
    }
}

pub fn ge(a: &G, b: &G) -> bool {
    Cmp::new().ge(a, b)
}

pub fn le(a: &G, b: &G) -> bool {
    Cmp::new().le(a, b)
}

pub fn eq(a: &G, b: &G) -> bool {
    Cmp::new().eq(a, b)
}

pub fn gt(a: &G, b: &G) -> bool {
    Cmp::new().gt(a, b)
}

pub fn lt(a: &G, b: &G) -> bool {
    Cmp::new().lt(a, b)
}

pub fn confused(a: &G, b: &G) -> bool {
    Cmp::new().confused(a, b)
}

pub fn outcome(g: &G) -> char {
    Cmp::new().outcome(g)
}

/// The outcome class by play rather than by comparison: who wins moving
/// first, who wins moving second. Independent cross-check of [`outcome`].
pub fn outcome_by_play(g: &G) -> char {
    // Left moving first wins iff some G^L is a win for Left moving second,
    // i.e. Right moving first from G^L loses.
    fn left_first_wins(g: &G) -> bool {
        g.left.iter().any(|gl| !right_first_wins(gl))
    }
    fn right_first_wins(g: &G) -> bool {
        g.right.iter().any(|gr| !left_first_wins(gr))
    }
    match (left_first_wins(g), right_first_wins(g)) {
        (true, true) => 'N',
        (true, false) => 'L',
        (false, true) => 'R',
        (false, false) => 'P',
    }
}

// ---------------------------------------------------------------------------
// Canonical form
// ---------------------------------------------------------------------------

/// The canonical form (unique simplest form) of `g`.
pub fn canonical(g: &G) -> G {
    canonical_with(g, &mut Cmp::new())
}

/// [`canonical`] with a caller-supplied comparison memo.
pub fn canonical_with(g: &G, cmp: &mut Cmp) -> G {
    // Options first: subpositions of a canonical form are canonical, so every
    // option that appears below (including bypass replacements) is canonical.
    let mut left: Vec<G> = g.left.iter().map(|o| canonical_with(o, cmp)).collect();
    let mut right: Vec<G> = g.right.iter().map(|o| canonical_with(o, cmp)).collect();

    loop {
        let mut changed = false;

        // (a) Dominated options, one at a time. Among equal options, the
        // first one found is removed and the other survives.
        'left_dom: loop {
            for i in 0..left.len() {
                for j in 0..left.len() {
                    if i != j && cmp.ge(&left[j], &left[i]) {
                        left.remove(i);
                        changed = true;
                        continue 'left_dom;
                    }
                }
            }
            break;
        }
        'right_dom: loop {
            for i in 0..right.len() {
                for j in 0..right.len() {
                    if i != j && cmp.le(&right[j], &right[i]) {
                        right.remove(i);
                        changed = true;
                        continue 'right_dom;
                    }
                }
            }
            break;
        }

        // (b) Reversible options, one at a time, against the current form
        // (which has the same value as `g` throughout).
        let current = G::new(left.clone(), right.clone());
        let mut bypassed = false;
        'left_rev: for i in 0..left.len() {
            for ar in &left[i].right {
                if cmp.le(ar, &current) {
                    let replacement = ar.left.clone();
                    left.remove(i);
                    left.extend(replacement);
                    bypassed = true;
                    break 'left_rev;
                }
            }
        }
        if !bypassed {
            'right_rev: for i in 0..right.len() {
                for al in &right[i].left {
                    if cmp.ge(al, &current) {
                        let replacement = al.right.clone();
                        right.remove(i);
                        right.extend(replacement);
                        bypassed = true;
                        break 'right_rev;
                    }
                }
            }
        }
        changed |= bypassed;

        if !changed {
            break;
        }
    }

    left.sort();
    left.dedup();
    right.sort();
    right.dedup();
    G::new(left, right)
}

/// Equality by the recursive comparison (both directions).
pub fn same_value_by_eq(a: &G, b: &G) -> bool {
    eq(a, b)
}

/// Equality by identical canonical forms.
pub fn same_value_by_canonical(a: &G, b: &G) -> bool {
    canonical(a) == canonical(b)
}

/// Whether `a = b`, decided both ways; panics if the two ways disagree
/// (which would be a bug in this module).
pub fn same_value(a: &G, b: &G) -> bool {
    let by_eq = same_value_by_eq(a, b);
    let by_canon = same_value_by_canonical(a, b);
    assert_eq!(
        by_eq, by_canon,
        "naive_cgt disagrees with itself on {a} vs {b}: eq={by_eq}, canonical={by_canon}"
    );
    by_eq
}

// ---------------------------------------------------------------------------
// Blue-Red-Green Hackenbush
// ---------------------------------------------------------------------------

/// Blue-Red-Green Hackenbush on a graph. Vertex 0 is the ground; each edge
/// is `(u, v, colour)` with colour 'l' (blue, Left only), 'r' (red, Right
/// only) or 'e' (green, either). Cutting an edge removes it and every edge
/// no longer connected to the ground. Edges not connected to the ground at
/// the start are dropped. At most 64 edges.
pub fn hackenbush(edges: &[(usize, usize, char)]) -> G {
    assert!(edges.len() <= 64, "at most 64 edges");
    for &(_, _, c) in edges {
        assert!(
            matches!(c, 'l' | 'r' | 'e'),
            "edge colour must be l, r or e, got {c:?}"
        );
    }
    let nverts = edges
        .iter()
        .map(|&(u, v, _)| u.max(v) + 1)
        .max()
        .unwrap_or(1);
    let all = if edges.len() == 64 {
        u64::MAX
    } else {
        (1u64 << edges.len()) - 1
    };
    let start = grounded(edges, nverts, all);
    let mut memo = HashMap::new();
    hackenbush_rec(edges, nverts, start, &mut memo)
}

/// The edges of `mask` that are still connected to the ground (vertex 0).
fn grounded(edges: &[(usize, usize, char)], nverts: usize, mask: u64) -> u64 {
    let mut reached = vec![false; nverts];
    reached[0] = true;
    loop {
        let mut changed = false;
        for (i, &(u, v, _)) in edges.iter().enumerate() {
            if mask & (1u64 << i) != 0 && reached[u] != reached[v] {
                reached[u] = true;
                reached[v] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = 0u64;
    for (i, &(u, _, _)) in edges.iter().enumerate() {
        if mask & (1u64 << i) != 0 && reached[u] {
            out |= 1u64 << i;
        }
    }
    out
}

fn hackenbush_rec(
    edges: &[(usize, usize, char)],
    nverts: usize,
    mask: u64,
    memo: &mut HashMap<u64, G>,
) -> G {
    if let Some(g) = memo.get(&mask) {
        return g.clone();
    }
    let mut left = Vec::new();
    let mut right = Vec::new();
    for (i, &(_, _, c)) in edges.iter().enumerate() {
        if mask & (1u64 << i) == 0 {
            continue;
        }
        let after = grounded(edges, nverts, mask & !(1u64 << i));
        let opt = hackenbush_rec(edges, nverts, after, memo);
        match c {
            'l' => left.push(opt),
            'r' => right.push(opt),
            _ => {
                left.push(opt.clone());
                right.push(opt);
            }
        }
    }
    let g = G::new(left, right);
    memo.insert(mask, g.clone());
    g
}

/// A Hackenbush stalk: a path from the ground, `s[0]` is the edge touching
/// the ground. Characters as in [`hackenbush`].
pub fn hackenbush_stalk(s: &str) -> G {
    let edges: Vec<(usize, usize, char)> =
        s.chars().enumerate().map(|(i, c)| (i, i + 1, c)).collect();
    hackenbush(&edges)
}

// ---------------------------------------------------------------------------
// Domineering
// ---------------------------------------------------------------------------

/// Domineering on a `rows x cols` board; bit `r*cols + c` of `free` is a free
/// cell. Left places vertical dominoes ((r,c),(r+1,c)), Right horizontal ones
/// ((r,c),(r,c+1)). No decomposition into components.
pub fn domineering(rows: usize, cols: usize, free: u64) -> G {
    assert!(rows * cols <= 64, "at most 64 cells");
    let mut memo = HashMap::new();
    domineering_rec(rows, cols, free, &mut memo)
}

/// Every cell of a `rows x cols` board free.
pub fn full_board(rows: usize, cols: usize) -> u64 {
    let n = rows * cols;
    assert!(n <= 64);
    if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
}

fn domineering_rec(rows: usize, cols: usize, free: u64, memo: &mut HashMap<u64, G>) -> G {
    if let Some(g) = memo.get(&free) {
        return g.clone();
    }
    let bit = |r: usize, c: usize| 1u64 << (r * cols + c);
    let is_free = |r: usize, c: usize| free & bit(r, c) != 0;
    let mut left = Vec::new();
    let mut right = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if !is_free(r, c) {
                continue;
            }
            if r + 1 < rows && is_free(r + 1, c) {
                left.push(domineering_rec(
                    rows,
                    cols,
                    free & !bit(r, c) & !bit(r + 1, c),
                    memo,
                ));
            }
            if c + 1 < cols && is_free(r, c + 1) {
                right.push(domineering_rec(
                    rows,
                    cols,
                    free & !bit(r, c) & !bit(r, c + 1),
                    memo,
                ));
            }
        }
    }
    let g = G::new(left, right);
    memo.insert(free, g.clone());
    g
}

// ---------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------

fn xorshift64(seed: &mut u64) -> u64 {
    if *seed == 0 {
        *seed = 0x9E37_79B9_7F4A_7C15;
    }
    let mut x = *seed;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *seed = x;
    x
}

/// A small random game of birthday at most `min(depth, 4)`: each side gets
/// 0 to 3 options, each a random game of a strictly smaller depth.
pub fn random_game(seed: &mut u64, depth: u32) -> G {
    let depth = depth.min(4);
    if depth == 0 {
        return G::zero();
    }
    let nl = xorshift64(seed) % 4;
    let nr = xorshift64(seed) % 4;
    let mut left = Vec::new();
    for _ in 0..nl {
        let d = (xorshift64(seed) % depth as u64) as u32;
        left.push(random_game(seed, d));
    }
    let mut right = Vec::new();
    for _ in 0..nr {
        let d = (xorshift64(seed) % depth as u64) as u32;
        right.push(random_game(seed, d));
    }
    G::new(left, right)
}
