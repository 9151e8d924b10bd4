//! The answer-file producer (untrusted): decides outcomes and Grundy values
//! of grid games by a pruned search and writes what it decided as an answer
//! file (rule I7) for the kernel to check.
//!
//! The search asks one question, "is this sum a second-player win?", of
//! positions with one component of unknown value and a heap. A position with
//! several such components first has the values of all but its largest
//! component computed (each by asking the question of the component plus
//! *0, *1, ... until it holds), which folds them into the heap. A
//! first-player win needs one answer: options already known to be
//! second-player wins are tried before any search, and the search stops at
//! the first that is one. This is the pruning: most options of most
//! positions are never valued.
//!
//! Key decision: every record is admitted by the kernel's own ledger the
//! moment the search decides it, and the search looks facts up only there.
//! So the producer normalises exactly as the checker will, and a written
//! file is one the kernel accepts by construction. At the end only the
//! records the root depends on are written (dependencies always point to
//! earlier records, so one backward pass finds them, and dropping the
//! others changes no normal form: a value a kept record used is kept).

use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::Outcome;
use crate::kernel::impartial::answers::{
    Answers, Failure, Ledger, MAGIC, Position, Raw, Record, VERSION,
};
use crate::kernel::impartial::grid::{Grid, GridRules};

/// What the producer decided, and the file that shows it.
pub struct Produced {
    /// The decided outcome of the root (with the heap searched for, for a value).
    pub outcome: Outcome,
    /// The Grundy value, when one was asked for.
    pub value: Option<u32>,
    /// The answer file.
    pub bytes: Vec<u8>,
    /// Records decided in all, and records written.
    pub decided: usize,
    pub written: usize,
}

/// Why the producer stopped without a file.
#[derive(Debug)]
pub enum ProduceError {
    /// The budget ran out.
    Exhausted(Exhausted),
    /// The kernel refused a record the search made: a producer bug.
    Refused(Failure),
}

impl From<Exhausted> for ProduceError {
    fn from(e: Exhausted) -> Self {
        ProduceError::Exhausted(e)
    }
}

/// The search state: the kernel's ledger of admitted records, and what
/// each record used.
struct Search {
    ledger: Ledger,
    records: Vec<Record>,
    /// Per record (record n at index n - 1): the records it used.
    uses: Vec<Vec<u32>>,
    rules: GridRules,
    scratch: Vec<u32>,
    /// First-player wins found, by normal form: the number of the winning option.
    answers: FastMap<Position, u64>,
}

/// The outcome of the sum of `grids` and a heap of `heap`, with the file
/// that shows it.
pub fn outcome(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
) -> Result<Produced, ProduceError> {
    let mut search = Search::new(rules, budget);
    let root = search.normal_form(grids, heap)?;
    let second = search.second_player_wins(root)?;
    let outcome = if second { Outcome::P } else { Outcome::N };
    search.finish(grids, heap, outcome, None)
}

/// The Grundy value of the sum of `grids` and a heap of `heap`, with the
/// file that shows that the sum plus that value is a second-player win.
pub fn grundy(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
) -> Result<Produced, ProduceError> {
    let mut search = Search::new(rules, budget);
    let value = search.value(grids, heap)?;
    search.finish(grids, heap ^ value, Outcome::P, Some(value))
}

impl Search {
    fn new(rules: GridRules, budget: Budget) -> Search {
        Search {
            ledger: Ledger::new(rules, budget),
            records: Vec::new(),
            uses: Vec::new(),
            rules,
            scratch: Vec::new(),
            answers: FastMap::default(),
        }
    }

    fn normal_form(&mut self, grids: &[Grid], heap: u32) -> Result<Position, Exhausted> {
        self.scratch.clear();
        self.ledger.normalise(grids, heap, &mut self.scratch)
    }

    /// The outcome of a normal form the ledger already knows.
    fn known(&mut self, position: &Position) -> Option<Outcome> {
        self.scratch.clear();
        self.ledger.outcome(position, &mut self.scratch)
    }

    /// Has the kernel admit `record` and keeps it.
    fn commit(&mut self, record: Record) -> Result<(), ProduceError> {
        let mut used = Vec::new();
        match self.ledger.admit(&record, &mut used)? {
            Ok(_) => {
                self.records.push(record);
                self.uses.push(used);
                Ok(())
            }
            Err(failure) => Err(ProduceError::Refused(failure)),
        }
    }

    /// The Grundy value of the sum of `grids` and a heap of `heap`: the
    /// least v with the sum + *v a second-player win (each try recorded).
    fn value(&mut self, grids: &[Grid], heap: u32) -> Result<u32, ProduceError> {
        let mut value = 0;
        loop {
            let position = self.normal_form(grids, heap ^ value)?;
            if self.second_player_wins(position)? {
                return Ok(value);
            }
            value += 1;
        }
    }

    /// Whether the normal form `position` is a second-player win. A
    /// second-player win is admitted as a P record at once (with the
    /// answers to its options); a first-player win's answer is remembered
    /// for the P records that will need it.
    fn second_player_wins(&mut self, mut position: Position) -> Result<bool, ProduceError> {
        loop {
            if let Some(outcome) = self.known(&position) {
                return Ok(outcome == Outcome::P);
            }
            if self.answers.contains_key(&position) {
                return Ok(false);
            }
            if position.parts.len() == 1 {
                break;
            }
            // Value every component but the largest; the ledger folds them.
            let largest = (0..position.parts.len())
                .max_by_key(|&i| position.parts[i].free.count_ones())
                .unwrap_or(0);
            let others: Vec<Grid> = (0..position.parts.len())
                .filter(|&i| i != largest)
                .map(|i| position.parts[i])
                .collect();
            for part in others {
                let single = self.normal_form(&[part], 0)?;
                if !single.parts.is_empty() {
                    self.value(&[part], 0)?;
                }
            }
            position = self.normal_form(&position.parts, position.heap)?;
        }
        // Options already known to be second-player wins answer at once;
        // the options are listed only as far as the first of them.
        self.scratch.clear();
        let mut options = Vec::new();
        let mut lookups = Vec::new();
        let found =
            self.ledger
                .options_until(&position, &mut self.scratch, &mut |ledger, child| {
                    let second = ledger.outcome(&child, &mut lookups) == Some(Outcome::P);
                    options.push(child);
                    second
                })?;
        if let Some(index) = found {
            self.answers.insert(position, index as u64);
            return Ok(false);
        }
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by_cached_key(|&i| (effort(&options[i]), options[i].clone()));
        order.dedup_by(|a, b| options[*a] == options[*b]);
        for index in order {
            if self.second_player_wins(options[index].clone())? {
                self.answers.insert(position, index as u64);
                return Ok(false);
            }
        }
        let mut replies = Vec::with_capacity(options.len());
        for child in &options {
            let now = self.normal_form(&child.parts, child.heap)?;
            let reply = if self.known(&now) == Some(Outcome::N) {
                0
            } else {
                match self.answers.get(&now) {
                    Some(&index) => index + 1,
                    None => return Err(ProduceError::Refused(Failure::Unestablished)),
                }
            };
            replies.push(reply);
        }
        self.commit(Record::P(position, replies))?;
        Ok(true)
    }

    /// The file of the records the root (the sum of `grids` and `heap`)
    /// depends on.
    fn finish(
        mut self,
        grids: &[Grid],
        heap: u32,
        outcome: Outcome,
        value: Option<u32>,
    ) -> Result<Produced, ProduceError> {
        let mut used = Vec::new();
        let root = self.ledger.normalise(grids, heap, &mut used)?;
        // An N record changes no normal form, so `root` stays the root's.
        if outcome == Outcome::N && self.known(&root).is_none() {
            let index = self.answers.get(&root).copied();
            let index = index.ok_or(ProduceError::Refused(Failure::Unestablished))?;
            self.commit(Record::N(root.clone(), index))?;
        }
        if self.ledger.outcome(&root, &mut used) != Some(outcome) {
            return Err(ProduceError::Refused(Failure::Unestablished));
        }
        let needed = needed_records(&used, &self.uses);
        let kept: Vec<&Record> = self
            .records
            .iter()
            .zip(&needed)
            .filter(|(_, n)| **n)
            .map(|(r, _)| r)
            .collect();
        Ok(Produced {
            outcome,
            value,
            bytes: file_bytes(self.rules, kept.iter().copied()),
            decided: self.records.len(),
            written: kept.len(),
        })
    }
}

/// Which records (record n at index n - 1) the `roots` rest on, given
/// what each record used: dependencies always point to earlier records, so
/// one backward pass finds them all.
pub fn needed_records(roots: &[u32], uses: &[Vec<u32>]) -> Vec<bool> {
    let mut needed = vec![false; uses.len()];
    for &r in roots {
        needed[r as usize - 1] = true;
    }
    for index in (0..uses.len()).rev() {
        if needed[index] {
            for &r in &uses[index] {
                needed[r as usize - 1] = true;
            }
        }
    }
    needed
}

/// How hard a position is to search, roughly: the sum of the squares of its
/// components' cells (options that split the board into small parts are
/// searched first).
fn effort(position: &Position) -> u32 {
    position
        .parts
        .iter()
        .map(|g| g.free.count_ones().pow(2))
        .sum()
}
/// The six header bytes of an answer file with this ruleset byte (the
/// inverse of the kernel's `ruleset_of_header` and `rules_of_header`).
pub fn header(ruleset: u8) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend([VERSION, ruleset]);
    bytes
}

/// The header byte of an impartial ruleset.
fn ruleset_byte(rules: GridRules) -> u8 {
    match rules {
        GridRules::Cram => 0,
        GridRules::DominoJuvavum => 1,
        GridRules::Juvavum => 2,
    }
}

/// An answer file of `records` for grids of `rules`.
pub fn file_bytes<'a>(rules: GridRules, records: impl IntoIterator<Item = &'a Record>) -> Vec<u8> {
    let mut bytes = header(ruleset_byte(rules));
    for record in records {
        write_record(record, &mut bytes);
    }
    bytes
}

/// Appends `record` to `out` in the file format (the producer's writer;
/// the kernel's reader is the one trusted).
pub fn write_record(record: &Record, out: &mut Vec<u8>) {
    match record {
        Record::P(position, replies) => write_fields(b'P', position, Body::Replies(replies), out),
        Record::N(position, option) => write_fields(b'N', position, Body::One(*option), out),
    }
}

/// Appends a record of any tag to `out` in the file format.
pub fn write_raw(raw: &Raw, out: &mut Vec<u8>) {
    let body = match &raw.answers {
        Answers::One(option) => Body::One(*option),
        Answers::Replies(replies) => Body::Replies(replies),
    };
    write_fields(raw.tag, &raw.position, body, out);
}

/// The answers of a record to write, borrowed from an impartial record or
/// a raw one.
enum Body<'a> {
    One(u64),
    Replies(&'a [u64]),
}

/// Appends one record: its tag, its position and its answers.
fn write_fields(tag: u8, position: &Position, body: Body, out: &mut Vec<u8>) {
    out.push(tag);
    write_varint(u64::from(position.heap), out);
    out.push(position.parts.len() as u8);
    for grid in &position.parts {
        out.push(grid.rows);
        out.push(grid.cols);
        let cells = usize::from(grid.rows) * usize::from(grid.cols);
        for i in 0..cells.div_ceil(8) {
            out.push((grid.free >> (8 * i)) as u8);
        }
    }
    match body {
        Body::Replies(replies) => {
            write_varint(replies.len() as u64, out);
            for &reply in replies {
                write_varint(reply, out);
            }
        }
        Body::One(option) => write_varint(option, out),
    }
}

fn write_varint(mut value: u64, out: &mut Vec<u8>) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}
