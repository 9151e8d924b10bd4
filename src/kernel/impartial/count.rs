//! Rule I5: counting the positions reachable from a grid position.
//!
//! Positions are occupancy patterns of the board, as Schneider counts them:
//! two move sequences that fill the same cells reach the same position. The
//! count up to symmetry counts orbits under the symmetries of the rectangle
//! that map the start position onto itself; since the start and the rules are
//! invariant under those symmetries, the reachable set is a union of orbits and
//! each orbit is counted once through its least member.

use super::Game;
use super::grid::Grid;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastSet;

/// Why a count was not computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountFailure {
    /// The budget ran out.
    Exhausted(Exhausted),
    /// Counting is defined here for a single grid game only.
    NotAGrid,
}

impl From<Exhausted> for CountFailure {
    fn from(e: Exhausted) -> Self {
        CountFailure::Exhausted(e)
    }
}

/// The number of positions reachable from `game` (including itself), or of
/// their orbits when `up_to_symmetry`.
pub fn count_positions(
    game: &Game,
    up_to_symmetry: bool,
    budget: &mut Budget,
) -> Result<u64, CountFailure> {
    let parts = game.parts();
    let [Game::Grid { rules, grid }] = parts.as_slice() else {
        return Err(CountFailure::NotAGrid);
    };
    let (rules, start) = (*rules, *grid);
    let mut seen = FastSet::default();
    seen.insert(start.free);
    let mut stack = vec![start.free];
    while let Some(free) = stack.pop() {
        budget.expand(seen.len())?;
        let position = Grid { free, ..start };
        position.for_each_move(rules, &mut |placed| {
            if seen.insert(free & !placed) {
                stack.push(free & !placed);
            }
            budget.tick()
        })?;
    }
    if !up_to_symmetry {
        return Ok(seen.len() as u64);
    }
    let group = start.stabiliser();
    let mut orbits: u64 = 0;
    for &free in &seen {
        budget.tick()?;
        let position = Grid { free, ..start };
        if group.iter().all(|&s| position.transform(s).free >= free) {
            orbits = orbits.saturating_add(1);
        }
    }
    Ok(orbits)
}
