//! The answer-file producer (untrusted): decides outcomes and Grundy values
//! of grid games and writes what it decided as an answer file (rule I7)
//! for the kernel to check.
//!
//! Two passes. The first values components by the pruned search of
//! [`super::pruned`], which asks most options only whether their value is
//! one of a few candidates and so never values them. The second writes the
//! proof that search implies: for a component C of value v, a P record of
//! C + *v. Its options are C + *m for m < v, answered by an option of C of
//! value m, and C' + *v for the options C' of C, which are first-player
//! wins: all components of C' but the hardest, U, are proved (their P
//! records fold them into the heap), leaving U + *w, and an option of U of
//! value w answers it, or, when U has none, U's value is below w and U is
//! proved too (leaving a nonzero heap). The search remembers, per
//! component it expanded, an option of each value it met, which is where
//! these answers come from; only when it met none of value w are U's
//! options asked about w alone. Answering by an option rather than proving
//! U keeps the file small: a proof of U needs an answer to each of its
//! options, the option only proofs of its own components.
//!
//! Key decision: every record is admitted by the kernel's own ledger the
//! moment it is written, and answers are looked up only there. So the
//! producer normalises exactly as the checker will, and a written file is
//! one the kernel accepts by construction. A P record's answers are given
//! to the kernel as it checks each option (`Ledger::admit_answering`), so
//! one listing of its options serves finding and checking the answers. At
//! the end only the records the root depends on are kept (dependencies
//! always point to earlier records, so one backward pass finds them, and
//! dropping the others changes no normal form: a value a kept record used
//! is kept).

use super::pruned::{Stop, Values, hardest};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::{FastMap, FastSet};
use crate::kernel::impartial::Outcome;
use crate::kernel::impartial::answers::{
    Answers, Failure, Ledger, MAGIC, Position, Raw, Record, VERSION,
};
use crate::kernel::impartial::grid::{Grid, GridRules};
use std::time::{Duration, Instant};

/// What the producer decided, and the file that shows it.
pub struct Produced {
    /// The decided outcome of the root (with the heap searched for, for a value).
    pub outcome: Outcome,
    /// The Grundy value, when one was asked for.
    pub value: Option<u32>,
    /// The answer file.
    pub bytes: Vec<u8>,
    /// Component values the search found, and records written.
    pub decided: usize,
    pub written: usize,
    /// Time spent searching for the answer, before the proof was written.
    pub searched: Duration,
}

/// Why the producer stopped without a file.
#[derive(Debug)]
pub enum ProduceError {
    /// The budget ran out.
    Exhausted(Exhausted),
    /// A component has more options than the search holds values for
    /// ([`super::pruned::MAX_OPTIONS`]).
    TooManyOptions,
    /// The kernel refused a record the search made: a producer bug.
    Refused(Failure),
}

impl From<Exhausted> for ProduceError {
    fn from(e: Exhausted) -> Self {
        ProduceError::Exhausted(e)
    }
}

impl From<Stop> for ProduceError {
    fn from(e: Stop) -> Self {
        match e {
            Stop::Exhausted(e) => ProduceError::Exhausted(e),
            Stop::TooManyOptions => ProduceError::TooManyOptions,
        }
    }
}

/// The search state: the values found and the records written, with what
/// each record used. The kernel's ledger of admitted records is passed
/// alongside, not kept here: a record's answers are found while the
/// ledger checks it, so the ledger hands itself back to the producer.
struct Search {
    values: Values,
    records: Vec<Record>,
    /// Per record (record n at index n - 1): the records it used.
    uses: Vec<Vec<u32>>,
    rules: GridRules,
    scratch: Vec<u32>,
    /// Answers prepared for first-player wins of one component plus a
    /// heap (the only ones prepared), by component and heap: 1 + the
    /// number of the winning option. Keyed without a `Position` so that
    /// neither a lookup nor an insertion allocates.
    replies: FastMap<(Grid, u32), u64>,
    /// Components the ledger folds into the heap.
    folded: FastSet<Grid>,
    started: Instant,
    searched: Duration,
}

/// The outcome of the sum of `grids` and a heap of `heap`, with the file
/// that shows it; `helpers` more threads help the search.
pub fn outcome(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
    helpers: usize,
) -> Result<Produced, ProduceError> {
    let (mut search, mut ledger) = Search::new(rules, budget);
    let root = search.normal_form(&mut ledger, grids, heap)?;
    let mut crew = search.values.crew(helpers);
    let second = search
        .values
        .sum_has_value_shared(&root.parts, root.heap, 0, &mut crew)?;
    search.values.absorb(crew);
    search.searched = search.started.elapsed();
    if second {
        for &part in &root.parts {
            search.prove(&mut ledger, part)?;
        }
    } else {
        search.first_player_wins(&mut ledger, &root)?;
    }
    let outcome = if second { Outcome::P } else { Outcome::N };
    search.finish(ledger, grids, heap, outcome, None)
}

/// The Grundy value of the sum of `grids` and a heap of `heap`, with the
/// file that shows that the sum plus that value is a second-player win;
/// `helpers` more threads help the search.
pub fn grundy(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
    helpers: usize,
) -> Result<Produced, ProduceError> {
    let (mut search, mut ledger) = Search::new(rules, budget);
    let root = search.normal_form(&mut ledger, grids, heap)?;
    let mut crew = search.values.crew(helpers);
    let mut value = root.heap;
    for &part in &root.parts {
        value ^= u32::from(search.values.value_shared(part, &mut crew)?);
    }
    search.values.absorb(crew);
    search.searched = search.started.elapsed();
    for &part in &root.parts {
        search.prove(&mut ledger, part)?;
    }
    search.finish(ledger, grids, heap ^ value, Outcome::P, Some(value))
}

impl Search {
    /// An empty search, and an empty ledger to admit its records.
    fn new(rules: GridRules, budget: Budget) -> (Search, Ledger) {
        let search = Search {
            values: Values::new(rules, budget.clone()),
            records: Vec::new(),
            uses: Vec::new(),
            rules,
            scratch: Vec::new(),
            replies: FastMap::default(),
            folded: FastSet::default(),
            started: Instant::now(),
            searched: Duration::ZERO,
        };
        (search, Ledger::new(rules, budget))
    }

    fn normal_form(
        &mut self,
        ledger: &mut Ledger,
        grids: &[Grid],
        heap: u32,
    ) -> Result<Position, Exhausted> {
        self.scratch.clear();
        ledger.normalise(grids, heap, &mut self.scratch)
    }

    /// The outcome of a normal form the ledger already knows.
    fn known(&mut self, ledger: &Ledger, position: &Position) -> Option<Outcome> {
        self.scratch.clear();
        ledger.outcome(position, &mut self.scratch)
    }

    /// Has the kernel admit `record` and keeps it.
    fn commit(&mut self, ledger: &mut Ledger, record: Record) -> Result<(), ProduceError> {
        let mut used = Vec::new();
        let admitted = ledger.admit(&record, &mut used)?;
        self.keep(admitted.map(|_| record), used)
    }

    /// Keeps a record the kernel admitted, with the records it `used`.
    fn keep(
        &mut self,
        admitted: Result<Record, Failure>,
        used: Vec<u32>,
    ) -> Result<(), ProduceError> {
        let record = admitted.map_err(ProduceError::Refused)?;
        self.records.push(record);
        self.uses.push(used);
        Ok(())
    }

    /// Makes the ledger know a component's value: a P record of the
    /// component plus its value, after the records its answers need.
    fn prove(&mut self, ledger: &mut Ledger, part: Grid) -> Result<(), ProduceError> {
        if self.folded.contains(&part) {
            return Ok(());
        }
        let position = self.normal_form(ledger, &[part], 0)?;
        let [canonical] = position.parts[..] else {
            self.folded.insert(part);
            return Ok(()); // small, mirrored or proved already
        };
        let part = canonical;
        let value = self.values.value(part)?;
        for smaller in 0..value {
            self.answer_with_option(ledger, part, smaller)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
        }
        let position = Position {
            heap: u32::from(value),
            ..position
        };
        // The kernel lists the options and asks for each one's answer as it
        // checks it. An option not answered yet is made so first: the
        // records that takes prove components smaller than `part`, which
        // leave `part` the whole normal form. A round of the check in which
        // records were admitted is repeated by the kernel, and every option
        // is then answered from what the first round prepared.
        let mut lookups = Vec::new();
        let mut answer_of = |ledger: &mut Ledger, child: &Position| -> Result<u64, ProduceError> {
            if ledger.outcome(child, &mut lookups) == Some(Outcome::N) {
                return Ok(0);
            }
            if let Some(reply) = reply_in(&self.replies, child) {
                return Ok(reply);
            }
            // Folded again: components proved earlier in this round join
            // the heap.
            let child = self.normal_form(ledger, &child.parts, child.heap)?;
            let admitted = ledger.admitted();
            self.first_player_wins(ledger, &child)?;
            if ledger.admitted() != admitted {
                return Ok(0); // the round is repeated
            }
            if let Some(reply) = reply_in(&self.replies, &child) {
                return Ok(reply);
            }
            // None found: 0, which the kernel refuses.
            Ok(winning_option(ledger, &child)?.map_or(0, |i| i as u64 + 1))
        };
        let mut used = Vec::new();
        let admitted = ledger.admit_answering(&position, &mut used, &mut answer_of)?;
        self.keep(admitted, used)?;
        self.folded.insert(part);
        Ok(())
    }

    /// Proves an option of value `target` of `part`, if `part` has one, so
    /// that `part` + *target has a known answer; returns its number.
    fn answer_with_option(
        &mut self,
        ledger: &mut Ledger,
        part: Grid,
        target: u8,
    ) -> Result<Option<usize>, ProduceError> {
        let (found, parts) = match self.values.witness(&part, target) {
            Some(i) => (i, self.values.option(part, i)?),
            None => {
                let options = self.values.options(part)?;
                match self.option_of_value(&options, target)? {
                    Some(i) => (i, options[i].clone()),
                    None => return Ok(None),
                }
            }
        };
        for p in parts {
            self.prove(ledger, p)?;
        }
        let reply = u64::from(target) + found as u64 + 1;
        self.replies.insert((part, u32::from(target)), reply);
        Ok(Some(found))
    }

    /// The number of an option of value `target` among `options`, by search.
    fn option_of_value(
        &mut self,
        options: &[Vec<Grid>],
        target: u8,
    ) -> Result<Option<usize>, ProduceError> {
        // Options whose components are all valued are tried first.
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by_cached_key(|&i| {
            let parts = &options[i];
            parts
                .iter()
                .filter(|g| self.values.known(g).is_none())
                .count()
        });
        for i in order {
            if self.values.sum_has_value(&options[i], 0, target)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Makes the normal form `position` (a first-player win) known to be
    /// a first-player win, or to have an option known to be a
    /// second-player win.
    fn first_player_wins(
        &mut self,
        ledger: &mut Ledger,
        position: &Position,
    ) -> Result<(), ProduceError> {
        let mut position = position.clone();
        while position.parts.len() > 1 {
            // Prove all but the hardest component; the ledger folds them.
            let hardest = hardest(&position.parts);
            for (i, &p) in position.parts.iter().enumerate() {
                if i != hardest {
                    self.prove(ledger, p)?;
                }
            }
            position = self.normal_form(ledger, &position.parts, position.heap)?;
        }
        let Some(&part) = position.parts.first() else {
            return Ok(()); // a lone heap: nonzero, as the position is a first-player win
        };
        if self.known(ledger, &position).is_some() || reply_in(&self.replies, &position).is_some() {
            return Ok(());
        }
        let answered = match u8::try_from(position.heap) {
            Ok(target) => self.answer_with_option(ledger, part, target)?.is_some(),
            Err(_) => false,
        };
        if !answered {
            // No option has the heap's value, so the component's value is
            // smaller: proving it leaves a nonzero heap.
            self.prove(ledger, part)?;
        }
        Ok(())
    }

    /// The file of the records the root (the sum of `grids` and `heap`)
    /// depends on.
    fn finish(
        mut self,
        mut ledger: Ledger,
        grids: &[Grid],
        heap: u32,
        outcome: Outcome,
        value: Option<u32>,
    ) -> Result<Produced, ProduceError> {
        let mut used = Vec::new();
        let root = ledger.normalise(grids, heap, &mut used)?;
        // An N record changes no normal form, so `root` stays the root's.
        if outcome == Outcome::N && self.known(&ledger, &root).is_none() {
            let index = winning_option(&mut ledger, &root)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
            self.commit(&mut ledger, Record::N(root.clone(), index as u64))?;
        }
        if ledger.outcome(&root, &mut used) != Some(outcome) {
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
            decided: self.values.len(),
            written: kept.len(),
            searched: self.searched,
        })
    }
}

/// The answer prepared for `position` among `replies`, if any.
fn reply_in(replies: &FastMap<(Grid, u32), u64>, position: &Position) -> Option<u64> {
    match position.parts[..] {
        [part] => replies.get(&(part, position.heap)).copied(),
        _ => None,
    }
}

/// The number of the first option of `position` the ledger knows to be a
/// second-player win, if one is.
fn winning_option(ledger: &mut Ledger, position: &Position) -> Result<Option<usize>, Exhausted> {
    let mut lookups = Vec::new();
    ledger.options_until(position, &mut Vec::new(), &mut |ledger, child, _| {
        Ok(ledger.outcome(child, &mut lookups) == Some(Outcome::P))
    })
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

/// The six header bytes of an answer file with this ruleset byte (the
/// inverse of the kernel's `ruleset_of_header` and `rules_of_header`).
pub fn header(ruleset: u8) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend([VERSION, ruleset]);
    bytes
}

/// The header byte of an impartial ruleset in normal play.
pub fn ruleset_byte(rules: GridRules) -> u8 {
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
        Record::P(position, replies) => write_fields(
            b'P',
            position.heap,
            &position.parts,
            Body::Replies(replies),
            out,
        ),
        Record::N(position, option) => write_fields(
            b'N',
            position.heap,
            &position.parts,
            Body::One(*option),
            out,
        ),
    }
}

/// Appends a record of any tag to `out` in the file format.
pub fn write_raw(raw: &Raw, out: &mut Vec<u8>) {
    let body = match &raw.answers {
        Answers::One(option) => Body::One(*option),
        Answers::Replies(replies) => Body::Replies(replies),
    };
    write_fields(raw.tag, raw.position.heap, &raw.position.parts, body, out);
}

/// The answers of a record to write, borrowed from the record.
pub enum Body<'a> {
    /// The number of one option.
    One(u64),
    /// A count, then these numbers.
    Replies(&'a [u64]),
}

/// Appends one record: its tag, the number after it (a heap, or a misère
/// record's value), its grids and its answers.
pub fn write_fields(tag: u8, heap: u32, parts: &[Grid], body: Body, out: &mut Vec<u8>) {
    out.push(tag);
    write_varint(u64::from(heap), out);
    out.push(parts.len() as u8);
    for grid in parts {
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
