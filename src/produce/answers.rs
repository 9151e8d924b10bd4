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
//! The writing pass is split in two, which run side by side on two
//! threads: a planner ([`Planner`]) decides the records and their answers
//! from the search's values alone, and an admitter ([`Admitter`]) has the
//! kernel's own ledger admit each record as it arrives. The planner
//! follows the normal forms the ledger will give (rule I7's: mirrored Cram
//! components dropped, small ones and those an earlier record valued
//! folded into the heap, equal pairs cancelled), so that it knows which
//! answer each option's normal form takes; the admitter only looks the
//! answers up. So a written file is still one the kernel accepted record
//! by record, and a planner that got a normal form wrong makes the kernel
//! refuse a record (an error), never a wrong file. At the end only the
//! records the root depends on are kept (dependencies always point to
//! earlier records, so one backward pass finds them, and dropping the
//! others changes no normal form: a value a kept record used is kept).

use super::pruned::{Share, Stop, Values, hardest, slots_as_entries};
use crate::kernel::budget::{BYTES_PER_ENTRY, Budget, Exhausted};
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::Outcome;
use crate::kernel::impartial::answers::{
    Answers, Failure, Ledger, MAGIC, Position, Raw, Record, SMALL_CELLS, cancel_pairs,
    mirrored_second_player_win, version_of,
};
use crate::kernel::impartial::grid::{Grid, GridRules};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
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

/// The outcome of the sum of `grids` and a heap of `heap`, with the file
/// that shows it; `helpers` more threads help the search, and with at
/// least one the proof is admitted while it is planned.
pub fn outcome(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
    helpers: usize,
) -> Result<Produced, ProduceError> {
    let started = Instant::now();
    let mut planner = Planner::new(rules, budget.clone());
    let root = planner.normal_form(grids, heap)?;
    let mut crew = planner.values.crew(helpers);
    let second = planner
        .values
        .sum_has_value_shared(&root.parts, root.heap, 0, &mut crew)?;
    planner.values.absorb(crew);
    let searched = started.elapsed();
    let outcome = if second { Outcome::P } else { Outcome::N };
    let plan = |planner: &mut Planner| {
        if second {
            root.parts.iter().try_for_each(|&part| planner.prove(part))
        } else {
            planner.first_player_wins(&root)
        }
    };
    let finish = Finish {
        grids,
        heap,
        outcome,
        value: None,
        searched,
    };
    write(planner, plan, budget, helpers, finish)
}

/// The Grundy value of the sum of `grids` and a heap of `heap`, with the
/// file that shows that the sum plus that value is a second-player win;
/// `helpers` more threads help the search, and with at least one the proof
/// is admitted while it is planned.
pub fn grundy(
    rules: GridRules,
    grids: &[Grid],
    heap: u32,
    budget: Budget,
    helpers: usize,
) -> Result<Produced, ProduceError> {
    let started = Instant::now();
    let mut planner = Planner::new(rules, budget.clone());
    let root = planner.normal_form(grids, heap)?;
    let mut crew = planner.values.crew(helpers);
    let mut value = root.heap;
    for &part in &root.parts {
        value ^= u32::from(planner.values.value_shared(part, &mut crew)?);
    }
    planner.values.absorb(crew);
    let searched = started.elapsed();
    let plan = |planner: &mut Planner| root.parts.iter().try_for_each(|&part| planner.prove(part));
    let finish = Finish {
        grids,
        heap: heap ^ value,
        outcome: Outcome::P,
        value: Some(value),
        searched,
    };
    write(planner, plan, budget, helpers, finish)
}

/// What the file is to show once the planned records are admitted.
struct Finish<'a> {
    grids: &'a [Grid],
    heap: u32,
    outcome: Outcome,
    value: Option<u32>,
    searched: Duration,
}

/// Runs `plan` on `planner` and admits what it plans, on a thread of its
/// own when there are `helpers`, else after the planning; then the file.
fn write(
    mut planner: Planner,
    plan: impl FnOnce(&mut Planner) -> Result<(), ProduceError>,
    budget: Budget,
    helpers: usize,
    finish: Finish,
) -> Result<Produced, ProduceError> {
    let (sink, planned) = channel();
    planner.sink = Some(sink);
    let mut admitter = Admitter::new(planner.rules, budget, planner.values.share());
    let admitted = if helpers == 0 {
        plan(&mut planner)?;
        drop(planner.sink.take());
        admitter.admit_all(planned)
    } else {
        std::thread::scope(|scope| {
            let admitting = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, || admitter.admit_all(planned));
            // A thread that cannot be started is a failure to write: the
            // list it would have read is gone with it.
            let admitting = admitting.map_err(|_| ProduceError::Refused(Failure::Unestablished))?;
            let planning = catch_unwind(AssertUnwindSafe(|| plan(&mut planner)));
            // Ends the admitter's list, after a panic too: the admitter
            // would wait for the next record for ever.
            drop(planner.sink.take());
            // A panic in either goes on up, as on one thread.
            let admitted = admitting
                .join()
                .unwrap_or_else(|panic| resume_unwind(panic));
            let planning = planning.unwrap_or_else(|panic| resume_unwind(panic));
            // When the admitter failed, the planner failed to send after it.
            admitted.and(planning)
        })
    };
    admitted?;
    admitter.finish(finish, planner.values.len())
}

/// One record the planner decided: a P record of `part` plus `value`, with
/// the answers prepared since the record before it (each record's options
/// take answers prepared before it).
struct Planned {
    part: Grid,
    value: u32,
    replies: Vec<((Grid, u32), u64)>,
    /// Its memory, in memo entries, counted while it waits for the admitter.
    entries: usize,
}

/// The writing pass's first half: decides which P records the proof needs,
/// in an order in which each comes after the records it uses, and the
/// answers of their options.
struct Planner {
    values: Values,
    rules: GridRules,
    /// Components the ledger will fold into the heap because a planned
    /// record values them, with their values.
    folded: FastMap<Grid, u32>,
    /// Answers prepared for first-player wins of one component plus a
    /// heap (the only ones prepared), by component and heap: 1 + the
    /// number of the winning option. Keyed without a `Position` so that
    /// neither a lookup nor an insertion allocates.
    replies: FastMap<(Grid, u32), u64>,
    /// Answers prepared since the last record was planned.
    fresh: Vec<((Grid, u32), u64)>,
    /// Where planned records go, while the proof is written.
    sink: Option<Sender<Planned>>,
    scratch: Vec<Grid>,
    /// The maps above in the count the search's memory cap reads.
    share: Share,
}

impl Planner {
    /// A planner with empty values.
    fn new(rules: GridRules, budget: Budget) -> Planner {
        let values = Values::new(rules, budget);
        let share = values.share();
        Planner {
            values,
            rules,
            folded: FastMap::default(),
            replies: FastMap::default(),
            fresh: Vec::new(),
            sink: None,
            scratch: Vec::new(),
            share,
        }
    }

    /// The normal form the ledger gives the sum of `grids` and a heap
    /// after the records planned so far (as `Ledger::normalise` builds it).
    fn normal_form(&mut self, grids: &[Grid], heap: u32) -> Result<Position, ProduceError> {
        let mut parts = std::mem::take(&mut self.scratch);
        parts.clear();
        for grid in grids {
            grid.components_into(self.rules, &mut parts);
        }
        let position = self.folded_form(&parts, heap);
        self.scratch = parts;
        position
    }

    /// The normal form of the sum of canonical components `parts` and a
    /// heap after the records planned so far: mirrored Cram components
    /// dropped, small ones and those a record values in the heap, equal
    /// pairs cancelled.
    fn folded_form(&mut self, parts: &[Grid], heap: u32) -> Result<Position, ProduceError> {
        let mut position = Position {
            parts: Vec::with_capacity(parts.len()),
            heap,
        };
        for &part in parts {
            if self.rules == GridRules::Cram && mirrored_second_player_win(part) {
                continue;
            }
            if let Some(&value) = self.folded.get(&part) {
                position.heap ^= value;
            } else if part.free.count_ones() <= SMALL_CELLS {
                position.heap ^= u32::from(self.values.value(part)?);
            } else {
                position.parts.push(part);
            }
        }
        cancel_pairs(&mut position);
        Ok(position)
    }

    /// Folds the components of a normal form that records planned since
    /// it was built value (what the ledger's normal form then is); whether
    /// any was.
    fn refold(&self, position: &mut Position) -> bool {
        let mut kept = 0;
        for i in 0..position.parts.len() {
            let part = position.parts[i];
            if let Some(&value) = self.folded.get(&part) {
                position.heap ^= value;
            } else {
                position.parts[kept] = part;
                kept += 1;
            }
        }
        let changed = kept != position.parts.len();
        position.parts.truncate(kept);
        changed
    }

    /// Plans the records that make the ledger know a component's value:
    /// those its answers need, then a P record of the component plus its
    /// value.
    fn prove(&mut self, part: Grid) -> Result<(), ProduceError> {
        if self.folded.contains_key(&part) {
            return Ok(());
        }
        // Every part proved comes from a split (a canonical component), so
        // it is not split again: only folded, or kept.
        let position = self.folded_form(&[part], 0)?;
        let [part] = position.parts[..] else {
            return Ok(()); // small, mirrored or proved already
        };
        let value = self.values.value(part)?;
        for smaller in 0..value {
            self.answer_with_option(part, smaller)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
        }
        // The kernel builds each option's normal form when it admits the
        // record, after every record planned here. Answering an option may
        // plan records that fold components of options answered before it,
        // changing their normal forms: so the options whose normal forms
        // changed are answered again, until a round plans nothing.
        let mut children = Vec::new();
        let mut planned = self.folded.len();
        for option in self.values.options(part)? {
            let child = self.folded_form(&option, u32::from(value))?;
            self.first_player_wins(&child)?;
            children.push(child);
        }
        while self.folded.len() != planned {
            planned = self.folded.len();
            for child in &mut children {
                if self.refold(child) {
                    self.first_player_wins(child)?;
                }
            }
        }
        self.plan(part, u32::from(value))
    }

    /// Sends a P record of `part` plus `value` to the admitter.
    fn plan(&mut self, part: Grid, value: u32) -> Result<(), ProduceError> {
        self.folded.insert(part, value);
        let replies = std::mem::take(&mut self.fresh);
        let entries = (size_of::<Planned>() + replies.capacity() * size_of::<((Grid, u32), u64)>())
            .div_ceil(BYTES_PER_ENTRY);
        let record = Planned {
            part,
            value,
            replies,
            entries,
        };
        self.share
            .publish(slots_as_entries(&self.folded) + slots_as_entries(&self.replies));
        // Counted before it is sent, so that the admitter never counts off
        // more than was counted.
        self.share.sent(entries);
        match &self.sink {
            Some(sink) if sink.send(record).is_ok() => Ok(()),
            // No admitter, or it stopped (it failed; its error is the one reported).
            _ => Err(ProduceError::Refused(Failure::Unestablished)),
        }
    }

    /// Plans an option of value `target` of `part`, if `part` has one, so
    /// that `part` + *target has a known answer; returns its number.
    fn answer_with_option(
        &mut self,
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
            self.prove(p)?;
        }
        let key = (part, u32::from(target));
        let reply = u64::from(target) + found as u64 + 1;
        self.replies.insert(key, reply);
        self.fresh.push((key, reply));
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

    /// Plans what shows the normal form `position` (a first-player win)
    /// to be one: a nonzero heap, or one component and a heap with an
    /// answer prepared.
    fn first_player_wins(&mut self, position: &Position) -> Result<(), ProduceError> {
        if position.parts.len() > 1 {
            let mut position = position.clone();
            while position.parts.len() > 1 {
                // Prove all but the hardest component; the ledger folds them.
                let hardest = hardest(&position.parts);
                for i in 0..position.parts.len() {
                    if i != hardest {
                        self.prove(position.parts[i])?;
                    }
                }
                if !self.refold(&mut position) {
                    // Unreachable: a proved component is folded.
                    return Err(ProduceError::Refused(Failure::Unestablished));
                }
            }
            return self.first_player_wins(&position);
        }
        let Some(&part) = position.parts.first() else {
            return Ok(()); // a lone heap: nonzero, as the position is a first-player win
        };
        if reply_in(&self.replies, position).is_some() {
            return Ok(());
        }
        let answered = match u8::try_from(position.heap) {
            Ok(target) => self.answer_with_option(part, target)?.is_some(),
            Err(_) => false,
        };
        if !answered {
            // No option has the heap's value, so the component's value is
            // smaller: proving it leaves a nonzero heap.
            self.prove(part)?;
        }
        Ok(())
    }
}

/// The writing pass's second half: the kernel's ledger admitting each
/// planned record, with what each admitted record used.
struct Admitter {
    ledger: Ledger,
    rules: GridRules,
    records: Vec<Record>,
    /// Per record (record n at index n - 1): the records it used.
    uses: Vec<Vec<u32>>,
    /// The answers the planner prepared so far.
    replies: FastMap<(Grid, u32), u64>,
    /// Bytes of the records and their uses kept so far.
    kept: usize,
    /// The maps, records and ledger above in the count the search's
    /// memory cap reads (the ledger is also capped by its own budget).
    share: Share,
}

impl Admitter {
    fn new(rules: GridRules, budget: Budget, share: Share) -> Admitter {
        Admitter {
            ledger: Ledger::new(rules, budget),
            rules,
            records: Vec::new(),
            uses: Vec::new(),
            replies: FastMap::default(),
            kept: 0,
            share,
        }
    }

    /// Admits the planned records in the order they come.
    fn admit_all(&mut self, planned: Receiver<Planned>) -> Result<(), ProduceError> {
        planned
            .into_iter()
            .try_for_each(|record| self.admit(record))
    }

    /// Has the ledger check and admit a planned P record, its options
    /// answered as the planner prepared.
    fn admit(&mut self, planned: Planned) -> Result<(), ProduceError> {
        self.replies.extend(planned.replies);
        self.share.received(planned.entries);
        let position = Position {
            parts: vec![planned.part],
            heap: planned.value,
        };
        let replies = &self.replies;
        let mut lookups = Vec::new();
        let mut answer_of = |ledger: &mut Ledger, child: &Position| -> Result<u64, Exhausted> {
            if ledger.outcome(child, &mut lookups) == Some(Outcome::N) {
                return Ok(0);
            }
            // None prepared: 0, which the kernel refuses.
            Ok(reply_in(replies, child).unwrap_or(0))
        };
        let mut used = Vec::new();
        let admitted = self
            .ledger
            .admit_answering(&position, &mut used, &mut answer_of)?;
        self.keep(admitted, used)
    }

    /// Has the kernel admit `record` and keeps it.
    fn commit(&mut self, record: Record) -> Result<(), ProduceError> {
        let mut used = Vec::new();
        let admitted = self.ledger.admit(&record, &mut used)?;
        self.keep(admitted.map(|_| record), used)
    }

    /// Keeps a record the kernel admitted, with the records it `used`.
    fn keep(
        &mut self,
        admitted: Result<Record, Failure>,
        used: Vec<u32>,
    ) -> Result<(), ProduceError> {
        let record = admitted.map_err(ProduceError::Refused)?;
        self.kept +=
            record_bytes(&record) + size_of_val(&used) + used.capacity() * size_of::<u32>();
        self.records.push(record);
        self.uses.push(used);
        self.share.publish(
            slots_as_entries(&self.replies)
                + self.kept.div_ceil(BYTES_PER_ENTRY)
                + self.ledger.entries(),
        );
        Ok(())
    }

    /// The file of the records the root (the sum of `grids` and `heap`)
    /// depends on, with an N record of the root when it is a first-player
    /// win no record states.
    fn finish(mut self, finish: Finish, decided: usize) -> Result<Produced, ProduceError> {
        let Finish {
            grids,
            heap,
            outcome,
            value,
            searched,
        } = finish;
        let mut used = Vec::new();
        let root = self.ledger.normalise(grids, heap, &mut used)?;
        // An N record changes no normal form, so `root` stays the root's.
        if outcome == Outcome::N && self.ledger.outcome(&root, &mut Vec::new()).is_none() {
            let index = winning_option(&mut self.ledger, &root)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
            self.commit(Record::N(root.clone(), index as u64))?;
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
            decided,
            written: kept.len(),
            searched,
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
    bytes.extend([version_of(ruleset), ruleset]);
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

/// The bytes `record` takes in memory, its lists included.
fn record_bytes(record: &Record) -> usize {
    let (position, replies) = match record {
        Record::P(position, replies) => (position, replies.capacity()),
        Record::N(position, _) => (position, 0),
    };
    size_of::<Record>() + position.parts.capacity() * size_of::<Grid>() + replies * size_of::<u64>()
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
