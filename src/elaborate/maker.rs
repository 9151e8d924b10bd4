//! Maker claims: `winner A on B (a,b) by proof-sequence { ... }` made
//! explicit for the kernel (rule M1).
//!
//! Key decision: the author may leave out what a search can find (the
//! congruence placing an option's target, and with it the marks), and the
//! elaborator fills it in; nothing it finds is trusted, the kernel checks
//! the explicit sequence. When no congruence fits, the identity is passed on
//! and the kernel's refutation names the cell that does not fit.

use std::collections::{HashMap, HashSet};

use super::{
    DeclaredAnimal, ElabError, ElabErrorKind, Explicit, cells_of, out_of_budget, resolve_board,
};
use crate::kernel::animals::Board;
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::solid::Group;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::maker::congruence::Congruence;
use crate::kernel::maker::derived::DerivedRule;
use crate::kernel::maker::{
    Justification, MakerOption, ProofSequence, Situation, Target, WinnerClaim,
};
use crate::syntax::ast::{self, Answer, MapAst, Method, Span, Spanned};

/// The most marks per turn a maker game may give either player.
pub const MAX_MARKS: u64 = 64;

/// The maker claim of `claim` (a `winner` statement); `budget` bounds the
/// searches for what the certificate leaves out.
pub fn claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
    animals: &[DeclaredAnimal],
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
    let goal = goal(animal, &board, animals)?;
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
            let text = read(path, sha256.as_ref())?;
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
    animals: &[DeclaredAnimal],
) -> Result<Vec<Cell>, ElabError> {
    let animal = animals
        .iter()
        .find(|a| a.name == name.node)
        .ok_or_else(|| ElabError {
            kind: ElabErrorKind::UnknownAnimal(name.node.clone()),
            span: name.span,
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
            "search needs a finite board of at most 64 cells or a window of a lattice",
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
                Some(map) => (written, congruence(map, expected)?),
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
                Some(map) => congruence(map, expected)?,
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

/// A written congruence.
pub(super) fn congruence(map: &Spanned<MapAst>, expected: usize) -> Result<Congruence, ElabError> {
    let bad = || ElabError {
        kind: ElabErrorKind::BadCongruence,
        span: map.span,
    };
    match &map.node {
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

/// Cells as certificates write them, separated by spaces.
pub fn cells_text(cells: &[Cell], dimension: usize) -> String {
    let one = |c: &Cell| crate::syntax::printer::cell(c, dimension);
    cells.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// A congruence as certificates write it.
fn congruence_text(map: &Congruence) -> String {
    match map {
        Congruence::Lattice { element, shift } if shift[2] == 0 => {
            format!("{element} ({},{})", shift[0], shift[1])
        }
        Congruence::Lattice { element, shift } => {
            format!("{element} ({},{},{})", shift[0], shift[1], shift[2])
        }
        Congruence::Permutation(image) => {
            let image: Vec<String> = image.iter().map(u16::to_string).collect();
            format!("[{}]", image.join(" "))
        }
    }
}

/// The body of an explicit proof sequence, as `gamecert elaborate` and
/// `gamecert import` print it (every option with its marks and congruence).
pub fn proof_text(proof: &ProofSequence, dimension: usize) -> String {
    let mut out = String::new();
    let name = |t: &Target| match t {
        Target::Goal => "goal".to_string(),
        Target::Situation(j) => proof
            .situations
            .get(*j)
            .map_or_else(|| format!("#{j}"), |s| s.0.name.clone()),
    };
    let option = |o: &MakerOption| {
        let mark = cells_text(&o.mark, dimension);
        let space = if mark.is_empty() { "" } else { " " };
        format!(
            "{mark}{space}-> {} at {}",
            name(&o.target),
            congruence_text(&o.map)
        )
    };
    for (s, justification) in &proof.situations {
        let turns = s.turns.map_or_else(String::new, |t| format!(" turns {t}"));
        out.push_str(&format!(
            "  situation {}{turns}: core {}",
            s.name,
            cells_text(&s.core, dimension)
        ));
        if !s.neighbourhood.is_empty() {
            out.push_str(&format!(
                " neighbourhood {}",
                cells_text(&s.neighbourhood, dimension)
            ));
        }
        out.push('\n');
        match justification {
            Justification::Options(options) => {
                for o in options {
                    out.push_str(&format!("    option {}\n", option(o)));
                }
            }
            Justification::Replies { replies, pass } => {
                if let Some(p) = pass {
                    out.push_str(&format!("    pass: {}\n", option(p)));
                }
                for (w, o) in replies {
                    out.push_str(&format!(
                        "    reply {}: {}\n",
                        cells_text(&[*w], dimension),
                        option(o)
                    ));
                }
            }
        }
    }
    out.push_str(&format!(
        "  start {} at {}\n",
        name(&proof.start.0),
        congruence_text(&proof.start.1)
    ));
    out
}

/// Finds congruences placing a target in a situation (untrusted search).
pub struct Placer {
    board: Board,
    /// A finite board's automorphisms; empty for lattices and regions.
    group: Group,
}

impl Placer {
    /// A search on `board` (a finite board's group listed within `budget`).
    pub fn new(board: &Board, budget: &mut Budget) -> Result<Placer, Exhausted> {
        Ok(Placer {
            board: board.clone(),
            group: board.group(budget)?.unwrap_or_default(),
        })
    }

    /// A search on a lattice or a region of one, whose congruences are the
    /// lattice's: there is no group to list (on a finite board it would
    /// find no congruence, and the kernel would refute what it places).
    pub fn plane(board: &Board) -> Placer {
        Placer {
            board: board.clone(),
            group: Group::default(),
        }
    }

    /// Every congruence of the board that could place `anchor` on `onto`:
    /// on a lattice, each point-group element followed by the translation
    /// taking the anchor's image to a cell of `onto`; on a finite board,
    /// each automorphism.
    fn candidates(&self, anchor: Cell, onto: &[Cell]) -> Vec<Congruence> {
        match self.board.lattice() {
            Some(lattice) => (0..lattice.point_group_order())
                .flat_map(|element| {
                    let image = lattice.transform(element, anchor);
                    onto.iter()
                        .filter(move |&&t| lattice.same_orientation(image, t))
                        .map(move |t| Congruence::Lattice {
                            element,
                            shift: [t[0] - image[0], t[1] - image[1], t[2] - image[2]],
                        })
                })
                .collect(),
            None => self
                .group
                .iter()
                .map(|p| Congruence::Permutation(p.iter().map(|&v| u16::from(v)).collect()))
                .collect(),
        }
    }

    /// The image of a cell under a congruence of this board.
    pub fn apply(&self, map: &Congruence, c: Cell) -> Option<Cell> {
        map.image(self.board.lattice(), c)
    }

    /// Marks and a congruence with which the target (`core`, `neighbourhood`)
    /// fits the situation: its core on the maker's cells after the marks, the
    /// rest inside the situation. With `written` marks, those marks; without,
    /// the fewest marks (at most `limit`) that make the core the maker's.
    pub fn place(
        &self,
        s: &Situation,
        written: &[Cell],
        core: &[Cell],
        neighbourhood: &[Cell],
        limit: usize,
    ) -> Option<(Vec<Cell>, Congruence)> {
        let owned: HashSet<Cell> = s.core.iter().chain(written).copied().collect();
        let inside: HashSet<Cell> = s.core.iter().chain(&s.neighbourhood).copied().collect();
        let anchor = *core.first().or(neighbourhood.first())?;
        // The anchor (the target's first cell) lands on a cell the maker owns
        // when the marks are written, else anywhere in the situation.
        let onto_owned = !written.is_empty() && !core.is_empty();
        let mut onto: Vec<Cell> = if onto_owned { &owned } else { &inside }
            .iter()
            .copied()
            .collect();
        onto.sort_unstable();
        let mut best: Option<(Vec<Cell>, Congruence)> = None;
        for map in self.candidates(anchor, &onto) {
            let apply = |c: &Cell| self.apply(&map, *c);
            let placed_core: Option<Vec<Cell>> = core.iter().map(apply).collect();
            let placed_rest: Option<Vec<Cell>> = neighbourhood.iter().map(apply).collect();
            let (Some(placed_core), Some(placed_rest)) = (placed_core, placed_rest) else {
                continue;
            };
            if !placed_core
                .iter()
                .chain(&placed_rest)
                .all(|c| inside.contains(c))
            {
                continue;
            }
            let mark: Vec<Cell> = if written.is_empty() {
                let mut m: Vec<Cell> = placed_core
                    .iter()
                    .filter(|c| !s.core.contains(c))
                    .copied()
                    .collect();
                m.sort_unstable();
                m.dedup();
                m
            } else {
                if !placed_core.iter().all(|c| owned.contains(c)) {
                    continue;
                }
                written.to_vec()
            };
            if mark.len() > limit {
                continue;
            }
            if best.as_ref().is_none_or(|(m, _)| mark.len() < m.len()) {
                let done = !written.is_empty() || mark.is_empty();
                best = Some((mark, map));
                if done {
                    break;
                }
            }
        }
        best
    }
}

/// The text of a loaded file with every maker claim's proof sequence
/// written out explicitly (`gamecert elaborate`); other items as written.
pub fn explicit_file(file: &super::load::SourceFile) -> String {
    let mut out = String::from("gamecert 1\n");
    let mut claims = file.claims.iter();
    for item in &file.ast.items {
        let span = match item {
            ast::Item::Include(i) => i.span,
            ast::Item::Board(b) => b.span,
            ast::Item::Animal(a) => a.span,
            ast::Item::Claim(c) => {
                let elaborated = claims.next();
                if let Some(Ok(Explicit::Maker(winner, proof))) = elaborated.map(|e| &e.explicit) {
                    out.push_str(&format!(
                        "claim {}: {} by proof-sequence {{\n{}}}\n",
                        c.id.node,
                        crate::syntax::printer::statement(&c.statement.node),
                        proof_text(proof, winner.board.dimension())
                    ));
                    continue;
                }
                c.span
            }
        };
        out.push_str(file.source.get(span.start..span.end).unwrap_or_default());
        out.push('\n');
    }
    out
}
