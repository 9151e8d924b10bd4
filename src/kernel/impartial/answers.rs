//! Rule I7: outcomes and Grundy values of grid games from a file of winning
//! answers (the binary format of docs/language.md, "Answer files").
//!
//! A position here is a sum of grid components of one ruleset plus one nim
//! heap. The file is a sequence of records, each stating one position's
//! outcome: a P record says every option is a first-player win, an N record
//! names one option that is a second-player win. Records are admitted in file
//! order and each may rely only on facts admitted before it, so the facts form
//! a well-founded proof and a cycle cannot be written down. ([`verify`]
//! checks the records on two threads, each against the facts of the
//! records before it, which comes to the same.)
//!
//! Key decision: every position is put in a normal form before it is stored
//! or looked up (canonical components; Cram components won by the second
//! player's mirror strategy dropped; components of at most [`SMALL_CELLS`]
//! cells valued by this kernel's own search, rule I1-I3; components whose
//! value an earlier P record established replaced by that value in the heap;
//! equal components cancelled in pairs). Every step keeps the sum's Grundy
//! value up to the heap's XOR, so a normal form has the outcome of the
//! position (docs/soundness.md, I7). A P record of one component C and heap
//! h establishes that C has value h (C + *h has value 0), which is how a
//! file states component values without trusting them.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): offsets stay
// within the file, heaps below MAX_HEAP, record numbers below 2^32 (a file
// holds fewer than 2^32 records: it is at most 256 MiB).
#![allow(clippy::arithmetic_side_effects)]

use super::Outcome;
use super::grid::{Grid, GridRules};
use super::solver::{Component, Solver};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes of an answer file, as a claim's evidence holds them, with
/// the SHA-256 digest of those bytes that the claim's pin was checked
/// against when the file was read.
///
/// The digest only names the file: its `Debug` form (which the driver
/// hashes into a claim's fingerprint for `--cache`) shows the length and
/// the digest instead of every byte, which cost a tenth of checking a
/// large file. The kernel reads the bytes alone and trusts nothing in the
/// digest.
#[derive(Clone, PartialEq, Eq)]
pub struct FileBytes {
    pub bytes: std::sync::Arc<[u8]>,
    pub sha256: String,
}

impl std::fmt::Debug for FileBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FileBytes({} bytes, sha256 {})",
            self.bytes.len(),
            self.sha256.to_ascii_lowercase()
        )
    }
}

/// The first four bytes of an answer file.
pub const MAGIC: &[u8; 4] = b"GCWA";
/// The format version this kernel reads, by ruleset byte: 3 for Cram
/// (normal 0, misère 4), whose normal form changed with version 3 (twin
/// squares, rule I3b), 2 for the others.
pub fn version_of(ruleset: u8) -> u8 {
    if matches!(ruleset, 0 | 4) { 3 } else { 2 }
}
/// Components with at most this many cells are valued by the kernel's own
/// search instead of by records.
pub const SMALL_CELLS: u32 = 8;
/// The largest heap a record may hold (a P record has one option per smaller heap).
pub const MAX_HEAP: u32 = 1 << 12;
/// The most moves one component may have (Cram: at most 112 on 64 cells).
pub const MAX_MOVES: usize = 1 << 12;

/// A position in normal form: canonical components, sorted, none of them
/// small or of known value, no two equal; and the heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The components.
    pub parts: Vec<Grid>,
    /// The nim heap.
    pub heap: u32,
}

/// One record of an answer file. Options of a normal form are numbered
/// from 0: first the smaller heaps (0, 1, ...), then each component's moves
/// in the kernel's move order, component after component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// Every option of the position is a first-player win; per option, 0 when
    /// that is known already (a lone nonzero heap, or an earlier N record),
    /// otherwise 1 + the number of the option's option that answers it.
    P(Position, Vec<u64>),
    /// The option with this number leads to a second-player win.
    N(Position, u64),
}

impl Record {
    /// The position as written.
    fn position(&self) -> &Position {
        match self {
            Record::P(p, _) | Record::N(p, _) => p,
        }
    }

    /// The outcome the record states.
    fn outcome(&self) -> Outcome {
        match self {
            Record::P(..) => Outcome::P,
            Record::N(..) => Outcome::N,
        }
    }
}

/// Why a file does not establish what it should (records count from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The file does not start with the magic bytes and a known version and ruleset.
    Header,
    /// The file ends inside a record that starts at `offset`.
    Truncated { offset: usize },
    /// A record at `offset` is malformed (`what` says how).
    Malformed { offset: usize, what: &'static str },
    /// A record names an option its position does not have.
    NotAMove { record: u32 },
    /// A P record does not give one answer per option of its normal form.
    AnswerCount { record: u32, options: usize },
    /// A P record's option (numbered from 0) is not shown to be a first-player win.
    Unanswered { record: u32, option: usize },
    /// An N record's answer does not lead to a position an earlier record
    /// established as a second-player win.
    WrongAnswer { record: u32 },
    /// A P record of a position without components and a nonzero heap.
    FalseRecord { record: u32 },
    /// The claim's game is not a sum of grids of the file's ruleset and nim heaps.
    NotASum,
    /// No record establishes the claim's position.
    Unestablished,
    /// A misère record of a position without moves (its value, 1, needs none).
    Terminal { record: u32 },
    /// A misère `E` record's answer for a smaller value does not lead to an
    /// option shown to have that value.
    MissingValue { record: u32, value: u32 },
    /// A misère `E` or `U` record's option (numbered from 0) is not shown to
    /// have a value other than `value`.
    NotShownDifferent {
        record: u32,
        option: usize,
        value: u32,
    },
}

/// The facts admitted so far.
pub struct Ledger {
    rules: GridRules,
    solver: Solver,
    /// What the records state, shared with the workers of [`verify`].
    known: Arc<Known>,
    /// Only facts of records numbered below this one are used.
    horizon: u32,
    /// Records admitted so far.
    admitted: u32,
    parts: Vec<Grid>,
    /// Which ledger this is (no two share one): a producer's function
    /// given the ledger mid-check could swap in another.
    identity: u64,
}

/// The next ledger identity.
static IDENTITIES: AtomicU64 = AtomicU64::new(0);

fn new_identity() -> u64 {
    IDENTITIES.fetch_add(1, Ordering::Relaxed)
}

/// What records state, each fact with the first record that states it.
#[derive(Clone, Default)]
struct Known {
    /// Component values from P records of one component: value and record.
    values: FastMap<Grid, (u32, u32)>,
    /// Outcomes of normal forms: outcome and record.
    facts: FastMap<Position, (Outcome, u32)>,
}

impl Ledger {
    /// An empty ledger for positions of `rules`.
    pub fn new(rules: GridRules, budget: Budget) -> Ledger {
        Ledger {
            rules,
            solver: Solver::new(budget),
            known: Arc::default(),
            horizon: u32::MAX,
            admitted: 0,
            parts: Vec::new(),
            identity: new_identity(),
        }
    }

    /// Entries the ledger holds, as a memory cap counts them: its facts and
    /// values, and its solver's memo tables.
    pub fn entries(&self) -> usize {
        (self.known.facts.len() + self.known.values.len()).saturating_add(self.solver.entries())
    }

    /// Records admitted so far.
    pub fn admitted(&self) -> u32 {
        self.admitted
    }

    /// The normal form of the sum of `grids` (any grids of the ledger's
    /// rules) and a heap; the records whose values were used are pushed to `used`.
    pub fn normalise(
        &mut self,
        grids: &[Grid],
        heap: u32,
        used: &mut Vec<u32>,
    ) -> Result<Position, Exhausted> {
        let mut parts = std::mem::take(&mut self.parts);
        parts.clear();
        for grid in grids {
            grid.components_into(self.rules, &mut parts);
        }
        let mut out = Position {
            parts: Vec::with_capacity(parts.len()),
            heap,
        };
        let folded = parts
            .iter()
            .try_for_each(|&part| self.fold(part, &mut out, used));
        self.parts = parts;
        folded?;
        cancel_pairs(&mut out);
        Ok(out)
    }

    /// Adds one canonical component to a normal form under construction:
    /// dropped when mirrored, its value in the heap when small or known,
    /// otherwise kept.
    fn fold(
        &mut self,
        part: Grid,
        out: &mut Position,
        used: &mut Vec<u32>,
    ) -> Result<(), Exhausted> {
        self.solver.budget.tick()?;
        if self.rules == GridRules::Cram && mirrored_second_player_win(part) {
            return Ok(());
        }
        if part.free.count_ones() <= SMALL_CELLS {
            let component = Component::Grid {
                rules: self.rules,
                grid: part,
            };
            out.heap ^= self.solver.grundy(&component)?;
        } else if let Some(&(value, record)) = self.known.values.get(&part)
            && record < self.horizon
        {
            out.heap ^= value;
            used.push(record);
        } else {
            out.parts.push(part);
        }
        Ok(())
    }

    /// The outcome of a normal form, if known: without components it is
    /// the heap's; otherwise an admitted record's, pushed to `used`.
    pub fn outcome(&self, position: &Position, used: &mut Vec<u32>) -> Option<Outcome> {
        if position.parts.is_empty() {
            return Some(Outcome::of_value(position.heap));
        }
        let &(outcome, record) = self.known.facts.get(position)?;
        if record >= self.horizon {
            return None;
        }
        used.push(record);
        Some(outcome)
    }

    /// The normal forms of every option of `position`, in option order.
    pub fn options(
        &mut self,
        position: &Position,
        used: &mut Vec<u32>,
    ) -> Result<Vec<Position>, Exhausted> {
        let moves = moves_by_component(&position.parts, self.rules, &mut self.solver.budget)?;
        self.options_with(position, &moves, used)
    }

    /// As [`Ledger::options`], with the moves of each component listed already.
    fn options_with(
        &mut self,
        position: &Position,
        moves: &[Vec<u64>],
        used: &mut Vec<u32>,
    ) -> Result<Vec<Position>, Exhausted> {
        let mut out = Vec::new();
        self.options_until_with(position, moves, used, &mut |_, option, _| {
            out.push(option.clone());
            Ok::<_, Exhausted>(false)
        })?;
        Ok(out)
    }

    /// Passes the normal forms of the options of `position` to `stop` (with
    /// the ledger, to look facts up) in option order, until it returns true;
    /// the number of that option.
    pub fn options_until(
        &mut self,
        position: &Position,
        used: &mut Vec<u32>,
        stop: &mut impl FnMut(&mut Ledger, &Position, &mut Vec<u32>) -> Result<bool, Exhausted>,
    ) -> Result<Option<usize>, Exhausted> {
        let moves = moves_by_component(&position.parts, self.rules, &mut self.solver.budget)?;
        self.options_until_with(position, &moves, used, stop)
    }

    /// As [`Ledger::options_until`], with the moves of each component
    /// listed already. Every option is built in one buffer, so that
    /// checking a record allocates per record, not per option.
    fn options_until_with<E: From<Exhausted>>(
        &mut self,
        position: &Position,
        moves: &[Vec<u64>],
        used: &mut Vec<u32>,
        stop: &mut impl FnMut(&mut Ledger, &Position, &mut Vec<u32>) -> Result<bool, E>,
    ) -> Result<Option<usize>, E> {
        let mut option = Position {
            parts: Vec::with_capacity(position.parts.len() + 4),
            heap: 0,
        };
        let mut index = 0;
        for smaller in 0..position.heap {
            self.solver.budget.tick()?;
            option.parts.clone_from(&position.parts);
            option.heap = smaller;
            if stop(self, &option, used)? {
                return Ok(Some(index));
            }
            index += 1;
        }
        for (part, cells_of_part) in moves.iter().enumerate() {
            for &cells in cells_of_part {
                self.solver.budget.expand(self.known.facts.len())?;
                self.fill_into(position, part, cells, used, &mut option)?;
                if stop(self, &option, used)? {
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
        used: &mut Vec<u32>,
    ) -> Result<Option<Position>, Exhausted> {
        let mut out = Position {
            parts: Vec::new(),
            heap: 0,
        };
        let found = self.option_into(position, index, used, &mut out)?;
        Ok(found.then_some(out))
    }

    /// As [`Ledger::option`], into `out`; whether the option exists (when
    /// it does not, `out` is left as it was).
    fn option_into(
        &mut self,
        position: &Position,
        index: u64,
        used: &mut Vec<u32>,
        out: &mut Position,
    ) -> Result<bool, Exhausted> {
        self.solver.budget.expand(self.known.facts.len())?;
        let Some(index) = index.checked_sub(u64::from(position.heap)) else {
            out.parts.clone_from(&position.parts);
            out.heap = index as u32;
            return Ok(true);
        };
        match nth_move(&position.parts, index, self.rules, &mut self.solver.budget)? {
            Some((part, cells)) => {
                self.fill_into(position, part, cells, used, out)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Checks `record` against the facts admitted so far and admits it;
    /// returns the normal form it established. The records it relied on are
    /// pushed to `used`.
    pub fn admit(
        &mut self,
        record: &Record,
        used: &mut Vec<u32>,
    ) -> Result<Result<Position, Failure>, Exhausted> {
        let number = self.admitted + 1;
        let written = record.position();
        let position = self.normalise(&written.parts, written.heap, used)?;
        if let Err(failure) = self.verify_record(record, &position, number, used)? {
            return Ok(Err(failure));
        }
        self.state(record, &position)?;
        Ok(Ok(position))
    }

    /// Admits a P record of `written` whose answers are asked of
    /// `answer_of` option by option, given the option's normal form, as
    /// the check reaches them: each is checked as [`Ledger::admit`] checks
    /// a written one. Returns the record (for a producer, which then need
    /// not list the options twice) or why it fails.
    ///
    /// `answer_of` may admit records first (what an option's answer
    /// needs). Options built before them may then not be normal forms
    /// under the facts this record is checked with, so a round of the
    /// check in which records were admitted counts for nothing: it is
    /// repeated, from the first option, until a round admits none. The
    /// record takes its number when it is stated, after those records:
    /// every fact the last round used is an earlier record's, as in
    /// [`Ledger::admit`].
    pub fn admit_answering<E: From<Exhausted>>(
        &mut self,
        written: &Position,
        used: &mut Vec<u32>,
        answer_of: &mut impl FnMut(&mut Ledger, &Position) -> Result<u64, E>,
    ) -> Result<Result<Record, Failure>, E> {
        let position = self.normalise(&written.parts, written.heap, used)?;
        if position.parts.is_empty() && position.heap != 0 {
            return Ok(Err(Failure::FalseRecord {
                record: self.admitted + 1,
            }));
        }
        let moves = moves_by_component(&position.parts, self.rules, &mut self.solver.budget)?;
        let mark = used.len();
        let identity = self.identity;
        let mut answers = Vec::new();
        loop {
            let admitted = self.admitted;
            answers.clear();
            used.truncate(mark);
            let mut recorded = |ledger: &mut Ledger, child: &Position| -> Result<u64, E> {
                let answer = answer_of(ledger, child)?;
                answers.push(answer);
                Ok(answer)
            };
            // No horizon: every fact stated so far is an earlier record's.
            let (unanswered, disturbed) =
                self.answered_by(&position, &moves, used, &mut recorded)?;
            if self.identity != identity {
                // The function left another ledger in this one's place.
                return Ok(Err(Failure::Unestablished));
            }
            if disturbed || self.admitted != admitted {
                continue;
            }
            if let Some(option) = unanswered {
                let record = self.admitted + 1;
                return Ok(Err(Failure::Unanswered { record, option }));
            }
            let record = Record::P(position.clone(), answers);
            self.state(&record, &position)?;
            return Ok(Ok(record));
        }
    }

    /// Normalises `record`'s position and states what it says without
    /// checking it: the first pass of [`verify`], whose second pass checks
    /// every record against the facts of the records before it only.
    fn register(&mut self, record: &Record) -> Result<Position, Exhausted> {
        let written = record.position();
        let position = self.normalise(&written.parts, written.heap, &mut Vec::new())?;
        self.state(record, &position)?;
        Ok(position)
    }

    /// Counts `record` (with the normal form `position`) as admitted and
    /// enters what it states, unless an earlier record stated it already.
    fn state(&mut self, record: &Record, position: &Position) -> Result<(), Exhausted> {
        self.admitted += 1;
        let number = self.admitted;
        let outcome = record.outcome();
        let known = Arc::make_mut(&mut self.known);
        if outcome == Outcome::P
            && let [part] = position.parts[..]
        {
            known.values.entry(part).or_insert((position.heap, number));
        }
        if !position.parts.is_empty() {
            known
                .facts
                .entry(position.clone())
                .or_insert((outcome, number));
            self.solver.budget.hold(known.facts.len())?;
        }
        Ok(())
    }

    /// Checks record `number` (with the normal form `position`) against the
    /// facts of the records before it.
    fn verify_record(
        &mut self,
        record: &Record,
        position: &Position,
        number: u32,
        used: &mut Vec<u32>,
    ) -> Result<Result<(), Failure>, Exhausted> {
        self.horizon = number;
        let verdict = match record {
            Record::P(_, answers) => self.every_option_answered(position, answers, number, used)?,
            Record::N(_, option) => match self.option(position, *option, used)? {
                None => Err(Failure::NotAMove { record: number }),
                Some(child) if self.outcome(&child, used) == Some(Outcome::P) => Ok(()),
                Some(_) => Err(Failure::WrongAnswer { record: number }),
            },
        };
        self.horizon = u32::MAX;
        Ok(verdict)
    }

    /// A ledger that reads this one's facts (and adds none) with a solver
    /// of its own, for one worker thread of [`verify`].
    fn worker(&self) -> Ledger {
        Ledger {
            rules: self.rules,
            solver: Solver::new(self.solver.budget.worker()),
            known: Arc::clone(&self.known),
            horizon: u32::MAX,
            admitted: self.admitted,
            parts: Vec::new(),
            identity: new_identity(),
        }
    }

    /// Writes to `out` the normal form after filling `cells` in component
    /// `part` of the normal form `position`. Its other components are kept
    /// as they are: `position` is a normal form under the facts in use, so
    /// none of them is small, mirrored or of known value. (Were it not, the
    /// result would still be the option as a sum, only not in normal form:
    /// a fact could fail to be found, never be wrongly found.)
    fn fill_into(
        &mut self,
        position: &Position,
        part: usize,
        cells: u64,
        used: &mut Vec<u32>,
        out: &mut Position,
    ) -> Result<(), Exhausted> {
        let mut parts = std::mem::take(&mut self.parts);
        parts.clear();
        let filled = position.parts[part];
        filled
            .with(filled.free & !cells)
            .components_into(self.rules, &mut parts);
        out.parts.clear();
        out.heap = position.heap;
        let others = position
            .parts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != part);
        out.parts.extend(others.map(|(_, &g)| g));
        let folded = parts.iter().try_for_each(|&g| self.fold(g, out, used));
        self.parts = parts;
        folded?;
        cancel_pairs(out);
        Ok(())
    }

    fn every_option_answered(
        &mut self,
        position: &Position,
        answers: &[u64],
        record: u32,
        used: &mut Vec<u32>,
    ) -> Result<Result<(), Failure>, Exhausted> {
        if position.parts.is_empty() && position.heap != 0 {
            return Ok(Err(Failure::FalseRecord { record }));
        }
        // Counted before any is built: a file of a few kilobytes can name
        // positions with a million options.
        let moves = moves_by_component(&position.parts, self.rules, &mut self.solver.budget)?;
        let count = position.heap as usize + moves.iter().map(Vec::len).sum::<usize>();
        if count != answers.len() {
            return Ok(Err(Failure::AnswerCount {
                record,
                options: count,
            }));
        }
        let mut next = answers.iter();
        // As many options as answers: counted above.
        let mut answer_of =
            |_: &mut Ledger, _: &Position| Ok::<_, Exhausted>(next.next().copied().unwrap_or(0));
        let (unanswered, _) = self.answered_by(position, &moves, used, &mut answer_of)?;
        Ok(match unanswered {
            Some(option) => Err(Failure::Unanswered { record, option }),
            None => Ok(()),
        })
    }

    /// The first option of `position` (whose components' moves are
    /// `moves`), in option order, that the answer `answer_of` gives for it
    /// does not show to be a first-player win, if any; and whether the
    /// round was disturbed: after some call of `answer_of` the ledger
    /// had admitted records or was another ledger. The options met after
    /// that are not checked, so a disturbed round decides nothing.
    fn answered_by<E: From<Exhausted>>(
        &mut self,
        position: &Position,
        moves: &[Vec<u64>],
        used: &mut Vec<u32>,
        answer_of: &mut impl FnMut(&mut Ledger, &Position) -> Result<u64, E>,
    ) -> Result<(Option<usize>, bool), E> {
        // Each option's answer, in one buffer for every grandchild.
        let mut grandchild = Position {
            parts: Vec::with_capacity(position.parts.len() + 4),
            heap: 0,
        };
        let (admitted, identity) = (self.admitted, self.identity);
        let mut disturbed = false;
        let unanswered =
            self.options_until_with(position, moves, used, &mut |ledger: &mut Ledger,
                                                                 child: &Position,
                                                                 used: &mut Vec<u32>|
             -> Result<bool, E> {
                let answer = answer_of(ledger, child)?;
                disturbed |= ledger.admitted != admitted || ledger.identity != identity;
                if disturbed {
                    // A round of `Ledger::admit_answering` that is repeated:
                    // nothing is checked, and every option is asked, so
                    // that the records they need come in this round.
                    return Ok(false);
                }
                let shown = match answer.checked_sub(1) {
                    None => ledger.outcome(child, used) == Some(Outcome::N),
                    Some(reply) => {
                        ledger.option_into(child, reply, used, &mut grandchild)?
                            && ledger.outcome(&grandchild, used) == Some(Outcome::P)
                    }
                };
                Ok(!shown)
            })?;
        Ok((unanswered, disturbed))
    }
}

/// The moves of one component, in the kernel's move order.
///
/// A Juvavum line of n cells has 2^n - 1 moves (Domino Juvavum about
/// Fibonacci(n)), so the list is cut off, with the claim UNDECIDED,
/// beyond [`MAX_MOVES`] moves: a file of a few bytes must not make the
/// kernel list billions.
pub fn component_moves(
    grid: Grid,
    rules: GridRules,
    budget: &mut Budget,
) -> Result<Vec<u64>, Exhausted> {
    let mut moves = Vec::new();
    grid.for_each_move(rules, &mut |m| {
        if moves.len() >= MAX_MOVES {
            return Err(Exhausted::Steps(MAX_MOVES as u64));
        }
        moves.push(m);
        Ok(())
    })?;
    budget.charge(moves.len())?;
    Ok(moves)
}

/// The moves of each of `parts`, listed before any option is built (so
/// that a record can be refused by their number alone).
pub fn moves_by_component(
    parts: &[Grid],
    rules: GridRules,
    budget: &mut Budget,
) -> Result<Vec<Vec<u64>>, Exhausted> {
    parts
        .iter()
        .map(|&grid| component_moves(grid, rules, budget))
        .collect()
}

/// Move number `index` of a sum of `parts`, counting the moves of each
/// part in turn in the kernel's move order (as [`component_moves`] lists
/// them, with its cap and charge, but without listing them): the part and
/// the cells it fills.
pub fn nth_move(
    parts: &[Grid],
    mut index: u64,
    rules: GridRules,
    budget: &mut Budget,
) -> Result<Option<(usize, u64)>, Exhausted> {
    for (part, &grid) in parts.iter().enumerate() {
        let mut count = 0u64;
        let mut found = None;
        grid.for_each_move(rules, &mut |m| {
            if count >= MAX_MOVES as u64 {
                return Err(Exhausted::Steps(MAX_MOVES as u64));
            }
            if count == index {
                found = Some(m);
            }
            count += 1;
            Ok(())
        })?;
        budget.charge(count as usize)?;
        match found {
            Some(cells) => return Ok(Some((part, cells))),
            None => index -= count,
        }
    }
    Ok(None)
}

/// Sorts the components and removes equal ones in pairs (G + G = 0).
pub fn cancel_pairs(position: &mut Position) {
    position.parts.sort_unstable();
    let mut kept = 0;
    for i in 0..position.parts.len() {
        if kept > 0 && position.parts[kept - 1] == position.parts[i] {
            kept -= 1;
        } else {
            position.parts[kept] = position.parts[i];
            kept += 1;
        }
    }
    position.parts.truncate(kept);
}

/// Whether a Cram component is a second-player win by the mirror strategy:
/// it is its own half-turn image and no move is its own image (so the
/// second player can always answer a move by its image, keeping the
/// position symmetric). A move is its own image exactly when it covers the
/// centre: the centre cell (odd sides) lies in every move touching it, and a
/// domino across the centre (one odd side) is mapped onto itself.
#[inline]
pub fn mirrored_second_player_win(part: Grid) -> bool {
    let (rows, cols) = (u32::from(part.rows), u32::from(part.cols));
    let cells = rows * cols;
    if part.free.reverse_bits() >> (64 - cells) != part.free {
        return false;
    }
    let cell = |r: u32, c: u32| part.free >> (r * cols + c) & 1 == 1;
    let (r, c) = (rows / 2, cols / 2);
    match (rows % 2, cols % 2) {
        (0, 0) => true,
        (1, 1) => !cell(r, c),
        (1, _) => !(cell(r, c - 1) && cell(r, c)),
        _ => !(cell(r - 1, c) && cell(r, c)),
    }
}

/// The grids and the XOR of the nim heaps of `game`, when it is a sum of
/// grids of `rules` and nim heaps.
pub fn as_sum(game: &super::Game, rules: GridRules) -> Option<(Vec<Grid>, u32)> {
    let mut grids = Vec::new();
    let mut heap = 0;
    for part in game.parts() {
        match part {
            super::Game::Grid { rules: r, grid } if r == rules => grids.push(grid),
            super::Game::Nim(heaps) => heaps.iter().for_each(|h| heap ^= h),
            _ => return None,
        }
    }
    Some((grids, heap))
}

/// The ruleset byte of an answer file's header (0-2: the grid rulesets
/// of impartial games, 3: Domineering, 4-6: the impartial ones in misère
/// play), when the header is one this kernel reads.
pub fn ruleset_of_header(bytes: &[u8]) -> Result<u8, Failure> {
    match bytes {
        [m0, m1, m2, m3, version, ruleset, ..]
            if [*m0, *m1, *m2, *m3] == *MAGIC
                && *ruleset <= 6
                && *version == version_of(*ruleset) =>
        {
            Ok(*ruleset)
        }
        _ => Err(Failure::Header),
    }
}

/// Why a file whose header reads as `read` does not serve a claim about
/// grids of `rules`, if it does not.
pub fn header_mismatch(read: Result<GridRules, Failure>, rules: GridRules) -> Option<Failure> {
    match read {
        Ok(written) if written == rules => None,
        Ok(_) => Some(Failure::NotASum),
        Err(failure) => Some(failure),
    }
}

/// The impartial ruleset an answer file's header names.
pub fn rules_of_header(bytes: &[u8]) -> Result<GridRules, Failure> {
    match ruleset_of_header(bytes)? {
        0 => Ok(GridRules::Cram),
        1 => Ok(GridRules::DominoJuvavum),
        2 => Ok(GridRules::Juvavum),
        _ => Err(Failure::NotASum),
    }
}

/// A record as written: its tag, position and answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    /// `P` or `N` (impartial); `L`, `R` (the mover wins), `l`, `r` (the mover loses) (Domineering).
    pub tag: u8,
    /// The position as written.
    pub position: Position,
    /// The answers.
    pub answers: Answers,
}

/// The answers of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answers {
    /// The number of the winning option.
    One(u64),
    /// Per option, 0 or 1 + the number of the option's answering option.
    Replies(Vec<u64>),
}

/// Reads the records of an answer file after its six header bytes.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` (the whole file); check the header with
    /// [`ruleset_of_header`] first.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader {
            bytes,
            at: MAGIC.len() + 2,
        }
    }

    /// The byte offset of the next record.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The next record, `None` at the end of the file.
    pub fn next_record(&mut self) -> Option<Result<Record, Failure>> {
        let start = self.at;
        Some(self.next_raw()?.and_then(|raw| match raw {
            Raw {
                tag: b'P',
                position,
                answers: Answers::Replies(replies),
            } => Ok(Record::P(position, replies)),
            Raw {
                tag: b'N',
                position,
                answers: Answers::One(option),
            } => Ok(Record::N(position, option)),
            _ => Err(Failure::Malformed {
                offset: start,
                what: "a record that is neither P nor N",
            }),
        }))
    }

    /// The next record as written, `None` at the end of the file.
    pub fn next_raw(&mut self) -> Option<Result<Raw, Failure>> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let start = self.at;
        Some(self.record().map_err(|what| match what {
            None => Failure::Truncated { offset: start },
            Some(what) => Failure::Malformed {
                offset: start,
                what,
            },
        }))
    }

    /// A record; `Err(None)` when the file ends inside it.
    fn record(&mut self) -> Result<Raw, Option<&'static str>> {
        let tag = self.byte()?;
        let heap = self.varint()?;
        if heap > u64::from(MAX_HEAP) {
            return Err(Some("a heap or value larger than 4096"));
        }
        let count = self.byte()?;
        let mut parts = Vec::with_capacity(usize::from(count));
        for _ in 0..count {
            let rows = usize::from(self.byte()?);
            let cols = usize::from(self.byte()?);
            let cells = rows * cols;
            let mut free = 0u64;
            for i in 0..cells.div_ceil(8).min(8) {
                free |= u64::from(self.byte()?) << (8 * i);
            }
            let grid = Grid::new(rows, cols, free)
                .ok_or(Some("a grid too large or with cells outside it"))?;
            parts.push(grid);
        }
        let position = Position {
            parts,
            heap: heap as u32,
        };
        let answers = match tag {
            // Records that answer every option: a count, then the replies.
            b'P' | b'l' | b'r' | b'E' | b'U' => {
                let count = self.varint()?;
                if count > u64::from(MAX_HEAP) + 4 * 64 {
                    return Err(Some("more than 4352 answers"));
                }
                Answers::Replies(
                    (0..count)
                        .map(|_| self.varint())
                        .collect::<Result<Vec<u64>, _>>()?,
                )
            }
            // Records that name one winning option.
            b'N' | b'L' | b'R' | b'H' => Answers::One(self.varint()?),
            _ => return Err(Some("an unknown record tag")),
        };
        Ok(Raw {
            tag,
            position,
            answers,
        })
    }

    fn byte(&mut self) -> Result<u8, Option<&'static str>> {
        let b = *self.bytes.get(self.at).ok_or(None)?;
        self.at += 1;
        Ok(b)
    }

    /// A little-endian base-128 number of at most ten bytes.
    fn varint(&mut self) -> Result<u64, Option<&'static str>> {
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            let low = u64::from(b & 0x7f);
            if i == 9 && low > 1 {
                return Err(Some("a number larger than 2^64"));
            }
            value |= low << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Some("a number longer than ten bytes"))
    }
}

/// What an answer file shows about a claim's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The position has the wanted outcome; the file holds this many records.
    Holds { records: u32 },
    /// The file establishes the other outcome, in this record.
    Opposite { outcome: Outcome, record: u32 },
    /// The file does not establish the position's outcome.
    Fails(Failure),
}

/// Checks every record of `bytes` and reads off the outcome of the sum of
/// `grids` and a nim heap `heap`, which should be `wanted`. The first
/// failing record ends the check.
///
/// Two passes, the second on [`WORKERS`] threads: the first reads the
/// records, normalises their positions and states what they say (each
/// fact with the first record that states it); the second checks each
/// record against the facts of the records before it only. When every
/// record passes, every fact is established in file order, as when each
/// record is checked before the next is read; otherwise the failure
/// reported is the first in file order, which saw only facts of records
/// that passed (docs/soundness.md, I7).
pub fn verify(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    wanted: Outcome,
    bytes: &[u8],
    budget: Budget,
) -> (Result<Finding, Exhausted>, Budget) {
    let mut ledger = Ledger::new(rules, budget);
    let finding = verify_in(&mut ledger, grids, heap, wanted, bytes);
    (finding, ledger.solver.budget)
}

/// Threads of the second pass of [`verify`] (and of rule I8's): a
/// constant, so that the work counted (each thread has its own
/// small-component memo) is the same on every machine.
pub(super) const WORKERS: usize = 2;
/// Records a worker takes at a time, turn by turn.
const CHUNK: usize = 256;

/// What stopped a worker: the first record in its share that failed or
/// ran out of budget.
pub(super) type Stop = (u32, Result<Failure, Exhausted>);

/// The records of a file with their normal forms, and the unreadable
/// record that ended the reading, if one did.
pub(super) type Registered<R, P> = (Vec<(R, P)>, Option<Stop>);

/// The first pass of a two-pass check: every record `next` reads, each
/// with what `register` makes of it (its normal form, once it has stated
/// what the record says), up to the first record that cannot be read,
/// which then stops the check as failing at its number.
pub(super) fn read_all<R, P>(
    mut next: impl FnMut() -> Option<Result<R, Failure>>,
    mut register: impl FnMut(&R) -> Result<P, Exhausted>,
) -> Result<Registered<R, P>, Exhausted> {
    let mut records = Vec::new();
    while let Some(record) = next() {
        match record {
            Ok(record) => {
                let position = register(&record)?;
                records.push((record, position));
            }
            Err(failure) => {
                let stop = (records.len() as u32 + 1, Ok(failure));
                return Ok((records, Some(stop)));
            }
        }
    }
    Ok((records, None))
}

/// The second pass of a two-pass check: each of `workers` checks its
/// chunks of `records` (record n at index n - 1) with `check`, which must
/// use only facts of records numbered below n; the first record in file
/// order that failed or ran out of budget, if any. Every record is checked:
/// worker w of the `turns` in use takes chunks w, w + turns, ...
pub(super) fn check_in_turns<W: Send, R: Sync>(
    workers: &mut [W],
    records: &[R],
    check: impl Fn(&mut W, &R, u32) -> Result<Result<(), Failure>, Exhausted> + Sync,
) -> Option<Stop> {
    // A file of one chunk is checked on this thread: starting threads
    // costs more than checking a few records.
    let turns = records.len().div_ceil(CHUNK).clamp(1, workers.len().max(1));
    let check = &check;
    let run = &move |w: usize, worker: &mut W| {
        let chunks = records.chunks(CHUNK).enumerate().skip(w).step_by(turns);
        for (c, chunk) in chunks {
            for (i, record) in chunk.iter().enumerate() {
                let number = (c * CHUNK + i + 1) as u32;
                match check(worker, record, number) {
                    Ok(Ok(())) => {}
                    Ok(Err(failure)) => return Some((number, Ok(failure))),
                    Err(e) => return Some((number, Err(e))),
                }
            }
        }
        None
    };
    if let (1, Some(worker)) = (turns, workers.first_mut()) {
        return run(0, worker);
    }
    let stops: Vec<Option<Stop>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (workers.iter_mut().enumerate().take(turns))
            .map(|(w, worker)| scope.spawn(move || run(w, worker)))
            .collect();
        // A worker's panic (a kernel bug) goes on to the driver's panic
        // boundary, an internal ERROR for the claim, as on this thread.
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|bug| std::panic::resume_unwind(bug))
            })
            .collect()
    });
    stops.into_iter().flatten().min_by_key(|s| s.0)
}

fn verify_in(
    ledger: &mut Ledger,
    grids: &[Grid],
    heap: u32,
    wanted: Outcome,
    bytes: &[u8],
) -> Result<Finding, Exhausted> {
    if let Some(failure) = header_mismatch(rules_of_header(bytes), ledger.rules) {
        return Ok(Finding::Fails(failure));
    }
    let mut reader = Reader::new(bytes);
    let (records, unreadable) = read_all(|| reader.next_record(), |r| ledger.register(r))?;
    let mut workers: Vec<Ledger> = (0..WORKERS).map(|_| ledger.worker()).collect();
    let stop = check_in_turns(
        &mut workers,
        &records,
        |worker, (record, position), number| {
            worker.verify_record(record, position, number, &mut Vec::new())
        },
    );
    for worker in &workers {
        ledger.solver.budget.absorb(&worker.solver.budget);
    }
    let first = stop.into_iter().chain(unreadable).min_by_key(|s| s.0);
    if let Some((_, stop)) = first {
        return stop.map(Finding::Fails);
    }
    let mut used = Vec::new();
    let root = ledger.normalise(grids, heap, &mut used)?;
    let records = ledger.admitted();
    Ok(match ledger.outcome(&root, &mut used) {
        Some(outcome) if outcome == wanted => Finding::Holds { records },
        Some(outcome) => Finding::Opposite {
            outcome,
            record: used.last().copied().unwrap_or(0),
        },
        None => Finding::Fails(Failure::Unestablished),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn file_bytes_debug_names_the_file_by_its_digest() {
        let file = |b: &[u8], sha256: &str| FileBytes {
            bytes: b.into(),
            sha256: sha256.into(),
        };
        let shown = format!("{:?}", file(&[0, 1, 2], "AB12"));
        assert_eq!(shown, "FileBytes(3 bytes, sha256 ab12)");
        assert_ne!(shown, format!("{:?}", file(&[0, 1, 2], "ab13")));
    }

    /// The second pass checks every record once, reports the smallest
    /// failing one, and passes a panic on to its caller, on one thread
    /// (at most one chunk) as on two.
    #[test]
    #[allow(clippy::panic)] // a check that panics stands for a kernel bug
    fn checking_in_turns_covers_every_record_and_stops_at_the_first_failure() {
        for n in [0, 1, 255, 256, 257, 512, 513, 800] {
            let records: Vec<u32> = (1..=n).collect();
            let seen: Vec<_> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            let count = |_: &mut (), r: &u32, number: u32| {
                assert_eq!(*r, number);
                seen[number as usize - 1].fetch_add(1, Ordering::Relaxed);
                Ok(Ok(()))
            };
            assert_eq!(check_in_turns(&mut [(), ()], &records, count), None);
            assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1), "{n}");
            for bad in [1, 256, 257, 300, 513].into_iter().filter(|&b| b <= n) {
                let fails = |_: &mut (), _: &u32, number: u32| match number >= bad {
                    true => Ok(Err(Failure::Unestablished)),
                    false => Ok(Ok(())),
                };
                let first = check_in_turns(&mut [(), ()], &records, fails);
                assert_eq!(first, Some((bad, Ok(Failure::Unestablished))), "{n} {bad}");
                let panics = |_: &mut (), _: &u32, number: u32| match number == bad {
                    true => panic!("a kernel bug at record {bad}"),
                    false => Ok(Ok(())),
                };
                let checked =
                    std::panic::catch_unwind(|| check_in_turns(&mut [(), ()], &records, panics));
                assert!(checked.is_err(), "{n} {bad}");
            }
        }
    }
}
