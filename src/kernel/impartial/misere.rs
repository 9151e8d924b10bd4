//! Rule I8: misère outcomes and Grundy values of grid games from an answer
//! file (the format of docs/language.md, "Answer files", misère rulesets).
//!
//! Misère values do not add, so a position here is the whole sum: its
//! components with a move, each canonical, sorted. Nothing is folded into a
//! heap and equal components do not cancel. The misère Grundy value g-(X)
//! is 1 when X has no move and otherwise the mex of its options' values.
//!
//! A record states one fact about a position, checked against the facts
//! admitted before it only (so a cycle cannot be written down):
//! - `E v` (g- = v): for each m < v an option shown to have value m, and for
//!   every option a reason it does not have value v;
//! - `H v` (g- != v): an option shown to have value v;
//! - `U v` (g- <= v): for every option a reason it does not have value v
//!   (v is missing among the options' values, so the mex is at most v).
//!
//! A reason that option Y does not have value v is either a fact already
//! admitted about Y (a value other than v, v excluded, or a bound below v),
//! or an option of Y shown to have value v. `E 0` is the misère P record:
//! every option has an option of value 0.
//!
//! [`verify`] checks in two passes as rule I7 does: the first states what
//! every record says (each fact with its record), the second checks each
//! record on two threads against the facts of the records before it only.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): values stay
// below MAX_HEAP (the reader's limit), option numbers below MAX_MOVES per
// component, record numbers below 2^32.
#![allow(clippy::arithmetic_side_effects)]

use super::Game;
use super::answers::{
    Answers, Failure, Reader, WORKERS, as_sum, check_in_turns, header_mismatch, moves_by_component,
    nth_move, read_all, ruleset_of_header,
};
use super::grid::{Grid, GridRules};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use std::sync::Arc;

/// The ruleset byte of a misère answer file is this plus the normal one
/// (4 Cram, 5 Domino Juvavum, 6 Juvavum).
pub const MISERE_RULESET: u8 = 4;

/// A position in normal form: canonical components with a move, sorted.
pub type Position = Vec<Grid>;

/// One record of a misère answer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// g- = value: `answers` holds first one option number per smaller value,
    /// then one reason per option (0: an admitted fact; 1 + k: the option's
    /// option k has the value).
    Equals {
        position: Position,
        value: u32,
        answers: Vec<u64>,
    },
    /// g- != value: this option has the value.
    Has {
        position: Position,
        value: u32,
        option: u64,
    },
    /// g- <= value: one reason per option that it does not have the value.
    AtMost {
        position: Position,
        value: u32,
        reasons: Vec<u64>,
    },
}

impl Record {
    /// The position as written and the value the record is about.
    fn written(&self) -> (&Position, u32) {
        match self {
            Record::Equals {
                position, value, ..
            }
            | Record::Has {
                position, value, ..
            }
            | Record::AtMost {
                position, value, ..
            } => (position, *value),
        }
    }
}

/// What the records say about one position: each fact with the record
/// that states it, so that a check can use only the facts of the records
/// before its own.
#[derive(Clone, Debug, Default)]
struct Known {
    /// The value the first `E` record states.
    exact: Option<(u32, u32)>,
    /// The bounds `U` records state, each tighter than and after the ones
    /// before it (so the last one a check may use is the tightest).
    at_most: Vec<(u32, u32)>,
    /// The values excluded by `H` records (rare: a file proving a value
    /// needs none), each with its record.
    excluded: Vec<(u32, u32)>,
}

impl Known {
    /// The exact value, if a record before `horizon` states it.
    fn exact_before(&self, horizon: u32) -> Option<(u32, u32)> {
        self.exact.filter(|&(_, record)| record < horizon)
    }

    /// A record before `horizon` showing g- != value, if one does.
    fn differs_by(&self, value: u32, horizon: u32) -> Option<u32> {
        let before = |&&(_, record): &&(u32, u32)| record < horizon;
        match (
            self.exact_before(horizon),
            self.at_most.iter().take_while(before).last(),
        ) {
            (Some((e, record)), _) if e != value => Some(record),
            (_, Some(&(b, record))) if value > b => Some(record),
            _ => self
                .excluded
                .iter()
                .filter(before)
                .find(|&&(v, _)| v == value)
                .map(|&(_, record)| record),
        }
    }

    /// Enters what `record` (number `number`) states, unless an earlier
    /// record stated as much.
    fn state(&mut self, record: &Record, number: u32) {
        match *record {
            Record::Equals { value, .. } => {
                self.exact.get_or_insert((value, number));
            }
            Record::Has { value, .. } => {
                if !self.excluded.iter().any(|&(v, _)| v == value) {
                    self.excluded.push((value, number));
                }
            }
            Record::AtMost { value, .. } => {
                if self.at_most.last().is_none_or(|&(b, _)| value < b) {
                    self.at_most.push((value, number));
                }
            }
        }
    }
}

/// The facts admitted so far.
pub struct Ledger {
    rules: GridRules,
    /// What the records state, shared with the workers of [`verify`].
    facts: Arc<FastMap<Position, Known>>,
    /// Only facts of records numbered below this one are used.
    horizon: u32,
    admitted: u32,
    /// The search budget (ticks per option, entries per fact).
    pub budget: Budget,
}

impl Ledger {
    /// An empty ledger for positions of `rules`.
    pub fn new(rules: GridRules, budget: Budget) -> Ledger {
        Ledger {
            rules,
            facts: Arc::default(),
            horizon: u32::MAX,
            admitted: 0,
            budget,
        }
    }

    /// Records admitted so far.
    pub fn admitted(&self) -> u32 {
        self.admitted
    }

    /// The normal form of the sum of `grids` (grids of the ledger's rules).
    pub fn normalise(&self, grids: &[Grid]) -> Position {
        let mut parts = Vec::new();
        for grid in grids {
            grid.components_into(self.rules, &mut parts);
        }
        parts.sort_unstable();
        parts
    }

    /// Whether the admitted facts show g-(position) = value (a position
    /// without moves has value 1).
    pub fn equals(&self, position: &Position, value: u32) -> bool {
        if position.is_empty() {
            return value == 1;
        }
        self.facts.get(position).is_some_and(|k| {
            k.exact_before(self.horizon)
                .is_some_and(|(e, _)| e == value)
        })
    }

    /// Whether the admitted facts show g-(position) != value.
    pub fn differs(&self, position: &Position, value: u32) -> bool {
        if position.is_empty() {
            return value != 1;
        }
        self.facts
            .get(position)
            .is_some_and(|k| k.differs_by(value, self.horizon).is_some())
    }

    /// The record that shows what `wanted` denies of `position` (0: none,
    /// or the position has no move).
    pub fn refuting_record(&self, position: &Position, wanted: Wanted) -> u32 {
        let Some(known) = self.facts.get(position) else {
            return 0;
        };
        match wanted {
            Wanted::Equals(v) => known.differs_by(v, self.horizon).unwrap_or(0),
            Wanted::Differs(_) => known
                .exact_before(self.horizon)
                .map_or(0, |(_, record)| record),
        }
    }

    /// The normal forms of every option of `position`, in option order:
    /// the moves of each component in the kernel's move order, component
    /// after component.
    pub fn options(&mut self, position: &Position) -> Result<Vec<Position>, Exhausted> {
        let moves = moves_by_component(position, self.rules, &mut self.budget)?;
        self.options_with(position, &moves)
    }

    /// As [`Ledger::options`], with the moves of each component listed already.
    fn options_with(
        &mut self,
        position: &Position,
        moves: &[Vec<u64>],
    ) -> Result<Vec<Position>, Exhausted> {
        let mut out = Vec::new();
        self.options_until(position, moves, &mut |_, option| {
            out.push(option.clone());
            Ok(false)
        })?;
        Ok(out)
    }

    /// Passes the normal forms of the options of `position` (whose moves
    /// are listed per component) to `stop` in option order, until it
    /// returns true; the number of that option. Every option is built in
    /// one buffer, so that checking a record allocates per record, not per
    /// option.
    fn options_until(
        &mut self,
        position: &Position,
        moves: &[Vec<u64>],
        stop: &mut impl FnMut(&mut Ledger, &Position) -> Result<bool, Exhausted>,
    ) -> Result<Option<usize>, Exhausted> {
        let mut option = Vec::with_capacity(position.len() + 2);
        let mut index = 0;
        for (part, cells_of_part) in moves.iter().enumerate() {
            for &cells in cells_of_part {
                self.budget.expand(self.facts.len())?;
                self.fill_into(position, part, cells, &mut option);
                if stop(self, &option)? {
                    return Ok(Some(index));
                }
                index += 1;
            }
        }
        Ok(None)
    }

    /// The normal form of option `index` of `position`, if it has one.
    pub fn option(
        &mut self,
        position: &Position,
        index: u64,
    ) -> Result<Option<Position>, Exhausted> {
        let mut out = Vec::new();
        Ok(self.option_into(position, index, &mut out)?.then_some(out))
    }

    /// As [`Ledger::option`], into `out`; whether the option exists.
    fn option_into(
        &mut self,
        position: &Position,
        index: u64,
        out: &mut Position,
    ) -> Result<bool, Exhausted> {
        self.budget.expand(self.facts.len())?;
        let found = nth_move(position, index, self.rules, &mut self.budget)?;
        if let Some((part, cells)) = found {
            self.fill_into(position, part, cells, out);
        }
        Ok(found.is_some())
    }

    /// Writes to `out` the normal form after filling `cells` in component
    /// `part` of `position`.
    fn fill_into(&self, position: &Position, part: usize, cells: u64, out: &mut Position) {
        out.clear();
        out.extend(
            position
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != part)
                .map(|(_, &g)| g),
        );
        let filled = position[part];
        filled
            .with(filled.free & !cells)
            .components_into(self.rules, out);
        out.sort_unstable();
    }

    /// Whether `reason` shows that `option` does not have value `value`
    /// (`grandchild`: a buffer for the option's option it names).
    fn shows_differs(
        &mut self,
        option: &Position,
        value: u32,
        reason: u64,
        grandchild: &mut Position,
    ) -> Result<bool, Exhausted> {
        Ok(match reason.checked_sub(1) {
            None => self.differs(option, value),
            Some(k) => self.option_into(option, k, grandchild)? && self.equals(grandchild, value),
        })
    }

    /// Checks `record` against the facts admitted so far and admits it;
    /// returns the position it is about.
    pub fn admit(&mut self, record: &Record) -> Result<Result<Position, Failure>, Exhausted> {
        let position = self.normalise(record.written().0);
        if let Err(failure) = self.verify_record(record, &position, self.admitted + 1)? {
            return Ok(Err(failure));
        }
        self.state(record, &position)?;
        Ok(Ok(position))
    }

    /// Normalises `record`'s position and states what it says without
    /// checking it: the first pass of [`verify`].
    fn register(&mut self, record: &Record) -> Result<Position, Exhausted> {
        let position = self.normalise(record.written().0);
        self.state(record, &position)?;
        Ok(position)
    }

    /// Counts `record` (with the normal form `position`) as admitted and
    /// enters what it states.
    fn state(&mut self, record: &Record, position: &Position) -> Result<(), Exhausted> {
        self.admitted += 1;
        if !position.is_empty() {
            let facts = Arc::make_mut(&mut self.facts);
            let known = facts.entry(position.clone()).or_default();
            known.state(record, self.admitted);
            self.budget.hold(facts.len())?;
        }
        Ok(())
    }

    /// Checks record `number` (with the normal form `position`) against
    /// the facts of the records before it.
    fn verify_record(
        &mut self,
        record: &Record,
        position: &Position,
        number: u32,
    ) -> Result<Result<(), Failure>, Exhausted> {
        if position.is_empty() {
            return Ok(Err(Failure::Terminal { record: number }));
        }
        self.horizon = number;
        let value = record.written().1;
        let verdict = match record {
            Record::Equals { answers, .. } => self.check_equals(position, value, answers, number),
            Record::Has { option, .. } => match self.option(position, *option) {
                Ok(None) => Ok(Err(Failure::NotAMove { record: number })),
                Ok(Some(child)) if self.equals(&child, value) => Ok(Ok(())),
                Ok(Some(_)) => Ok(Err(Failure::WrongAnswer { record: number })),
                Err(e) => Err(e),
            },
            Record::AtMost { reasons, .. } => self.check_reasons(position, value, reasons, number),
        };
        self.horizon = u32::MAX;
        verdict
    }

    /// A ledger that reads this one's facts (and adds none) with a budget
    /// of its own, for one worker thread of [`verify`].
    fn worker(&self) -> Ledger {
        Ledger {
            rules: self.rules,
            facts: Arc::clone(&self.facts),
            horizon: u32::MAX,
            admitted: self.admitted,
            budget: self.budget.worker(),
        }
    }

    /// An `E value` record: an option of each smaller value, then a reason
    /// per option.
    fn check_equals(
        &mut self,
        position: &Position,
        value: u32,
        answers: &[u64],
        record: u32,
    ) -> Result<Result<(), Failure>, Exhausted> {
        let lower = value as usize;
        if answers.len() < lower {
            let moves = moves_by_component(position, self.rules, &mut self.budget)?;
            let options = moves.iter().map(Vec::len).sum();
            return Ok(Err(Failure::AnswerCount { record, options }));
        }
        for (m, &index) in answers[..lower].iter().enumerate() {
            match self.option(position, index)? {
                None => return Ok(Err(Failure::NotAMove { record })),
                Some(child) if self.equals(&child, m as u32) => {}
                Some(_) => {
                    return Ok(Err(Failure::MissingValue {
                        record,
                        value: m as u32,
                    }));
                }
            }
        }
        self.check_reasons(position, value, &answers[lower..], record)
    }

    /// One reason per option of `position` that it does not have `value`.
    fn check_reasons(
        &mut self,
        position: &Position,
        value: u32,
        reasons: &[u64],
        record: u32,
    ) -> Result<Result<(), Failure>, Exhausted> {
        // Counted before any is built: a file of a few kilobytes can name
        // positions with a million options.
        let moves = moves_by_component(position, self.rules, &mut self.budget)?;
        let count = moves.iter().map(Vec::len).sum();
        if count != reasons.len() {
            return Ok(Err(Failure::AnswerCount {
                record,
                options: count,
            }));
        }
        // The option's named option, in one buffer for every option.
        let mut grandchild = Vec::new();
        let mut next = reasons.iter();
        let unshown = self.options_until(position, &moves, &mut |ledger, child| {
            ledger.budget.tick()?;
            // As many reasons as options: counted above.
            let reason = next.next().copied().unwrap_or(0);
            Ok(!ledger.shows_differs(child, value, reason, &mut grandchild)?)
        })?;
        Ok(match unshown {
            Some(option) => Err(Failure::NotShownDifferent {
                record,
                option,
                value,
            }),
            None => Ok(()),
        })
    }
}

/// The grids of `game` when it is a sum of grids of `rules` alone: misère
/// values do not add, so a nim heap cannot be folded in as in I7.
pub fn grids_of(game: &Game, rules: GridRules) -> Option<Vec<Grid>> {
    if game.parts().iter().any(|p| matches!(p, Game::Nim(_))) {
        return None;
    }
    as_sum(game, rules).map(|(grids, _)| grids)
}

/// The grid rules of a misère answer file's header.
pub fn rules_of_header(bytes: &[u8]) -> Result<GridRules, Failure> {
    match ruleset_of_header(bytes)? {
        4 => Ok(GridRules::Cram),
        5 => Ok(GridRules::DominoJuvavum),
        6 => Ok(GridRules::Juvavum),
        _ => Err(Failure::NotASum),
    }
}

/// The next misère record of `reader`, `None` at the end of the file.
pub fn next_record(reader: &mut Reader) -> Option<Result<Record, Failure>> {
    let offset = reader.offset();
    Some(reader.next_raw()?.and_then(|raw| {
        let value = raw.position.heap;
        let position = raw.position.parts;
        match (raw.tag, raw.answers) {
            (b'E', Answers::Replies(answers)) => Ok(Record::Equals {
                position,
                value,
                answers,
            }),
            (b'H', Answers::One(option)) => Ok(Record::Has {
                position,
                value,
                option,
            }),
            (b'U', Answers::Replies(reasons)) => Ok(Record::AtMost {
                position,
                value,
                reasons,
            }),
            _ => Err(Failure::Malformed {
                offset,
                what: "a record that is not E, H or U",
            }),
        }
    }))
}

/// What a claim asks of the root's misère value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// g- = value.
    Equals(u32),
    /// g- != value (misère outcome N: value 0).
    Differs(u32),
}

/// What a misère answer file shows about a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The claim holds; the file holds this many records.
    Holds { records: u32 },
    /// The file shows the opposite of what is wanted, in this record.
    Opposite { record: u32 },
    /// The file does not establish the claim.
    Fails(Failure),
}

/// Checks every record of `bytes` and reads off whether the sum of
/// `grids` is as `wanted`. The first failing record in file order ends the
/// check. Two passes, as in rule I7 (`answers::verify`): the first reads
/// and normalises every record and states what it says, the second checks
/// each record, on [`WORKERS`] threads, against the facts of the records
/// before it only.
pub fn verify(
    rules: GridRules,
    grids: &[Grid],
    wanted: Wanted,
    bytes: &[u8],
    budget: Budget,
) -> (Result<Finding, Exhausted>, Budget) {
    let mut ledger = Ledger::new(rules, budget);
    let finding = verify_in(&mut ledger, grids, wanted, bytes);
    (finding, ledger.budget)
}

fn verify_in(
    ledger: &mut Ledger,
    grids: &[Grid],
    wanted: Wanted,
    bytes: &[u8],
) -> Result<Finding, Exhausted> {
    if let Some(failure) = header_mismatch(rules_of_header(bytes), ledger.rules) {
        return Ok(Finding::Fails(failure));
    }
    let mut reader = Reader::new(bytes);
    let (records, unreadable) = read_all(|| next_record(&mut reader), |r| ledger.register(r))?;
    let mut workers: Vec<Ledger> = (0..WORKERS).map(|_| ledger.worker()).collect();
    let stop = check_in_turns(
        &mut workers,
        &records,
        |worker, (record, position), number| worker.verify_record(record, position, number),
    );
    for worker in &workers {
        ledger.budget.absorb(&worker.budget);
    }
    if let Some((_, stop)) = stop.into_iter().chain(unreadable).min_by_key(|s| s.0) {
        return stop.map(Finding::Fails);
    }
    let root = ledger.normalise(grids);
    let (holds, opposite) = match wanted {
        Wanted::Equals(v) => (ledger.equals(&root, v), ledger.differs(&root, v)),
        Wanted::Differs(v) => (ledger.differs(&root, v), ledger.equals(&root, v)),
    };
    let record = ledger.refuting_record(&root, wanted);
    Ok(if holds {
        Finding::Holds {
            records: ledger.admitted(),
        }
    } else if opposite {
        Finding::Opposite { record }
    } else {
        Finding::Fails(Failure::Unestablished)
    })
}
