//! Rule P5: outcomes of Domineering positions from answer files (the
//! format of rule I7 with ruleset byte 3; docs/language.md, "Answer files").
//!
//! Four facts can hold of a position: Left moving first wins, Left moving
//! first loses, and the same for Right. A record `L` (`R`) names a Left
//! (Right) option after which the opponent, moving first, loses; a record
//! `l` (`r`) answers every Left (Right) option with an opponent's winning
//! reply, or 0 when that the opponent wins there moving first is already
//! known. Records rely only on facts admitted before them, as in rule I7.
//!
//! Key decision: positions are whole sums, never split into values (a
//! partizan outcome is not a function of the parts' outcomes); the normal
//! form only sorts the components, each reduced to the least of its images
//! under the flips that keep vertical dominoes vertical.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): cell
// indices stay below 64 and record numbers below 2^32.
#![allow(clippy::arithmetic_side_effects)]

use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::answers::{Answers, Failure, Raw, Reader, ruleset_of_header};
use crate::kernel::impartial::grid::Grid;
use crate::kernel::partizan::game::Player;

/// The ruleset byte of Domineering answer files.
pub const DOMINEERING: u8 = 3;

/// A fact's bit: the player moving first wins or loses.
pub fn fact(mover: Player, wins: bool) -> u8 {
    1 << slot(mover, wins)
}

/// A fact's place among the four.
fn slot(mover: Player, wins: bool) -> usize {
    match (mover, wins) {
        (Player::Left, true) => 0,
        (Player::Left, false) => 1,
        (Player::Right, true) => 2,
        (Player::Right, false) => 3,
    }
}

/// The record tag of a fact (what [`Ledger::admit`] reads back): `L`/`R`
/// the mover wins moving first, `l`/`r` the mover loses.
pub fn tag(mover: Player, wins: bool) -> u8 {
    match (mover, wins) {
        (Player::Left, true) => b'L',
        (Player::Left, false) => b'l',
        (Player::Right, true) => b'R',
        (Player::Right, false) => b'r',
    }
}

/// The facts admitted so far: per normal form, the record that established
/// each of the four facts (0: not established).
pub struct Ledger {
    facts: FastMap<Vec<Grid>, [u32; 4]>,
    /// Grids the keys of `facts` hold: a key is a whole sum, so the
    /// memory cap counts them too, not only the entries.
    grids_held: usize,
    admitted: u32,
    budget: Budget,
}

impl Ledger {
    /// An empty ledger.
    pub fn new(budget: Budget) -> Ledger {
        Ledger {
            facts: FastMap::default(),
            grids_held: 0,
            admitted: 0,
            budget,
        }
    }

    /// The memory held, in the budget's entries: one per fact, and a
    /// quarter per grid its key holds (a 16-byte grid against the 64
    /// bytes an entry is counted at).
    fn held(&self) -> usize {
        self.facts.len() + self.grids_held / 4
    }

    /// The normal form of the sum of `grids`: its parts, each the least of
    /// its upright flips, cells without a free neighbour dropped, sorted.
    pub fn normalise(&mut self, grids: &[Grid]) -> Result<Vec<Grid>, Exhausted> {
        self.budget.tick()?;
        let mut parts: Vec<Grid> = grids.iter().flat_map(Grid::flip_components).collect();
        parts.sort_unstable();
        Ok(parts)
    }

    /// Whether `mover` moving first wins (or loses) the normal form
    /// `position` by an admitted record (pushed to `used`), or loses there
    /// without a move.
    pub fn knows(&self, position: &[Grid], mover: Player, wins: bool, used: &mut Vec<u32>) -> bool {
        if let Some(&record) = self.facts.get(position).map(|f| &f[slot(mover, wins)])
            && record != 0
        {
            used.push(record);
            return true;
        }
        !wins && position.iter().all(|g| moves(*g, mover).is_empty())
    }

    /// The normal forms of `mover`'s options of `position`, in option order
    /// (component by component, moves by their first cell).
    pub fn options(
        &mut self,
        position: &[Grid],
        mover: Player,
    ) -> Result<Vec<Vec<Grid>>, Exhausted> {
        let mut out = Vec::new();
        self.options_until(position, mover, &mut |_, option| {
            out.push(option);
            Ok(false)
        })?;
        Ok(out)
    }

    /// Passes the normal forms of `mover`'s options of `position` to
    /// `stop` one at a time, in option order, until it returns true; only
    /// one option is held at a time (a sum's options can be many and
    /// large).
    fn options_until(
        &mut self,
        position: &[Grid],
        mover: Player,
        stop: &mut impl FnMut(&mut Ledger, Vec<Grid>) -> Result<bool, Exhausted>,
    ) -> Result<(), Exhausted> {
        for (i, part) in position.iter().enumerate() {
            for cells in moves(*part, mover) {
                self.budget.expand(self.held())?;
                let mut grids = position.to_vec();
                grids[i] = part.with(part.free & !cells);
                let option = self.normalise(&grids)?;
                if stop(self, option)? {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The normal form of `mover`'s option `index` of `position`, if it has one.
    pub fn option(
        &mut self,
        position: &[Grid],
        mover: Player,
        index: u64,
    ) -> Result<Option<Vec<Grid>>, Exhausted> {
        self.budget.expand(self.held())?;
        let mut index = index;
        for (i, part) in position.iter().enumerate() {
            let moves = moves(*part, mover);
            match usize::try_from(index).ok().and_then(|k| moves.get(k)) {
                Some(&cells) => {
                    let mut grids = position.to_vec();
                    grids[i] = part.with(part.free & !cells);
                    return Ok(Some(self.normalise(&grids)?));
                }
                None => index = index.saturating_sub(moves.len() as u64),
            }
        }
        Ok(None)
    }

    /// Checks one record against the facts admitted before it and admits
    /// it; the records it relied on are pushed to `used`.
    pub fn admit(
        &mut self,
        raw: &Raw,
        used: &mut Vec<u32>,
    ) -> Result<Result<(), Failure>, Exhausted> {
        self.admitted += 1;
        let record = self.admitted;
        let (mover, wins) = match raw.tag {
            b'L' => (Player::Left, true),
            b'l' => (Player::Left, false),
            b'R' => (Player::Right, true),
            b'r' => (Player::Right, false),
            _ => return Ok(Err(Failure::NotAMove { record })),
        };
        let position = self.normalise(&raw.position.parts)?;
        let opponent = mover.opponent();
        let holds = match &raw.answers {
            Answers::One(option) if wins => match self.option(&position, mover, *option)? {
                Some(after) => self.knows(&after, opponent, false, used),
                None => return Ok(Err(Failure::NotAMove { record })),
            },
            Answers::Replies(replies) if !wins => {
                // Counted before any option is built: a record with the
                // wrong count is refused without the work.
                let options: usize = position.iter().map(|g| moves(*g, mover).len()).sum();
                if options != replies.len() {
                    return Ok(Err(Failure::AnswerCount { record, options }));
                }
                // Options shown answered, in order: the walk stops at the
                // first that is not.
                let mut answered = 0;
                self.options_until(&position, mover, &mut |ledger, after| {
                    // The count matched, so every option has a reply.
                    let reply = replies.get(answered).copied().unwrap_or(u64::MAX);
                    let shown = match reply.checked_sub(1) {
                        None => ledger.knows(&after, opponent, true, used),
                        Some(r) => match ledger.option(&after, opponent, r)? {
                            Some(reply) => ledger.knows(&reply, mover, false, used),
                            None => false,
                        },
                    };
                    answered += usize::from(shown);
                    Ok(!shown)
                })?;
                if answered < options {
                    let option = answered;
                    return Ok(Err(Failure::Unanswered { record, option }));
                }
                true
            }
            _ => return Ok(Err(Failure::NotAMove { record })),
        };
        if !holds {
            return Ok(Err(Failure::WrongAnswer { record }));
        }
        let grids = position.len();
        let facts = self.facts.entry(position).or_insert_with(|| [0; 4]);
        if facts.iter().all(|&r| r == 0) {
            self.grids_held += grids;
        }
        facts[slot(mover, wins)] = record;
        self.budget.hold(self.held())?;
        Ok(Ok(()))
    }

    /// Records admitted so far.
    pub fn admitted(&self) -> u32 {
        self.admitted
    }

    /// The budget with the work charged so far.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }
}

/// The cells of each of `mover`'s moves in one component (Left: vertical
/// dominoes, Right: horizontal), by first cell.
pub fn moves(grid: Grid, mover: Player) -> Vec<u64> {
    let w = u32::from(grid.cols);
    let mut starts = match mover {
        Player::Left => grid.free & (grid.free >> w),
        Player::Right => {
            let last_column = (0..u32::from(grid.rows)).fold(0u64, |m, r| m | 1 << (r * w + w - 1));
            grid.free & (grid.free >> 1) & !last_column
        }
    };
    let step = match mover {
        Player::Left => w,
        Player::Right => 1,
    };
    let mut out = Vec::new();
    while starts != 0 {
        let i = starts.trailing_zeros();
        starts &= starts - 1;
        out.push(1u64 << i | 1u64 << (i + step));
    }
    out
}

/// What an answer file shows about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The facts (bits of [`fact`]) established of the position.
    Facts { facts: u8, records: u32 },
    /// A record fails.
    Fails(Failure),
}

/// Admits every record of `bytes` and reads off the facts of the sum of `grids`.
pub fn verify(
    grids: &[Grid],
    bytes: &[u8],
    budget: Budget,
) -> (Result<Finding, Exhausted>, Budget) {
    let mut ledger = Ledger::new(budget);
    let finding = admit_all(&mut ledger, grids, bytes);
    (finding, ledger.budget)
}

fn admit_all(ledger: &mut Ledger, grids: &[Grid], bytes: &[u8]) -> Result<Finding, Exhausted> {
    match ruleset_of_header(bytes) {
        Ok(DOMINEERING) => {}
        Ok(_) => return Ok(Finding::Fails(Failure::NotASum)),
        Err(failure) => return Ok(Finding::Fails(failure)),
    }
    let mut reader = Reader::new(bytes);
    let mut used = Vec::new();
    while let Some(raw) = reader.next_raw() {
        let raw = match raw {
            Ok(raw) => raw,
            Err(failure) => return Ok(Finding::Fails(failure)),
        };
        used.clear();
        if let Err(failure) = ledger.admit(&raw, &mut used)? {
            return Ok(Finding::Fails(failure));
        }
    }
    let root = ledger.normalise(grids)?;
    let mut facts = 0;
    for mover in [Player::Left, Player::Right] {
        for wins in [true, false] {
            if ledger.knows(&root, mover, wins, &mut used) {
                facts |= fact(mover, wins);
            }
        }
    }
    Ok(Finding::Facts {
        facts,
        records: ledger.admitted,
    })
}
