//! Rule I4: checking an author's table of values instead of searching.
//!
//! Every entry seeds the memo with its claimed value, and then every entry is
//! checked by the mex rule against its options, whose values come from the memo
//! (entries or recomputed). An entry's own seed never enters its own check (an
//! option is strictly smaller than its position), so by induction on the height
//! of the game tree all entries are right when all checks pass; one failing
//! check refutes the table. An entry whose position splits into several
//! components is checked but does not seed (the memo holds single components).

use super::solver::{Component, Solver};
use super::{Analysis, Game, Play, analyse, components_of};
use crate::kernel::budget::Exhausted;

/// One row of a table: a position and its claimed Grundy value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The position.
    pub game: Game,
    /// Its claimed value (normal or misère, as the claim says).
    pub value: u32,
}

/// A table entry whose check failed.
#[derive(Clone, Debug)]
pub struct WrongEntry {
    /// Index of the entry in the table.
    pub entry: usize,
    /// Its recomputed analysis.
    pub analysis: Analysis,
}

/// Seeds `solver` with the table and checks every entry.
pub fn seed_and_check(
    solver: &mut Solver,
    table: &[TableEntry],
    play: Play,
) -> Result<Option<WrongEntry>, Exhausted> {
    for entry in table {
        let parts: Vec<Component> = components_of(solver, &entry.game)
            .iter()
            .flat_map(|p| solver.decompose(p))
            .collect();
        match (play, parts.as_slice()) {
            (Play::Normal, [single @ Component::Grid { .. }]) => {
                solver.seed_normal(*single, entry.value)
            }
            (Play::Normal, _) => {}
            (Play::Misere, _) => solver.seed_misere(parts, entry.value),
        }
    }
    for (i, entry) in table.iter().enumerate() {
        let analysis = analyse(solver, &entry.game, play)?;
        if analysis.value != entry.value {
            return Ok(Some(WrongEntry { entry: i, analysis }));
        }
    }
    Ok(None)
}
