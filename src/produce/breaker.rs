//! Breaker producer (untrusted): searches b-pavings for (1,b) loser
//! claims, periodic on a lattice (periods by increasing number of classes,
//! as Bode Sec. 6.3.1 enumerates them) and explicit on a finite board, and
//! on a finite board without a pairing, strategy trees that fix the pairing
//! after the maker's first or second mark. It shares no code with the
//! kernel's checks: the kernel re-checks whatever is written.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::solid::Group;
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::GameClaim;
use crate::produce::periodic;

/// A paving found: pairs and period generators (none on a finite board).
pub type Found = (Vec<(Cell, Cell)>, Vec<Cell>);

/// A strategy found: a paving, or answers to the maker's next mark
/// (`mark`, `reply`, what follows; `None`: the mark is answered as an
/// earlier one by a symmetry the elaborator finds).
#[derive(Clone, Debug)]
pub enum Tree {
    Paving(Found),
    Moves(Vec<TreeMove>),
    /// A situation reached again later in the tree, named here.
    Named(String, Box<Tree>),
    /// The named situation again (up to a congruence the elaborator finds).
    Same(String),
}

/// A maker mark, the breaker's reply and what follows, or the earlier
/// mark it is answered like.
pub type TreeMove = (Cell, Option<(Vec<Cell>, Tree)>, Option<Cell>);

/// How many maker marks a strategy tree answers before its pairing (3:
/// one truncated-octahedron loser needs a third answer).
pub const TREE_DEPTH: usize = 3;

/// A paving strategy for `claim` (a (1,b) loser claim): on a lattice the
/// first periodic b-paving found, on a finite board a pairing or a tree of
/// depth at most `depth` ending in pairings.
pub fn prove(
    claim: &GameClaim,
    depth: usize,
    budget: &mut Budget,
) -> Result<Option<Tree>, Exhausted> {
    match &claim.board {
        Board::Lattice(_) | Board::Tiling(_) => {
            let any = PlaneProperty {
                classes: periodic::MAX_CLASSES as usize,
                length: None,
            };
            Ok(paving_with(&claim.board, &claim.goal, claim.b, any, budget)?.map(Tree::Paving))
        }
        board => {
            let Some(cells) = finite_cells(board) else {
                return Ok(None);
            };
            let finite = Finite {
                cells,
                placements: shape::placements(board, &claim.goal, budget)?,
                group: board.group(budget)?.unwrap_or_default(),
                b: claim.b,
            };
            let tree = finite.tree(&BTreeSet::new(), &BTreeSet::new(), depth, budget)?;
            Ok(tree.map(|t| share_situations(t, &finite.group)))
        }
    }
}

fn finite_cells(board: &Board) -> Option<Vec<Cell>> {
    match board {
        Board::Region(region) => Some(region.cells().to_vec()),
        _ => board
            .face_graph()
            .map(|g| (0..g.faces() as i32).map(|f| [f, 0, 0]).collect()),
    }
}

/// Bode's property of a periodic pairing on a plane board (Sec. 6.3.1,
/// 7.1): a period of at most `classes` translation classes (unit cells of
/// a tiling) and pairs at most `length` steps apart (`None`: any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaneProperty {
    pub classes: usize,
    pub length: Option<usize>,
}

impl PlaneProperty {
    /// Reads `(P,L)`, `L` a number or `inf`.
    pub fn parse(text: &str) -> Option<PlaneProperty> {
        let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
        let (classes, length) = inner.split_once(',')?;
        let length = match length.trim() {
            "inf" => None,
            l => Some(l.parse().ok()?),
        };
        Some(PlaneProperty {
            classes: classes.trim().parse().ok()?,
            length,
        })
    }
}

impl std::fmt::Display for PlaneProperty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.length {
            Some(l) => write!(f, "({},{l})", self.classes),
            None => write!(f, "({},inf)", self.classes),
        }
    }
}

/// The first periodic b-paving of a plane board with `property` for
/// `goal`, periods by increasing number of classes.
pub fn paving_with(
    board: &Board,
    goal: &[Cell],
    b: usize,
    property: PlaneProperty,
    budget: &mut Budget,
) -> Result<Option<Found>, Exhausted> {
    let lattice = board.lattice();
    let faces = match board {
        Board::Tiling(t) => t.faces() as i32,
        _ => 1,
    };
    // Each orientation with the pairs of its cells the property allows
    // (translations keep distances, so once per orientation). Two cells of
    // a connected animal of n cells are at most n - 1 steps apart, so a
    // longer length allows every pair (and must not grow a huge ball).
    let length = property
        .length
        .filter(|&l| l < goal.len().saturating_sub(1));
    let orientations: Vec<periodic::Orientation> = shape::placements(board, goal, budget)?
        .into_iter()
        .map(|cells| {
            let mut pairs = Vec::new();
            for (i, &u) in cells.iter().enumerate() {
                let near = length.map(|l| ball(board, u, l));
                for (j, w) in cells.iter().enumerate().skip(i + 1) {
                    if near.as_ref().is_none_or(|near| near.contains(w)) {
                        pairs.push((i, j));
                    }
                }
            }
            (cells, pairs)
        })
        .collect();
    let same_orientation = |t: Cell| lattice.is_none_or(|l| l.same_orientation([0, 0, 0], t));
    for period in periodic::periods(lattice) {
        if period.reps.len() > property.classes {
            break;
        }
        let found = periodic::search(period, &orientations, same_orientation, faces, b, budget)?;
        if let Some(pairs) = found {
            return Ok(Some((pairs, period.basis.to_vec())));
        }
    }
    Ok(None)
}

/// The cells at most `length` steps from `u` on a plane board.
fn ball(board: &Board, u: Cell, length: usize) -> HashSet<Cell> {
    let mut reached = HashSet::from([u]);
    let mut frontier = vec![u];
    for _ in 0..length {
        let mut next = Vec::new();
        for c in frontier {
            for m in plane_neighbours(board, c) {
                if reached.insert(m) {
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    reached
}

/// The neighbours of a cell of a plane lattice or tiling.
fn plane_neighbours(board: &Board, c: Cell) -> Vec<Cell> {
    match board {
        Board::Lattice(l) => l.neighbours(c),
        Board::Tiling(t) => {
            let mut out = Vec::new();
            t.for_each_neighbour(c, |m| out.push(m));
            out
        }
        _ => Vec::new(),
    }
}

/// A finite board's search data.
struct Finite {
    cells: Vec<Cell>,
    placements: Vec<Vec<Cell>>,
    group: Group,
    b: usize,
}

impl Finite {
    /// A pairing at the position (maker's and breaker's marks), or a tree.
    fn tree(
        &self,
        maker: &BTreeSet<Cell>,
        breaker: &BTreeSet<Cell>,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<Option<Tree>, Exhausted> {
        if let Some(pairs) = self.pairing(maker, breaker, budget)? {
            return Ok(Some(Tree::Paving((pairs, Vec::new()))));
        }
        if depth == 0 {
            return Ok(None);
        }
        let free: Vec<Cell> = self
            .cells
            .iter()
            .copied()
            .filter(|c| !maker.contains(c) && !breaker.contains(c))
            .collect();
        let mut moves = Vec::new();
        let mut answered: Vec<Cell> = Vec::new();
        for &x in &free {
            // A mark that a symmetry of the position takes an answered mark
            // to is answered by the elaborator's `like`.
            if let Some(&y) = answered
                .iter()
                .find(|&&y| self.symmetric(maker, breaker, y, x))
            {
                moves.push((x, None, Some(y)));
                continue;
            }
            let mut with_x = maker.clone();
            with_x.insert(x);
            if self
                .placements
                .iter()
                .any(|p| p.iter().all(|c| with_x.contains(c)))
            {
                return Ok(None);
            }
            let mut found = None;
            for reply in replies(&free, x, self.b) {
                let mut after = breaker.clone();
                after.extend(reply.iter().copied());
                if let Some(t) = self.tree(&with_x, &after, depth - 1, budget)? {
                    found = Some((reply, t));
                    break;
                }
            }
            let Some(answer) = found else {
                return Ok(None);
            };
            moves.push((x, Some(answer), None));
            answered.push(x);
        }
        Ok(Some(Tree::Moves(moves)))
    }

    /// Whether an automorphism fixing both players' marks takes `from` to `to`.
    fn symmetric(
        &self,
        maker: &BTreeSet<Cell>,
        breaker: &BTreeSet<Cell>,
        from: Cell,
        to: Cell,
    ) -> bool {
        super::placer::fixing_symmetry(&self.group, maker, breaker, from, to).is_some()
    }

    /// A b-pairing of the free cells spoiling every placement the breaker
    /// has not already spoiled.
    fn pairing(
        &self,
        maker: &BTreeSet<Cell>,
        breaker: &BTreeSet<Cell>,
        budget: &mut Budget,
    ) -> Result<Option<Vec<(Cell, Cell)>>, Exhausted> {
        let placements: Vec<Vec<Cell>> = self
            .placements
            .iter()
            .filter(|p| !p.iter().any(|c| breaker.contains(c)))
            .map(|p| p.iter().copied().filter(|c| !maker.contains(c)).collect())
            .collect();
        periodic::pairing(&placements, self.b, budget)
    }
}

/// A position: the maker's and the breaker's marks.
type Marks = (BTreeSet<Cell>, BTreeSet<Cell>);

/// The tree with every situation that is reached more than once (up to the
/// board's automorphisms) written once, named, and referred to afterwards.
fn share_situations(tree: Tree, group: &Group) -> Tree {
    let mut counts = BTreeMap::new();
    let root = Marks::default();
    visit_situations(&tree, &root, &mut |marks| {
        *counts.entry(situation_key(marks, group)).or_insert(0usize) += 1;
    });
    let mut names = BTreeMap::new();
    name_situations(tree, &root, group, &counts, &mut names)
}

/// Calls `visit` with the position after every reply of the tree.
fn visit_situations(tree: &Tree, at: &Marks, visit: &mut impl FnMut(&Marks)) {
    if let Tree::Moves(moves) = tree {
        for (x, answer, _) in moves {
            if let Some((reply, then)) = answer {
                let next = after(at, *x, reply);
                visit(&next);
                visit_situations(then, &next, visit);
            }
        }
    }
}

/// The position after the maker marks `x` and the breaker `reply`.
fn after(at: &Marks, x: Cell, reply: &[Cell]) -> Marks {
    let mut next = at.clone();
    next.0.insert(x);
    next.1.extend(reply.iter().copied());
    next
}

/// The least image of a position under the group (the position itself
/// without automorphisms), cells whole: a group maps the faces of a face
/// board (cells `[face, 0, 0]`); a plane region has none, and its cells
/// differ in every coordinate (keyed by the first alone, positions that
/// only shared x coordinates were taken for one another).
fn situation_key(marks: &Marks, group: &Group) -> SituationKey {
    let image = |p: &[u8], set: &BTreeSet<Cell>| -> Vec<Cell> {
        let mut v: Vec<Cell> = set
            .iter()
            .map(|&c| {
                let face = usize::try_from(c[0]).ok().and_then(|f| p.get(f));
                face.map_or(c, |&g| [i32::from(g), c[1], c[2]])
            })
            .collect();
        v.sort_unstable();
        v
    };
    let exact = (
        marks.0.iter().copied().collect(),
        marks.1.iter().copied().collect(),
    );
    group
        .iter()
        .map(|p| (image(p, &marks.0), image(p, &marks.1)))
        .chain(std::iter::once(exact))
        .min()
        .unwrap_or_default()
}

/// A position up to the board's symmetries: the maker's and the breaker's
/// marks of its least image.
type SituationKey = (Vec<Cell>, Vec<Cell>);

/// The tree with recurring situations named at their first occurrence
/// (`counts`: occurrences by key) and referred to at the later ones.
fn name_situations(
    tree: Tree,
    at: &Marks,
    group: &Group,
    counts: &BTreeMap<SituationKey, usize>,
    names: &mut BTreeMap<SituationKey, String>,
) -> Tree {
    let Tree::Moves(moves) = tree else {
        return tree;
    };
    let mut out = Vec::new();
    for (x, answer, like) in moves {
        let Some((reply, then)) = answer else {
            out.push((x, None, like));
            continue;
        };
        let next = after(at, x, &reply);
        let key = situation_key(&next, group);
        let then = if let Some(name) = names.get(&key) {
            Tree::Same(name.clone())
        } else {
            let then = name_situations(then, &next, group, counts, names);
            if counts.get(&key).is_some_and(|&n| n > 1) {
                let name = format!("s{}", names.len() + 1);
                names.insert(key, name.clone());
                Tree::Named(name, Box::new(then))
            } else {
                then
            }
        };
        out.push((x, Some((reply, then)), like));
    }
    Tree::Moves(out)
}

/// The breaker's replies to a mark on `x`: every set of at most b free
/// cells other than `x` (all b of them when there are enough).
fn replies(free: &[Cell], x: Cell, b: usize) -> Vec<Vec<Cell>> {
    let others: Vec<Cell> = free.iter().copied().filter(|&c| c != x).collect();
    let want = b.min(others.len());
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn choose(
        others: &[Cell],
        want: usize,
        start: usize,
        chosen: &mut Vec<Cell>,
        out: &mut Vec<Vec<Cell>>,
    ) {
        if chosen.len() == want {
            out.push(chosen.clone());
            return;
        }
        for i in start..others.len() {
            chosen.push(others[i]);
            choose(others, want, i + 1, chosen, out);
            chosen.pop();
        }
    }
    choose(&others, want, 0, &mut chosen, &mut out);
    out
}

/// The body of a `by paving { ... }` or `by pairing { ... }` block.
pub fn tree_text(tree: &Tree, dimension: usize, indent: usize) -> String {
    let cell = |c: &Cell| crate::syntax::printer::cell(c, dimension);
    let pad = "  ".repeat(indent);
    let mut out = String::new();
    match tree {
        Tree::Paving((pairs, period)) => {
            if !period.is_empty() {
                let v: Vec<String> = period.iter().map(cell).collect();
                out += &format!("{pad}period {}\n", v.join(" "));
            }
            for (u, w) in pairs {
                out += &format!("{pad}pair {} {}\n", cell(u), cell(w));
            }
        }
        Tree::Moves(moves) => {
            for (x, answer, like) in moves {
                match (answer, like) {
                    (Some((reply, then)), _) => {
                        let r: Vec<String> = reply.iter().map(cell).collect();
                        let head = format!("{pad}move {} reply {}", cell(x), r.join(" "));
                        match then {
                            Tree::Same(name) => out += &format!("{head} same {name}\n"),
                            Tree::Named(name, inner) => {
                                out += &format!("{head} as {name} {{\n");
                                out += &tree_text(inner, dimension, indent + 1);
                                out += &format!("{pad}}}\n");
                            }
                            _ => {
                                out += &format!("{head} {{\n");
                                out += &tree_text(then, dimension, indent + 1);
                                out += &format!("{pad}}}\n");
                            }
                        }
                    }
                    (None, Some(y)) => out += &format!("{pad}move {} like {}\n", cell(x), cell(y)),
                    (None, None) => {}
                }
            }
        }
        // Only a reply's subtree is named or referred to (above).
        Tree::Named(_, inner) => out += &tree_text(inner, dimension, indent),
        Tree::Same(_) => {}
    }
    out
}
