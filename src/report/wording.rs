//! Sentences for the kernel's verdicts (the kernel itself only returns facts).

use crate::kernel::budget::Exhausted;
use crate::kernel::impartial::{MoveFact, Outcome};
use crate::kernel::partizan::game::Player;
use crate::kernel::verdict::{
    DerivedFailure, DerivedKind, GrundyWitness, MakerFailure, MoveWitness, PartizanOutcome,
    Refutation, Relation, StepFailure, Undecided, Verdict,
};

/// The one-line detail of a verdict.
pub fn detail(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Verified { rule, nodes, value } => match rule {
            crate::kernel::verdict::Rule::PositionCount => format!("{value} positions counted"),
            crate::kernel::verdict::Rule::AnimalEnumeration => {
                format!("{value} animals counted by enumeration")
            }
            crate::kernel::verdict::Rule::ProofSequence => {
                format!("every situation checked; the maker wins within {value} turns")
            }
            crate::kernel::verdict::Rule::Derived(
                DerivedKind::Theorem31 | DerivedKind::Corollary33,
            ) => format!("hypotheses checked; the stage diagram bounds the game by {value} turns"),
            crate::kernel::verdict::Rule::Derived(_) if *value > 0 => {
                let plural = if *value == 1 { "" } else { "s" };
                format!("hypotheses checked; the maker wins within {value} turn{plural}")
            }
            crate::kernel::verdict::Rule::Derived(_) => "hypotheses checked".to_string(),
            crate::kernel::verdict::Rule::Paving
            | crate::kernel::verdict::Rule::Priority
            | crate::kernel::verdict::Rule::Threshold
            | crate::kernel::verdict::Rule::Classification => {
                super::breaker::verified(*rule, *value)
            }
            crate::kernel::verdict::Rule::PartizanDefinition => {
                format!("checked by the recursive definition; {nodes} comparisons")
            }
            crate::kernel::verdict::Rule::PartizanDerivation => {
                format!("every step checked by the recursive definition; {nodes} comparisons")
            }
            _ => format!("value {value} recomputed; {nodes} positions expanded"),
        },
        Verdict::Refuted {
            rule: crate::kernel::verdict::Rule::Derived(kind),
            refutation: Refutation::Derived(failure),
        } => derived_text(*kind, failure),
        Verdict::Refuted { refutation, .. } => refutation_text(refutation),
        Verdict::Undecided { reason, rule } => match reason {
            Undecided::Budget(e) => budget_text(e),
            Undecided::CountNotAGrid => {
                "position counts are defined for a single grid game only".to_string()
            }
            Undecided::OutsideLimits => match rule {
                crate::kernel::verdict::Rule::Paving => {
                    "the period has more classes of cells than the kernel checks".to_string()
                }
                crate::kernel::verdict::Rule::Classification => {
                    "classifications are checked on solids and graph boards".to_string()
                }
                crate::kernel::verdict::Rule::Priority => {
                    "the period has too many classes, or a placement more than 64 goal and guard cells (256 tracked cells)".to_string()
                }
                _ => "a Hackenbush picture has more than 64 edges, more than the kernel represents"
                    .to_string(),
            },
            Undecided::CitationNotVerified => {
                "a cited claim is not verified (see depends_on)".to_string()
            }
            Undecided::NoNumberCandidate => "not decided: no number was found that the game \
                 equals or is confused with, and it is too high for the birthday bound"
                .to_string(),
        },
    }
}

fn budget_text(e: &Exhausted) -> String {
    match e {
        Exhausted::Cancelled => "search cancelled".to_string(),
        _ => format!("budget exhausted: {}", limit_reached(e)),
    }
}

/// Which limit of a budget was reached, as a phrase.
pub fn limit_reached(e: &Exhausted) -> String {
    match e {
        Exhausted::Nodes(n) => format!("node limit of {n} positions reached"),
        Exhausted::Time(d) => format!("time limit of {} s reached", d.as_secs_f64()),
        Exhausted::Memory(n) => format!("memory cap of {n} table entries reached"),
        Exhausted::Depth(n) => format!("the search went deeper than {n} moves"),
        Exhausted::Cancelled => "search cancelled".to_string(),
    }
}

fn refutation_text(r: &Refutation) -> String {
    match r {
        Refutation::Relation { .. }
        | Refutation::PartizanOutcome { .. }
        | Refutation::NotANumber { .. }
        | Refutation::NotANumberBetween { .. }
        | Refutation::Step { .. } => partizan_text(r).unwrap_or_default(),
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
        Refutation::Maker {
            situation,
            failure,
            dimension,
        } => {
            let at = situation
                .as_ref()
                .map_or_else(|| "the start".to_string(), |s| format!("situation {s}"));
            format!(
                "{at}: {}",
                maker_text(failure, *dimension, situation.is_none())
            )
        }
        Refutation::Derived(failure) => derived_text(DerivedKind::Trivial, failure),
        Refutation::Breaker { failure, dimension } => {
            super::breaker::breaker_text(failure, *dimension)
        }
        Refutation::Threshold(failure) => super::breaker::threshold_text(failure),
        Refutation::Classify(failure) => super::breaker::classify_text(failure),
        Refutation::AnimalCount { claimed, actual } => {
            format!("there are {actual} such animals, not {claimed}")
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

fn derived_text(kind: DerivedKind, f: &DerivedFailure) -> String {
    match f {
        DerivedFailure::Hypothesis => match kind {
            DerivedKind::Trivial => "the maker cannot mark the whole goal in one turn".into(),
            DerivedKind::Proposition21 => {
                "Prop. 2.1 needs a loser claim with a < |A| and a * delta <= b".into()
            }
            DerivedKind::Proposition22 => "Prop. 2.2 needs a winner claim on a lattice with |A| = a + 1 and a * h > b".into(),
            DerivedKind::Corollary34 => "Cor. 3.4 needs a winner claim on a lattice with b < a".into(),
            DerivedKind::Monotonicity => "Lemma 5.2 gives winners with more maker marks (also in the last turn) and fewer breaker marks, losers the other way round, for the same goal".into(),
            DerivedKind::SubAnimal => "Prop. 5.5 needs the winner's goal to contain this goal (a loser's to be contained in it), in the same game".into(),
            DerivedKind::Theorem31 | DerivedKind::Corollary33 => "Thm. 3.1 needs a winner claim (a,b) on a lattice from wins whose last turn marks at most a".into(),
        },
        DerivedFailure::Citations => "the rule cites the wrong number of claims (Cor. 3.3 one (1->a,b) win)".into(),
        DerivedFailure::CitedOtherGame => "a cited claim is about another goal, board or side".into(),
        DerivedFailure::NotAPlacement { placement } => {
            format!("placement {placement} is not a placement of the goal")
        }
        DerivedFailure::PlacementsMeet { first, second, shared } => format!(
            "placements {first} and {second} share {shared} cells; they must share exactly the one cell all placements share"
        ),
        DerivedFailure::Unbounded => "a cited win has no turn bound: cite proof sequences".into(),
        DerivedFailure::SumsDoNotMatch => "the cited games' marks do not add up to the claim's (a = sum a_i, b <= sum b_i + s - 1)".into(),
    }
}

fn maker_text(f: &MakerFailure, dimension: usize, at_start: bool) -> String {
    let cell = |c: &[i32; 3]| crate::syntax::printer::cell(c, dimension);
    let option = |k: &usize| {
        if at_start {
            "its placement".to_string()
        } else if *k == 0 {
            "the pass option".to_string()
        } else {
            format!("option {k}")
        }
    };
    match f {
        MakerFailure::RepeatedCell { cell: c } => format!("cell {} is listed twice", cell(c)),
        MakerFailure::CoreInNeighbourhood { cell: c } => {
            format!("cell {} is in both the core and the neighbourhood", cell(c))
        }
        MakerFailure::MarkTooLarge {
            option: k,
            size,
            max,
        } => {
            format!(
                "{} marks {size} cells; the maker marks at most {max}",
                option(k)
            )
        }
        MakerFailure::MarkOutside { option: k, cell: c } => format!(
            "{} marks {}, which is not in the neighbourhood",
            option(k),
            cell(c)
        ),
        MakerFailure::TargetNotEarlier { option: k } => {
            format!("{}'s target is not an earlier situation", option(k))
        }
        MakerFailure::BadCongruence { option: k } => {
            format!(
                "{}'s congruence is not a congruence of the board",
                option(k)
            )
        }
        MakerFailure::CoreNotOwned { option: k, cell: c } => format!(
            "{} places a core cell of its target on {}, which the maker does not own",
            option(k),
            cell(c)
        ),
        MakerFailure::OutsideSituation { option: k, cell: c } => format!(
            "{} places its target partly outside the situation, on {}",
            option(k),
            cell(c)
        ),
        MakerFailure::Hit { cells } if cells.is_empty() => {
            "the situation has no option".to_string()
        }
        MakerFailure::Hit { cells } => {
            let list: Vec<String> = cells.iter().map(cell).collect();
            format!(
                "the breaker marks {} and every option needs one of them",
                list.join(" ")
            )
        }
        MakerFailure::RepliesNeedOneBreakerMark => {
            "replies are for games where the breaker marks one cell; list options".to_string()
        }
        MakerFailure::NoPass => {
            "no pass option answers a breaker mark outside the neighbourhood".to_string()
        }
        MakerFailure::ReplyOutside { cell: c } => {
            format!(
                "the reply to {} answers a cell outside the neighbourhood",
                cell(c)
            )
        }
        MakerFailure::ReplyNeedsMark { cell: c } => {
            format!("the reply to a breaker mark on {0} needs {0} free", cell(c))
        }
        MakerFailure::MissingReply { cell: c } => {
            format!("no reply answers a breaker mark on {}", cell(c))
        }
        MakerFailure::TurnsDoNotDrop {
            option: k,
            stated,
            target,
        } => format!(
            "it states a win within {stated} turns, but {} reaches a situation stated to need {target}",
            option(k)
        ),
        MakerFailure::TooManyTurns { stated, needed } => {
            format!("it states a win within {stated} turns, but its options need {needed}")
        }
        MakerFailure::StartTooLarge { size, max } => {
            format!("the start has {size} core cells; the maker's first turn marks at most {max}")
        }
        MakerFailure::StartOffBoard { cell: c } => {
            format!("placed on the board, it has cell {} off the board", cell(c))
        }
    }
}

/// The suggestion appended to a refuted value claim's detail.
pub fn suggestion(value: String) -> String {
    format!(" (suggested value, from the elaborator's canonical form: {value})")
}

/// The symbol of a relation.
pub fn relation_symbol(r: Relation) -> &'static str {
    match r {
        Relation::Equal => "=",
        Relation::LessOrEqual => "<=",
        Relation::GreaterOrEqual => ">=",
        Relation::Less => "<",
        Relation::Greater => ">",
        Relation::Confused => "||",
    }
}

/// The letter of a partizan outcome.
pub fn outcome_letter(o: PartizanOutcome) -> char {
    match o {
        PartizanOutcome::L => 'L',
        PartizanOutcome::R => 'R',
        PartizanOutcome::P => 'P',
        PartizanOutcome::N => 'N',
    }
}

fn move_witness_text(w: &MoveWitness) -> String {
    match w {
        MoveWitness::Move {
            player,
            in_left_game,
            option,
        } => {
            let who = match player {
                Player::Left => "Left",
                Player::Right => "Right",
            };
            let which = if *in_left_game {
                "the game"
            } else {
                "the other side"
            };
            format!("{who} moving in {which} to {option}")
        }
        MoveWitness::SmallerNumber => "both are numbers and the order is the other way".to_string(),
    }
}

fn partizan_text(r: &Refutation) -> Option<String> {
    Some(match r {
        Refutation::Relation {
            claimed,
            actual,
            witness,
        } => {
            let shown = witness
                .as_ref()
                .map(|w| format!("; refuted by {}", move_witness_text(w)))
                .unwrap_or_default();
            format!(
                "the games compare as {}, not {}{shown}",
                relation_symbol(*actual),
                relation_symbol(*claimed)
            )
        }
        Refutation::PartizanOutcome {
            claimed,
            actual,
            witness,
        } => {
            let shown = witness
                .as_ref()
                .map(|w| format!("; a winning first move: {}", move_witness_text(w)))
                .unwrap_or_default();
            format!(
                "the outcome is {}, not {}{shown}",
                outcome_letter(*actual),
                outcome_letter(*claimed)
            )
        }
        Refutation::NotANumber { confused_with } => {
            format!("not a number: the game is confused with {confused_with}")
        }
        Refutation::NotANumberBetween { low, high } => format!(
            "not a number: the game lies strictly between {low} and {high}, closer than any number of its birthday can be"
        ),
        Refutation::Step { step, failure } => {
            format!("step {step} fails: {}", step_text(failure))
        }
        _ => return None,
    })
}

fn step_text(f: &StepFailure) -> String {
    match f {
        StepFailure::NotEqual { witness } => {
            let shown = witness
                .as_ref()
                .map(|w| format!(" ({})", move_witness_text(w)))
                .unwrap_or_default();
            format!("the terms are not equal{shown}")
        }
        StepFailure::NotTheOptions => "the written options are not the position's options".into(),
        StepFailure::NotExplicit => "the rule needs both terms written as {...|...}".into(),
        StepFailure::NotASubset => "an option appears that was not there before".into(),
        StepFailure::NotDominated { option } => {
            format!("the removed option {option} is not dominated by a kept one")
        }
        StepFailure::NotReversible => "no reversible option is bypassed this way".into(),
        StepFailure::OptionsNotNumbers => {
            "the options are not numbers with every left option below every right one".into()
        }
        StepFailure::NotSimplest { expected } => {
            format!("the simplest number between the options is {expected}")
        }
        StepFailure::NotAValueClaim => "derivations prove value claims only".into(),
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
