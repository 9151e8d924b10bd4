//! Where in a certificate a verdict points: the part of the claim's text
//! that failed (a situation, an option, a cited id, a placement, a table
//! entry, a derivation step, the statement's value), with a short label.
//!
//! Key decision: the kernel's facts carry indices and names (option 3 of
//! situation s2, citation 1, step 4); this module finds them in the
//! claim's syntax tree. What the elaborator filled in has no text of its
//! own, and then the location falls back to the method, so every
//! REFUTED, REJECTED or ERROR verdict points somewhere in the file.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::verdict::{
    BoundFailure, BreakerFailure, ClassifyFailure, DerivedFailure, MakerFailure, Malformed,
    Rejection, ThresholdFailure, Verdict,
};
use crate::syntax::ast::{self, Answer, Method, Span, Statement};

/// A part of a claim's text and what to say under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The part's bytes in the file.
    pub span: Span,
    /// A few words under the span.
    pub label: String,
}

impl Location {
    fn new(span: Span, label: impl Into<String>) -> Location {
        Location {
            span,
            label: label.into(),
        }
    }
}

/// The part of `claim` a verdict points at; `None` for VERIFIED and
/// UNDECIDED verdicts, which point nowhere in particular.
pub fn locate(claim: &ast::Claim, verdict: &Verdict) -> Option<Location> {
    let method = Location::new(claim.method.span, "this method");
    Some(match verdict {
        Verdict::Verified { .. } | Verdict::Undecided { .. } => return None,
        Verdict::Refuted { .. } => Location::new(claim.statement.span, "this claim is false"),
        Verdict::Rejected { rejection, .. } => rejected(claim, rejection).unwrap_or(method),
        Verdict::Malformed { reason, .. } => malformed(claim, reason).unwrap_or(method),
    })
}

/// The cited ids of a claim as written.
fn cites(claim: &ast::Claim) -> &[ast::Spanned<String>] {
    match &claim.method.node {
        Method::Derived { cites, .. } | Method::Citation(cites) | Method::Enumeration(cites) => {
            cites
        }
        _ => &[],
    }
}

/// The `citation`-th cited id (counting from 1).
fn citation(claim: &ast::Claim, citation: usize) -> Option<Location> {
    let id = cites(claim).get(citation.checked_sub(1)?)?;
    Some(Location::new(id.span, "this cited claim"))
}

/// The span from the first to the last of some written cells.
fn cells_span(cells: &[ast::Spanned<Vec<i64>>]) -> Option<Span> {
    Some(Span::new(cells.first()?.span.start, cells.last()?.span.end))
}

fn malformed(claim: &ast::Claim, reason: &Malformed) -> Option<Location> {
    match reason {
        Malformed::Game(_) => match &claim.statement.node {
            Statement::Winner { game, .. } | Statement::Loser { game, .. } => {
                Some(Location::new(game.span, "not a game"))
            }
            _ => None,
        },
        Malformed::NotApplicable(_) => Some(Location::new(claim.method.span, "does not apply")),
        Malformed::ThresholdShape => match &claim.statement.node {
            Statement::Threshold { sequence, .. } => {
                Some(Location::new(sequence.span, "ends with its one inf"))
            }
            _ => None,
        },
        Malformed::CitesLater { citation: k } => citation(claim, *k),
        Malformed::CoordinateTooLarge => None,
    }
}

fn rejected(claim: &ast::Claim, rejection: &Rejection) -> Option<Location> {
    match rejection {
        Rejection::Citation { citation: k, .. } => citation(claim, *k),
        Rejection::Derived(failure) => derived(claim, failure),
        Rejection::Maker {
            situation, failure, ..
        } => maker(claim, situation.as_deref(), failure),
        Rejection::Breaker { failure, .. } => breaker(claim, failure),
        Rejection::Threshold(failure) => match failure {
            ThresholdFailure::CitedOtherGoal { citation: k } => citation(claim, *k),
            ThresholdFailure::MissingWinner { n, .. }
            | ThresholdFailure::MissingLoser { n, .. } => match &claim.statement.node {
                Statement::Threshold { sequence, .. } => Some(Location::new(
                    sequence.span,
                    format!("the entry for {n} maker marks"),
                )),
                _ => None,
            },
        },
        Rejection::Classify(ClassifyFailure::CitedOtherGame { citation: k })
        | Rejection::Bound(BoundFailure::CitedOtherGame { citation: k }) => citation(claim, *k),
        Rejection::Bound(BoundFailure::TooMany { .. }) => Some(Location::new(
            claim.statement.span,
            "more possible winners than this bound",
        )),
        Rejection::Classify(_) => Some(Location::new(
            claim.method.span,
            "the cited winners and losers",
        )),
        Rejection::Answers(_) => Some(Location::new(claim.method.span, "this answer file")),
        Rejection::TableEntry { entry, .. } => match &claim.method.node {
            Method::Table(rows) => rows
                .get(*entry)
                .map(|row| Location::new(row.value.span, "this entry's value is wrong")),
            _ => None,
        },
        Rejection::Step { step, .. } => match &claim.method.node {
            Method::Derivation(steps) => steps
                .get(step.checked_sub(1)?)
                .map(|s| Location::new(s.game.span, format!("step {step}"))),
            _ => None,
        },
    }
}

fn derived(claim: &ast::Claim, failure: &DerivedFailure) -> Option<Location> {
    let Method::Derived {
        rule, placements, ..
    } = &claim.method.node
    else {
        return None;
    };
    let placement = |k: usize, label: &str| {
        cells_span(placements.get(k.checked_sub(1)?)?).map(|span| Location::new(span, label))
    };
    match failure {
        DerivedFailure::Hypothesis(_) | DerivedFailure::SumsDoNotMatch => {
            Some(Location::new(rule.span, "its hypothesis fails"))
        }
        DerivedFailure::Citations => Some(Location::new(rule.span, "cites the wrong number")),
        DerivedFailure::CitedOtherGame { citation: k }
        | DerivedFailure::Unbounded { citation: k } => citation(claim, *k),
        DerivedFailure::NotAPlacement { placement: k } => placement(*k, "not a placement"),
        DerivedFailure::PlacementsMeet { second, .. } => {
            placement(*second, "meets an earlier placement elsewhere")
        }
    }
}

/// The situation named `name` in a written proof sequence.
fn situation<'a>(claim: &'a ast::Claim, name: &str) -> Option<&'a ast::SituationAst> {
    match &claim.method.node {
        Method::ProofSequence(body) => body.situations.iter().find(|s| s.name.node == name),
        _ => None,
    }
}

fn maker(claim: &ast::Claim, name: Option<&str>, failure: &MakerFailure) -> Option<Location> {
    let Some(name) = name else {
        return match &claim.method.node {
            Method::ProofSequence(ast::ProofBody {
                start: Some(start), ..
            }) => Some(Location::new(start.target.span, "the start")),
            _ => None,
        };
    };
    let s = situation(claim, name)?;
    let whole = Location::new(s.name.span, format!("situation {name}"));
    let reply = |cell: &Cell| {
        s.options.iter().find_map(|o| match &o.answer {
            Answer::Reply(c) if same_cell(&c.node, cell) => {
                Some(Location::new(o.span, "this reply"))
            }
            _ => None,
        })
    };
    // Options count from 1 among the written `option` lines (or replies);
    // 0 is the pass option.
    let option = |k: usize| {
        let found = if k == 0 {
            s.options.iter().find(|o| matches!(o.answer, Answer::Pass))
        } else {
            s.options
                .iter()
                .filter(|o| !matches!(o.answer, Answer::Pass))
                .nth(k - 1)
        };
        found.map(|o| Location::new(o.span, format!("option {k}")))
    };
    let at = match failure {
        MakerFailure::MarkTooLarge { option: k, .. }
        | MakerFailure::MarkOutside { option: k, .. }
        | MakerFailure::TargetNotEarlier { option: k }
        | MakerFailure::BadCongruence { option: k }
        | MakerFailure::CoreNotOwned { option: k, .. }
        | MakerFailure::OutsideSituation { option: k, .. }
        | MakerFailure::TurnsDoNotDrop { option: k, .. } => option(*k),
        MakerFailure::ReplyOutside { cell }
        | MakerFailure::ReplyNeedsMark { cell }
        | MakerFailure::MissingReply { cell } => reply(cell),
        _ => None,
    };
    Some(at.unwrap_or(whole))
}

/// Whether written coordinates are the cell (trailing coordinates 0).
fn same_cell(written: &[i64], cell: &Cell) -> bool {
    written.len() <= 3 && (0..3).all(|i| written.get(i).copied().unwrap_or(0) == i64::from(cell[i]))
}

fn breaker(claim: &ast::Claim, failure: &BreakerFailure) -> Option<Location> {
    let body_span = match &claim.method.node {
        Method::Pairing(body) => body.span,
        Method::Priority(body) => body.span,
        _ => return None,
    };
    let pair_with = |cell: &Cell| match &claim.method.node {
        Method::Pairing(body) => body.pairs.iter().find_map(|(u, w)| {
            (same_cell(&u.node, cell) || same_cell(&w.node, cell))
                .then(|| Location::new(Span::new(u.span.start, w.span.end), "this pair"))
        }),
        _ => None,
    };
    let class_of = |cell: &Cell| match &claim.method.node {
        Method::Priority(body) => body
            .classes
            .iter()
            .find(|c| same_cell(&c.class.node, cell))
            .map(|c| Location::new(c.class.span, "this class")),
        _ => None,
    };
    let at = match failure {
        BreakerFailure::PairOffBoard { cell } | BreakerFailure::PairOfOneCell { cell } => {
            pair_with(cell)
        }
        BreakerFailure::Degree { cell, .. } => pair_with(cell),
        BreakerFailure::ClassTwice { class } | BreakerFailure::RuleNeverApplies { class, .. } => {
            class_of(class)
        }
        BreakerFailure::MissingMove { path, .. } => tree_node(claim, path)
            .map(|node| Location::new(node.span, "no answer here to one of the maker's marks")),
        BreakerFailure::Unpaired { path, .. } if !path.is_empty() => tree_node(claim, path)
            .map(|node| Location::new(node.span, "these pairs leave a placement unpaired")),
        BreakerFailure::MoveTwice { path, cell }
        | BreakerFailure::MoveNotFree { path, cell }
        | BreakerFailure::MakerCompletes { path, cell }
        | BreakerFailure::ReplyTooLarge { path, cell }
        | BreakerFailure::ReplyNotFree { path, cell }
        | BreakerFailure::BadSymmetry { path, cell } => tree_node(claim, path).and_then(|node| {
            node.moves
                .iter()
                .find(|m| same_cell(&m.mark.node, cell))
                .map(|m| Location::new(m.mark.span, "this move"))
        }),
        BreakerFailure::UnknownSituation { path, .. }
        | BreakerFailure::SituationDiffers { path, .. } => {
            let (last, parent) = path.split_last()?;
            tree_node(claim, parent).and_then(|node| {
                node.moves.iter().find_map(|m| match &m.answer {
                    ast::MoveAnswerAst::Same { name, .. } if same_cell(&m.mark.node, last) => {
                        Some(Location::new(name.span, "this situation"))
                    }
                    _ => None,
                })
            })
        }
        BreakerFailure::SituationTwice { path, .. } => tree_node(claim, path)
            .map(|node| Location::new(node.span, "the second situation of this name")),
        _ => None,
    };
    Some(at.unwrap_or(Location::new(body_span, "this strategy")))
}

/// The node of a pairing's strategy tree reached by the maker's marks
/// `path` (each answered by a written `reply`), if the tree is written
/// that far.
fn tree_node<'a>(claim: &'a ast::Claim, path: &[Cell]) -> Option<&'a ast::PairingBody> {
    let Method::Pairing(body) = &claim.method.node else {
        return None;
    };
    let mut node: &ast::PairingBody = body;
    for mark in path {
        node = node.moves.iter().find_map(|m| match &m.answer {
            ast::MoveAnswerAst::Reply { then, .. } if same_cell(&m.mark.node, mark) => Some(then),
            _ => None,
        })?;
    }
    Some(node)
}
