//! Breaker certificates (SPEC 3.4): b-pavings, periodic on a lattice and
//! explicit on a finite board (rule B1 of docs/soundness.md), and strategy
//! trees whose leaves are pairings (rule B2).
//!
//! Key decision: a paving is checked as a relation, never as a strategy.
//! On a lattice the kernel keeps, per class of cells modulo the period, the
//! offsets of the related cells; "u and w are related" is then one lookup.
//! A tree is checked node by node against the board: every free cell is a
//! maker move that is answered (or mapped onto an answered one by a
//! congruence fixing the position), and every leaf's pairing must spoil
//! every placement the maker can still complete.

pub mod bound;
pub mod classify;
pub mod period;
pub mod plane;
pub mod priority;
pub mod threshold;

use std::collections::{BTreeMap, BTreeSet};

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side, precheck};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::maker::congruence::{Congruence, Map, Space};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{
    BreakerFailure, Malformed, Rejection, Requirement, Rule, Undecided, Verdict,
};
use period::{Period, PeriodError};

/// A b-paving: related pairs, repeated by every translation of `period`
/// on a lattice (`period` empty on a finite board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paving {
    /// The pairs as written.
    pub pairs: Vec<(Cell, Cell)>,
    /// Generators of the translation lattice.
    pub period: Vec<Cell>,
}

/// A breaker strategy as a tree: a paving from the start, or answers to
/// the maker's next mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// From here on, the paving strategy.
    Paving(Paving),
    /// One entry per free cell the maker may mark.
    Moves(Vec<Move>),
    /// A situation given a name (unique in the tree), then its strategy.
    Named { name: String, then: Box<Strategy> },
    /// The situation named `name`, completed earlier in the tree, recurs
    /// here moved by `map` (a congruence of the board): its strategy,
    /// moved, is played.
    Same { name: String, map: Congruence },
}

/// A named situation's marks: the maker's, the breaker's.
type Marks = (BTreeSet<Cell>, BTreeSet<Cell>);

/// The breaker's answer to the maker marking `mark`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub mark: Cell,
    pub answer: Answer,
}

/// How a maker mark is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The breaker marks `reply`, then plays `then`.
    Reply { reply: Vec<Cell>, then: Strategy },
    /// As the answer to the mark on `like` in the same node, moved by
    /// `map`, a congruence fixing the position that takes `like` to the mark.
    Like { like: Cell, map: Congruence },
}

/// Checks a loser claim against a breaker strategy (rules B1, B2). The
/// verdict's measure is the number of nodes of the tree (1 for a paving).
pub fn check(claim: &GameClaim, strategy: &Strategy, mut budget: Budget) -> Verdict {
    let rule = Rule::Paving;
    let dimension = claim.board.dimension();
    // Whether pavings apply at all comes first, as a type check would.
    if claim.side != Side::Loser {
        return Failure::NotApplicable(Requirement::LoserClaim).verdict(rule, dimension);
    }
    if claim.a != 1 || claim.completing() != 1 {
        return Failure::NotApplicable(Requirement::OneMakerMark).verdict(rule, dimension);
    }
    if let Some(verdict) = precheck(claim, rule, &mut budget) {
        return verdict;
    }
    let placements = match shape::placements(&claim.board, &claim.goal, &mut budget) {
        Ok(p) => p,
        Err(e) => return Failure::Budget(e).verdict(rule, dimension),
    };
    let checker = Checker {
        claim,
        graph: claim.board.face_graph(),
        placements,
    };
    let mut walk = Walk::default();
    let result = checker.node(strategy, &mut Position::default(), &mut walk, &mut budget);
    match result {
        Ok(()) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: walk.nodes,
            theorem: Theorem::new(Established::Game {
                claim: claim.clone(),
                turns: None,
            }),
        },
        Err(failure) => failure.verdict(rule, dimension),
    }
}

/// Whether the board is finite (placements are every placement, not one
/// per orientation).
fn finite(board: &Board) -> bool {
    !matches!(board, Board::Lattice(_) | Board::Tiling(_))
}

/// Why a breaker check stopped short of VERIFIED (rules B1, B2, B5).
enum Failure {
    Rejected(BreakerFailure),
    NotApplicable(Requirement),
    Budget(Exhausted),
    TooLarge,
}

impl Failure {
    /// The verdict of `rule` (`dimension`: coordinates per cell, for the
    /// report).
    fn verdict(self, rule: Rule, dimension: usize) -> Verdict {
        match self {
            Failure::Rejected(failure) => Verdict::Rejected {
                rule,
                rejection: Rejection::Breaker { failure, dimension },
            },
            Failure::NotApplicable(requirement) => Verdict::Malformed {
                rule,
                reason: Malformed::NotApplicable(requirement),
            },
            Failure::Budget(e) => Verdict::Undecided {
                rule,
                reason: Undecided::Budget(e),
            },
            Failure::TooLarge => Verdict::Undecided {
                rule,
                reason: Undecided::OutsideLimits,
            },
        }
    }
}

/// The translation lattice generated by `generators` on `lattice` (`None`:
/// a tiling, whose translations move whole unit cells, `[x, y, 0]`):
/// refuted unless every generator is a translation of the board (on the
/// plane lattices and tilings with z = 0) and together they span it.
fn lattice_period(
    lattice: Option<Lattice>,
    generators: &[Cell],
    dimension: usize,
) -> Result<Period, Failure> {
    // A tiling's cells carry their face in z, which translations keep.
    let dimension = if lattice.is_none() { 2 } else { dimension };
    for (index, &g) in generators.iter().enumerate() {
        let translation = lattice.is_none_or(|l| l.same_orientation([0, 0, 0], g))
            && (dimension == 3 || g[2] == 0);
        if !translation {
            return fail(BreakerFailure::PeriodNotATranslation {
                index: ordinal(index),
            });
        }
    }
    match Period::new(generators, dimension) {
        Ok(p) => Ok(p),
        Err(PeriodError::Singular) => fail(BreakerFailure::PeriodSingular),
        Err(PeriodError::TooLarge) => Err(Failure::TooLarge),
    }
}

impl From<Exhausted> for Failure {
    fn from(e: Exhausted) -> Failure {
        Failure::Budget(e)
    }
}

fn fail<T>(f: BreakerFailure) -> Result<T, Failure> {
    Err(Failure::Rejected(f))
}

/// The marks made so far along a branch of the tree, and the maker's marks
/// in the order he made them (for reports).
#[derive(Clone, Debug, Default)]
struct Position {
    maker: BTreeSet<Cell>,
    breaker: BTreeSet<Cell>,
    path: Vec<Cell>,
}

impl Position {
    fn free(&self, c: Cell) -> bool {
        !self.maker.contains(&c) && !self.breaker.contains(&c)
    }
}

/// What the check of a tree has gathered so far: its nodes, and the named
/// situations whose strategies have been checked completely.
#[derive(Default)]
struct Walk {
    nodes: u64,
    situations: BTreeMap<String, Marks>,
}

struct Checker<'a> {
    claim: &'a GameClaim,
    graph: Option<crate::kernel::animals::solid::FaceGraph>,
    /// On a lattice one placement per orientation (translations come from
    /// the period), on a finite board every placement.
    placements: Vec<Vec<Cell>>,
}

impl Checker<'_> {
    fn node(
        &self,
        strategy: &Strategy,
        at: &mut Position,
        walk: &mut Walk,
        budget: &mut Budget,
    ) -> Result<(), Failure> {
        budget.tick()?;
        // A name is not a node of its own.
        let named = matches!(strategy, Strategy::Named { .. });
        walk.nodes = walk.nodes.saturating_add(u64::from(!named));
        let tree = !matches!(strategy, Strategy::Paving(_));
        if tree && !finite(&self.claim.board) {
            return Err(Failure::NotApplicable(Requirement::FiniteBoard));
        }
        match strategy {
            Strategy::Paving(paving) => self.paving(paving, at, budget),
            Strategy::Moves(moves) => self.moves(moves, at, walk, budget),
            Strategy::Named { name, then } => {
                self.node(then, at, walk, budget)?;
                // Recorded once its strategy is checked, so a situation is
                // never used inside its own subtree.
                let marks = (at.maker.clone(), at.breaker.clone());
                if walk.situations.insert(name.clone(), marks).is_some() {
                    let (path, name) = (at.path.clone(), name.clone());
                    return fail(BreakerFailure::SituationTwice { path, name });
                }
                Ok(())
            }
            Strategy::Same { name, map } => {
                let (path, name) = (at.path.clone(), name.clone());
                let Some(earlier) = walk.situations.get(&name) else {
                    return fail(BreakerFailure::UnknownSituation { path, name });
                };
                if !self.maps(map, earlier, &(at.maker.clone(), at.breaker.clone())) {
                    return fail(BreakerFailure::SituationDiffers { path, name });
                }
                Ok(())
            }
        }
    }

    /// Rule B2 at one node: every free cell answered.
    fn moves(
        &self,
        moves: &[Move],
        at: &mut Position,
        walk: &mut Walk,
        budget: &mut Budget,
    ) -> Result<(), Failure> {
        let path = at.path.clone();
        let mut answered: BTreeMap<Cell, &Move> = BTreeMap::new();
        for m in moves {
            if !self.claim.board.contains(m.mark) || !at.free(m.mark) {
                return fail(BreakerFailure::MoveNotFree { path, cell: m.mark });
            }
            if answered.insert(m.mark, m).is_some() {
                return fail(BreakerFailure::MoveTwice { path, cell: m.mark });
            }
        }
        for cell in self.board_cells() {
            if at.free(cell) && !answered.contains_key(&cell) {
                return fail(BreakerFailure::MissingMove { path, cell });
            }
        }
        for m in moves {
            match &m.answer {
                Answer::Reply { reply, then } => {
                    self.reply(m.mark, reply, at)?;
                    let saved = at.clone();
                    at.maker.insert(m.mark);
                    at.breaker.extend(reply.iter().copied());
                    at.path.push(m.mark);
                    self.node(then, at, walk, budget)?;
                    *at = saved;
                }
                Answer::Like { like, map } => {
                    let answered_by_reply = answered
                        .get(like)
                        .is_some_and(|o| matches!(o.answer, Answer::Reply { .. }));
                    if !answered_by_reply || !self.fixes(map, at, *like, m.mark) {
                        return fail(BreakerFailure::BadSymmetry { path, cell: m.mark });
                    }
                }
            }
        }
        Ok(())
    }

    /// The breaker's reply to the maker's mark: at most b free cells, and
    /// the maker must not have completed a placement with the mark.
    fn reply(&self, mark: Cell, reply: &[Cell], at: &Position) -> Result<(), Failure> {
        let path = at.path.clone();
        let mut maker = at.maker.clone();
        maker.insert(mark);
        if self
            .placements
            .iter()
            .any(|p| p.iter().all(|c| maker.contains(c)))
        {
            return fail(BreakerFailure::MakerCompletes { path, cell: mark });
        }
        let distinct: BTreeSet<Cell> = reply.iter().copied().collect();
        if reply.len() > self.claim.b || distinct.len() != reply.len() {
            return fail(BreakerFailure::ReplyTooLarge { path, cell: mark });
        }
        match reply
            .iter()
            .find(|&&c| c == mark || !at.free(c) || !self.claim.board.contains(c))
        {
            Some(&cell) => fail(BreakerFailure::ReplyNotFree { path, cell }),
            None => Ok(()),
        }
    }

    /// Whether `map` is a congruence of the board that fixes the maker's
    /// and the breaker's marks (as sets) and takes `from` to `to`.
    fn fixes(&self, map: &Congruence, at: &Position, from: Cell, to: Cell) -> bool {
        let marks = (at.maker.clone(), at.breaker.clone());
        self.maps(map, &marks, &marks)
            && Map::of(map, Space::of(&self.claim.board), self.graph.as_ref())
                .is_some_and(|map| map.apply(from) == Some(to))
    }

    /// Whether `map` is a congruence of the board that takes the marks
    /// `from` (the maker's, the breaker's) to the marks `to`.
    fn maps(&self, map: &Congruence, from: &Marks, to: &Marks) -> bool {
        let Some(map) = Map::of(map, Space::of(&self.claim.board), self.graph.as_ref()) else {
            return false;
        };
        let image = |set: &BTreeSet<Cell>| {
            set.iter()
                .map(|&c| map.apply(c))
                .collect::<Option<BTreeSet<Cell>>>()
        };
        // On a region of a lattice the congruence must also keep the region.
        let keeps_board = match &self.claim.board {
            Board::Region(region) => {
                let cells: BTreeSet<Cell> = region.cells().iter().copied().collect();
                image(&cells).is_some_and(|i| i == cells)
            }
            _ => true,
        };
        image(&from.0).is_some_and(|i| i == to.0)
            && image(&from.1).is_some_and(|i| i == to.1)
            && keeps_board
    }

    /// The cells of a finite board.
    fn board_cells(&self) -> Vec<Cell> {
        match (&self.claim.board, &self.graph) {
            (Board::Region(region), _) => region.cells().to_vec(),
            (_, Some(g)) => (0..g.faces() as i32).map(|f| [f, 0, 0]).collect(),
            _ => Vec::new(),
        }
    }

    /// Rule B1 at a position: the relation has degree at most b, and every
    /// placement the breaker has not spoiled holds a related pair of free
    /// cells.
    fn paving(&self, paving: &Paving, at: &Position, budget: &mut Budget) -> Result<(), Failure> {
        let relation = Relation::of(paving, &self.claim.board, at)?;
        relation.degree_at_most(self.claim.b)?;
        let spoiled = |p: &[Cell]| p.iter().any(|c| at.breaker.contains(c));
        for placement in &self.placements {
            for shift in relation.shifts() {
                budget.tick()?;
                let placed: Vec<Cell> = placement.iter().map(|&c| add(c, shift)).collect();
                if spoiled(&placed) {
                    continue;
                }
                let free: Vec<Cell> = placed.iter().copied().filter(|&c| at.free(c)).collect();
                let paired = free
                    .iter()
                    .any(|&u| free.iter().any(|&w| relation.related(u, w)));
                if !paired {
                    return fail(BreakerFailure::Unpaired {
                        path: at.path.clone(),
                        placement: placed,
                    });
                }
            }
        }
        Ok(())
    }
}

/// `c` moved by the offset `d`.
// Cells and offsets lie within bounds::MAX_COORDINATE (checked before any
// rule runs) or are period representatives below period::MAX_CLASSES, so
// the sum stays far inside i32.
#[allow(clippy::arithmetic_side_effects)]
pub fn add(c: Cell, d: Cell) -> Cell {
    [c[0] + d[0], c[1] + d[1], c[2] + d[2]]
}

/// The offset from `d` to `c`.
// As for `add`: both cells within bounds::MAX_COORDINATE.
#[allow(clippy::arithmetic_side_effects)]
pub fn sub(c: Cell, d: Cell) -> Cell {
    [c[0] - d[0], c[1] - d[1], c[2] - d[2]]
}

/// A paving as a relation: for each class of cells (one class per cell on
/// a finite board), the offsets to the cells related to a cell of it.
struct Relation {
    period: Option<(Period, Option<Lattice>)>,
    offsets: BTreeMap<Cell, BTreeSet<Cell>>,
}

impl Relation {
    fn of(paving: &Paving, board: &Board, at: &Position) -> Result<Relation, Failure> {
        let period = match (board, paving.period.is_empty()) {
            (Board::Lattice(lattice), false) => Some((
                lattice_period(Some(*lattice), &paving.period, board.dimension())?,
                Some(*lattice),
            )),
            (Board::Tiling(_), false) => Some((
                lattice_period(None, &paving.period, board.dimension())?,
                None,
            )),
            (Board::Lattice(_) | Board::Tiling(_), true) => {
                return fail(BreakerFailure::NoPeriod);
            }
            (_, false) => return fail(BreakerFailure::PeriodOnFiniteBoard),
            (_, true) => None,
        };
        let mut relation = Relation {
            period,
            offsets: BTreeMap::new(),
        };
        for &(p, q) in &paving.pairs {
            for c in [p, q] {
                if !board.contains(c) {
                    return fail(BreakerFailure::PairOffBoard { cell: c });
                }
            }
            if p == q {
                return fail(BreakerFailure::PairOfOneCell { cell: p });
            }
            // Pairs with a cell the maker or the breaker already owns do
            // not constrain the rest of the game.
            if !at.free(p) || !at.free(q) {
                continue;
            }
            for (from, to) in [(p, q), (q, p)] {
                let class = relation.class(from);
                relation
                    .offsets
                    .entry(class)
                    .or_default()
                    .insert(sub(to, from));
            }
        }
        Ok(relation)
    }

    fn class(&self, c: Cell) -> Cell {
        self.period.as_ref().map_or(c, |(p, _)| p.reduce(c))
    }

    fn related(&self, u: Cell, w: Cell) -> bool {
        self.offsets
            .get(&self.class(u))
            .is_some_and(|o| o.contains(&sub(w, u)))
    }

    fn degree_at_most(&self, b: usize) -> Result<(), Failure> {
        match self.offsets.iter().find(|(_, o)| o.len() > b) {
            Some((&cell, o)) => fail(BreakerFailure::Degree {
                cell,
                partners: o.iter().map(|&d| add(cell, d)).collect(),
            }),
            None => Ok(()),
        }
    }

    /// The translations that, applied to one placement per orientation,
    /// give every placement modulo the period (on a lattice: one per class
    /// of translations; on a finite board the placements are all there).
    fn shifts(&self) -> Vec<Cell> {
        match &self.period {
            Some((period, Some(lattice))) => period.translations(*lattice),
            // Every cell of a tiling's box is a translation (z = 0).
            Some((period, None)) => period.representatives(),
            None => vec![[0, 0, 0]],
        }
    }
}
