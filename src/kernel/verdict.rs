//! What the kernel concludes about a claim: facts, never sentences.
//!
//! Every variant carries ids, cells and values only; `report` turns them into
//! words. Each fact has a stable code (`Verdict::code`) that tests match on.

use crate::kernel::budget::Exhausted;
use crate::kernel::impartial::{MoveFact, Outcome, ValuedOption};

/// The kernel rule a verdict rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// I1-I3: memoised search with components and symmetry.
    ImpartialSearch,
    /// I4: an author's table, every entry checked (with I1-I3 below it).
    ImpartialTable,
    /// I5: exhaustive traversal of the reachable positions.
    PositionCount,
}

impl Rule {
    /// The stable name printed in reports.
    pub fn code(self) -> &'static str {
        match self {
            Rule::ImpartialSearch => "impartial.search",
            Rule::ImpartialTable => "impartial.table",
            Rule::PositionCount => "impartial.count",
        }
    }
}

/// Why a Grundy value is not the claimed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrundyWitness {
    /// An option has the claimed value (so the value is not it).
    OptionWithClaimedValue(ValuedOption),
    /// No option has this smaller value (so the value is at most it).
    MissingValue(u32),
    /// A misère position without moves has value 1.
    MisereTerminal,
}

/// A claim shown false, with the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The Grundy value differs.
    Grundy {
        claimed: u32,
        actual: u32,
        witness: GrundyWitness,
    },
    /// The outcome differs; for a claimed P the winning move of the next player.
    Outcome {
        claimed: Outcome,
        value: u32,
        winning_move: Option<MoveFact>,
        options: usize,
    },
    /// The position count differs.
    Count { claimed: u64, actual: u64 },
    /// A table entry is wrong (so the table does not support the claim).
    TableEntry {
        entry: usize,
        claimed: u32,
        actual: u32,
        witness: GrundyWitness,
    },
}

/// Why the kernel did not decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// The search budget ran out.
    Budget(Exhausted),
    /// Position counts are defined for a single grid game only.
    CountNotAGrid,
}

/// The kernel's answer for one claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every step was checked; `nodes` positions were expanded, `value` is the
    /// recomputed quantity (Grundy value or count).
    Verified { rule: Rule, nodes: u64, value: u64 },
    /// The claim is false or its certificate wrong.
    Refuted { rule: Rule, refutation: Refutation },
    /// Not decided.
    Undecided { rule: Rule, reason: Undecided },
}
