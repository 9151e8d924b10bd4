//! Maker claims: `winner A on B (a,b) by proof-sequence { ... }` made
//! explicit for the kernel (rule M1).
//!
//! Key decision: the author may leave out what a search can find (the
//! congruence placing an option's target, and with it the marks), and the
//! elaborator fills it in; nothing it finds is trusted, the kernel checks
//! the explicit sequence. When no congruence fits, the identity is passed on
//! and the kernel's refutation names the cell that does not fit.

use std::collections::HashMap;

use super::{
    Declarations, ElabError, ElabErrorKind, Explicit, cells_of, out_of_budget, resolve_board,
};
use crate::kernel::animals::Board;
use crate::kernel::animals::flags::{FLAGS, Flag, MAX_CELL};
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::budget::Budget;
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::maker::congruence::Congruence;
use crate::kernel::maker::derived::DerivedRule;
use crate::kernel::maker::{
    Justification, MakerOption, ProofSequence, Situation, Target, WinnerClaim,
};
use crate::produce::placer::Placer;
use crate::syntax::ast::{self, Answer, MapAst, Method, Span, Spanned};
use crate::syntax::suggest;

/// The most marks per turn a maker game may give either player.
pub const MAX_MARKS: u64 = 64;

/// The maker claim of `claim` (a `winner` statement); `budget` bounds the
/// searches for what the certificate leaves out.
pub fn claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
    declared: &Declarations,
    read: &super::FileReader,
    budget: &mut Budget,
) -> Result<Explicit, ElabError> {
    let (side, animal, board, game) = match &claim.statement.node {
        ast::Statement::Winner {
            animal,
            board,
            game,
        } => (Side::Winner, animal, board, game),
        ast::Statement::Loser {
            animal,
            board,
            game,
        } => (Side::Loser, animal, board, game),
        _ => unreachable!("called for winner and loser claims only"),
    };
    let board = resolve_board(board, boards)?;
    let goal = goal(animal, &board, declared)?;
    let marks = [Some(game.node.a), game.node.finish, Some(game.node.b)];
    if marks.iter().flatten().any(|&m| m > MAX_MARKS) || game.node.a == 0 {
        return Err(ElabError {
            kind: ElabErrorKind::BadMarks { max: MAX_MARKS },
            span: game.span,
        });
    }
    // SPEC 3.2: (a->c,b) is a game only for c >= a; (a->a,b) is (a,b).
    if let Some(c) = game.node.finish
        && c < game.node.a
    {
        return Err(ElabError {
            kind: ElabErrorKind::CompletingBelowMarks { a: game.node.a, c },
            span: game.span,
        });
    }
    let a = game.node.a as usize;
    let winner = WinnerClaim {
        board,
        goal,
        a,
        finish: game.node.finish.map(|c| c as usize).filter(|&c| c > a),
        b: game.node.b as usize,
    };
    if let Method::Derived {
        rule,
        cites,
        placements,
    } = &claim.method.node
    {
        let expected = winner.board.dimension();
        let rule = match rule.node {
            ast::DerivedRuleName::Trivial => DerivedRule::Trivial,
            ast::DerivedRuleName::Proposition21 => DerivedRule::Proposition21,
            ast::DerivedRuleName::Proposition22 => DerivedRule::Proposition22 {
                placements: placements
                    .iter()
                    .map(|p| cells_of(p, expected))
                    .collect::<Result<_, _>>()?,
            },
            ast::DerivedRuleName::Corollary34 => DerivedRule::Corollary34,
            ast::DerivedRuleName::Corollary33 => DerivedRule::Theorem31 { corollary: true },
            ast::DerivedRuleName::Theorem31 => DerivedRule::Theorem31 { corollary: false },
            ast::DerivedRuleName::Monotonicity => DerivedRule::Monotonicity,
            ast::DerivedRuleName::SubAnimal => DerivedRule::SubAnimal,
            ast::DerivedRuleName::RingPairing => DerivedRule::RingPairing,
            ast::DerivedRuleName::FanPairing => DerivedRule::FanPairing,
        };
        let game = GameClaim::of(side, winner);
        return Ok(Explicit::Derived(game, rule, cites.clone()));
    }
    if side == Side::Loser {
        let game = GameClaim::of(side, winner);
        return match &claim.method.node {
            Method::Pairing(body) => {
                let strategy = super::breaker::strategy(&game, body, budget)?;
                Ok(Explicit::Breaker(game, strategy))
            }
            Method::LabelPairing(body) => {
                let numbers = |list: &[ast::Spanned<u64>]| -> Vec<u64> {
                    list.iter().map(|n| n.node).collect()
                };
                let rule = DerivedRule::LabelPairing {
                    labels: numbers(&body.labels),
                    pairs: numbers(&body.pairs),
                };
                Ok(Explicit::Derived(game, rule, Vec::new()))
            }
            Method::Priority(body) => {
                let strategy = super::breaker::priority(&game, body)?;
                Ok(Explicit::Priority(game, strategy))
            }
            _ => Err(super::not_applicable(claim)),
        };
    }
    let proof = match &claim.method.node {
        Method::ProofSequence(body) => proof_sequence(&winner, body, claim.method.span, budget)?,
        Method::Cards { path, sha256 } => {
            let square =
                winner.board.lattice() == Some(crate::kernel::animals::lattice::Lattice::Square);
            if !square || winner.a != 1 || winner.b != 1 || winner.finish.is_some() {
                return Err(ElabError {
                    kind: ElabErrorKind::CardsNotApplicable,
                    span: claim.method.span,
                });
            }
            let bytes = read(path, sha256.as_ref(), super::load::MAX_FILE_BYTES)?;
            let text = String::from_utf8(bytes).map_err(|e| ElabError {
                kind: ElabErrorKind::BadCards(format!(
                    "byte {} is not UTF-8 text",
                    e.utf8_error().valid_up_to()
                )),
                span: path.span,
            })?;
            let cards = crate::import::CardFile::parse(&text).map_err(|e| {
                let line = text[..e.offset].matches('\n').count() + 1;
                ElabError {
                    kind: ElabErrorKind::BadCards(format!("line {line}: {}", e.message)),
                    span: path.span,
                }
            })?;
            cards.proof_sequence(&winner.board, &winner.goal)
        }
        _ => return Err(super::not_applicable(claim)),
    };
    Ok(Explicit::Maker(winner, proof))
}

/// The goal animal's cells: declared on the claim's board, or on the
/// lattice of which the board is a region.
pub(super) fn goal(
    name: &Spanned<String>,
    board: &Board,
    declared: &Declarations,
) -> Result<Vec<Cell>, ElabError> {
    let animals = &declared.animals;
    if let Some(failed) = declared
        .failed_animals
        .iter()
        .find(|f| f.name.node == name.node)
        .filter(|_| !animals.iter().any(|a| a.name == name.node))
    {
        return Err(ElabError {
            kind: ElabErrorKind::FailedDeclaration {
                kind: ast::DeclarationKind::Animal,
                name: name.node.clone(),
                declared_at: failed.error,
            },
            span: name.span,
        });
    }
    let animal = animals
        .iter()
        .find(|a| a.name == name.node)
        .ok_or_else(|| {
            let declared = animals.iter().map(|a| a.name.as_str());
            ElabError {
                kind: ElabErrorKind::UnknownAnimal {
                    name: name.node.clone(),
                    suggestion: suggest::closest(&name.node, declared).map(str::to_string),
                },
                span: name.span,
            }
        })?;
    let fits = animal.board == *board
        || matches!((&animal.board, board), (Board::Lattice(l), Board::Region(r)) if *l == r.lattice);
    if !fits {
        return Err(ElabError {
            kind: ElabErrorKind::AnimalOnOtherBoard(name.node.clone()),
            span: name.span,
        });
    }
    Ok(animal.cells.clone())
}

/// The proof sequence a `search` hint asks for, found by the producer
/// within the claim's elaboration budget (the kernel checks it like a
/// written one).
fn searched(
    claim: &WinnerClaim,
    window: Option<(u16, u16)>,
    span: Span,
    budget: &mut Budget,
) -> Result<ProofSequence, ElabError> {
    use crate::produce::maker::{Search, prove};
    let failed = |reason: &str| ElabError {
        kind: ElabErrorKind::SearchFailed(reason.to_string()),
        span,
    };
    match prove(claim, window, budget) {
        Ok(Search::Won(proof)) => Ok(proof),
        Ok(Search::Lost) => Err(failed("the breaker wins on the board searched")),
        Ok(Search::TooLarge) => Err(failed(
            "search needs a finite board of at most 128 cells or a window of a lattice",
        )),
        Err(e) => Err(out_of_budget(e, span)),
    }
}

/// The explicit proof sequence of a written one.
fn proof_sequence(
    claim: &WinnerClaim,
    body: &ast::ProofBody,
    span: Span,
    budget: &mut Budget,
) -> Result<ProofSequence, ElabError> {
    if let Some(search) = &body.search {
        if !body.situations.is_empty() || body.start.is_some() {
            return Err(ElabError {
                kind: ElabErrorKind::MixedJustification,
                span: search.span,
            });
        }
        return searched(claim, search.node, search.span, budget);
    }
    let expected = claim.board.dimension();
    let on_mosaic = matches!(claim.board, Board::Mosaic(_));
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, s) in body.situations.iter().enumerate() {
        if s.name.node == "goal" || index.insert(&s.name.node, i).is_some() {
            return Err(ElabError {
                kind: ElabErrorKind::DuplicateSituation(s.name.node.clone()),
                span: s.name.span,
            });
        }
    }
    let target = |name: &Spanned<String>| -> Result<Target, ElabError> {
        if name.node == "goal" {
            return Ok(Target::Goal);
        }
        index
            .get(name.node.as_str())
            .map(|&j| Target::Situation(j))
            .ok_or_else(|| ElabError {
                kind: ElabErrorKind::UnknownSituation(name.node.clone()),
                span: name.span,
            })
    };
    let group = Placer::new(&claim.board, budget).map_err(|e| out_of_budget(e, span))?;
    let mut situations: Vec<(Situation, Justification)> = Vec::new();
    for s in &body.situations {
        let (core, neighbourhood) = match &s.picture {
            Some(rows) => {
                let lattice = claim.board.lattice().filter(|&l| l != Lattice::Cubic);
                let Some(lattice) = lattice else {
                    return Err(ElabError {
                        kind: ElabErrorKind::PictureNotSupported,
                        span: s.name.span,
                    });
                };
                let marked = super::picture_marks(lattice, rows, &['#', '+'])?;
                let of = |mark: char| marked.iter().filter(|m| m.1 == mark).map(|m| m.0).collect();
                (of('#'), of('+'))
            }
            None => (
                cells_of(&s.core, expected)?,
                cells_of(&s.neighbourhood, expected)?,
            ),
        };
        let situation = Situation {
            name: s.name.node.clone(),
            turns: s
                .turns
                .as_ref()
                .map(|t| usize::try_from(t.node).unwrap_or(usize::MAX)),
            core,
            neighbourhood,
        };
        let mut options = Vec::new();
        let mut replies = Vec::new();
        let mut pass = None;
        for o in &s.options {
            let t = target(&o.target)?;
            let (core, neighbourhood) = match t {
                Target::Goal => (claim.goal.as_slice(), &[][..]),
                Target::Situation(j) if j < situations.len() => {
                    let target = &situations[j].0;
                    (target.core.as_slice(), target.neighbourhood.as_slice())
                }
                // A forward target: passed on for the kernel to refute.
                Target::Situation(_) => (&[][..], &[][..]),
            };
            let written = cells_of(&o.mark, expected)?;
            let limit = match (t, claim.finish) {
                (Target::Goal, Some(c)) => c.max(claim.a),
                _ => claim.a,
            };
            let (mark, map) = match &o.map {
                Some(map) => (written, congruence(map, expected, on_mosaic)?),
                None => group
                    .place(&situation, &written, core, neighbourhood, limit)
                    .unwrap_or_else(|| (written, Congruence::identity(&claim.board))),
            };
            let option = MakerOption {
                mark,
                target: t,
                map,
            };
            match &o.answer {
                Answer::Any => options.push(option),
                Answer::Reply(cell) => {
                    let w = super::cell_of(cell, expected)?;
                    replies.push((w, option));
                }
                Answer::Pass => pass = Some(option),
            }
        }
        let justification = match (options.is_empty(), replies.is_empty() && pass.is_none()) {
            (_, true) => Justification::Options(options),
            (true, false) => {
                let replies =
                    complete_replies(&group, &situations, &situation, replies, pass.as_ref());
                Justification::Replies { replies, pass }
            }
            (false, false) => {
                return Err(ElabError {
                    kind: ElabErrorKind::MixedJustification,
                    span: s.name.span,
                });
            }
        };
        situations.push((situation, justification));
    }
    let start = match &body.start {
        Some(start) => {
            let map = match &start.map {
                Some(map) => congruence(map, expected, on_mosaic)?,
                None => Congruence::identity(&claim.board),
            };
            (target(&start.target)?, map)
        }
        None if situations.is_empty() => {
            return Err(ElabError {
                kind: ElabErrorKind::EmptyProofSequence,
                span,
            });
        }
        None => (
            Target::Situation(situations.len() - 1),
            Congruence::identity(&claim.board),
        ),
    };
    Ok(ProofSequence { situations, start })
}

/// The replies of a per-reply situation, completed: a neighbourhood cell
/// without a reply is answered by the first written option (a reply or the
/// pass) that does not need it, if any (otherwise the kernel reports the
/// missing reply).
fn complete_replies(
    placer: &Placer,
    earlier: &[(Situation, Justification)],
    s: &Situation,
    mut replies: Vec<(Cell, MakerOption)>,
    pass: Option<&MakerOption>,
) -> Vec<(Cell, MakerOption)> {
    let candidates: Vec<MakerOption> = replies
        .iter()
        .map(|(_, o)| o.clone())
        .chain(pass.cloned())
        .collect();
    let needs = |o: &MakerOption, w: &Cell| -> bool {
        if o.mark.contains(w) {
            return true;
        }
        let rest: &[Cell] = match o.target {
            Target::Goal => &[],
            Target::Situation(j) => earlier.get(j).map_or(&[], |t| t.0.neighbourhood.as_slice()),
        };
        rest.iter().any(|c| {
            let placed = placer.apply(&o.map, *c);
            placed == Some(*w) && !s.core.contains(w)
        })
    };
    for w in &s.neighbourhood {
        if replies.iter().any(|(r, _)| r == w) {
            continue;
        }
        if let Some(o) = candidates.iter().find(|o| !needs(o, w)) {
            replies.push((*w, o.clone()));
        }
    }
    replies
}

/// A written congruence (`mosaic`: on a mosaic, where `at K (t)` names
/// flag K of triangle t).
pub(super) fn congruence(
    map: &Spanned<MapAst>,
    expected: usize,
    mosaic: bool,
) -> Result<Congruence, ElabError> {
    let bad = || ElabError {
        kind: ElabErrorKind::BadCongruence,
        span: map.span,
    };
    match &map.node {
        MapAst::Lattice { element, shift } if mosaic => {
            let [triangle] = shift.as_slice() else {
                return Err(bad());
            };
            Ok(Congruence::Flag(Flag {
                triangle: u32::try_from(*triangle)
                    .ok()
                    .filter(|&t| t < MAX_CELL)
                    .ok_or_else(bad)?,
                index: u8::try_from(*element)
                    .ok()
                    .filter(|&k| k < FLAGS)
                    .ok_or_else(bad)?,
            }))
        }
        MapAst::Permutation(_) if mosaic => Err(bad()),
        MapAst::Lattice { element, shift } => {
            if shift.len() != expected || expected == 1 {
                return Err(bad());
            }
            let mut cell = [0i32; 3];
            for (slot, &v) in cell.iter_mut().zip(shift) {
                *slot = i32::try_from(v)
                    .ok()
                    .filter(|v| v.abs() <= 1 << 20)
                    .ok_or_else(bad)?;
            }
            Ok(Congruence::Lattice {
                element: usize::try_from(*element).map_err(|_| bad())?,
                shift: cell,
            })
        }
        MapAst::Permutation(image) => image
            .iter()
            .map(|&v| u16::try_from(v).map_err(|_| bad()))
            .collect::<Result<_, _>>()
            .map(Congruence::Permutation),
    }
}
