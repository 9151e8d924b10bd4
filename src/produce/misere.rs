//! The misère answer-file producer (untrusted): decides misère outcomes
//! and Grundy values of sums of grid games and writes what it decided as a
//! misère answer file (rule I8) for the kernel to check.
//!
//! Two passes. The search answers questions "is g-(X) = v?" depth first,
//! remembering per position what it learnt (the exact value, values
//! excluded, an upper bound), and stops at the first option that settles a
//! question: an option of value v says no at once, and for v = 0 that is
//! the whole misère outcome search. The writer then proves the root's fact
//! goal-directed, asking the search again where it needs a witness, and
//! writes each record after the records it relies on.
//!
//! Key decision: every record is admitted by the kernel's own ledger the
//! moment it is written, and the writer reads "already shown" only from
//! that ledger. So a written file is one the kernel accepts by
//! construction, and a producer bug shows as a refused record, never as a
//! wrong file.

use super::answers::{Body, ProduceError, header, ruleset_byte, write_fields};
use crate::kernel::budget::Budget;
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::Outcome;
use crate::kernel::impartial::answers::Failure;
use crate::kernel::impartial::grid::{Grid, GridRules};
use crate::kernel::impartial::misere::{Ledger, MISERE_RULESET, Position, Record};
use std::time::{Duration, Instant};

/// What the producer decided, and the file that shows it.
pub struct Produced {
    /// The misère Grundy value, when it was asked for.
    pub value: Option<u32>,
    /// The root's misère outcome (P: value 0).
    pub outcome: Outcome,
    /// The answer file.
    pub bytes: Vec<u8>,
    /// Positions the search learnt something about, and records written.
    pub decided: usize,
    pub written: usize,
    /// Time spent searching before the proof was written.
    pub searched: Duration,
}

/// What the search learnt about one position.
#[derive(Clone, Copy)]
struct Learnt {
    exact: Option<u32>,
    /// g- <= this.
    at_most: Option<u32>,
    /// Bit v: g- != v (values below 64).
    excluded: u64,
    /// Per value v below [`WITNESSED`]: the number of an option of value v
    /// (in the kernel's option order), or `NONE`.
    witness: [u16; WITNESSED],
}

/// Values whose witnessing options the search remembers.
const WITNESSED: usize = 4;
const NONE: u16 = u16::MAX;

impl Default for Learnt {
    fn default() -> Self {
        Learnt {
            exact: None,
            at_most: None,
            excluded: 0,
            witness: [NONE; WITNESSED],
        }
    }
}

impl Learnt {
    /// The number of an option the search found to have `value`.
    fn witness(&self, value: u32) -> Option<u64> {
        let w = *self.witness.get(value as usize)?;
        (w != NONE).then_some(u64::from(w))
    }

    fn remember(&mut self, value: u32, option: usize) {
        if let (Some(slot), Ok(option)) =
            (self.witness.get_mut(value as usize), u16::try_from(option))
        {
            *slot = option;
        }
    }

    fn answer(&self, value: u32) -> Option<bool> {
        if let Some(e) = self.exact {
            return Some(e == value);
        }
        let excluded = self.at_most.is_some_and(|b| value > b)
            || (value < 64 && self.excluded >> value & 1 == 1);
        excluded.then_some(false)
    }
}

/// The search and the writer's state.
struct Search {
    learnt: FastMap<Position, Learnt>,
    /// The kernel's ledger: the records admitted so far.
    ledger: Ledger,
    bytes: Vec<u8>,
    written: usize,
    budget: Budget,
}

/// The misère Grundy value of the sum of `grids`, with the file that shows it.
pub fn grundy(rules: GridRules, grids: &[Grid], budget: Budget) -> Result<Produced, ProduceError> {
    let started = Instant::now();
    let mut search = Search::new(rules, budget);
    let root = search.ledger.normalise(grids);
    let mut value = 0;
    while !search.equals(&root, value)? {
        value += 1;
    }
    let searched = started.elapsed();
    search.prove_equals(&root, value)?;
    Ok(search.finish(Some(value), value == 0, searched))
}

/// The misère outcome of the sum of `grids`, with the file that shows it.
pub fn outcome(rules: GridRules, grids: &[Grid], budget: Budget) -> Result<Produced, ProduceError> {
    let started = Instant::now();
    let mut search = Search::new(rules, budget);
    let root = search.ledger.normalise(grids);
    let second = search.equals(&root, 0)?;
    let searched = started.elapsed();
    if second {
        search.prove_equals(&root, 0)?;
    } else {
        search.prove_has(&root, 0)?;
    }
    Ok(search.finish(None, second, searched))
}

impl Search {
    fn new(rules: GridRules, budget: Budget) -> Search {
        let bytes = file_bytes(rules, []);
        Search {
            learnt: FastMap::default(),
            ledger: Ledger::new(rules, Budget::unlimited()),
            bytes,
            written: 0,
            budget,
        }
    }

    /// The normal forms of the options of `position`, in the kernel's order.
    fn options(&mut self, position: &Position) -> Result<Vec<Position>, ProduceError> {
        self.budget.expand(self.learnt.len())?;
        Ok(self.ledger.options(position)?)
    }

    /// Whether g-(position) = value, searching as far as needed.
    fn equals(&mut self, position: &Position, value: u32) -> Result<bool, ProduceError> {
        if position.is_empty() {
            return Ok(value == 1);
        }
        if let Some(answer) = self.learnt.get(position).and_then(|l| l.answer(value)) {
            return Ok(answer);
        }
        let options = self.options(position)?;
        // Each distinct option once, those already known to have the value
        // first (one settles it), otherwise in the order of their normal
        // forms (measured: on 3 x 12 a search in this order takes a fifth
        // of the time one in the kernel's move order takes).
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_unstable_by(|&a, &b| options[a].cmp(&options[b]).then(a.cmp(&b)));
        order.dedup_by(|a, b| options[*a] == options[*b]);
        order.sort_by_key(|&i| {
            self.learnt.get(&options[i]).and_then(|l| l.answer(value)) != Some(true)
        });
        for &i in &order {
            if self.equals(&options[i], value)? {
                self.learn(position, |l| {
                    if value < 64 {
                        l.excluded |= 1 << value;
                    }
                    l.remember(value, i);
                });
                return Ok(false);
            }
        }
        for smaller in 0..value {
            let mut found = None;
            for &i in &order {
                if self.equals(&options[i], smaller)? {
                    found = Some(i);
                    break;
                }
            }
            match found {
                Some(i) => self.learn(position, |l| l.remember(smaller, i)),
                None => {
                    // `smaller` is missing among the options' values.
                    self.learn(position, |l| {
                        l.at_most = Some(l.at_most.map_or(smaller, |b| b.min(smaller)));
                        if smaller == 0 {
                            l.exact = Some(0);
                        }
                    });
                    return Ok(false);
                }
            }
        }
        self.learn(position, |l| l.exact = Some(value));
        Ok(true)
    }

    fn learn(&mut self, position: &Position, f: impl FnOnce(&mut Learnt)) {
        f(self.learnt.entry(position.clone()).or_default());
    }

    /// Writes `record`, which the kernel's ledger must admit.
    fn commit(&mut self, record: Record) -> Result<(), ProduceError> {
        self.budget.tick()?;
        if let Err(failure) = self.ledger.admit(&record)? {
            return Err(ProduceError::Refused(failure));
        }
        write_record(&record, &mut self.bytes);
        self.written += 1;
        Ok(())
    }

    /// The number of the first option of `position` with value `value`
    /// (the search must know there is one).
    fn option_of_value(
        &mut self,
        position: &Position,
        options: &[Position],
        value: u32,
    ) -> Result<Option<usize>, ProduceError> {
        // Prefer options the ledger knows already: no new records.
        if let Some(i) = options.iter().position(|o| self.ledger.equals(o, value)) {
            return Ok(Some(i));
        }
        let witness = self.learnt.get(position).and_then(|l| l.witness(value));
        if let Some(i) = witness.and_then(|w| usize::try_from(w).ok()) {
            return Ok(Some(i));
        }
        for (i, option) in options.iter().enumerate() {
            if self.equals(option, value)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Makes the ledger know g-(position) = value by an `E` record.
    fn prove_equals(&mut self, position: &Position, value: u32) -> Result<(), ProduceError> {
        if self.ledger.equals(position, value) {
            return Ok(());
        }
        let options = self.options(position)?;
        let mut answers = Vec::with_capacity(value as usize + options.len());
        for smaller in 0..value {
            let index = self
                .option_of_value(position, &options, smaller)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
            self.prove_equals(&options[index], smaller)?;
            answers.push(index as u64);
        }
        for option in &options {
            answers.push(self.reason_differs(option, value)?);
        }
        self.commit(Record::Equals {
            position: position.clone(),
            value,
            answers,
        })
    }

    /// Makes the ledger know g-(position) != value by an `H` record.
    fn prove_has(&mut self, position: &Position, value: u32) -> Result<(), ProduceError> {
        if self.ledger.differs(position, value) {
            return Ok(());
        }
        let options = self.options(position)?;
        let index = self
            .option_of_value(position, &options, value)?
            .ok_or(ProduceError::Refused(Failure::Unestablished))?;
        self.prove_equals(&options[index], value)?;
        self.commit(Record::Has {
            position: position.clone(),
            value,
            option: index as u64,
        })
    }

    /// Makes the ledger know g-(position) <= value by a `U` record.
    fn prove_at_most(&mut self, position: &Position, value: u32) -> Result<(), ProduceError> {
        let options = self.options(position)?;
        let mut reasons = Vec::with_capacity(options.len());
        for option in &options {
            reasons.push(self.reason_differs(option, value)?);
        }
        self.commit(Record::AtMost {
            position: position.clone(),
            value,
            reasons,
        })
    }

    /// A reason that `option` does not have value `value`: 0 when the
    /// ledger knows it (after writing what shows it, if needed), otherwise
    /// 1 + the number of an option of `option` with that value.
    fn reason_differs(&mut self, option: &Position, value: u32) -> Result<u64, ProduceError> {
        if self.ledger.differs(option, value) {
            return Ok(0);
        }
        if self.equals(option, value)? {
            // The search says the option has the value: a producer bug.
            return Err(ProduceError::Refused(Failure::Unestablished));
        }
        let learnt = self.learnt.get(option).copied().unwrap_or_default();
        if let Some(k) = learnt.witness(value) {
            let reply = self
                .ledger
                .option(option, k)?
                .ok_or(ProduceError::Refused(Failure::Unestablished))?;
            self.prove_equals(&reply, value)?;
            return Ok(1 + k);
        }
        // A smaller value missing among its options.
        let missing = match (learnt.at_most, learnt.exact) {
            (Some(m), _) if m < value => Some(m),
            (_, Some(w)) if w < value => Some(w),
            _ => None,
        };
        if let Some(m) = missing {
            self.prove_at_most(option, m)?;
            return Ok(0);
        }
        let replies = self.options(option)?;
        if let Some(k) = self.option_of_value(option, &replies, value)? {
            self.prove_equals(&replies[k], value)?;
            return Ok(1 + k as u64);
        }
        for smaller in 0..value {
            if self.option_of_value(option, &replies, smaller)?.is_none() {
                self.prove_at_most(option, smaller)?;
                return Ok(0);
            }
        }
        // The option's value would be `value`: the search said otherwise
        // (a producer bug).
        Err(ProduceError::Refused(Failure::Unestablished))
    }

    fn finish(self, value: Option<u32>, second_player_wins: bool, searched: Duration) -> Produced {
        Produced {
            value,
            outcome: if second_player_wins {
                Outcome::P
            } else {
                Outcome::N
            },
            decided: self.learnt.len(),
            written: self.written,
            searched,
            bytes: self.bytes,
        }
    }
}

/// A misère answer file of `records` for grids of `rules`.
pub fn file_bytes<'a>(rules: GridRules, records: impl IntoIterator<Item = &'a Record>) -> Vec<u8> {
    let mut bytes = header(MISERE_RULESET + ruleset_byte(rules));
    for record in records {
        write_record(record, &mut bytes);
    }
    bytes
}

/// Appends `record` to `out` in the file format (the producer's writer;
/// the kernel's reader is the one trusted).
pub fn write_record(record: &Record, out: &mut Vec<u8>) {
    let (tag, position, value, body) = match record {
        Record::Equals {
            position,
            value,
            answers,
        } => (b'E', position, value, Body::Replies(answers)),
        Record::Has {
            position,
            value,
            option,
        } => (b'H', position, value, Body::One(*option)),
        Record::AtMost {
            position,
            value,
            reasons,
        } => (b'U', position, value, Body::Replies(reasons)),
    };
    write_fields(tag, *value, position, body, out);
}
