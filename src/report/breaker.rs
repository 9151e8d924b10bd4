//! Sentences for the verdicts of breaker strategies, threshold sequences
//! and classifications.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::verdict::{
    BoundFailure, BreakerFailure, ClassifyFailure, Rule, ThresholdFailure,
};
use crate::syntax::printer;

/// Cells as certificates write them, separated by spaces.
fn cells(list: &[Cell], dimension: usize) -> String {
    list.iter()
        .map(|c| printer::cell(c, dimension))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where in a strategy tree: after the maker's marks on `path` (nothing
/// at the root, which is the whole strategy of a plain paving).
fn node(path: &[Cell], dimension: usize) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("after the maker marks {}, ", cells(path, dimension))
    }
}

/// The detail of a verified breaker, threshold or classification claim
/// (`rule` one of theirs).
pub fn verified(rule: Rule, value: u64) -> String {
    match rule {
        Rule::Paving if value <= 1 => {
            "every placement holds a related pair; no cell has more partners than the breaker has marks".to_string()
        }
        Rule::Paving => format!(
            "every maker move answered in a tree of {value} nodes; every leaf's pairing spoils every placement left"
        ),
        Rule::Threshold => format!("each of the {value} entries has its winner and loser"),
        Rule::Bound => format!(
            "{value} polyominoes contain no cited loser (every larger one contains one)"
        ),
        Rule::Priority => format!(
            "no order of maker marks completes any of the {value} placements searched (modulo the period)"
        ),
        _ => format!("all {value} animals of the board are accounted for by the cited claims"),
    }
}

/// Why a breaker strategy fails.
pub fn breaker_text(f: &BreakerFailure, dimension: usize) -> String {
    let cell = |c: &Cell| printer::cell(c, dimension);
    match f {
        BreakerFailure::PairOffBoard { cell: c } => {
            format!("pair cell {} is not on the board", cell(c))
        }
        BreakerFailure::PairOfOneCell { cell: c } => {
            format!("a pair relates {} to itself", cell(c))
        }
        BreakerFailure::NoPeriod => {
            "a paving of an infinite lattice needs a period (`period V1 V2`)".into()
        }
        BreakerFailure::PeriodOnFiniteBoard => {
            "a pairing on a finite board lists its pairs: no period".into()
        }
        BreakerFailure::PeriodNotATranslation { index } => {
            format!("period vector {index} is not a translation of the lattice")
        }
        BreakerFailure::PeriodSingular => {
            "the period vectors do not span the lattice (they are dependent)".into()
        }
        BreakerFailure::Degree { cell: c, partners } => format!(
            "cell {} is related to {} cells ({}), more than the breaker marks per turn",
            cell(c),
            partners.len(),
            cells(partners, dimension)
        ),
        BreakerFailure::Unpaired { path, placement } => format!(
            "{}the placement {} holds no related pair of free cells",
            node(path, dimension),
            cells(placement, dimension)
        ),
        BreakerFailure::MissingMove { path, cell: c } => format!(
            "{}the maker may mark {} and no answer is given",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::MoveTwice { path, cell: c } => format!(
            "{}the maker's mark on {} is answered twice",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::MoveNotFree { path, cell: c } => format!(
            "{}{} is not a free cell of the board",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::MakerCompletes { path, cell: c } => format!(
            "{}marking {} completes a placement: the maker wins",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::ReplyTooLarge { path, cell: c } => format!(
            "{}the reply to {} has more cells than the breaker marks, or repeats one",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::ReplyNotFree { path, cell: c } => format!(
            "{}the reply cell {} is not free",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::BadSymmetry { path, cell: c } => format!(
            "{}the congruence answering {} does not fix the position or does not take an answered move to it",
            node(path, dimension),
            cell(c)
        ),
        BreakerFailure::UnknownSituation { path, name } => format!(
            "{}no situation named `{name}` is completed before this point of the tree",
            node(path, dimension)
        ),
        BreakerFailure::SituationDiffers { path, name } => format!(
            "{}the marks here are not those of the situation `{name}` moved by the congruence",
            node(path, dimension)
        ),
        BreakerFailure::SituationTwice { path, name } => format!(
            "{}a second situation is named `{name}`",
            node(path, dimension)
        ),
        BreakerFailure::ClassTwice { class } => {
            format!("two class blocks name the class of {}", cell(class))
        }
        BreakerFailure::RuleNeverApplies {
            class,
            rule,
            shadowed_by,
        } => format!(
            "rule {rule} of the class of {} never applies: whenever its guard holds, so does the guard of rule {shadowed_by}",
            cell(class)
        ),
        BreakerFailure::MakerOrder { placement, turns } => format!(
            "the maker completes the placement {} by marking {} (turns separated by `;`; his other marks elsewhere)",
            cells(placement, dimension),
            turns
                .iter()
                .map(|t| cells(t, dimension))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// Why a threshold sequence is not established.
pub fn threshold_text(f: &ThresholdFailure) -> String {
    match f {
        ThresholdFailure::CitedOtherGoal { citation } => {
            format!(
                "cited claim {citation} is not a winner or loser claim about this animal and board"
            )
        }
        ThresholdFailure::MissingWinner { n, b } => {
            format!("no cited claim makes the animal a ({n},{b})-winner")
        }
        ThresholdFailure::MissingLoser { n, b } => {
            format!("no cited claim makes the animal a ({n},{b})-loser")
        }
    }
}

/// Why a bound on the winners fails.
pub fn bound_text(f: &BoundFailure) -> String {
    match f {
        BoundFailure::CitedOtherGame { citation } => {
            format!("cited claim {citation} is not a loser of this board's (1,1) game")
        }
        BoundFailure::TooMany {
            candidates,
            example,
            dimension,
        } => format!(
            "{candidates} polyominoes contain no cited loser, more than the bound; one is {}",
            cells(example, *dimension)
        ),
    }
}

/// Why a classification fails.
pub fn classify_text(f: &ClassifyFailure) -> String {
    match f {
        ClassifyFailure::CitedOtherGame { citation } => {
            format!("cited claim {citation} does not decide this board's (1,1) game")
        }
        ClassifyFailure::Unaccounted { animal, dimension } => format!(
            "the animal {} is inside no cited winner and contains no cited loser",
            cells(animal, *dimension)
        ),
        ClassifyFailure::Contradiction { animal, dimension } => format!(
            "the cited claims make the animal {} both a winner and a loser",
            cells(animal, *dimension)
        ),
        ClassifyFailure::NoGroup => {
            "the board's automorphisms as listed do not form a group (a kernel defect)".to_string()
        }
    }
}
