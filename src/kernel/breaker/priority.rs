//! Priority strategies, plain and history dependent (SPEC 3.4; rule B5 of
//! docs/soundness.md).
//!
//! The breaker answers each maker mark x of a turn (taken in a declared
//! order of coordinates) by the first rule of x's class whose guard holds:
//! every guard cell, relative to x, is maker-marked once the maker's turn is
//! complete. A rule holds one priority list per breaker mark: round robin
//! over the turn's marks, her t-th mark for x goes to the first unmarked
//! cell of the rule's t-th list (none if every cell of it is marked);
//! marks left over go anywhere.
//!
//! Key decision: the kernel never plays the strategy on a board. For each
//! placement (modulo the classes' period) it searches every order in which
//! the maker can mark the *relevant* cells (the goal cells and the guard
//! cells of their rules), at most a of them per turn, and tracks only what
//! it knows for certain: which relevant cells the maker owns (exactly) and
//! a set of cells known to be marked (a subset of the truth). A branch dies
//! only when a breaker mark certainly lands on an unmarked goal cell. The
//! approximations (responses to unknown marks ignored, unknown cells
//! assumed unmarked, unseen marks of the turn placed first in the order)
//! all favour the maker, so a search that finds no completing order proves
//! the strategy wins; the argument is in docs/soundness.md.

// The search below counts with indices of at most 64 relevant cells (256
// tracked), lists of rules and marks per turn of at most MAX_MARKS (checked
// in Game::of), and cells within bounds::MAX_COORDINATE: its arithmetic is
// on these bounded quantities (see kernel/mod.rs).
#![allow(clippy::arithmetic_side_effects)]

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::Budget;
use crate::kernel::game::{GameClaim, Side, precheck};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::{BreakerFailure, Requirement, Rule, Verdict, ordinal};

/// The most marks per turn, of either player, the search represents.
const MAX_MARKS: usize = 64;

use super::period::Period;
use super::{Failure, add, fail, lattice_period};

/// A priority strategy as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Priority {
    /// Translations that keep every cell's class; empty for the lattice's
    /// own translations (one class per cell orientation).
    pub period: Vec<Cell>,
    /// The order of a turn's marks: coordinates compared in this order,
    /// then the axes not named, ascending (empty: x, then y, then z).
    pub order: Vec<OrderKey>,
    /// The rules of each class, named by one of its cells.
    pub classes: Vec<ClassRules>,
}

/// One coordinate of the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderKey {
    /// 0, 1 or 2 for x, y, z.
    pub axis: usize,
    /// Larger values first.
    pub descending: bool,
}

/// The rules for the maker's marks on the cells of one class, first
/// applicable rule first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRules {
    pub class: Cell,
    pub rules: Vec<PriorityRule>,
}

/// A rule: it applies when every guard cell is maker-marked; then its t-th
/// list gives the breaker's t-th mark for this maker mark. Cells are
/// offsets from the maker's mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriorityRule {
    pub guard: Vec<Cell>,
    pub lists: Vec<Vec<Cell>>,
}

/// Checks a loser claim against a priority strategy (rule B5). The
/// verdict's value is the number of placements searched.
pub fn check(claim: &GameClaim, strategy: &Priority, mut budget: Budget) -> Verdict {
    let rule = Rule::Priority;
    let dimension = claim.board.dimension();
    // Whether priority strategies apply at all comes first, as a type
    // check would.
    if let Err(requirement) = applicability(claim) {
        return Failure::NotApplicable(requirement).verdict(rule, dimension);
    }
    if let Some(verdict) = precheck(claim, rule, &mut budget) {
        return verdict;
    }
    let searched = Game::of(claim, strategy, &mut budget).and_then(|game| {
        for placement in &game.placements {
            if let Some(turns) = game.placement(placement, &mut budget)? {
                return fail(BreakerFailure::MakerOrder {
                    placement: placement.clone(),
                    turns,
                });
            }
        }
        Ok(game.placements.len())
    });
    match searched {
        Ok(placements) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: placements as u64,
            theorem: Theorem::new(Established::Game {
                claim: claim.clone(),
                turns: None,
            }),
        },
        Err(failure) => failure.verdict(rule, dimension),
    }
}

/// What priority strategies need of the statement: an (a,b) loser claim
/// on a lattice or a region of one.
fn applicability(claim: &GameClaim) -> Result<(), Requirement> {
    if claim.side != Side::Loser {
        return Err(Requirement::LoserClaim);
    }
    if claim.a == 0 || claim.completing() != claim.a {
        return Err(Requirement::PlainGame);
    }
    if claim.board.lattice().is_none() {
        return Err(Requirement::LatticeOrRegion);
    }
    Ok(())
}

/// For producers searching strategies: how many placements have an order
/// of maker marks the search cannot exclude (`None` if the strategy is
/// malformed, too large or the budget runs out).
pub fn open_placements(
    claim: &GameClaim,
    strategy: &Priority,
    budget: &mut Budget,
) -> Option<usize> {
    let game = Game::of(claim, strategy, budget).ok()?;
    let mut open: usize = 0;
    for placement in &game.placements {
        open = open.saturating_add(usize::from(
            game.placement(placement, budget).ok()?.is_some(),
        ));
    }
    Some(open)
}

/// The lattice's own translations: those keeping every cell's orientation.
pub fn lattice_translations(lattice: Lattice) -> Vec<Cell> {
    match lattice {
        Lattice::Square | Lattice::Hexagon => vec![[1, 0, 0], [0, 1, 0]],
        Lattice::Triangle => vec![[2, 0, 0], [1, 1, 0]],
        Lattice::Cubic => vec![[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    }
}

impl Priority {
    /// The generators of the classes' period on `lattice`: as written, or
    /// the lattice's own translations.
    pub fn generators(&self, lattice: Lattice) -> Vec<Cell> {
        if self.period.is_empty() {
            lattice_translations(lattice)
        } else {
            self.period.clone()
        }
    }
}

/// The strategy's rules by class representative, with the translations
/// that give every placement modulo the period.
struct Classes<'s> {
    period: Period,
    rules: HashMap<Cell, &'s [PriorityRule]>,
    /// The most lists any rule has (the most breaker marks any maker mark
    /// may draw in one turn).
    most_lists: usize,
    shifts: Vec<Cell>,
}

impl<'s> Classes<'s> {
    fn of(strategy: &'s Priority, lattice: Lattice, board: &Board) -> Result<Self, Failure> {
        let period = lattice_period(
            Some(lattice),
            &strategy.generators(lattice),
            board.dimension(),
        )?;
        let mut rules = HashMap::new();
        for class in &strategy.classes {
            if rules
                .insert(period.reduce(class.class), &class.rules[..])
                .is_some()
            {
                return fail(BreakerFailure::ClassTwice { class: class.class });
            }
            dead_rule(class)?;
        }
        let shifts = match board {
            Board::Lattice(_) => period.translations(lattice),
            _ => vec![[0, 0, 0]],
        };
        let most_lists = strategy
            .classes
            .iter()
            .flat_map(|c| &c.rules)
            .map(|r| r.lists.len())
            .max()
            .unwrap_or(0);
        Ok(Classes {
            period,
            rules,
            most_lists,
            shifts,
        })
    }

    fn rules(&self, cell: Cell) -> &'s [PriorityRule] {
        self.rules
            .get(&self.period.reduce(cell))
            .copied()
            .unwrap_or(&[])
    }
}

/// The written order keys followed by the axes they leave out, ascending,
/// so that distinct cells never tie (a tie would leave the breaker's order
/// undefined).
pub fn total_order(written: &[OrderKey]) -> Vec<OrderKey> {
    let mut order = written.to_vec();
    for axis in 0..3 {
        if !written.iter().any(|k| k.axis == axis) {
            order.push(OrderKey {
                axis,
                descending: false,
            });
        }
    }
    order
}

/// A rule that can never apply: an earlier rule's guard is part of its
/// guard, so whenever its guard holds the earlier rule applies first.
fn dead_rule(class: &ClassRules) -> Result<(), Failure> {
    for (later, rule) in class.rules.iter().enumerate() {
        let guard: BTreeSet<Cell> = rule.guard.iter().copied().collect();
        if let Some(earlier) = class.rules[..later]
            .iter()
            .position(|e| e.guard.iter().all(|c| guard.contains(c)))
        {
            return fail(BreakerFailure::RuleNeverApplies {
                class: class.class,
                rule: ordinal(later),
                shadowed_by: ordinal(earlier),
            });
        }
    }
    Ok(())
}

/// The most cells (relevant and not) one placement's search tracks.
const MAX_CELLS: usize = 256;
/// The most relevant cells (goal and guard cells) of one placement.
const MAX_RELEVANT: usize = 64;

type Known = [u64; MAX_CELLS / 64];

fn has(set: &Known, i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

fn put(set: &mut Known, i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// Where a list entry points: a tracked cell, or off a finite board.
#[derive(Clone, Copy)]
enum Target {
    Cell(usize),
    OffBoard,
}

/// A rule compiled for one relevant cell of one placement.
struct Compiled {
    /// The guard cells among the relevant ones.
    guard: u64,
    /// A guard cell is not relevant: whether it is maker-marked is unknown.
    guard_unknown: bool,
    /// A guard cell is off the board: the rule never applies.
    never: bool,
    lists: Vec<Vec<Target>>,
}

/// A claim and a strategy, ready to search: the placements modulo the
/// period and everything a search needs.
struct Game<'g> {
    board: &'g Board,
    a: usize,
    b: usize,
    order: Vec<OrderKey>,
    classes: Classes<'g>,
    placements: BTreeSet<Vec<Cell>>,
}

impl<'g> Game<'g> {
    fn of(
        claim: &'g GameClaim,
        strategy: &'g Priority,
        budget: &mut Budget,
    ) -> Result<Self, Failure> {
        applicability(claim).map_err(Failure::NotApplicable)?;
        let Some(lattice) = claim.board.lattice() else {
            return Err(Failure::NotApplicable(Requirement::LatticeOrRegion));
        };
        // The search counts marks in u64 masks and small sums of a, b and
        // list lengths; games beyond 64 marks per turn are not decided.
        if claim.a > MAX_MARKS || claim.b > MAX_MARKS {
            return Err(Failure::TooLarge);
        }
        let classes = Classes::of(strategy, lattice, &claim.board)?;
        let mut placements = BTreeSet::new();
        let placed = shape::placements(&claim.board, &claim.goal, budget);
        for placement in placed.map_err(Failure::Budget)? {
            for &shift in &classes.shifts {
                let mut placed: Vec<Cell> = placement.iter().map(|&c| add(c, shift)).collect();
                placed.sort_unstable();
                placements.insert(placed);
            }
        }
        let order = total_order(&strategy.order);
        Ok(Game {
            board: &claim.board,
            a: claim.a,
            b: claim.b,
            order,
            classes,
            placements,
        })
    }

    /// Searches one placement; `Some(turns)` is an order of maker marks
    /// that completes it.
    fn placement(
        &self,
        goal: &[Cell],
        budget: &mut Budget,
    ) -> Result<Option<Vec<Vec<Cell>>>, Failure> {
        let mut cells: Vec<Cell> = goal.to_vec();
        let mut index: HashMap<Cell, usize> =
            goal.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        // The guard cells of the goal cells' rules are relevant too.
        for &g in goal {
            for rule in self.classes.rules(g) {
                for &d in &rule.guard {
                    let c = add(g, d);
                    if self.board.contains(c) && !index.contains_key(&c) {
                        index.insert(c, cells.len());
                        cells.push(c);
                    }
                }
            }
        }
        let relevant = cells.len();
        if relevant > MAX_RELEVANT {
            return Err(Failure::TooLarge);
        }
        let mut compiled = Vec::with_capacity(relevant);
        for i in 0..relevant {
            let x = cells[i];
            let mut rules = Vec::new();
            for rule in self.classes.rules(x) {
                let mut c = Compiled {
                    guard: 0,
                    guard_unknown: false,
                    never: false,
                    lists: Vec::new(),
                };
                for &d in &rule.guard {
                    let h = add(x, d);
                    // Only relevant cells are known; `index` also numbers
                    // the list cells met so far, whose owners are not.
                    match index.get(&h) {
                        Some(&j) if j < relevant => c.guard |= 1 << j,
                        _ if self.board.contains(h) => c.guard_unknown = true,
                        _ => c.never = true,
                    }
                }
                for list in &rule.lists {
                    let mut targets = Vec::with_capacity(list.len());
                    for &d in list {
                        let t = add(x, d);
                        if !self.board.contains(t) {
                            targets.push(Target::OffBoard);
                            continue;
                        }
                        let next = cells.len();
                        let j = *index.entry(t).or_insert(next);
                        if j == next {
                            if next >= MAX_CELLS {
                                return Err(Failure::TooLarge);
                            }
                            cells.push(t);
                        }
                        targets.push(Target::Cell(j));
                    }
                    c.lists.push(targets);
                }
                rules.push(c);
            }
            compiled.push(rules);
        }
        let mut ranks: Vec<usize> = (0..relevant).collect();
        ranks.sort_by_key(|&i| {
            self.order
                .iter()
                .map(|k| {
                    let v = cells[i][k.axis];
                    if k.descending { -v } else { v }
                })
                .collect::<Vec<i32>>()
        });
        let mut rank = vec![0; relevant];
        for (r, &i) in ranks.iter().enumerate() {
            rank[i] = r;
        }
        let mut search = Search {
            a: self.a,
            b: self.b,
            most_lists: self.classes.most_lists,
            goal_mask: low_bits(goal.len()),
            relevant_mask: low_bits(relevant),
            goal_len: goal.len(),
            rules: compiled,
            rank,
            visited: HashSet::new(),
            path: Vec::new(),
        };
        let found = search.from(0, [0; MAX_CELLS / 64], budget)?;
        Ok(found.then(|| {
            search
                .path
                .iter()
                .map(|&turn| bits(turn).map(|i| cells[i]).collect())
                .collect()
        }))
    }
}

fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The search over maker orders for one placement. Relevant cells are
/// numbered first (goal cells before guard cells), so a maker set is a
/// `u64`; `known` holds every tracked cell known to be marked by either
/// player (the maker's relevant marks excepted).
struct Search {
    a: usize,
    b: usize,
    most_lists: usize,
    goal_mask: u64,
    relevant_mask: u64,
    goal_len: usize,
    rules: Vec<Vec<Compiled>>,
    rank: Vec<usize>,
    visited: HashSet<(u64, Known)>,
    /// The maker's turns leading to the current state.
    path: Vec<u64>,
}

impl Search {
    /// Whether some order of maker turns from here completes the placement
    /// (left in `path`).
    fn from(&mut self, maker: u64, known: Known, budget: &mut Budget) -> Result<bool, Failure> {
        if !self.visited.insert((maker, known)) {
            return Ok(false);
        }
        budget.expand(self.visited.len())?;
        let free: Vec<usize> = bits(self.relevant_mask & !maker & !known[0]).collect();
        // Every turn: a set of 1 to a free relevant cells, made one at a
        // time (there may be very many), each charged to the budget.
        let mut turns = Turns::new(free.len(), self.a);
        while let Some(chosen) = turns.next() {
            budget.tick()?;
            let turn = chosen.iter().fold(0u64, |t, &k| t | 1 << free[k]);
            let marked = maker | turn;
            self.path.push(turn);
            if marked & self.goal_mask == self.goal_mask {
                return Ok(true);
            }
            if let Some(next) = self.answer(marked, turn, &known, budget)?
                && self.from(marked, next, budget)?
            {
                return Ok(true);
            }
            self.path.pop();
        }
        Ok(false)
    }

    /// What the kernel knows after the breaker answers the maker's `turn`
    /// (`maker` includes it), or `None` if every way she may answer marks
    /// an unmarked goal cell.
    fn answer(
        &self,
        maker: u64,
        turn: u64,
        known: &Known,
        budget: &mut Budget,
    ) -> Result<Option<Known>, Failure> {
        let mut marks: Vec<usize> = bits(turn).collect();
        marks.sort_by_key(|&i| self.rank[i]);
        // Each mark's possible rules; a goal mark's guard cells are all
        // relevant, so it has exactly one.
        let choices: Vec<Vec<Option<usize>>> =
            marks.iter().map(|&i| self.candidates(i, maker)).collect();
        let mut result: Option<Known> = None;
        let mut pick = vec![0; marks.len()];
        loop {
            // The combinations multiply with the turn's marks on guard cells.
            budget.tick()?;
            let chosen: Vec<Option<usize>> =
                pick.iter().zip(&choices).map(|(&p, c)| c[p]).collect();
            if let Some(after) = self.play(&marks, &chosen, maker, known) {
                // Only what holds whichever rule applied is known.
                result = Some(match result {
                    None => after,
                    Some(r) => std::array::from_fn(|w| r[w] & after[w]),
                });
            }
            // Next combination of rules.
            let mut k = 0;
            loop {
                if k == pick.len() {
                    return Ok(result);
                }
                pick[k] += 1;
                if pick[k] < choices[k].len() {
                    break;
                }
                pick[k] = 0;
                k += 1;
            }
        }
    }

    /// The rules that may answer the mark on relevant cell `i` (`None`:
    /// no rule's guard holds).
    fn candidates(&self, i: usize, maker: u64) -> Vec<Option<usize>> {
        let mut out = Vec::new();
        for (r, rule) in self.rules[i].iter().enumerate() {
            if rule.never || rule.guard & !maker != 0 {
                continue;
            }
            out.push(Some(r));
            if !rule.guard_unknown {
                // Its guard certainly holds: no later rule is reached.
                return out;
            }
        }
        out.push(None);
        out
    }

    /// The breaker's marks for the turn's relevant `marks` (in the turn
    /// order) under the `chosen` rules, as far as they are certain; `None`
    /// if one certainly lands on an unmarked goal cell.
    fn play(
        &self,
        marks: &[usize],
        chosen: &[Option<usize>],
        maker: u64,
        known: &Known,
    ) -> Option<Known> {
        let mut known = *known;
        let lists: Vec<&[Vec<Target>]> = marks
            .iter()
            .zip(chosen)
            .map(|(&i, r)| r.map_or(&[][..], |r| &self.rules[i][r].lists[..]))
            .collect();
        let unseen = self.a.saturating_sub(marks.len());
        let rounds = lists.iter().map(|l| l.len()).max().unwrap_or(0);
        for t in 0..rounds {
            for (position, mark_lists) in lists.iter().enumerate() {
                let Some(list) = mark_lists.get(t) else {
                    continue;
                };
                // The most breaker marks that can come before this one:
                // this mark's own t earlier ones, and the unseen marks of
                // the turn first in the order, each with as many lists as
                // any rule has.
                let before = t
                    + unseen * (t + 1).min(self.most_lists)
                    + lists[..position]
                        .iter()
                        .map(|l| (t + 1).min(l.len()))
                        .sum::<usize>()
                    + lists[position + 1..]
                        .iter()
                        .map(|l| t.min(l.len()))
                        .sum::<usize>();
                if before >= self.b {
                    continue;
                }
                for &target in list {
                    let Target::Cell(c) = target else { continue };
                    let maker_owns = c < 64 && maker >> c & 1 == 1;
                    if maker_owns || has(&known, c) {
                        continue;
                    }
                    if c < self.goal_len {
                        return None;
                    }
                    put(&mut known, c);
                    break;
                }
            }
        }
        Some(known)
    }
}

/// The non-empty subsets of `0..n` with at most `most` elements, by size
/// and then lexicographically, one at a time.
struct Turns {
    n: usize,
    most: usize,
    current: Vec<usize>,
}

impl Turns {
    fn new(n: usize, most: usize) -> Turns {
        Turns {
            n,
            most: most.min(n),
            current: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<&[usize]> {
        let k = self.current.len();
        // Advance the rightmost index that can move; else grow the size.
        match (0..k).rev().find(|&i| self.current[i] < self.n - (k - i)) {
            Some(i) => {
                self.current[i] += 1;
                for j in i + 1..k {
                    self.current[j] = self.current[j - 1] + 1;
                }
            }
            None if k < self.most => self.current = (0..=k).collect(),
            None => return None,
        }
        Some(&self.current)
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    #[test]
    fn turns_of_at_most_two_of_three() {
        let mut turns = Turns::new(3, 2);
        let mut got = Vec::new();
        while let Some(t) = turns.next() {
            got.push(t.to_vec());
        }
        let expected: Vec<Vec<usize>> = vec![
            vec![0],
            vec![1],
            vec![2],
            vec![0, 1],
            vec![0, 2],
            vec![1, 2],
        ];
        assert_eq!(got, expected);
        assert!(Turns::new(0, 2).next().is_none());
    }
}
