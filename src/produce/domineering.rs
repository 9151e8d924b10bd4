//! The Domineering answer-file producer (untrusted): decides who wins
//! moving first by a memoised search and writes the records of rule P5.
//!
//! Each position is searched for each player moving first; a win is
//! written as an `L`/`R` record naming the winning option, a loss as an
//! `l`/`r` record answering each option with the opponent's winning reply
//! found earlier (0 where the opponent wins without one). Only the records
//! the root's two facts rest on are written. Options are tried best first by a mobility count (the
//! opponent's moves left minus the mover's), the usual first guess in
//! Domineering. Every record is admitted by the kernel's ledger as it is
//! decided, so the file verifies by construction.

use super::answers::{ProduceError, needed_records};
use crate::kernel::budget::Budget;
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::answers::{Answers, Position, Raw};
use crate::kernel::impartial::grid::Grid;
use crate::kernel::partizan::answers::{DOMINEERING, Ledger, moves, tag};
use crate::kernel::partizan::game::Player;
use crate::kernel::verdict::PartizanOutcome;

/// What the producer decided, and the file that shows it.
pub struct Produced {
    /// The outcome class of the position.
    pub outcome: PartizanOutcome,
    /// The answer file.
    pub bytes: Vec<u8>,
    /// Records decided in all, and records written.
    pub decided: usize,
    pub written: usize,
}

struct Search {
    ledger: Ledger,
    /// The records decided, in order, each with the records it used.
    records: Vec<(Raw, Vec<u32>)>,
    /// Wins found: per normal form and mover, the number of the winning option.
    wins: FastMap<(Vec<Grid>, bool), u64>,
}

/// The outcome class of the Domineering sum of `grids`, with its answer file.
pub fn outcome(grids: &[Grid], budget: Budget) -> Result<Produced, ProduceError> {
    let mut search = Search {
        ledger: Ledger::new(budget),
        records: Vec::new(),
        wins: FastMap::default(),
    };
    let root = search.ledger.normalise(grids)?;
    let left = search.wins_first(&root, Player::Left)?;
    let right = search.wins_first(&root, Player::Right)?;
    // Only the records the root's two facts rest on are written (each
    // record's dependencies are earlier records).
    let mut used = Vec::new();
    search.ledger.knows(&root, Player::Left, left, &mut used);
    search.ledger.knows(&root, Player::Right, right, &mut used);
    let (raws, uses): (Vec<Raw>, Vec<Vec<u32>>) = search.records.into_iter().unzip();
    let needed = needed_records(&used, &uses);
    let mut bytes = super::answers::header(DOMINEERING);
    let mut written = 0;
    for (raw, _) in raws.iter().zip(&needed).filter(|(_, n)| **n) {
        super::answers::write_raw(raw, &mut bytes);
        written += 1;
    }
    let outcome = match (left, right) {
        (true, true) => PartizanOutcome::N,
        (false, false) => PartizanOutcome::P,
        (true, false) => PartizanOutcome::L,
        (false, true) => PartizanOutcome::R,
    };
    Ok(Produced {
        outcome,
        bytes,
        decided: raws.len(),
        written,
    })
}

impl Search {
    /// Whether `mover`, moving first in the normal form `position`, wins.
    fn wins_first(&mut self, position: &[Grid], mover: Player) -> Result<bool, ProduceError> {
        let mut used = Vec::new();
        if self.ledger.knows(position, mover, true, &mut used) {
            return Ok(true);
        }
        if self.ledger.knows(position, mover, false, &mut used) {
            return Ok(false);
        }
        let other = mover.opponent();
        let options = self.ledger.options(position, mover)?;
        if let Some(index) = options
            .iter()
            .position(|after| self.ledger.knows(after, other, false, &mut used))
        {
            self.commit(position, mover, Answers::One(index as u64))?;
            return Ok(true);
        }
        let mobility = |after: &Vec<Grid>| -> i64 {
            let count = |p: Player| after.iter().map(|g| moves(*g, p).len() as i64).sum::<i64>();
            count(other) - count(mover)
        };
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by_cached_key(|&i| (mobility(&options[i]), options[i].clone()));
        order.dedup_by(|a, b| options[*a] == options[*b]);
        for index in order {
            if !self.wins_first(&options[index], other)? {
                self.commit(position, mover, Answers::One(index as u64))?;
                return Ok(true);
            }
        }
        // Every option is a win for the opponent moving first: answer each
        // by the opponent's winning reply (0 where that win needs no reply:
        // a position whose mover has no move).
        let replies = options
            .iter()
            .map(|after| {
                let key = (after.clone(), other == Player::Left);
                self.wins.get(&key).map_or(0, |&index| index + 1)
            })
            .collect();
        self.commit(position, mover, Answers::Replies(replies))?;
        Ok(false)
    }

    fn commit(
        &mut self,
        position: &[Grid],
        mover: Player,
        answers: Answers,
    ) -> Result<(), ProduceError> {
        let wins = matches!(answers, Answers::One(_));
        if let Answers::One(index) = answers {
            self.wins
                .insert((position.to_vec(), mover == Player::Left), index);
        }
        let raw = Raw {
            tag: tag(mover, wins),
            position: Position {
                parts: position.to_vec(),
                heap: 0,
            },
            answers,
        };
        let mut used = Vec::new();
        if let Err(failure) = self.ledger.admit(&raw, &mut used)? {
            return Err(ProduceError::Refused(failure));
        }
        self.records.push((raw, used));
        Ok(())
    }
}
