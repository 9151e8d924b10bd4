//! From an impartial claim and its evidence to a verdict.

use super::answers::{self, Failure, Finding};
use super::count::{CountFailure, count_positions};
use super::misere::{self, Wanted};
use super::period::{self, PeriodClaim};
use super::solver::Solver;
use super::table::{TableEntry, seed_and_check};
use super::{Analysis, Game, Outcome, Play, analyse};
use crate::kernel::budget::Budget;
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::{GrundyWitness, Refutation, Rejection, Rule, Undecided, Verdict};

/// A fully explicit impartial claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `grundy [misere] GAME = value`.
    Grundy { play: Play, game: Game, value: u32 },
    /// `outcome [misere] GAME = P|N`.
    Outcome {
        play: Play,
        game: Game,
        outcome: Outcome,
    },
    /// `count positions [up to symmetry] GAME = count`.
    CountPositions {
        game: Game,
        up_to_symmetry: bool,
        count: u64,
    },
    /// `period octal CODE = (n0, p)`.
    Period(PeriodClaim),
}

/// What the certificate offers in support.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// Nothing: the kernel recomputes.
    Search,
    /// Values to check instead of searching.
    Table(Vec<TableEntry>),
    /// The bytes of an answer file (rule I7).
    Answers(super::answers::FileBytes),
}

/// Checks one claim within `budget`.
///
/// `helpers` threads may search alongside (see [`Solver::with_helpers`]); the
/// verdict does not depend on them, only the time and the node count do.
pub fn check(
    statement: &Statement,
    evidence: &Evidence,
    budget: Budget,
    helpers: usize,
) -> Verdict {
    let rule = match evidence {
        Evidence::Search => Rule::ImpartialSearch,
        Evidence::Table(_) => Rule::ImpartialTable,
        Evidence::Answers(bytes) => return check_answers(statement, &bytes.bytes, budget),
    };
    let (play, game) = match statement {
        Statement::Grundy { play, game, .. } | Statement::Outcome { play, game, .. } => {
            (*play, game)
        }
        Statement::CountPositions {
            game,
            up_to_symmetry,
            count,
        } => {
            return check_count(game, *up_to_symmetry, *count, budget);
        }
        Statement::Period(claim) => return check_period(claim, budget),
    };
    let mut solver = Solver::new(budget);
    solver.helpers = helpers;
    if let Evidence::Table(table) = evidence {
        match seed_and_check(&mut solver, table, play) {
            Err(e) => {
                return Verdict::Undecided {
                    rule,
                    reason: Undecided::Budget(e),
                };
            }
            Ok(Some(wrong)) => {
                let claimed = table[wrong.entry].value;
                return Verdict::Rejected {
                    rule,
                    rejection: Rejection::TableEntry {
                        entry: wrong.entry,
                        claimed,
                        actual: wrong.analysis.value,
                        witness: grundy_witness(&wrong.analysis, claimed, play),
                    },
                };
            }
            Ok(None) => {}
        }
    }
    let analysis = match analyse(&mut solver, game, play) {
        Ok(a) => a,
        Err(e) => {
            return Verdict::Undecided {
                rule,
                reason: Undecided::Budget(e),
            };
        }
    };
    let nodes = solver.budget.nodes();
    let verified = Verdict::Verified {
        rule,
        nodes,
        measure: u64::from(analysis.value),
        theorem: Theorem::new(Established::Impartial(statement.clone())),
    };
    match statement {
        Statement::Grundy { value, .. } if *value == analysis.value => verified,
        Statement::Grundy { value, .. } => Verdict::Refuted {
            rule,
            refutation: Refutation::Grundy {
                claimed: *value,
                actual: analysis.value,
                witness: grundy_witness(&analysis, *value, play),
            },
        },
        Statement::Outcome { outcome, .. } if *outcome == Outcome::of_value(analysis.value) => {
            verified
        }
        Statement::Outcome { outcome, .. } => Verdict::Refuted {
            rule,
            refutation: Refutation::Outcome {
                claimed: *outcome,
                value: analysis.value,
                winning_move: analysis
                    .options
                    .iter()
                    .find(|o| o.value == 0)
                    .map(|o| o.mv.clone()),
                options: analysis.options.len(),
            },
        },
        // Position counts and periods returned above; this arm only keeps
        // the kernel free of unreachable paths, and decides nothing.
        Statement::CountPositions { .. } | Statement::Period(_) => Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        },
    }
}

/// The evidence that `analysis.value` is not `claimed`.
fn grundy_witness(analysis: &Analysis, claimed: u32, play: Play) -> GrundyWitness {
    if play == Play::Misere && analysis.options.is_empty() {
        return GrundyWitness::MisereTerminal;
    }
    match analysis.options.iter().find(|o| o.value == claimed) {
        Some(option) => GrundyWitness::OptionWithClaimedValue(option.clone()),
        None => GrundyWitness::MissingValue(analysis.value),
    }
}

fn check_period(claim: &PeriodClaim, mut budget: Budget) -> Verdict {
    let rule = Rule::OctalPeriod;
    match period::check(claim, &mut budget) {
        Ok(Some(Ok(()))) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: claim.period,
            theorem: Theorem::new(Established::Impartial(Statement::Period(claim.clone()))),
        },
        Ok(Some(Err(failure))) => Verdict::Refuted {
            rule,
            refutation: Refutation::Period(failure),
        },
        Ok(None) => Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}

fn check_count(game: &Game, up_to_symmetry: bool, claimed: u64, mut budget: Budget) -> Verdict {
    let rule = Rule::PositionCount;
    match count_positions(game, up_to_symmetry, &mut budget) {
        Ok(actual) if actual == claimed => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: actual,
            theorem: Theorem::new(Established::Impartial(Statement::CountPositions {
                game: game.clone(),
                up_to_symmetry,
                count: claimed,
            })),
        },
        Ok(actual) => Verdict::Refuted {
            rule,
            refutation: Refutation::Count { claimed, actual },
        },
        Err(CountFailure::Exhausted(e)) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
        Err(CountFailure::NotAGrid) => Verdict::Undecided {
            rule,
            reason: Undecided::CountNotAGrid,
        },
    }
}

/// Rule I7: a normal-play Grundy or outcome claim from an answer file. A
/// Grundy claim G = n holds iff G + *n is a second-player win.
fn check_answers(statement: &Statement, bytes: &[u8], budget: Budget) -> Verdict {
    let rule = Rule::ImpartialAnswers;
    let (game, extra, wanted) = match statement {
        Statement::Grundy {
            play: Play::Normal,
            game,
            value,
        } => (game, *value, Outcome::P),
        Statement::Outcome {
            play: Play::Normal,
            game,
            outcome,
        } => (game, 0, *outcome),
        Statement::Grundy {
            play: Play::Misere,
            game,
            value,
        } => return check_misere_answers(statement, game, Wanted::Equals(*value), bytes, budget),
        Statement::Outcome {
            play: Play::Misere,
            game,
            outcome,
        } => {
            let wanted = match outcome {
                Outcome::P => Wanted::Equals(0),
                Outcome::N => Wanted::Differs(0),
            };
            return check_misere_answers(statement, game, wanted, bytes, budget);
        }
        _ => {
            return Verdict::Rejected {
                rule,
                rejection: Rejection::Answers(Failure::NotASum),
            };
        }
    };
    let rules = match answers::rules_of_header(bytes) {
        Ok(rules) => rules,
        Err(failure) => {
            return Verdict::Rejected {
                rule,
                rejection: Rejection::Answers(failure),
            };
        }
    };
    let Some((grids, heap)) = answers::as_sum(game, rules) else {
        return Verdict::Rejected {
            rule,
            rejection: Rejection::Answers(Failure::NotASum),
        };
    };
    let heap = heap ^ extra;
    let (finding, budget) = answers::verify(rules, &grids, heap, wanted, bytes, budget);
    match finding {
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
        Ok(Finding::Holds { records }) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: u64::from(records),
            theorem: Theorem::new(Established::Impartial(statement.clone())),
        },
        Ok(Finding::Opposite { outcome, record }) => Verdict::Refuted {
            rule,
            refutation: Refutation::Answers { outcome, record },
        },
        Ok(Finding::Fails(failure)) => Verdict::Rejected {
            rule,
            rejection: Rejection::Answers(failure),
        },
    }
}

/// Rule I8: a misère Grundy or outcome claim from a misère answer file. The
/// game must be a sum of grids of the file's ruleset (no heaps: misère
/// values do not add).
fn check_misere_answers(
    statement: &Statement,
    game: &Game,
    wanted: Wanted,
    bytes: &[u8],
    budget: Budget,
) -> Verdict {
    let rule = Rule::ImpartialAnswers;
    let rejected = |failure| Verdict::Rejected {
        rule,
        rejection: Rejection::Answers(failure),
    };
    let rules = match misere::rules_of_header(bytes) {
        Ok(rules) => rules,
        Err(failure) => return rejected(failure),
    };
    let Some(grids) = misere::grids_of(game, rules) else {
        return rejected(Failure::NotASum);
    };
    let (finding, budget) = misere::verify(rules, &grids, wanted, bytes, budget);
    match finding {
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
        Ok(misere::Finding::Holds { records }) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: u64::from(records),
            theorem: Theorem::new(Established::Impartial(statement.clone())),
        },
        Ok(misere::Finding::Opposite { record }) => Verdict::Refuted {
            rule,
            refutation: Refutation::MisereAnswers {
                equals: matches!(wanted, Wanted::Differs(_)),
                value: match wanted {
                    Wanted::Equals(v) | Wanted::Differs(v) => v,
                },
                record,
            },
        },
        Ok(misere::Finding::Fails(failure)) => rejected(failure),
    }
}
