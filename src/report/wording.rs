//! Sentences for the kernel's verdicts (the kernel itself only returns facts).

use crate::kernel::budget::Exhausted;
use crate::kernel::impartial::{MoveFact, Outcome};
use crate::kernel::verdict::{GrundyWitness, Refutation, Undecided, Verdict};

/// The one-line detail of a verdict.
pub fn detail(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Verified { rule, nodes, value } => match rule {
            crate::kernel::verdict::Rule::PositionCount => format!("{value} positions counted"),
            _ => format!("value {value} recomputed; {nodes} positions expanded"),
        },
        Verdict::Refuted { refutation, .. } => refutation_text(refutation),
        Verdict::Undecided { reason, .. } => match reason {
            Undecided::Budget(e) => budget_text(e),
            Undecided::CountNotAGrid => {
                "position counts are defined for a single grid game only".to_string()
            }
        },
    }
}

fn budget_text(e: &Exhausted) -> String {
    match e {
        Exhausted::Nodes(n) => format!("budget exhausted: node limit of {n} positions reached"),
        Exhausted::Time(d) => format!(
            "budget exhausted: time limit of {} s reached",
            d.as_secs_f64()
        ),
        Exhausted::Memory(n) => {
            format!("budget exhausted: memory cap of {n} table entries reached")
        }
        Exhausted::Depth(n) => format!("budget exhausted: the search went deeper than {n} moves"),
        Exhausted::Cancelled => "search cancelled".to_string(),
    }
}

fn refutation_text(r: &Refutation) -> String {
    match r {
        Refutation::Grundy {
            claimed,
            actual,
            witness,
        } => {
            format!(
                "the value is {actual}, not {claimed}: {}",
                witness_text(witness, *claimed)
            )
        }
        Refutation::Outcome {
            claimed: Outcome::P,
            value,
            winning_move,
            ..
        } => {
            let mv = winning_move
                .as_ref()
                .map_or_else(|| "no move".to_string(), move_text);
            format!(
                "the position is N (value {value}): the next player wins by {mv}, which leaves value 0"
            )
        }
        Refutation::Outcome {
            claimed: Outcome::N,
            options,
            ..
        } => {
            if *options == 0 {
                "the position is P: the next player has no move".to_string()
            } else {
                format!("the position is P: all {options} options have a nonzero value")
            }
        }
        Refutation::Count { claimed, actual } => {
            format!("{actual} positions are reachable, not {claimed}")
        }
        Refutation::TableEntry {
            entry,
            claimed,
            actual,
            witness,
        } => format!(
            "table entry {} claims {claimed} but its value is {actual}: {}",
            entry + 1,
            witness_text(witness, *claimed)
        ),
    }
}

fn witness_text(w: &GrundyWitness, claimed: u32) -> String {
    match w {
        GrundyWitness::OptionWithClaimedValue(o) => {
            format!("the option {} has value {claimed}", move_text(&o.mv))
        }
        GrundyWitness::MissingValue(v) => format!("no option has value {v}"),
        GrundyWitness::MisereTerminal => {
            "no move is left, and a misère terminal position has value 1".to_string()
        }
    }
}

/// A move as the author wrote the position: `fill (r,c) (r,c) in summand k`.
pub fn move_text(m: &MoveFact) -> String {
    match m {
        MoveFact::Cells { part, cells } => {
            let cells: Vec<String> = cells.iter().map(|(r, c)| format!("({r},{c})")).collect();
            format!("filling {} in summand {}", cells.join(" "), part + 1)
        }
        MoveFact::Heap { part, from, to } => {
            let to = if to.is_empty() {
                "nothing".to_string()
            } else {
                to.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            format!("turning heap {from} (summand {}) into {to}", part + 1)
        }
    }
}
