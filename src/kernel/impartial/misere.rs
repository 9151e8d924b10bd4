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

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): values stay
// below MAX_HEAP (the reader's limit), option numbers below MAX_MOVES per
// component, record numbers below 2^32.
#![allow(clippy::arithmetic_side_effects)]

use super::Game;
use super::answers::{
    Answers, Failure, Reader, as_sum, header_mismatch, moves_by_component, nth_move,
    ruleset_of_header,
};
use super::grid::{Grid, GridRules};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;

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

/// What the admitted records say about one position: each fact with the
/// record that established it.
#[derive(Clone, Debug, Default)]
struct Known {
    exact: Option<(u32, u32)>,
    at_most: Option<(u32, u32)>,
    /// The values excluded by `H` records (rare: a file proving a value
    /// needs none), each with its record.
    excluded: Vec<(u32, u32)>,
}

impl Known {
    /// The record showing g- != value, if one does.
    fn differs_by(&self, value: u32) -> Option<u32> {
        match (self.exact, self.at_most) {
            (Some((e, record)), _) if e != value => Some(record),
            (_, Some((b, record))) if value > b => Some(record),
            _ => self
                .excluded
                .iter()
                .find(|&&(v, _)| v == value)
                .map(|&(_, record)| record),
        }
    }
}

/// The facts admitted so far.
pub struct Ledger {
    rules: GridRules,
    facts: FastMap<Position, Known>,
    admitted: u32,
    /// The search budget (ticks per option, entries per fact).
    pub budget: Budget,
}

impl Ledger {
    /// An empty ledger for positions of `rules`.
    pub fn new(rules: GridRules, budget: Budget) -> Ledger {
        Ledger {
            rules,
            facts: FastMap::default(),
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
        self.facts
            .get(position)
            .is_some_and(|k| k.exact.is_some_and(|(e, _)| e == value))
    }

    /// Whether the admitted facts show g-(position) != value.
    pub fn differs(&self, position: &Position, value: u32) -> bool {
        if position.is_empty() {
            return value != 1;
        }
        self.facts
            .get(position)
            .is_some_and(|k| k.differs_by(value).is_some())
    }

    /// The record that shows what `wanted` denies of `position` (0: none,
    /// or the position has no move).
    pub fn refuting_record(&self, position: &Position, wanted: Wanted) -> u32 {
        let Some(known) = self.facts.get(position) else {
            return 0;
        };
        match wanted {
            Wanted::Equals(v) => known.differs_by(v).unwrap_or(0),
            Wanted::Differs(_) => known.exact.map_or(0, |(_, record)| record),
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
        self.admitted += 1;
        let number = self.admitted;
        let (written, value) = match record {
            Record::Equals {
                position, value, ..
            }
            | Record::Has {
                position, value, ..
            }
            | Record::AtMost {
                position, value, ..
            } => (position, *value),
        };
        let position = self.normalise(written);
        if position.is_empty() {
            return Ok(Err(Failure::Terminal { record: number }));
        }
        let verdict = match record {
            Record::Equals { answers, .. } => {
                self.check_equals(&position, value, answers, number)?
            }
            Record::Has { option, .. } => match self.option(&position, *option)? {
                None => Err(Failure::NotAMove { record: number }),
                Some(child) if self.equals(&child, value) => Ok(()),
                Some(_) => Err(Failure::WrongAnswer { record: number }),
            },
            Record::AtMost { reasons, .. } => {
                self.check_reasons(&position, value, reasons, number)?
            }
        };
        if let Err(failure) = verdict {
            return Ok(Err(failure));
        }
        let known = self.facts.entry(position.clone()).or_default();
        match record {
            Record::Equals { .. } => known.exact = Some((value, number)),
            Record::Has { .. } => {
                if !known.excluded.iter().any(|&(v, _)| v == value) {
                    known.excluded.push((value, number));
                }
            }
            Record::AtMost { .. } => {
                if known.at_most.is_none_or(|(b, _)| value < b) {
                    known.at_most = Some((value, number));
                }
            }
        }
        self.budget.hold(self.facts.len())?;
        Ok(Ok(position))
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

/// Admits every record of `bytes` and reads off whether the sum of `grids`
/// is as `wanted`. The first failing record ends the check.
pub fn verify(
    rules: GridRules,
    grids: &[Grid],
    wanted: Wanted,
    bytes: &[u8],
    budget: Budget,
) -> (Result<Finding, Exhausted>, Budget) {
    let mut ledger = Ledger::new(rules, budget);
    let finding = admit_all(&mut ledger, rules, grids, wanted, bytes);
    (finding, ledger.budget)
}

fn admit_all(
    ledger: &mut Ledger,
    rules: GridRules,
    grids: &[Grid],
    wanted: Wanted,
    bytes: &[u8],
) -> Result<Finding, Exhausted> {
    if let Some(failure) = header_mismatch(rules_of_header(bytes), rules) {
        return Ok(Finding::Fails(failure));
    }
    let mut reader = Reader::new(bytes);
    while let Some(record) = next_record(&mut reader) {
        let record = match record {
            Ok(r) => r,
            Err(failure) => return Ok(Finding::Fails(failure)),
        };
        if let Err(failure) = ledger.admit(&record)? {
            return Ok(Finding::Fails(failure));
        }
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
