//! Sentences for the kernel's verdicts (the kernel itself only returns facts).

use crate::kernel::budget::Exhausted;
use crate::kernel::impartial::answers::Failure as AnswersFailure;
use crate::kernel::impartial::period::PeriodFailure;
use crate::kernel::impartial::{MoveFact, Outcome};
use crate::kernel::partizan::game::Player;
use crate::kernel::verdict::{
    CitedVerdict, DerivedFailure, DerivedKind, GameFact, GrundyWitness, Hypothesis, IllFormed,
    MakerFailure, Malformed, MoveWitness, PartizanOutcome, Refutation, Rejection, Relation,
    Requirement, Rule, StepFailure, Undecided, Verdict,
};

/// The one-line detail of a verdict.
pub fn detail(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Verified {
            rule,
            nodes,
            measure,
            ..
        } => verified_text(*rule, *nodes, *measure),
        Verdict::Refuted { refutation, .. } => refutation_text(refutation),
        Verdict::Rejected { rule, rejection } => rejection_text(*rule, rejection),
        Verdict::Undecided { reason, rule } => undecided_text(*rule, reason),
        Verdict::Malformed { rule, reason } => malformed_text(*rule, reason),
    }
}

/// The detail of a claim taken from the verdict cache.
pub fn cached() -> String {
    "verified by an earlier run of this kernel on the same claim (from the cache)".to_string()
}

/// The detail of a claim whose check stopped at a bug.
pub fn internal_error(message: &str) -> String {
    format!(
        "internal error: the check of this claim stopped ({message}); this is a bug in gamecert, the other claims were checked"
    )
}

fn verified_text(rule: Rule, nodes: u64, measure: u64) -> String {
    match rule {
        Rule::PositionCount => format!("{measure} positions counted"),
        Rule::OctalPeriod => format!(
            "values recomputed by mex through the periodicity theorem's window; least period {measure}, least preperiod as claimed"
        ),
        Rule::AnimalEnumeration => format!("{measure} animals counted by enumeration"),
        Rule::ProofSequence => {
            format!("every situation checked; the maker wins within {measure} turns")
        }
        Rule::Derived(DerivedKind::Theorem31 | DerivedKind::Corollary33) => {
            format!("hypotheses checked; the stage diagram bounds the game by {measure} turns")
        }
        Rule::Derived(_) if measure > 0 => {
            let plural = if measure == 1 { "" } else { "s" };
            format!("hypotheses checked; the maker wins within {measure} turn{plural}")
        }
        Rule::Derived(_) => "hypotheses checked".to_string(),
        Rule::Paving | Rule::Priority | Rule::Threshold | Rule::Classification | Rule::Bound => {
            super::breaker::verified(rule, measure)
        }
        Rule::PartizanDefinition => {
            format!("checked by the recursive definition; {nodes} comparisons")
        }
        Rule::PartizanDerivation => {
            format!("every step checked by the recursive definition; {nodes} comparisons")
        }
        Rule::ImpartialSearch | Rule::ImpartialTable => {
            format!("value {measure} recomputed; {nodes} positions expanded")
        }
        Rule::ImpartialAnswers | Rule::PartizanAnswers => {
            format!("{measure} answer records checked; {nodes} positions expanded")
        }
    }
}

fn undecided_text(rule: Rule, reason: &Undecided) -> String {
    match reason {
        Undecided::Budget(e) => budget_text(e),
        Undecided::CountNotAGrid => {
            "position counts are defined for a single grid game only".to_string()
        }
        Undecided::OutsideLimits => match rule {
            Rule::Paving => "the period has more classes of cells than the kernel checks".to_string(),
            Rule::Classification => {
                "classifications are checked on solids, graph boards, plane lattices, tilings and mosaics, up to polyominoes of 16 cells (on a mosaic, within discs of at most 6,000,000 triangles)".to_string()
            }
            Rule::Priority => "the period has too many classes, or a placement more than 64 goal and guard cells (256 tracked cells)".to_string(),
            Rule::Derived(
                DerivedKind::RingPairing | DerivedKind::FanPairing | DerivedKind::LabelPairing,
            ) => "the goal is beyond what the kernel reads on a mosaic (more than 24 cells, or a disc larger than 6,000,000 triangles)".to_string(),
            Rule::Derived(_) => "a number of the rule (the stage diagram, a sum of marks) is larger than the kernel computes".to_string(),
            Rule::AnimalEnumeration => {
                "animals are counted on regions of at most 128 cells, and on mosaics within discs of at most 6,000,000 triangles".to_string()
            }
            Rule::PartizanDefinition | Rule::PartizanDerivation => "a game is larger than the kernel represents (a Hackenbush picture of more than 64 edges, or a nimber beyond *4096, a claimed Grundy value included)"
                .to_string(),
            _ => "the claim is larger than the kernel decides".to_string(),
        },
        Undecided::CitationUndecided { citation } => {
            format!("cited claim {citation} is undecided (see depends_on)")
        }
        Undecided::NoNumberCandidate => "not decided: no number was found that the game \
             equals or is confused with, nor an interval without numbers that holds it \
             (the birthday bound: the game may be too high for it, or the search for a \
             candidate ran out)"
            .to_string(),
    }
}

fn malformed_text(rule: Rule, reason: &Malformed) -> String {
    match reason {
        Malformed::Game(IllFormed::NoMakerMarks) => {
            "not a game: the maker marks at least one cell per turn".to_string()
        }
        Malformed::Game(IllFormed::CompletingBelowMarks { a, c }) => format!(
            "({a}->{c},b) is not a game: the completing turn marks c >= a cells (SPEC 3.2)"
        ),
        Malformed::Game(IllFormed::GoalNotAnAnimal) => {
            "the goal is not an animal of the board (empty, off the board, a cell twice, or not connected)".to_string()
        }
        Malformed::NotApplicable(requirement) => format!(
            "`{}` does not apply here: it needs {}",
            method_name(rule),
            requirement_text(*requirement)
        ),
        Malformed::ThresholdShape => {
            "a threshold sequence ends with its one `inf`: (b1, ..., inf)".to_string()
        }
        Malformed::CitesLater { citation } => {
            format!("cited claim {citation} is not defined before this claim")
        }
        Malformed::CoordinateTooLarge => format!(
            "a cell has a coordinate beyond {} in size, more than the kernel handles",
            crate::kernel::bounds::MAX_COORDINATE
        ),
    }
}

/// The method a rule checks, as certificates name it.
fn method_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Paving => "by pairing",
        Rule::Priority => "by priority",
        Rule::ProofSequence => "by proof-sequence",
        Rule::PartizanDerivation => "by derivation",
        Rule::Derived(kind) => match kind {
            DerivedKind::Trivial => "by trivial",
            DerivedKind::Proposition21 => "by proposition-2.1",
            DerivedKind::Proposition22 => "by proposition-2.2",
            DerivedKind::Corollary33 => "by corollary-3.3",
            DerivedKind::Corollary34 => "by corollary-3.4",
            DerivedKind::Theorem31 => "by theorem-3.1",
            DerivedKind::Monotonicity => "by monotonicity",
            DerivedKind::SubAnimal => "by sub-animal",
            DerivedKind::RingPairing => "by ring-pairing",
            DerivedKind::FanPairing => "by fan-pairing",
            DerivedKind::LabelPairing => "by label-pairing",
        },
        _ => "the method",
    }
}

fn requirement_text(r: Requirement) -> &'static str {
    match r {
        Requirement::WinnerClaim => "a winner claim",
        Requirement::LoserClaim => "a loser claim",
        Requirement::OneMakerMark => {
            "a (1,b) game: pavings, pairing trees and the pairings of mosaics answer one maker mark per turn"
        }
        Requirement::PlainGame => "an (a,b) game, without a larger completing turn",
        Requirement::InfiniteLattice => "an infinite lattice",
        Requirement::FiniteBoard => "a finite board (strategy trees)",
        Requirement::LatticeOrRegion => "a lattice or a region of one",
        Requirement::ValueClaim => "a `value` claim",
        Requirement::NotAMosaic => {
            "a board other than a hyperbolic mosaic (on mosaics the kernel checks counts, proof sequences, the derived rules trivial, monotonicity and sub-animal, the ring, fan and label pairings, and classifications by elementary winners and losers)"
        }
        Requirement::HyperbolicMosaic => "a hyperbolic mosaic (3,q) with q >= 7",
        Requirement::EvenHyperbolicMosaic => "a hyperbolic mosaic (3,q) with q even",
    }
}

fn game_fact_text(f: GameFact) -> &'static str {
    match f {
        GameFact::WholeGoalInOneTurn => {
            "the maker marks a whole placement in his first turn (c >= the goal's cells, and the goal fits the board)"
        }
        GameFact::NoPlacement => {
            "the goal has no placement on the board, so the maker never completes one"
        }
        GameFact::BreakerMarksFewer => {
            "on a lattice the maker wins whenever the breaker marks fewer cells than he does (Cor. 3.4)"
        }
    }
}

fn rejection_text(rule: Rule, r: &Rejection) -> String {
    match r {
        Rejection::Step { step, failure } => {
            format!("step {step} fails: {}", step_text(failure))
        }
        Rejection::Maker {
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
        Rejection::Derived(failure) => derived_text(rule, failure),
        Rejection::Breaker { failure, dimension } => {
            super::breaker::breaker_text(failure, *dimension)
        }
        Rejection::Threshold(failure) => super::breaker::threshold_text(failure),
        Rejection::Classify(failure) => super::breaker::classify_text(failure),
        Rejection::Bound(failure) => super::breaker::bound_text(failure),
        Rejection::Answers(failure) => answers_text(failure),
        Rejection::TableEntry {
            entry,
            claimed,
            actual,
            witness,
        } => format!(
            "table entry {} claims {claimed} but its value is {actual}: {}",
            entry + 1,
            witness_text(witness, *claimed)
        ),
        Rejection::Citation { citation, verdict } => {
            let how = match verdict {
                CitedVerdict::Refuted => "refuted",
                CitedVerdict::Rejected => "rejected",
                CitedVerdict::Error => "an error",
            };
            format!("cited claim {citation} is not verified ({how}; see depends_on)")
        }
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
        Exhausted::Steps(n) => format!("step limit of {n} reached"),
        Exhausted::Cancelled => "search cancelled".to_string(),
    }
}

/// Why an octal game's nim sequence is not periodic as claimed.
fn period_text(f: &PeriodFailure) -> String {
    match f {
        PeriodFailure::NoPeriod => "a period is at least 1".to_string(),
        PeriodFailure::NotPeriodic { heap, value, later } => {
            format!("G({heap}) = {value} but the heap one period later has value {later}")
        }
        PeriodFailure::SmallerPeriod { period } => {
            format!(
                "the sequence repeats with period {period} from the same heap on: the period is not the least"
            )
        }
        PeriodFailure::EarlierStart => {
            "the period holds from one heap earlier: the preperiod is not the least".to_string()
        }
        PeriodFailure::Value {
            heap,
            claimed,
            actual,
        } => format!("G({heap}) = {actual}, not {claimed} as written"),
    }
}

fn refutation_text(r: &Refutation) -> String {
    match r {
        Refutation::Relation { .. }
        | Refutation::PartizanOutcome { .. }
        | Refutation::NotANumber { .. }
        | Refutation::NotANumberBetween { .. } => partizan_text(r).unwrap_or_default(),
        Refutation::Game(fact) => game_fact_text(*fact).to_string(),
        Refutation::InfinityTooEarly { n, size } => format!(
            "with {n} marks per turn the maker cannot mark the {size} cells in one turn, so a breaker with enough marks wins: the entry cannot be inf"
        ),
        Refutation::Period(failure) => period_text(failure),
        Refutation::Answers { outcome, record } => {
            let who = match outcome {
                Outcome::P => "a second-player win",
                Outcome::N => "a first-player win",
            };
            format!(
                "the answer file establishes that the claim's position (for a Grundy claim G = n: G + *n) is {who} (record {record})"
            )
        }
        Refutation::MisereAnswers {
            equals,
            value,
            record,
        } => {
            let has = if *equals { "has" } else { "does not have" };
            let why = if *record == 0 {
                "a position without moves has misère value 1".to_string()
            } else {
                format!("record {record}")
            };
            format!(
                "the answer file establishes that the claim's position {has} misère value {value} ({why})"
            )
        }
        Refutation::MoverFact { mover, wins } => format!(
            "the answer file establishes that {} moving first {}, which the claimed outcome denies",
            match mover {
                Player::Left => "Left",
                Player::Right => "Right",
            },
            if *wins { "wins" } else { "loses" }
        ),
        Refutation::ClassificationCounts {
            winners,
            losers,
            elementary,
        } => {
            let which = if *elementary { "elementary " } else { "" };
            format!(
                "every animal is accounted for by verified claims: the board has {winners} {which}winners and {losers} {which}losers"
            )
        }
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
        Refutation::AnimalCount { claimed, actual } => {
            format!("there are {actual} such animals, not {claimed}")
        }
    }
}

fn derived_text(rule: Rule, f: &DerivedFailure) -> String {
    match f {
        DerivedFailure::Hypothesis(h) => format!(
            "{}: the hypothesis {} fails",
            method_name(rule),
            hypothesis_text(*h)
        ),
        DerivedFailure::Citations => "the rule cites the wrong number of claims (monotonicity, sub-animal and Cor. 3.3 cite one; Thm. 3.1 at least one; the ring, fan and label pairings none)".into(),
        DerivedFailure::CitedOtherGame { citation } => format!(
            "cited claim {citation} is not a winner or loser claim of the same side, board and goal"
        ),
        DerivedFailure::NotAPlacement { placement } => {
            format!("placement {placement} is not a placement of the goal")
        }
        DerivedFailure::PlacementsMeet { first, second, shared } => format!(
            "placements {first} and {second} share {shared} cells; they must share exactly the one cell all placements share"
        ),
        DerivedFailure::Unbounded { citation } => format!(
            "cited win {citation} has no turn bound: cite proof sequences (or claims derived from them)"
        ),
        DerivedFailure::SumsDoNotMatch => "the cited games' marks do not add up to the claim's (a = sum a_i, b <= sum b_i + s - 1)".into(),
    }
}

/// A derived rule's hypothesis, as the checklist of docs/soundness.md
/// states it.
fn hypothesis_text(h: Hypothesis) -> String {
    match h {
        Hypothesis::CompletingCoversGoal => "c >= |A| (the maker marks the whole goal in one turn)".into(),
        Hypothesis::GoalFits => "the goal has a placement on the board".into(),
        Hypothesis::CompletingBelowGoal => "c < |A| (no single turn marks the whole goal, the completing turn included)".into(),
        Hypothesis::BreakerSurrounds { delta } => {
            format!("a * delta <= b with delta = {delta} (the breaker marks every cell around a turn's marks)")
        }
        Hypothesis::GoalOneMoreThanMarks => "|A| = a + 1".into(),
        Hypothesis::ArmsOutnumberBreaker => "a * h > b (h the placements listed)".into(),
        Hypothesis::BreakerBelowMaker => "b < a".into(),
        Hypothesis::MarksMoveTheRightWay => "a >= a', c >= c', b <= b' for a winner (a <= a', c <= c', b >= b' for a loser), against the cited (a'->c',b') claim about the same goal".into(),
        Hypothesis::SameGame => "the same game (a, c, b) as the cited claim".into(),
        Hypothesis::GoalInside => "the winner's goal contains this goal (for a loser: this goal contains the cited loser's)".into(),
        Hypothesis::CitedCompletingWithinMarks => "every cited game's completing turn marks at most a (the claim's a = sum a_i)".into(),
        Hypothesis::BreakerAnswers => "b >= 1 (the breaker answers every mark with its partner)".into(),
        Hypothesis::LabelsConsistent => "the labels are a labelling of the edge ends: q of them, each in 1..q, the other end's label an involution, every triangle closing up (f(f(f(x)+1)+1) = x - 1), and the pair labels in 1..q".into(),
        Hypothesis::OnePairPerTriangle => "no triangle has two edges with a pair label".into(),
        Hypothesis::EveryPlacementHoldsAPair => "every placement of the goal holds both triangles of an edge with a pair label".into(),
        Hypothesis::GoalNotAFan => "the goal is not a fan of triangles around one vertex (every placement holds a pair of the fan pairing)".into(),
        Hypothesis::GoalMissesEveryRing => "no placement of the goal lies inside one ring around a vertex (every placement holds a pair of the ring pairing)".into(),
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
        MoveWitness::SmallerNumber => {
            "both are numbers (or sums of numbers) and the order is the other way".to_string()
        }
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

/// A move as the author wrote the position: `filling row 0 (from the top),
/// columns 1 and 2, in summand 1`.
pub fn move_text(m: &MoveFact) -> String {
    match m {
        MoveFact::Cells { part, cells } => {
            format!(
                "filling {}, in summand {}",
                grid_cells_text(cells),
                part + 1
            )
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

/// Cells of a grid position, named by rows and columns as in the board's
/// picture (row 0 the first, top row; column 0 the left one). Words, not
/// `(r,c)` pairs: the animals' and situations' cells are `(x,y)` with y
/// going up, and a pair would read as one of those. A grid move fills
/// cells of one row or one column, which is said once.
fn grid_cells_text(cells: &[(u32, u32)]) -> String {
    fn and_list(items: Vec<u32>) -> String {
        let words: Vec<String> = items.iter().map(u32::to_string).collect();
        match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => words.join(""),
        }
    }
    let plural = |n: usize, word: &str| {
        if n == 1 {
            word.to_string()
        } else {
            format!("{word}s")
        }
    };
    let Some(&(row, column)) = cells.first() else {
        return "no cell".to_string();
    };
    if cells.iter().all(|&(r, _)| r == row) {
        let columns = cells.iter().map(|&(_, c)| c).collect();
        format!(
            "row {row} (from the top), {} {}",
            plural(cells.len(), "column"),
            and_list(columns)
        )
    } else if cells.iter().all(|&(_, c)| c == column) {
        let rows = cells.iter().map(|&(r, _)| r).collect();
        format!(
            "column {column} (from the left), {} {} (from the top)",
            plural(cells.len(), "row"),
            and_list(rows)
        )
    } else {
        let pairs: Vec<String> = cells.iter().map(|(r, c)| format!("({r},{c})")).collect();
        format!("the cells (row, column) {}", pairs.join(" "))
    }
}

/// Why an answer file does not establish a claim.
fn answers_text(f: &AnswersFailure) -> String {
    match f {
        AnswersFailure::Header => {
            "the answer file does not start with GCWA, a known ruleset and its format version (3 for Cram, 2 for the others; files of an older version are regenerated with `prove`)"
                .to_string()
        }
        AnswersFailure::Truncated { offset } => {
            format!("the answer file ends inside the record at byte {offset}")
        }
        AnswersFailure::Malformed { offset, what } => {
            format!("the answer file's record at byte {offset} has {what}")
        }
        AnswersFailure::NotAMove { record } => {
            format!("record {record} names an option its position does not have")
        }
        AnswersFailure::AnswerCount { record, options } => format!(
            "record {record}: its position has {options} options in normal form, and the record does not answer each once"
        ),
        AnswersFailure::Unanswered { record, option } => format!(
            "record {record} (P): option {option} is not shown to be a first-player win (no earlier N record, or its answer leads to no established second-player win)"
        ),
        AnswersFailure::WrongAnswer { record } => format!(
            "record {record}: its winning option does not lead to a position an earlier record shows to be lost for the player to move there"
        ),
        AnswersFailure::FalseRecord { record } => {
            format!("record {record} (P): a lone nonzero heap is a first-player win")
        }
        AnswersFailure::NotASum => {
            "answer files cover sums of grids of the file's ruleset and nim heaps in normal play (sums of grids alone in misère play, with a misère ruleset byte)"
                .to_string()
        }
        AnswersFailure::Unestablished => {
            "no record of the answer file establishes the claim's position".to_string()
        }
        AnswersFailure::Terminal { record } => format!(
            "record {record} is about a position without moves, whose misère value (1) needs no record"
        ),
        AnswersFailure::MissingValue { record, value } => format!(
            "record {record} (E): its option for value {value} is not shown to have misère value {value}"
        ),
        AnswersFailure::NotShownDifferent {
            record,
            option,
            value,
        } => format!(
            "record {record}: option {option} is not shown to have a misère value other than {value} (no earlier record, or its answer leads to no option established to have value {value})"
        ),
    }
}
