//! Derived rules against exhaustive play: random certificates full of
//! winner, loser, threshold and classification claims (trivial, Prop. 2.1,
//! Prop. 2.2, Cor. 3.3, Cor. 3.4, Thm. 3.1, monotonicity, sub-animal,
//! citations of true and false claims, animals that fit their board and
//! animals that do not, every a, c, b, well formed or not) are checked, and
//! every claim the kernel VERIFIES must be true by the oracle of
//! `common/naive_game.rs`, which plays the game out on finite boards.
//!
//! On an infinite lattice the oracle is one-sided: a maker win on a finite
//! window is a win on the lattice (his strategy ignores the rest), so a
//! verified loser that the maker wins on a window is false; a verified
//! winner is false when Prop. 2.1's breaker strategy applies, and
//! confirmed when the maker wins on a window; otherwise it counts as
//! unconfirmed.
//!
//! The default run checks `GAMECERT_DERIVED_FILES` files (default 300, some
//! 5,000 claims); a longer run: `GAMECERT_DERIVED_FILES=20000 GAMECERT_DERIVED_SEED=7
//! cargo test --release --test derived_oracle -- --nocapture`.

mod common;

use std::collections::HashMap;
use std::fmt::Write as _;

use common::naive_game::{self as oracle, Placements, Plane};
use gamecert::driver::{CheckOptions, Limits, check_source};
use gamecert::kernel::animals::solid::{FaceGraph, Solid};
use gamecert::report::VerdictName;

/// SplitMix64: a small deterministic generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The board of one generated file.
enum BoardSpec {
    /// An infinite plane lattice.
    Lattice(Plane),
    /// A rectangle of a plane lattice.
    Region {
        plane: Plane,
        cells: Vec<(i32, i32)>,
    },
    /// A solid or an explicit graph: cells are vertex numbers.
    Graph {
        adjacent: Vec<Vec<usize>>,
        group: Vec<Vec<usize>>,
    },
}

impl BoardSpec {
    fn plane(&self) -> Option<Plane> {
        match self {
            BoardSpec::Lattice(p) | BoardSpec::Region { plane: p, .. } => Some(*p),
            BoardSpec::Graph { .. } => None,
        }
    }
    fn cells(&self) -> usize {
        match self {
            BoardSpec::Lattice(_) => usize::MAX,
            BoardSpec::Region { cells, .. } => cells.len(),
            BoardSpec::Graph { adjacent, .. } => adjacent.len(),
        }
    }
}

fn plane_name(p: Plane) -> &'static str {
    match p {
        Plane::Square => "square",
        Plane::Hexagon => "hexagon",
        Plane::Triangle => "triangle",
    }
}

/// An animal: lattice cells on a plane board, vertices on a graph board.
#[derive(Clone)]
enum Shape {
    Plane(Vec<(i32, i32)>),
    Graph(Vec<usize>),
}

impl Shape {
    fn len(&self) -> usize {
        match self {
            Shape::Plane(c) => c.len(),
            Shape::Graph(v) => v.len(),
        }
    }
    fn text(&self) -> String {
        match self {
            Shape::Plane(c) => c
                .iter()
                .map(|(x, y)| format!("({x},{y})"))
                .collect::<Vec<_>>()
                .join(" "),
            Shape::Graph(v) => v
                .iter()
                .map(|x| format!("({x})"))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Side {
    Winner,
    Loser,
}

/// A game: goal animal (index), marks a, c, b.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
struct Game {
    animal: usize,
    a: usize,
    c: usize,
    b: usize,
}

impl Game {
    fn text(&self) -> String {
        if self.c == self.a {
            format!("({},{})", self.a, self.b)
        } else {
            format!("({}->{},{})", self.a, self.c, self.b)
        }
    }
}

/// What a generated claim states.
#[derive(Clone)]
enum Stated {
    Game(Side, Game),
    Threshold {
        animal: usize,
        sequence: Vec<Option<usize>>,
    },
    Classify {
        winners: u64,
        losers: u64,
    },
}

struct Claim {
    id: String,
    stated: Stated,
    /// The rule named after `by` (for the statistics).
    rule: &'static str,
}

/// One generated certificate.
struct Scenario {
    board: BoardSpec,
    animals: Vec<Shape>,
    claims: Vec<Claim>,
    text: String,
}

fn random_plane(rng: &mut Rng) -> Plane {
    [Plane::Square, Plane::Hexagon, Plane::Triangle][rng.below(3)]
}

/// A random lattice animal of `size` cells, grown from the origin.
fn random_lattice_animal(rng: &mut Rng, plane: Plane, size: usize) -> Vec<(i32, i32)> {
    let mut cells = vec![(0, 0)];
    while cells.len() < size {
        let from = cells[rng.below(cells.len())];
        let options = plane.neighbours(from);
        let next = options[rng.below(options.len())];
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    cells
}

/// A random connected vertex set of `size` on a graph.
fn random_graph_animal(rng: &mut Rng, adjacent: &[Vec<usize>], size: usize) -> Vec<usize> {
    let mut set = vec![rng.below(adjacent.len())];
    let mut guard = 0;
    while set.len() < size.min(adjacent.len()) && guard < 1000 {
        guard += 1;
        let from = set[rng.below(set.len())];
        let next = adjacent[from][rng.below(adjacent[from].len())];
        if !set.contains(&next) {
            set.push(next);
        }
    }
    set
}

fn solid_graph(solid: Solid) -> Vec<Vec<usize>> {
    let g = FaceGraph::of(solid).expect("a solid");
    g.adjacent
        .iter()
        .map(|bits| (0..128).filter(|i| bits >> i & 1 == 1).collect())
        .collect()
}

/// A random connected graph on `n` vertices: a random tree plus a few edges.
fn random_graph(rng: &mut Rng, n: usize) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for v in 1..n {
        edges.push((rng.below(v), v));
    }
    for _ in 0..rng.below(n) {
        let (u, v) = (rng.below(n), rng.below(n));
        if u != v && !edges.contains(&(u, v)) && !edges.contains(&(v, u)) {
            edges.push((u, v));
        }
    }
    edges
}

fn random_board(rng: &mut Rng) -> (BoardSpec, String) {
    match rng.below(10) {
        0 | 1 => {
            let p = random_plane(rng);
            (BoardSpec::Lattice(p), plane_name(p).to_string())
        }
        2..=5 => {
            let p = random_plane(rng);
            let rows = rng.range(1, 3);
            let cols = rng.range(2, 12 / rows);
            let cells = (0..rows as i32)
                .flat_map(|y| (0..cols as i32).map(move |x| (x, y)))
                .collect();
            (
                BoardSpec::Region { plane: p, cells },
                format!("{} {rows}x{cols}", plane_name(p)),
            )
        }
        6..=8 => {
            let (solid, name) = [
                (Solid::Tetrahedron, "tetrahedron"),
                (Solid::Cube, "cube"),
                (Solid::Octahedron, "octahedron"),
                (Solid::Prism(3), "prism 3"),
                (Solid::Prism(5), "prism 5"),
                (Solid::Antiprism(3), "antiprism 3"),
                (Solid::Antiprism(4), "antiprism 4"),
            ][rng.below(7)];
            let adjacent = solid_graph(solid);
            let group = oracle::automorphisms(&adjacent);
            (BoardSpec::Graph { adjacent, group }, name.to_string())
        }
        _ => {
            let n = rng.range(3, 9);
            let edges = random_graph(rng, n);
            let mut adjacent = vec![Vec::new(); n];
            for &(u, v) in &edges {
                adjacent[u].push(v);
                adjacent[v].push(u);
            }
            let group = oracle::automorphisms(&adjacent);
            let text = edges
                .iter()
                .map(|(u, v)| format!("{u}-{v}"))
                .collect::<Vec<_>>()
                .join(" ");
            (
                BoardSpec::Graph { adjacent, group },
                format!("graph {{ {text} }}"),
            )
        }
    }
}

fn random_game(rng: &mut Rng, animal: usize, size: usize) -> Game {
    let a = rng.range(1, 3);
    let c = if rng.chance(8) {
        rng.below(a) // ill formed: c < a (even 0)
    } else if rng.chance(40) {
        rng.range(a, size.max(a) + 1)
    } else {
        a
    };
    Game {
        animal,
        a,
        c,
        b: rng.below(6),
    }
}

/// The h placements of a lattice animal through the origin, pairwise meeting
/// only there (Prop. 2.2's configuration), found greedily; sometimes spoiled.
fn star_placements(rng: &mut Rng, plane: Plane, animal: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    // Every placement of the animal inside a window around the origin that
    // contains the origin.
    let window: Vec<(i32, i32)> = (-4..=4)
        .flat_map(|y| (-4..=4).map(move |x| (x, y)))
        .collect();
    let mut all: Vec<Vec<(i32, i32)>> = oracle::placed(plane, &window, animal)
        .into_iter()
        .filter(|p| p.contains(&(0, 0)))
        .collect();
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    let mut chosen: Vec<Vec<(i32, i32)>> = Vec::new();
    for p in all {
        let meets_once = chosen
            .iter()
            .all(|q| q.iter().filter(|c| p.contains(c)).count() == 1);
        if meets_once || rng.chance(3) {
            chosen.push(p);
        }
    }
    chosen.truncate(rng.range(1, 6));
    chosen
}

/// A random pairing of adjacent cells (a matching), as `pair` lines.
fn random_pairing(rng: &mut Rng, board: &BoardSpec) -> String {
    let (count, adjacent): (usize, Vec<Vec<usize>>) = match board {
        BoardSpec::Graph { adjacent, .. } => (adjacent.len(), adjacent.clone()),
        BoardSpec::Region { plane, cells } => (
            cells.len(),
            cells
                .iter()
                .map(|&c| {
                    plane
                        .neighbours(c)
                        .iter()
                        .filter_map(|n| cells.iter().position(|d| d == n))
                        .collect()
                })
                .collect(),
        ),
        BoardSpec::Lattice(_) => return String::new(),
    };
    let name = |i: usize| match board {
        BoardSpec::Region { cells, .. } => format!("({},{})", cells[i].0, cells[i].1),
        _ => format!("({i})"),
    };
    let mut used = vec![false; count];
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut out = String::new();
    for v in order {
        if used[v] {
            continue;
        }
        let partners: Vec<usize> = adjacent[v].iter().copied().filter(|&u| !used[u]).collect();
        if partners.is_empty() || rng.chance(10) {
            continue;
        }
        let u = partners[rng.below(partners.len())];
        used[u] = true;
        used[v] = true;
        let _ = writeln!(out, "  pair {} {}", name(v), name(u));
    }
    out
}

/// Generates one certificate.
fn scenario(rng: &mut Rng) -> Scenario {
    let (board, board_text) = random_board(rng);
    let mut text = String::from("gamecert 1\n");
    let _ = writeln!(text, "board B = {board_text}");
    let mut animals = Vec::new();
    for i in 0..rng.range(2, 4) {
        let size = rng.range(1, 4);
        let shape = match &board {
            BoardSpec::Lattice(p) | BoardSpec::Region { plane: p, .. } => {
                Shape::Plane(random_lattice_animal(rng, *p, size))
            }
            BoardSpec::Graph { adjacent, .. } => {
                Shape::Graph(random_graph_animal(rng, adjacent, size))
            }
        };
        let on = match &board {
            BoardSpec::Lattice(p) | BoardSpec::Region { plane: p, .. } => plane_name(*p),
            BoardSpec::Graph { .. } => "B",
        };
        let _ = writeln!(text, "animal A{i} on {on} = {}", shape.text());
        animals.push(shape);
    }
    let finite = !matches!(board, BoardSpec::Lattice(_));
    let mut claims: Vec<Claim> = Vec::new();
    for k in 0..rng.range(14, 24) {
        let id = format!("c{k}");
        let animal = rng.below(animals.len());
        let size = animals[animal].len();
        let game = random_game(rng, animal, size);
        let earlier: Vec<usize> = (0..claims.len()).collect();
        // A cited winner or loser claim, usually one that fits the rule
        // (`fits`), sometimes any.
        let cite_game = |rng: &mut Rng,
                         claims: &[Claim],
                         fits: &dyn Fn(Side, &Game) -> bool|
         -> Option<(usize, Side, Game)> {
            let strict = rng.chance(80);
            let games: Vec<(usize, Side, Game)> = earlier
                .iter()
                .filter_map(|&j| match claims[j].stated {
                    Stated::Game(side, g) if !strict || fits(side, &g) => Some((j, side, g)),
                    _ => None,
                })
                .collect();
            if games.is_empty() {
                return None;
            }
            Some(games[rng.below(games.len())])
        };
        let any = |_: Side, _: &Game| true;
        let (stated, rule, method) = match rng.below(13) {
            0 => (
                Stated::Game(Side::Winner, game),
                "trivial",
                "trivial".to_string(),
            ),
            1 => (
                Stated::Game(Side::Loser, game),
                "proposition-2.1",
                "proposition-2.1".into(),
            ),
            2 => (
                Stated::Game(Side::Winner, game),
                "corollary-3.4",
                "corollary-3.4".into(),
            ),
            3 if !finite || rng.chance(20) => {
                let Shape::Plane(cells) = &animals[animal] else {
                    continue;
                };
                let plane = board.plane().unwrap_or(Plane::Square);
                let g = Game {
                    a: size.saturating_sub(1).max(1),
                    c: size.saturating_sub(1).max(1),
                    ..game
                };
                let star = star_placements(rng, plane, cells);
                let mut body = String::from("{\n");
                for p in &star {
                    let cells: Vec<String> = p.iter().map(|(x, y)| format!("({x},{y})")).collect();
                    let _ = writeln!(body, "  placement {}", cells.join(" "));
                }
                body.push('}');
                let g = Game {
                    b: (g.a * star.len()).saturating_sub(rng.below(2)),
                    ..g
                };
                (
                    Stated::Game(Side::Winner, g),
                    "proposition-2.2",
                    format!("proposition-2.2 {body}"),
                )
            }
            4 | 5 => {
                // On a lattice the elaborator searches a window: a win there
                // is a win on the lattice, with a turn bound Thm. 3.1 uses.
                let body = if finite {
                    "search board"
                } else {
                    "search window 3x4"
                };
                let g = Game {
                    b: game.b.min(2),
                    a: game.a.min(2),
                    c: game.c.min(3),
                    ..game
                };
                (
                    Stated::Game(Side::Winner, g),
                    "proof-sequence",
                    format!("proof-sequence {{\n  {body}\n}}"),
                )
            }
            6 if finite => {
                let g = Game {
                    a: 1,
                    c: 1,
                    b: rng.range(1, 2),
                    ..game
                };
                let body = random_pairing(rng, &board);
                (
                    Stated::Game(Side::Loser, g),
                    "pairing",
                    format!("pairing {{\n{body}}}"),
                )
            }
            7 => {
                let Some((j, side, f)) = cite_game(rng, &claims, &any) else {
                    continue;
                };
                let (a, c, b) = if rng.chance(70) == (side == Side::Winner) {
                    (
                        f.a + rng.below(2),
                        f.c + rng.below(2),
                        f.b.saturating_sub(rng.below(2)),
                    )
                } else {
                    (
                        f.a.saturating_sub(rng.below(2)).max(1),
                        f.c,
                        f.b + rng.below(2),
                    )
                };
                let c = if rng.chance(30) { a } else { c.max(a) };
                let g = Game {
                    animal: f.animal,
                    a,
                    c,
                    b,
                };
                let side = if rng.chance(90) { side } else { other(side) };
                (
                    Stated::Game(side, g),
                    "monotonicity",
                    format!("monotonicity from {}", claims[j].id),
                )
            }
            8 => {
                let Some((j, side, f)) = cite_game(rng, &claims, &any) else {
                    continue;
                };
                let g = Game { animal, ..f };
                (
                    Stated::Game(side, g),
                    "sub-animal",
                    format!("sub-animal from {}", claims[j].id),
                )
            }
            9 => {
                let Some((j, side, f)) =
                    cite_game(rng, &claims, &|s, g| s == Side::Winner && g.a == 1)
                else {
                    continue;
                };
                let a = rng.range(f.c.clamp(1, 3), 3);
                let b = (a * f.b + a - 1 + rng.below(2)).saturating_sub(rng.below(2));
                let g = Game {
                    animal: f.animal,
                    a,
                    c: a,
                    b,
                };
                (
                    Stated::Game(side, g),
                    "corollary-3.3",
                    format!("corollary-3.3 from {}", claims[j].id),
                )
            }
            10 => {
                let Some((j, _, f)) = cite_game(rng, &claims, &|s, _| s == Side::Winner) else {
                    continue;
                };
                let Some((k2, _, h)) = cite_game(rng, &claims, &|s, g| {
                    s == Side::Winner && g.animal == f.animal
                }) else {
                    continue;
                };
                let a = f.a + h.a;
                let b = (f.b + h.b + 1 + rng.below(2)).saturating_sub(rng.below(2));
                let g = Game {
                    animal: f.animal,
                    a,
                    c: a,
                    b,
                };
                (
                    Stated::Game(Side::Winner, g),
                    "theorem-3.1",
                    format!("theorem-3.1 from {}, {}", claims[j].id, claims[k2].id),
                )
            }
            11 => {
                let about: Vec<&str> = claims
                    .iter()
                    .filter(|c| matches!(c.stated, Stated::Game(_, g) if g.animal == animal))
                    .filter(|_| rng.chance(85))
                    .map(|c| c.id.as_str())
                    .collect();
                if about.is_empty() {
                    continue;
                }
                let truth = if finite && rng.chance(60) {
                    true_threshold(&board, &animals[animal], animal)
                } else {
                    None
                };
                let sequence = truth.unwrap_or_else(|| {
                    let mut random: Vec<Option<usize>> =
                        (0..rng.below(3)).map(|_| Some(rng.below(5))).collect();
                    random.push(None);
                    random
                });
                let seq: Vec<String> = sequence
                    .iter()
                    .map(|e| e.map_or("inf".to_string(), |b| b.to_string()))
                    .collect();
                let body = format!(
                    "threshold A{animal} on B = ({}) by citation from {}",
                    seq.join(", "),
                    about.join(", ")
                );
                let stated = Stated::Threshold { animal, sequence };
                let rule = "threshold";
                add_claim(&mut text, &mut claims, Claim { id, stated, rule }, &body);
                continue;
            }
            12 if matches!(board, BoardSpec::Graph { .. }) => {
                let cites: Vec<&str> = claims
                    .iter()
                    .filter(|_| rng.chance(70))
                    .map(|c| c.id.as_str())
                    .collect();
                if cites.is_empty() {
                    continue;
                }
                let (winners, losers) = if rng.chance(50) {
                    classification(&board).unwrap_or((0, 0))
                } else {
                    (rng.below(6) as u64, rng.below(6) as u64)
                };
                let body = format!(
                    "classify B = ({winners} winners, {losers} losers) by enumeration from {}",
                    cites.join(", ")
                );
                let stated = Stated::Classify { winners, losers };
                let rule = "classification";
                add_claim(&mut text, &mut claims, Claim { id, stated, rule }, &body);
                continue;
            }
            _ => continue,
        };
        let Stated::Game(side, g) = stated else {
            unreachable!()
        };
        let word = if side == Side::Winner {
            "winner"
        } else {
            "loser"
        };
        let body = format!("{word} A{} on B {} by {method}", g.animal, g.text());
        add_claim(&mut text, &mut claims, Claim { id, stated, rule }, &body);
    }
    if matches!(&board, BoardSpec::Graph { adjacent, .. } if adjacent.len() <= 8) && rng.chance(40)
    {
        classification_claims(rng, &board, &mut text, &mut animals, &mut claims);
    }
    Scenario {
        board,
        animals,
        claims,
        text,
    }
}

/// The threshold sequence of an animal on a finite board by exhaustive
/// play, when it is at most three entries long.
fn true_threshold(board: &BoardSpec, shape: &Shape, animal: usize) -> Option<Vec<Option<usize>>> {
    let p = placements(board, shape, None);
    let cells = board.cells();
    let mut sequence = Vec::new();
    for n in 1..=3 {
        if oracle::maker_wins(&p, n, n, cells) {
            sequence.push(None);
            return Some(sequence);
        }
        let best = (0..cells)
            .rev()
            .find(|&b| oracle::maker_wins(&p, n, n, b))?;
        sequence.push(Some(best));
    }
    let _ = animal;
    None
}

/// Writes `claim ID: BODY` into the certificate and records what it states.
fn add_claim(text: &mut String, claims: &mut Vec<Claim>, claim: Claim, body: &str) {
    let _ = writeln!(text, "claim {}: {body}", claim.id);
    claims.push(claim);
}

fn other(side: Side) -> Side {
    match side {
        Side::Winner => Side::Loser,
        Side::Loser => Side::Winner,
    }
}

/// Yes, no, or not known to the oracle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Truth {
    True,
    False,
    Unknown,
}

/// The placements of an animal on a finite board, or on a window of a
/// lattice.
fn placements(board: &BoardSpec, shape: &Shape, window: Option<&[(i32, i32)]>) -> Placements {
    match (board, shape) {
        (BoardSpec::Region { plane, cells }, Shape::Plane(animal)) => {
            oracle::region_placements(*plane, cells, animal)
        }
        (BoardSpec::Lattice(plane), Shape::Plane(animal)) => {
            oracle::region_placements(*plane, window.unwrap_or(&[]), animal)
        }
        (BoardSpec::Graph { group, .. }, Shape::Graph(animal)) => {
            oracle::graph_placements(group, animal)
        }
        _ => unreachable!("animals match their boards"),
    }
}

/// Windows of a lattice around an animal: its bounding box grown by one
/// cell, as far as the oracle's board size allows.
fn windows(animal: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let (x0, x1) = (
        animal.iter().map(|c| c.0).min().unwrap_or(0),
        animal.iter().map(|c| c.0).max().unwrap_or(0),
    );
    let (y0, y1) = (
        animal.iter().map(|c| c.1).min().unwrap_or(0),
        animal.iter().map(|c| c.1).max().unwrap_or(0),
    );
    let mut out = Vec::new();
    for margin in [0, 1] {
        let window: Vec<(i32, i32)> = (y0 - margin..=y1 + margin)
            .flat_map(|y| (x0 - margin - 1..=x1 + margin + 1).map(move |x| (x, y)))
            .collect();
        if window.len() <= 15 {
            out.push(window);
        }
    }
    out
}

struct Oracle<'s> {
    scenario: &'s Scenario,
    games: HashMap<Game, bool>,
}

impl Oracle<'_> {
    /// Whether the maker wins the game on the finite board.
    fn wins(&mut self, g: Game) -> bool {
        if let Some(&w) = self.games.get(&g) {
            return w;
        }
        let p = placements(&self.scenario.board, &self.scenario.animals[g.animal], None);
        let w = oracle::maker_wins(&p, g.a, g.c, g.b.min(p.cells));
        self.games.insert(g, w);
        w
    }

    fn game(&mut self, side: Side, g: Game) -> Truth {
        let shape = &self.scenario.animals[g.animal];
        let truth_of = |maker_wins: bool| {
            if maker_wins == (side == Side::Winner) {
                Truth::True
            } else {
                Truth::False
            }
        };
        match &self.scenario.board {
            BoardSpec::Lattice(plane) => {
                let Shape::Plane(cells) = shape else {
                    return Truth::Unknown;
                };
                let won = windows(cells).iter().any(|w| {
                    let p = placements(&self.scenario.board, shape, Some(w));
                    oracle::maker_wins(&p, g.a, g.c, g.b.min(p.cells))
                });
                if won {
                    return truth_of(true);
                }
                // Prop. 2.1 (a theorem, argued in docs/soundness.md): the
                // breaker surrounds every maker turn's marks.
                if g.c < shape.len() && g.a * plane.degree() <= g.b {
                    return truth_of(false);
                }
                Truth::Unknown
            }
            _ => truth_of(self.wins(g)),
        }
    }

    fn threshold(&mut self, animal: usize, sequence: &[Option<usize>]) -> Truth {
        let cells = self.scenario.board.cells();
        if cells == usize::MAX {
            return Truth::Unknown;
        }
        for (i, entry) in sequence.iter().enumerate() {
            let n = i + 1;
            let game = |b| Game {
                animal,
                a: n,
                c: n,
                b,
            };
            match entry {
                Some(b) => {
                    if !self.wins(game(*b)) || self.wins(game(b + 1)) {
                        return Truth::False;
                    }
                }
                None => {
                    if !self.wins(game(cells)) {
                        return Truth::False;
                    }
                }
            }
        }
        Truth::True
    }
}

/// The (winners, losers) of every polyomino of a graph board in the (1,1)
/// game: connected proper vertex sets with a connected complement, up to
/// automorphism.
fn classification(board: &BoardSpec) -> Option<(u64, u64)> {
    let BoardSpec::Graph { group, .. } = board else {
        return None;
    };
    let (mut winners, mut losers) = (0, 0);
    for set in polyominoes(board) {
        if oracle::maker_wins(&oracle::graph_placements(group, &members(set)), 1, 1, 1) {
            winners += 1;
        } else {
            losers += 1;
        }
    }
    Some((winners, losers))
}

/// The vertices of a set.
fn members(set: u32) -> Vec<usize> {
    (0..32).filter(|&v| set >> v & 1 == 1).collect()
}

/// One vertex set for each polyomino of a graph board up to automorphism:
/// connected proper sets with a connected complement (the least image).
fn polyominoes(board: &BoardSpec) -> Vec<u32> {
    let BoardSpec::Graph { adjacent, group } = board else {
        return Vec::new();
    };
    let n = adjacent.len();
    let connected = |set: u32| -> bool {
        let Some(first) = (0..n).find(|&v| set >> v & 1 == 1) else {
            return false;
        };
        let mut seen = 1u32 << first;
        let mut stack = vec![first];
        while let Some(v) = stack.pop() {
            for &u in &adjacent[v] {
                if set >> u & 1 == 1 && seen >> u & 1 == 0 {
                    seen |= 1 << u;
                    stack.push(u);
                }
            }
        }
        seen == set
    };
    let all = (1u32 << n) - 1;
    (1..all)
        .filter(|&set| {
            let least = group
                .iter()
                .map(|p| members(set).iter().fold(0u32, |m, &v| m | 1 << p[v]))
                .min()
                .unwrap_or(set);
            least == set && connected(set) && connected(all & !set)
        })
        .collect()
}

/// A pairing of adjacent vertices (disjoint pairs) such that every
/// placement holds a pair, found by backtracking; it wins the (1,1) game
/// for the breaker.
fn find_pairing(adjacent: &[Vec<usize>], placements: &[u32]) -> Option<Vec<(usize, usize)>> {
    fn go(
        adjacent: &[Vec<usize>],
        placements: &[u32],
        paired: u32,
        pairs: &mut Vec<(usize, usize)>,
    ) -> bool {
        let holds = |p: u32, pairs: &[(usize, usize)]| {
            pairs
                .iter()
                .any(|&(u, v)| p >> u & 1 == 1 && p >> v & 1 == 1)
        };
        let Some(&open) = placements.iter().find(|&&p| !holds(p, pairs)) else {
            return true;
        };
        for u in members(open) {
            for &v in &adjacent[u] {
                let free = paired & (1 << u | 1 << v) == 0;
                if u < v && open >> v & 1 == 1 && free {
                    pairs.push((u, v));
                    if go(adjacent, placements, paired | 1 << u | 1 << v, pairs) {
                        return true;
                    }
                    pairs.pop();
                }
            }
        }
        false
    }
    let mut pairs = Vec::new();
    go(adjacent, placements, 0, &mut pairs).then_some(pairs)
}

/// Appends to a scenario on a small graph board every polyomino as an
/// animal, its (1,1) winner (searched) or loser (a pairing the test finds),
/// and classifications citing them: with the true counts, counts off by
/// one, and one citation left out.
fn classification_claims(
    rng: &mut Rng,
    board: &BoardSpec,
    text: &mut String,
    animals: &mut Vec<Shape>,
    claims: &mut Vec<Claim>,
) {
    let BoardSpec::Graph { adjacent, group } = board else {
        return;
    };
    let mut cited = Vec::new();
    for (k, set) in polyominoes(board).into_iter().enumerate() {
        let vertices = members(set);
        let index = animals.len();
        let shape = Shape::Graph(vertices.clone());
        let _ = writeln!(text, "animal K{k} on B = {}", shape.text());
        animals.push(shape);
        let game = Game {
            animal: index,
            a: 1,
            c: 1,
            b: 1,
        };
        let placements = oracle::graph_placements(group, &vertices);
        let id = format!("k{k}");
        let (side, rule, method) = if oracle::maker_wins(&placements, 1, 1, 1) {
            (
                Side::Winner,
                "proof-sequence",
                "proof-sequence {\n  search board\n}".to_string(),
            )
        } else if let Some(pairs) = find_pairing(adjacent, &placements.masks) {
            let body: String = pairs
                .iter()
                .map(|(u, v)| format!("  pair ({u}) ({v})\n"))
                .collect();
            (Side::Loser, "pairing", format!("pairing {{\n{body}}}"))
        } else {
            continue;
        };
        let word = if side == Side::Winner {
            "winner"
        } else {
            "loser"
        };
        cited.push(id.clone());
        let stated = Stated::Game(side, game);
        let body = format!("{word} K{k} on B (1,1) by {method}");
        add_claim(text, claims, Claim { id, stated, rule }, &body);
    }
    let Some((winners, losers)) = classification(board) else {
        return;
    };
    let variants = [
        (winners, losers, cited.clone()),
        (winners + 1, losers.saturating_sub(1), cited.clone()),
        (
            winners,
            losers,
            cited[..cited.len().saturating_sub(1)].to_vec(),
        ),
    ];
    for (v, (w, l, cites)) in variants.into_iter().enumerate() {
        if cites.is_empty() || (v > 0 && rng.chance(30)) {
            continue;
        }
        let id = format!("classify{v}");
        let body = format!(
            "classify B = ({w} winners, {l} losers) by enumeration from {}",
            cites.join(", ")
        );
        let stated = Stated::Classify {
            winners: w,
            losers: l,
        };
        let rule = "classification";
        add_claim(text, claims, Claim { id, stated, rule }, &body);
    }
}

fn options() -> CheckOptions {
    CheckOptions {
        jobs: 2,
        limits: Limits {
            max_nodes: None,
            time: Some(std::time::Duration::from_secs(20)),
            max_entries: 4_000_000,
        },
        timings: false,
        only: None,
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_verified_derived_claim_is_true_by_exhaustive_play() {
    let files = env_number("GAMECERT_DERIVED_FILES", 300);
    let mut rng = Rng(env_number("GAMECERT_DERIVED_SEED", 2026));
    let mut generated = 0usize;
    let mut verified: HashMap<&'static str, usize> = HashMap::new();
    let mut not_verified: HashMap<&'static str, usize> = HashMap::new();
    let (mut confirmed, mut unconfirmed) = (0usize, 0usize);
    let mut false_verified = Vec::new();
    for _ in 0..files {
        let scenario = scenario(&mut rng);
        let outcome = check_source("derived.cert", &scenario.text, &options());
        let mut oracle = Oracle {
            scenario: &scenario,
            games: HashMap::new(),
        };
        let reported: HashMap<&str, VerdictName> = outcome.report.files[0]
            .claims
            .iter()
            .map(|c| (c.id.as_str(), c.verdict))
            .collect();
        for claim in &scenario.claims {
            generated += 1;
            let verdict = reported
                .get(claim.id.as_str())
                .copied()
                .unwrap_or(VerdictName::Error);
            if verdict != VerdictName::Verified {
                *not_verified.entry(claim.rule).or_default() += 1;
                continue;
            }
            *verified.entry(claim.rule).or_default() += 1;
            let truth = match &claim.stated {
                Stated::Game(_, g) if g.c < g.a => Truth::False, // malformed: never verified
                Stated::Game(side, g) => oracle.game(*side, *g),
                Stated::Threshold { animal, sequence } => oracle.threshold(*animal, sequence),
                Stated::Classify { winners, losers } => match classification(&scenario.board) {
                    Some(counts) if counts == (*winners, *losers) => Truth::True,
                    Some(_) => Truth::False,
                    None => Truth::Unknown,
                },
            };
            match truth {
                Truth::True => confirmed += 1,
                Truth::Unknown => unconfirmed += 1,
                Truth::False => {
                    let line = scenario
                        .text
                        .lines()
                        .find(|l| l.starts_with(&format!("claim {}:", claim.id)))
                        .unwrap_or_default();
                    let board = scenario.text.lines().nth(1).unwrap_or_default();
                    let whole = if false_verified.is_empty() {
                        scenario.text.as_str()
                    } else {
                        ""
                    };
                    false_verified.push(format!("VERIFIED but false: {line}   [{board}]\n{whole}"));
                }
            }
        }
    }
    let total_verified: usize = verified.values().sum();
    println!(
        "{generated} claims in {files} files: {total_verified} verified ({confirmed} confirmed by exhaustive play, {unconfirmed} on lattices unconfirmed), {} false",
        false_verified.len()
    );
    let mut rules: Vec<_> = verified
        .keys()
        .chain(not_verified.keys())
        .copied()
        .collect();
    rules.sort_unstable();
    rules.dedup();
    for rule in &rules {
        println!(
            "  {rule}: {} verified, {} not",
            verified.get(rule).unwrap_or(&0),
            not_verified.get(rule).unwrap_or(&0)
        );
    }
    assert!(false_verified.is_empty(), "{}", false_verified.join("\n\n"));
    // Not vacuous: every rule both verifies claims and fails some.
    for rule in [
        "trivial",
        "proposition-2.1",
        "proposition-2.2",
        "corollary-3.3",
        "corollary-3.4",
        "theorem-3.1",
        "monotonicity",
        "sub-animal",
        "threshold",
        "classification",
    ] {
        assert!(
            verified.get(rule).is_some_and(|&n| n > 0)
                && not_verified.get(rule).is_some_and(|&n| n > 0),
            "{rule}: the sample neither verifies nor fails it"
        );
    }
}

#[test]
fn the_oracle_plays_small_games_right() {
    // The domino on two cells: the breaker takes the second cell.
    let two = oracle::region_placements(Plane::Square, &[(0, 0), (1, 0)], &[(0, 0), (1, 0)]);
    assert_eq!(two.masks.len(), 1);
    assert!(!oracle::maker_wins(&two, 1, 1, 1));
    assert!(
        oracle::maker_wins(&two, 1, 2, 1),
        "(1->2,1): both cells at once"
    );
    assert!(oracle::maker_wins(&two, 2, 2, 5));
    // On three cells in a row the maker takes the middle one.
    let row: Vec<(i32, i32)> = (0..3).map(|x| (x, 0)).collect();
    let three = oracle::region_placements(Plane::Square, &row, &[(0, 0), (1, 0)]);
    assert_eq!(three.masks.len(), 2);
    assert!(oracle::maker_wins(&three, 1, 1, 1));
    assert!(!oracle::maker_wins(&three, 1, 1, 2));
    // Bode's tetrahedron: the tromino (three faces) is a (1,1) loser, the
    // domino a winner.
    let tetrahedron = solid_graph(Solid::Tetrahedron);
    let group = oracle::automorphisms(&tetrahedron);
    assert_eq!(group.len(), 24);
    assert!(oracle::maker_wins(
        &oracle::graph_placements(&group, &[0, 1]),
        1,
        1,
        1
    ));
    assert!(!oracle::maker_wins(
        &oracle::graph_placements(&group, &[0, 1, 2]),
        1,
        1,
        1
    ));
    assert_eq!(
        classification(&BoardSpec::Graph {
            adjacent: tetrahedron,
            group
        }),
        Some((2, 1))
    );
}

#[test]
fn the_oracle_places_animals_as_the_kernel_does() {
    use gamecert::kernel::animals::lattice::Lattice;
    use gamecert::kernel::animals::{Board, Region, shape};
    use std::sync::Arc;
    let mut rng = Rng(11);
    for _ in 0..300 {
        let plane = random_plane(&mut rng);
        let lattice = match plane {
            Plane::Square => Lattice::Square,
            Plane::Hexagon => Lattice::Hexagon,
            Plane::Triangle => Lattice::Triangle,
        };
        let (rows, cols) = (rng.range(1, 4), rng.range(1, 5));
        let region = Region::rectangle(lattice, rows as u16, cols as u16);
        let cells: Vec<(i32, i32)> = region.cells().iter().map(|c| (c[0], c[1])).collect();
        let size = rng.range(1, 4);
        let animal = random_lattice_animal(&mut rng, plane, size);
        let ours = oracle::region_placements(plane, &cells, &animal);
        let kernel_cells: Vec<[i32; 3]> = animal.iter().map(|&(x, y)| [x, y, 0]).collect();
        let mut budget = gamecert::kernel::budget::Budget::unlimited();
        let theirs =
            shape::placements(&Board::Region(Arc::new(region)), &kernel_cells, &mut budget)
                .expect("a small region");
        assert_eq!(
            ours.masks.len(),
            theirs.len(),
            "{plane:?} {rows}x{cols} {animal:?}"
        );
    }
}
