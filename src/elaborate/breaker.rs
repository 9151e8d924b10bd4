//! Breaker claims made explicit for the kernel: loser claims by a paving or
//! a strategy tree ending in pairings (rules B1, B2), threshold sequences
//! (B3) and classifications (B4) with the claims they cite.
//!
//! Key decision: a `move X like Y` without its congruence is completed here
//! by searching the board's automorphisms for one that fixes the position
//! and takes Y to X; the kernel checks whatever is found, so the search is
//! untrusted. When none exists the identity is passed on and the kernel's
//! refutation names the move.

use std::collections::{BTreeSet, HashMap};

use super::maker::{congruence, goal};
use super::{
    Declarations, ElabError, ElabErrorKind, Explicit, cell_of, cells_of, not_applicable,
    out_of_budget, resolve_board,
};
use crate::kernel::animals::Board;
use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::solid::Group;
use crate::kernel::breaker::bound::BoundClaim;
use crate::kernel::breaker::classify::ClassifyClaim;
use crate::kernel::breaker::priority::{ClassRules, OrderKey, Priority, PriorityRule};
use crate::kernel::breaker::threshold::ThresholdClaim;
use crate::kernel::breaker::{Answer, Move, Paving, Strategy};
use crate::kernel::budget::Budget;
use crate::kernel::game::GameClaim;
use crate::kernel::maker::congruence::Congruence;
use crate::syntax::ast::{
    self, Method, MoveAnswerAst, OrderKeyAst, PairingBody, PriorityBody, Span, Spanned,
};

/// The strategy of a `by pairing { ... }` / `by paving { ... }` body;
/// `budget` bounds listing the board's automorphisms (when a `like` leaves
/// its congruence out).
pub fn strategy(
    game: &GameClaim,
    body: &PairingBody,
    budget: &mut Budget,
) -> Result<Strategy, ElabError> {
    let mut tree = Tree {
        board: &game.board,
        dimension: game.board.dimension(),
        group: None,
        budget,
        situations: HashMap::new(),
    };
    tree.node(body, &mut (BTreeSet::new(), BTreeSet::new()))
}

/// The strategy of a `by priority { ... }` body.
pub fn priority(game: &GameClaim, body: &PriorityBody) -> Result<Priority, ElabError> {
    let dimension = game.board.dimension();
    let cells = |list: &[Spanned<Vec<i64>>]| cells_of(list, dimension);
    let order = body
        .order
        .iter()
        .map(|key| {
            let OrderKeyAst { axis, descending } = key.node;
            if axis >= dimension {
                return Err(ElabError {
                    kind: ElabErrorKind::OrderAxis,
                    span: key.span,
                });
            }
            Ok(OrderKey { axis, descending })
        })
        .collect::<Result<_, _>>()?;
    let classes = body
        .classes
        .iter()
        .map(|class| {
            let rules = class
                .rules
                .iter()
                .map(|rule| {
                    Ok(PriorityRule {
                        guard: cells(&rule.guard)?,
                        lists: rule
                            .lists
                            .iter()
                            .map(|l| cells(l))
                            .collect::<Result<_, ElabError>>()?,
                    })
                })
                .collect::<Result<_, ElabError>>()?;
            Ok(ClassRules {
                class: cell_of(&class.class, dimension)?,
                rules,
            })
        })
        .collect::<Result<_, ElabError>>()?;
    Ok(Priority {
        period: cells(&body.period)?,
        order,
        classes,
    })
}

/// The maker's and the breaker's marks along the branch being elaborated.
type Marks = (BTreeSet<Cell>, BTreeSet<Cell>);

/// What elaborating a tree needs at every node.
struct Tree<'a> {
    board: &'a Board,
    dimension: usize,
    /// The board's automorphisms, once a `like` has needed them.
    group: Option<Group>,
    /// Bounds listing them.
    budget: &'a mut Budget,
    /// The situations named so far, by name.
    situations: HashMap<String, Marks>,
}

impl Tree<'_> {
    fn cell(&self, c: &Spanned<Vec<i64>>) -> Result<Cell, ElabError> {
        cell_of(c, self.dimension)
    }

    fn node(&mut self, body: &PairingBody, position: &mut Marks) -> Result<Strategy, ElabError> {
        if body.moves.is_empty() {
            let pairs = body
                .pairs
                .iter()
                .map(|(p, q)| Ok((self.cell(p)?, self.cell(q)?)))
                .collect::<Result<_, ElabError>>()?;
            let period = cells_of(&body.period, self.dimension)?;
            return Ok(Strategy::Paving(Paving { pairs, period }));
        }
        if let Some((p, _)) = body.pairs.first() {
            // A node answers the maker's next mark or hands over to a
            // paving, not both.
            return Err(ElabError {
                kind: ElabErrorKind::MixedJustification,
                span: p.span,
            });
        }
        let mut moves = Vec::new();
        for m in &body.moves {
            let mark = self.cell(&m.mark)?;
            let answer = match &m.answer {
                MoveAnswerAst::Reply { reply, name, then } => {
                    let reply = cells_of(reply, self.dimension)?;
                    let saved = position.clone();
                    position.0.insert(mark);
                    position.1.extend(reply.iter().copied());
                    let mut then = self.node(then, position)?;
                    if let Some(name) = name {
                        self.situations.insert(name.node.clone(), position.clone());
                        then = Strategy::Named {
                            name: name.node.clone(),
                            then: Box::new(then),
                        };
                    }
                    *position = saved;
                    Answer::Reply { reply, then }
                }
                MoveAnswerAst::Same { reply, name, map } => {
                    let reply = cells_of(reply, self.dimension)?;
                    let mut here = position.clone();
                    here.0.insert(mark);
                    here.1.extend(reply.iter().copied());
                    let map = match map {
                        Some(map) => congruence(map, self.dimension, false)?,
                        None => self.recurrence(&name.node, &here, name.span)?,
                    };
                    let then = Strategy::Same {
                        name: name.node.clone(),
                        map,
                    };
                    Answer::Reply { reply, then }
                }
                MoveAnswerAst::Like { like, map } => {
                    let like = self.cell(like)?;
                    let map = match map {
                        Some(map) => congruence(map, self.dimension, false)?,
                        None => self.symmetry(position, like, mark, m.mark.span)?,
                    };
                    Answer::Like { like, map }
                }
            };
            moves.push(Move { mark, answer });
        }
        Ok(Strategy::Moves(moves))
    }

    /// A congruence taking the marks of the situation `name` (named
    /// earlier) to `here`: the identity when they are equal, or when no
    /// automorphism does it (the kernel then names the move).
    fn recurrence(
        &mut self,
        name: &str,
        here: &Marks,
        span: Span,
    ) -> Result<Congruence, ElabError> {
        let identity = Congruence::identity(self.board);
        let Some(earlier) = self.situations.get(name).cloned() else {
            return Ok(identity);
        };
        if earlier == *here {
            return Ok(identity);
        }
        let group = self.group(span)?;
        let from = (&earlier.0, &earlier.1);
        Ok(
            crate::produce::placer::mapping(&group, from, (&here.0, &here.1))
                .next()
                .map_or(identity, |p| {
                    Congruence::Permutation(p.iter().map(|&v| u16::from(v)).collect())
                }),
        )
    }

    /// The board's automorphisms, listed the first time they are needed.
    /// Listing the group may run out of the budget: an error at `span`.
    fn group(&mut self, span: Span) -> Result<Group, ElabError> {
        if let Some(group) = &self.group {
            return Ok(group.clone());
        }
        let listed = self.board.group(self.budget);
        let group = listed.map_err(|e| out_of_budget(e, span))?;
        Ok(self.group.insert(group.unwrap_or_default()).clone())
    }

    /// An automorphism of a solid or graph board fixing both players' marks
    /// and taking `from` to `to`, or the identity when there is none (the
    /// kernel's refutation then names the move). Listing the group may run
    /// out of the budget: an error at `span`, never a guessed identity.
    fn symmetry(
        &mut self,
        position: &Marks,
        from: Cell,
        to: Cell,
        span: Span,
    ) -> Result<Congruence, ElabError> {
        let group = self.group(span)?;
        Ok(
            crate::produce::placer::fixing_symmetry(&group, &position.0, &position.1, from, to)
                .map_or_else(
                    || Congruence::identity(self.board),
                    |p| Congruence::Permutation(p.iter().map(|&v| u16::from(v)).collect()),
                ),
        )
    }
}

/// `threshold A on B = (...) by citation from ...`.
pub fn threshold_claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
    declared: &Declarations,
) -> Result<Explicit, ElabError> {
    let ast::Statement::Threshold {
        animal,
        board,
        sequence,
    } = &claim.statement.node
    else {
        unreachable!("called for threshold claims only")
    };
    let board = resolve_board(board, boards)?;
    let goal = goal(animal, &board, declared)?;
    let Method::Citation(cites) = &claim.method.node else {
        return Err(not_applicable(claim));
    };
    let threshold = ThresholdClaim {
        board,
        goal,
        sequence: sequence.node.clone(),
    };
    Ok(Explicit::Threshold(threshold, ids(cites)))
}

/// `classify B = (W winners, L losers) by enumeration from ...`.
pub fn classify_claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
) -> Result<Explicit, ElabError> {
    let ast::Statement::Classify {
        board,
        winners,
        losers,
        elementary,
    } = &claim.statement.node
    else {
        unreachable!("called for classifications only")
    };
    let board = resolve_board(board, boards)?;
    let Method::Enumeration(cites) = &claim.method.node else {
        return Err(not_applicable(claim));
    };
    let classify = ClassifyClaim {
        board,
        winners: winners.node,
        losers: losers.node,
        elementary: *elementary,
    };
    Ok(Explicit::Classify(classify, ids(cites)))
}

/// `bound B [size K] winners <= W by enumeration from ...`.
pub fn bound_claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
) -> Result<Explicit, ElabError> {
    let ast::Statement::Bound {
        board,
        size,
        at_most,
    } = &claim.statement.node
    else {
        unreachable!("called for bounds only")
    };
    let board = resolve_board(board, boards)?;
    let Method::Enumeration(cites) = &claim.method.node else {
        return Err(not_applicable(claim));
    };
    // A size beyond the board's has no polyomino: the bound holds at once.
    let size = size
        .as_ref()
        .map(|k| usize::try_from(k.node).unwrap_or(usize::MAX));
    let bound = BoundClaim {
        board,
        size,
        at_most: at_most.node,
    };
    Ok(Explicit::Bound(bound, ids(cites)))
}

fn ids(cites: &[Spanned<String>]) -> Vec<Spanned<String>> {
    cites.to_vec()
}
