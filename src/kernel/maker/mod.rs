//! Maker certificates: proof sequences of situations (rule M1 of
//! docs/soundness.md, SPEC 3.3).
//!
//! Key decision: the kernel sees a fully explicit sequence. Every option
//! names its marks, its target (an earlier situation or the goal) and the
//! congruence placing the target; the elaborator finds whatever the author
//! left out, and nothing it found is trusted. A situation is justified in
//! one of two forms: a list of options, checked by searching for b breaker
//! marks that meet every option's needed cells (none may exist), or, for
//! b = 1, the per-reply form, where each breaker mark in the neighbourhood
//! names the option that answers it.

pub mod congruence;
pub mod derived;

use crate::kernel::animals::Board;
use crate::kernel::animals::flags::{Frame, triangle};
use crate::kernel::animals::lattice::Cell;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side, precheck};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{MakerFailure, Rejection, Rule, Undecided, Verdict};
use congruence::{Congruence, Map, Space};

/// `winner GOAL on BOARD (a,b)` or `(a->c,b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinnerClaim {
    /// The board.
    pub board: Board,
    /// The goal animal's cells.
    pub goal: Vec<Cell>,
    /// Maker marks per turn.
    pub a: usize,
    /// In an (a->c,b) game, the marks of the turn that completes the goal.
    pub finish: Option<usize>,
    /// Breaker marks per turn.
    pub b: usize,
}

/// A situation: the maker owns `core`, the breaker owns nothing in
/// `core` or `neighbourhood`, and the breaker is to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Situation {
    /// Its name in the certificate (reports use it).
    pub name: String,
    /// The maker turns within which the certificate says he wins from it.
    pub turns: Option<usize>,
    /// The maker's cells.
    pub core: Vec<Cell>,
    /// Cells the breaker has not marked (empty or the maker's).
    pub neighbourhood: Vec<Cell>,
}

/// Where an option leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The goal itself: the situation (goal, {}).
    Goal,
    /// The situation with this index (it must come earlier).
    Situation(usize),
}

/// The maker marks `mark`, reaching `target` placed by `map`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MakerOption {
    /// The cells the maker marks.
    pub mark: Vec<Cell>,
    /// The situation reached.
    pub target: Target,
    /// The congruence placing the target.
    pub map: Congruence,
}

/// Why a situation is won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Justification {
    /// Options; no b cells may meet every option's needed cells.
    Options(Vec<MakerOption>),
    /// For b = 1: the option answering each breaker mark in the
    /// neighbourhood, and (`pass`) the one answering a mark elsewhere.
    Replies {
        replies: Vec<(Cell, MakerOption)>,
        pass: Option<MakerOption>,
    },
}

/// A proof sequence: situations, each justified by earlier ones, and the
/// start situation the maker reaches with his first marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofSequence {
    /// The situations in order.
    pub situations: Vec<(Situation, Justification)>,
    /// The start and its placement on the board.
    pub start: (Target, Congruence),
}

/// Checks a winner claim against a proof sequence (rule M1). The verdict's
/// measure, and the theorem's turn bound, is the number of maker turns the
/// strategy needs at most.
pub fn check(claim: &WinnerClaim, proof: &ProofSequence, mut budget: Budget) -> Verdict {
    let rule = Rule::ProofSequence;
    let game = GameClaim::of(Side::Winner, claim.clone());
    if let Some(verdict) = precheck(&game, rule, &mut budget) {
        return verdict;
    }
    let dimension = claim.board.dimension();
    let refuted = |situation: Option<&str>, failure| Verdict::Rejected {
        rule,
        rejection: Rejection::Maker {
            situation: situation.map(str::to_string),
            failure,
            dimension,
        },
    };
    let graph = claim.board.face_graph();
    let frame = match mosaic_frame(claim, proof, &mut budget) {
        Ok(frame) => frame,
        Err(reason) => return Verdict::Undecided { rule, reason },
    };
    let space = match &frame {
        Some(frame) => Space::Mosaic(frame),
        None => Space::of(&claim.board),
    };
    let checker = Checker {
        claim,
        proof,
        graph: graph.as_ref(),
        space,
    };
    let mut depth = Vec::with_capacity(proof.situations.len());
    for (i, (situation, justification)) in proof.situations.iter().enumerate() {
        match checker.situation(i, situation, justification, &depth, &mut budget) {
            Ok(d) if situation.turns.is_some_and(|t| d > t) => {
                let failure = MakerFailure::TooManyTurns {
                    stated: situation.turns.unwrap_or_default(),
                    needed: d,
                };
                return refuted(Some(&situation.name), failure);
            }
            Ok(d) => depth.push(d),
            Err(Failure::Refuted(failure)) => return refuted(Some(&situation.name), failure),
            Err(Failure::Budget(e)) => {
                return Verdict::Undecided {
                    rule,
                    reason: Undecided::Budget(e),
                };
            }
        }
    }
    match checker.start(&depth) {
        Ok(turns) => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            measure: turns,
            theorem: Theorem::new(Established::Game {
                claim: game,
                turns: Some(turns),
            }),
        },
        Err(failure) => refuted(None, failure),
    }
}

/// On a mosaic, a disc for the congruences around every triangle the
/// claim names ([`Frame::for_congruences`]). A disc beyond the kernel's
/// limits leaves the claim undecided.
fn mosaic_frame(
    claim: &WinnerClaim,
    proof: &ProofSequence,
    budget: &mut Budget,
) -> Result<Option<Frame>, Undecided> {
    let Board::Mosaic(mosaic) = claim.board else {
        return Ok(None);
    };
    let mut cells: Vec<Cell> = claim.goal.clone();
    let mut options: Vec<&MakerOption> = Vec::new();
    for (s, justification) in &proof.situations {
        cells.extend(&s.core);
        cells.extend(&s.neighbourhood);
        match justification {
            Justification::Options(written) => options.extend(written),
            Justification::Replies { replies, pass } => {
                cells.extend(replies.iter().map(|(w, _)| *w));
                options.extend(replies.iter().map(|(_, o)| o));
                options.extend(pass);
            }
        }
    }
    let marks = options.iter().flat_map(|o| &o.mark);
    let maps = options.iter().map(|o| &o.map).chain([&proof.start.1]);
    let flags = maps.filter_map(|m| match m {
        Congruence::Flag(f) => Some(f.triangle),
        _ => None,
    });
    // A cell that is no triangle number fails where it is used.
    let triangles = cells.iter().chain(marks).filter_map(|&c| triangle(c));
    match Frame::for_congruences(mosaic, triangles, flags, budget) {
        Ok(Some(frame)) => Ok(Some(frame)),
        Ok(None) => Err(Undecided::OutsideLimits),
        Err(e) => Err(Undecided::Budget(e)),
    }
}

enum Failure {
    Refuted(MakerFailure),
    Budget(Exhausted),
}

impl From<MakerFailure> for Failure {
    fn from(f: MakerFailure) -> Self {
        Failure::Refuted(f)
    }
}

struct Checker<'a> {
    claim: &'a WinnerClaim,
    proof: &'a ProofSequence,
    graph: Option<&'a crate::kernel::animals::solid::FaceGraph>,
    /// Where the congruences act (on a mosaic, a disc for the claim).
    space: Space<'a>,
}

/// A situation's cells as sorted lists, for membership tests.
struct Cells {
    core: Vec<Cell>,
    neighbourhood: Vec<Cell>,
}

impl Cells {
    fn of(s: &Situation) -> Cells {
        let mut core = s.core.clone();
        let mut neighbourhood = s.neighbourhood.clone();
        core.sort_unstable();
        neighbourhood.sort_unstable();
        Cells {
            core,
            neighbourhood,
        }
    }

    fn in_core(&self, c: &Cell) -> bool {
        self.core.binary_search(c).is_ok()
    }

    fn in_neighbourhood(&self, c: &Cell) -> bool {
        self.neighbourhood.binary_search(c).is_ok()
    }
}

impl Checker<'_> {
    /// The target's core and neighbourhood.
    fn target_cells(&self, target: Target) -> (&[Cell], &[Cell]) {
        match target {
            Target::Goal => (&self.claim.goal, &[]),
            Target::Situation(j) => {
                let s = &self.proof.situations[j].0;
                (&s.core, &s.neighbourhood)
            }
        }
    }

    /// Checks situation `i`; returns its depth (maker turns to the goal).
    fn situation(
        &self,
        i: usize,
        s: &Situation,
        justification: &Justification,
        depth: &[usize],
        budget: &mut Budget,
    ) -> Result<usize, Failure> {
        let cells = Cells::of(s);
        if let Some(c) = duplicate(&cells.core).or_else(|| duplicate(&cells.neighbourhood)) {
            return Err(MakerFailure::RepeatedCell { cell: c }.into());
        }
        if let Some(&c) = cells.core.iter().find(|c| cells.in_neighbourhood(c)) {
            return Err(MakerFailure::CoreInNeighbourhood { cell: c }.into());
        }
        let mut deepest = 0;
        let mut needed = Vec::new();
        match justification {
            Justification::Options(options) => {
                for (k, option) in options.iter().enumerate() {
                    budget.tick().map_err(Failure::Budget)?;
                    let (u, d) = self.option(i, &cells, option, ordinal(k), depth)?;
                    deepest = deepest.max(d);
                    needed.push(u);
                }
                if let Some(hit) = transversal(&needed, self.claim.b, budget)? {
                    return Err(MakerFailure::Hit { cells: hit }.into());
                }
            }
            Justification::Replies { replies, pass } => {
                if self.claim.b != 1 {
                    return Err(MakerFailure::RepliesNeedOneBreakerMark.into());
                }
                let Some(pass) = pass else {
                    return Err(MakerFailure::NoPass.into());
                };
                let (_, d) = self.option(i, &cells, pass, 0, depth)?;
                deepest = d;
                let mut answered = Vec::with_capacity(replies.len());
                for (k, (w, option)) in replies.iter().enumerate() {
                    budget.tick().map_err(Failure::Budget)?;
                    if !cells.in_neighbourhood(w) {
                        return Err(MakerFailure::ReplyOutside { cell: *w }.into());
                    }
                    let (u, d) = self.option(i, &cells, option, ordinal(k), depth)?;
                    if u.binary_search(w).is_ok() {
                        return Err(MakerFailure::ReplyNeedsMark { cell: *w }.into());
                    }
                    deepest = deepest.max(d);
                    answered.push(*w);
                }
                answered.sort_unstable();
                if let Some(&w) = cells
                    .neighbourhood
                    .iter()
                    .find(|w| answered.binary_search(w).is_err())
                {
                    return Err(MakerFailure::MissingReply { cell: w }.into());
                }
            }
        }
        // At most the number of situations: no overflow.
        Ok(deepest.saturating_add(1))
    }

    /// Checks option `k` (0: the pass of the per-reply form) of situation
    /// `i`; returns its needed cells U (sorted) and its target's depth.
    fn option(
        &self,
        i: usize,
        cells: &Cells,
        option: &MakerOption,
        k: usize,
        depth: &[usize],
    ) -> Result<(Vec<Cell>, usize), MakerFailure> {
        let target_depth = match option.target {
            Target::Goal => 0,
            Target::Situation(j) if j < i => depth[j],
            Target::Situation(_) => return Err(MakerFailure::TargetNotEarlier { option: k }),
        };
        // Stated turn bounds must drop along every option, as the argument
        // "within t turns, because the target is won within fewer" needs.
        if let (Some(stated), Target::Situation(j)) =
            (self.proof.situations[i].0.turns, option.target)
            && let Some(target) = self.proof.situations[j].0.turns
            && target >= stated
        {
            return Err(MakerFailure::TurnsDoNotDrop {
                option: k,
                stated,
                target,
            });
        }
        let max = match (option.target, self.claim.finish) {
            (Target::Goal, Some(c)) => c,
            _ => self.claim.a,
        };
        let mut mark = option.mark.clone();
        mark.sort_unstable();
        mark.dedup();
        if mark.len() > max {
            return Err(MakerFailure::MarkTooLarge {
                option: k,
                size: mark.len(),
                max,
            });
        }
        if let Some(&c) = mark.iter().find(|c| !cells.in_neighbourhood(c)) {
            return Err(MakerFailure::MarkOutside { option: k, cell: c });
        }
        let map = Map::of(&option.map, self.space, self.graph)
            .ok_or(MakerFailure::BadCongruence { option: k })?;
        let image = |c: &Cell| {
            map.apply(*c)
                .ok_or(MakerFailure::BadCongruence { option: k })
        };
        let (core, neighbourhood) = self.target_cells(option.target);
        // The target's core must land on the maker's cells after the marks.
        for c in core {
            let t = image(c)?;
            if !cells.in_core(&t) && mark.binary_search(&t).is_err() {
                return Err(MakerFailure::CoreNotOwned { option: k, cell: t });
            }
        }
        // Its neighbourhood must land inside the situation; the cells there
        // the maker does not own are needed free of breaker marks.
        let mut needed = mark.clone();
        for c in neighbourhood {
            let t = image(c)?;
            if cells.in_core(&t) || mark.binary_search(&t).is_ok() {
                continue;
            }
            if !cells.in_neighbourhood(&t) {
                return Err(MakerFailure::OutsideSituation { option: k, cell: t });
            }
            needed.push(t);
        }
        needed.sort_unstable();
        needed.dedup();
        Ok((needed, target_depth))
    }

    /// Checks the start: at most a core cells (the maker's first turn), and
    /// on a finite board placed inside it. Returns the maker turns needed.
    fn start(&self, depth: &[usize]) -> Result<u64, MakerFailure> {
        let (target, congruence) = &self.proof.start;
        let target_depth: u64 = match *target {
            Target::Goal => 0,
            // A stated bound (checked to be enough) is credited as stated:
            // a weaker bound is still a bound, and Thm. 3.1 may use it.
            Target::Situation(j) => {
                let needed = *depth
                    .get(j)
                    .ok_or(MakerFailure::TargetNotEarlier { option: 0 })?;
                let credited = self.proof.situations[j]
                    .0
                    .turns
                    .map_or(needed, |t| t.max(needed));
                u64::try_from(credited).unwrap_or(u64::MAX)
            }
        };
        let (core, neighbourhood) = self.target_cells(*target);
        // The first turn may complete the goal with c marks (precheck made
        // sure c >= a).
        let finish = match (target, self.claim.finish) {
            (Target::Goal, Some(c)) => c,
            _ => self.claim.a,
        };
        if core.len() > finish {
            return Err(MakerFailure::StartTooLarge {
                size: core.len(),
                max: finish,
            });
        }
        let map = Map::of(congruence, self.space, self.graph)
            .ok_or(MakerFailure::BadCongruence { option: 0 })?;
        for c in core.iter().chain(neighbourhood) {
            let t = map
                .apply(*c)
                .ok_or(MakerFailure::BadCongruence { option: 0 })?;
            if !self.claim.board.contains(t) {
                return Err(MakerFailure::StartOffBoard { cell: t });
            }
        }
        // A stated bound of u64::MAX turns stays a bound when the first
        // turn is added: the computed need is far below it.
        Ok(target_depth.saturating_add(1))
    }
}

/// A cell listed twice in a sorted list.
fn duplicate(sorted: &[Cell]) -> Option<Cell> {
    sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// At most `b` cells that meet every set of `needed`, if there are any
/// (then the breaker marks them and no option is left to the maker).
///
/// Branches on the cells of the first set not yet met: any hitting set
/// contains one of them, so the search is complete; its size is at most
/// (largest set)^b.
fn transversal(
    needed: &[Vec<Cell>],
    b: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<Cell>>, Failure> {
    fn search(
        needed: &[Vec<Cell>],
        b: usize,
        chosen: &mut Vec<Cell>,
        budget: &mut Budget,
    ) -> Result<bool, Failure> {
        budget.tick().map_err(Failure::Budget)?;
        let Some(unmet) = needed
            .iter()
            .find(|u| !u.iter().any(|c| chosen.contains(c)))
        else {
            return Ok(true);
        };
        if chosen.len() == b {
            return Ok(false);
        }
        for &c in unmet {
            chosen.push(c);
            if search(needed, b, chosen, budget)? {
                return Ok(true);
            }
            chosen.pop();
        }
        Ok(false)
    }
    let mut chosen = Vec::new();
    Ok(search(needed, b, &mut chosen, budget)?.then_some(chosen))
}
