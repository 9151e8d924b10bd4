//! Explicit certificates as the producers, the importer and `gamecert
//! elaborate` write them: kernel proof sequences turned back into the
//! syntax tree, printed in the canonical layout (`syntax::format`).
//!
//! Key decision: one writer. What a producer writes parses back to the
//! proof sequence it found, because it is printed by the printer whose
//! round trip the tests check on every shipped file.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::maker::congruence::Congruence;
use crate::kernel::maker::{Justification, MakerOption, ProofSequence, Target};
use crate::syntax::ast::{
    Answer, CellList, MapAst, OptionAst, ProofBody, SituationAst, Span, Spanned, StartAst,
};
use crate::syntax::format::proof_body_text;

/// Nodes written here have no place in a source: every span is this one.
fn nowhere<T>(node: T) -> Spanned<T> {
    Spanned {
        node,
        span: Span::default(),
    }
}

/// A cell as written on a board of `dimension` (1: a face, 2: the plane,
/// 3: cubic).
fn cell_ast(c: &Cell, dimension: usize) -> Spanned<Vec<i64>> {
    nowhere(
        c.iter()
            .take(dimension.clamp(1, 3))
            .map(|&v| i64::from(v))
            .collect(),
    )
}

/// Cells as written.
pub fn cells_ast(cells: &[Cell], dimension: usize) -> CellList {
    cells.iter().map(|c| cell_ast(c, dimension)).collect()
}

/// Cells as certificates write them, separated by spaces.
pub fn cells_text(cells: &[Cell], dimension: usize) -> String {
    let one = |c: &Cell| crate::syntax::printer::cell(c, dimension);
    cells.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// A congruence as written after `at`.
fn congruence_ast(map: &Congruence, dimension: usize) -> Spanned<MapAst> {
    nowhere(match map {
        Congruence::Lattice { element, shift } => MapAst::Lattice {
            element: *element as u64,
            shift: shift
                .iter()
                .take(dimension.clamp(2, 3))
                .map(|&v| i64::from(v))
                .collect(),
        },
        Congruence::Permutation(image) => {
            MapAst::Permutation(image.iter().map(|&v| u64::from(v)).collect())
        }
        Congruence::Flag(flag) => MapAst::Lattice {
            element: u64::from(flag.index),
            shift: vec![i64::from(flag.triangle)],
        },
    })
}

/// A kernel proof sequence as a syntax tree: every option with its marks,
/// target and congruence, the per-reply form with its pass first.
pub fn proof_body(proof: &ProofSequence, dimension: usize) -> ProofBody {
    let name = |t: &Target| match t {
        Target::Goal => "goal".to_string(),
        Target::Situation(j) => proof
            .situations
            .get(*j)
            .map_or_else(|| format!("#{j}"), |s| s.0.name.clone()),
    };
    let option = |answer: Answer, o: &MakerOption| OptionAst {
        answer,
        mark: cells_ast(&o.mark, dimension),
        target: nowhere(name(&o.target)),
        map: Some(congruence_ast(&o.map, dimension)),
        span: Span::default(),
    };
    let situations = proof
        .situations
        .iter()
        .map(|(s, justification)| {
            let options = match justification {
                Justification::Options(options) => {
                    options.iter().map(|o| option(Answer::Any, o)).collect()
                }
                Justification::Replies { replies, pass } => pass
                    .iter()
                    .map(|p| option(Answer::Pass, p))
                    .chain(
                        replies
                            .iter()
                            .map(|(w, o)| option(Answer::Reply(cell_ast(w, dimension)), o)),
                    )
                    .collect(),
            };
            SituationAst {
                name: nowhere(s.name.clone()),
                turns: s.turns.map(|t| nowhere(t as u64)),
                core: cells_ast(&s.core, dimension),
                neighbourhood: cells_ast(&s.neighbourhood, dimension),
                picture: None,
                options,
            }
        })
        .collect();
    ProofBody {
        situations,
        start: Some(StartAst {
            target: nowhere(name(&proof.start.0)),
            map: Some(congruence_ast(&proof.start.1, dimension)),
        }),
        search: None,
    }
}

/// The body of an explicit proof sequence, the lines inside its braces.
pub fn proof_text(proof: &ProofSequence, dimension: usize) -> String {
    proof_body_text(&proof_body(proof, dimension))
}
