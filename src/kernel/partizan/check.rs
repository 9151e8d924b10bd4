//! Partizan claims to verdicts: values, outcomes, comparisons, numbers,
//! Grundy values of impartial terms, and derivations.

use super::compare::{Comparer, Reason};
use super::dyadic::{Dyadic, simplest_between};
use super::game::{Games, Id, MAX_EDGES, Player, Term};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::ledger::{Established, Theorem};
use crate::kernel::verdict::ordinal;
use crate::kernel::verdict::{
    Malformed, MoveWitness, PartizanOutcome, Refutation, Rejection, Relation, Requirement, Rule,
    StepFailure, Undecided, Verdict,
};

/// The largest denominator exponent the birthday bound (P5) works with.
pub const MAX_BIRTHDAY_EXPONENT: u32 = 4096;

/// The largest nimber the kernel builds (a claimed Grundy value included).
pub const MAX_NIMBER: u64 = 4096;

/// A partizan claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `value G = V`.
    Value { game: Term, value: Term },
    /// `outcome G = L|R|P|N`.
    Outcome {
        game: Term,
        outcome: PartizanOutcome,
    },
    /// `compare G REL H`.
    Compare {
        left: Term,
        relation: Relation,
        right: Term,
    },
    /// `grundy G = n` for an impartial term: `G = *n`.
    Grundy { game: Term, value: u32 },
    /// `number G`, with the elaborator's candidate (untrusted): the number G
    /// equals, or a number G is confused with.
    Number {
        game: Term,
        candidate: Option<NumberCandidate>,
    },
}

/// A number the elaborator proposes for a `number` claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberCandidate {
    /// G should equal this number.
    Equal(Dyadic),
    /// G should be confused with this number (so G is not a number).
    Confused(Dyadic),
    /// G should lie strictly between this number and every number a little
    /// above it (or below it, when `above` is false): an infinitesimal
    /// distance that no number G could equal can be at.
    Infinitesimal { stop: Dyadic, above: bool },
}

/// How a step of a derivation claims to follow from the previous term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRule {
    /// Only the equality, by definition.
    Definition,
    /// The previous term's options, written out as `{...|...}`.
    Options,
    /// Dominated options removed.
    Dominated,
    /// One reversible option bypassed.
    Reversible,
    /// `{a|b}` of numbers replaced by the simplest number between them.
    SimplestNumber,
}

/// One step of a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The term the step arrives at.
    pub term: Term,
    /// The rule it names.
    pub rule: StepRule,
}

/// How the claim is to be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// By the recursive definition.
    Definition,
    /// A chain of equalities from the game to the value.
    Derivation(Vec<Step>),
    /// The bytes of a Domineering answer file (rule P5).
    Answers(crate::kernel::impartial::answers::FileBytes),
}

/// Checks a partizan claim.
pub fn check(statement: &Statement, evidence: &Evidence, budget: Budget) -> Verdict {
    let (rule, steps) = match evidence {
        Evidence::Definition => (Rule::PartizanDefinition, None),
        Evidence::Derivation(steps) => (Rule::PartizanDerivation, Some(steps)),
        Evidence::Answers(bytes) => return check_answers(statement, &bytes.bytes, budget),
    };
    if !within_limits(statement, evidence) {
        return Verdict::Undecided {
            rule,
            reason: Undecided::OutsideLimits,
        };
    }
    let mut cmp = Comparer::new(Games::new(), budget);
    let result = match steps {
        None => decide(&mut cmp, statement).map(|r| r.map(Finding::Refuted)),
        Some(steps) => derive(&mut cmp, statement, steps),
    };
    match result {
        Ok(None) => Verdict::Verified {
            rule,
            nodes: cmp.budget.nodes(),
            measure: 0,
            theorem: Theorem::new(Established::Partizan(statement.clone())),
        },
        Ok(Some(Finding::Refuted(refutation))) => Verdict::Refuted { rule, refutation },
        Ok(Some(Finding::Rejected(rejection))) => Verdict::Rejected { rule, rejection },
        Err(Undecidable::NotAValueClaim) => Verdict::Malformed {
            rule,
            reason: Malformed::NotApplicable(Requirement::ValueClaim),
        },
        Err(Undecidable::Budget(e)) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
        Err(Undecidable::NoCandidate) => Verdict::Undecided {
            rule,
            reason: Undecided::NoNumberCandidate,
        },
    }
}

enum Undecidable {
    Budget(Exhausted),
    NoCandidate,
    /// Derivations prove `value` claims only.
    NotAValueClaim,
}

/// What a check found against the claim: the claim false (by the
/// definition), or a derivation that does not establish it.
enum Finding {
    Refuted(Refutation),
    Rejected(Rejection),
}

impl From<Exhausted> for Undecidable {
    fn from(e: Exhausted) -> Self {
        Undecidable::Budget(e)
    }
}

type Outcome = Result<Option<Refutation>, Undecidable>;

fn decide(cmp: &mut Comparer, statement: &Statement) -> Outcome {
    match statement {
        Statement::Value { game, value } => {
            let (g, v) = (cmp.games.term(game), cmp.games.term(value));
            compare_claim(cmp, g, Relation::Equal, v)
        }
        Statement::Grundy { game, value } => {
            let (g, v) = (cmp.games.term(game), cmp.games.nimber(*value));
            compare_claim(cmp, g, Relation::Equal, v)
        }
        Statement::Compare {
            left,
            relation,
            right,
        } => {
            let (g, h) = (cmp.games.term(left), cmp.games.term(right));
            compare_claim(cmp, g, *relation, h)
        }
        Statement::Outcome { game, outcome } => {
            let g = cmp.games.term(game);
            outcome_claim(cmp, g, *outcome)
        }
        Statement::Number { game, candidate } => {
            let g = cmp.games.term(game);
            match candidate {
                Some(NumberCandidate::Equal(x)) => {
                    let x = cmp.games.number(x.clone());
                    match compare_claim(cmp, g, Relation::Equal, x)? {
                        None => Ok(None),
                        Some(_) => Err(Undecidable::NoCandidate),
                    }
                }
                Some(NumberCandidate::Infinitesimal { stop, above }) => {
                    // If G equals a number x, then x's birthday is at most the
                    // height h of G's tree, so x is a multiple of 2^-h: no such
                    // x lies strictly between `stop` and `stop +- 2^-k` when
                    // k exceeds h and the exponent of `stop` (P5).
                    let height = cmp.games.height(g, &mut cmp.budget)?;
                    let k = height.max(stop.exponent()).saturating_add(1);
                    // The comparisons below walk the standard form of a number
                    // with denominator 2^k, one level per halving; beyond this
                    // the claim is left undecided rather than run for hours.
                    if k > MAX_BIRTHDAY_EXPONENT {
                        return Err(Undecidable::NoCandidate);
                    }
                    let step =
                        Dyadic::new(num_bigint::BigInt::from(if *above { 1 } else { -1 }), k);
                    let near = cmp.games.number(stop.add(&step));
                    let at = cmp.games.number(stop.clone());
                    let (low, high) = if *above { (at, near) } else { (near, at) };
                    let inside = cmp.ge(g, low)?
                        && !cmp.ge(low, g)?
                        && cmp.ge(high, g)?
                        && !cmp.ge(g, high)?;
                    if inside {
                        let (a, b) = (stop.to_string(), stop.add(&step).to_string());
                        let (low, high) = if *above { (a, b) } else { (b, a) };
                        Ok(Some(Refutation::NotANumberBetween { low, high }))
                    } else {
                        Err(Undecidable::NoCandidate)
                    }
                }
                Some(NumberCandidate::Confused(y)) => {
                    let yid = cmp.games.number(y.clone());
                    if !cmp.ge(g, yid)? && !cmp.ge(yid, g)? {
                        Ok(Some(Refutation::NotANumber {
                            confused_with: y.to_string(),
                        }))
                    } else {
                        Err(Undecidable::NoCandidate)
                    }
                }
                None => Err(Undecidable::NoCandidate),
            }
        }
    }
}

/// The relation that holds between `g` and `h`.
fn relation(cmp: &mut Comparer, g: Id, h: Id) -> Result<Relation, Exhausted> {
    let ge = cmp.ge(g, h)?;
    let le = cmp.ge(h, g)?;
    Ok(match (ge, le) {
        (true, true) => Relation::Equal,
        (true, false) => Relation::Greater,
        (false, true) => Relation::Less,
        (false, false) => Relation::Confused,
    })
}

/// Checks `g REL h`; a refutation names a move that breaks a needed `>=`.
fn compare_claim(cmp: &mut Comparer, g: Id, claimed: Relation, h: Id) -> Outcome {
    let actual = relation(cmp, g, h)?;
    let holds = match claimed {
        Relation::GreaterOrEqual => matches!(actual, Relation::Equal | Relation::Greater),
        Relation::LessOrEqual => matches!(actual, Relation::Equal | Relation::Less),
        other => other == actual,
    };
    if holds {
        return Ok(None);
    }
    // A needed `g >= h` (or `h >= g`) that fails has a refuting move.
    let needs_ge = matches!(
        claimed,
        Relation::Equal | Relation::GreaterOrEqual | Relation::Greater
    );
    let needs_le = matches!(
        claimed,
        Relation::Equal | Relation::LessOrEqual | Relation::Less
    );
    let witness = if needs_ge && !matches!(actual, Relation::Equal | Relation::Greater) {
        cmp.why_not_ge(g, h)?.map(|r| witness(cmp, r, true))
    } else if needs_le && !matches!(actual, Relation::Equal | Relation::Less) {
        cmp.why_not_ge(h, g)?.map(|r| witness(cmp, r, false))
    } else {
        None
    };
    Ok(Some(Refutation::Relation {
        claimed,
        actual,
        witness,
    }))
}

/// Turns the reason `first >= second` fails into a fact about the claim's
/// games: `claim_order` is whether `first` is the claim's left-hand game.
fn witness(cmp: &Comparer, reason: Reason, claim_order: bool) -> MoveWitness {
    match reason {
        Reason::RightInFirst(o) => MoveWitness::Move {
            player: Player::Right,
            in_left_game: claim_order,
            option: cmp.games.describe(o),
        },
        Reason::LeftInSecond(o) => MoveWitness::Move {
            player: Player::Left,
            in_left_game: !claim_order,
            option: cmp.games.describe(o),
        },
        Reason::SmallerNumber => MoveWitness::SmallerNumber,
    }
}

fn outcome_claim(cmp: &mut Comparer, g: Id, claimed: PartizanOutcome) -> Outcome {
    let left_first = cmp.first_player_wins(g, Player::Left)?;
    let right_first = cmp.first_player_wins(g, Player::Right)?;
    let actual = match (left_first.is_some(), right_first.is_some()) {
        (true, true) => PartizanOutcome::N,
        (true, false) => PartizanOutcome::L,
        (false, true) => PartizanOutcome::R,
        (false, false) => PartizanOutcome::P,
    };
    if actual == claimed {
        return Ok(None);
    }
    // The winning first move that the claimed class denies.
    let witness = match claimed {
        PartizanOutcome::P | PartizanOutcome::R => left_first.map(|o| (Player::Left, o)),
        _ => None,
    }
    .or(match claimed {
        PartizanOutcome::P | PartizanOutcome::L => right_first.map(|o| (Player::Right, o)),
        _ => None,
    })
    .map(|(player, o)| MoveWitness::Move {
        player,
        in_left_game: true,
        option: cmp.games.describe(o),
    });
    Ok(Some(Refutation::PartizanOutcome {
        claimed,
        actual,
        witness,
    }))
}

/// Checks a chain `G = T1 = ... = Tn`, then `Tn = V`. A failing step is a
/// derivation that does not establish the claim; when every step holds,
/// G = Tn is established, so `Tn != V` shows the claim false.
fn derive(
    cmp: &mut Comparer,
    statement: &Statement,
    steps: &[Step],
) -> Result<Option<Finding>, Undecidable> {
    let Statement::Value { game, value } = statement else {
        return Err(Undecidable::NotAValueClaim);
    };
    let mut previous = cmp.games.term(game);
    for (i, step) in steps.iter().enumerate() {
        let next = cmp.games.term(&step.term);
        let failure = match side_condition(cmp, previous, next, step.rule)? {
            Some(failure) => Some(failure),
            None => compare_claim(cmp, previous, Relation::Equal, next)?.map(|refutation| {
                let witness = match refutation {
                    Refutation::Relation { witness, .. } => witness,
                    _ => None,
                };
                StepFailure::NotEqual { witness }
            }),
        };
        if let Some(failure) = failure {
            return Ok(Some(Finding::Rejected(Rejection::Step {
                step: ordinal(i),
                failure,
            })));
        }
        previous = next;
    }
    let v = cmp.games.term(value);
    Ok(compare_claim(cmp, previous, Relation::Equal, v)?.map(Finding::Refuted))
}

/// The side condition of `rule` for the step from `prev` to `next`.
fn side_condition(
    cmp: &mut Comparer,
    prev: Id,
    next: Id,
    rule: StepRule,
) -> Result<Option<StepFailure>, Exhausted> {
    let explicit = |cmp: &Comparer, g| cmp.games.explicit_options(g);
    match rule {
        StepRule::Definition => Ok(None),
        StepRule::Options => {
            let generated = cmp.games.options(prev, &cmp.budget)?;
            let written = cmp.games.options(next, &cmp.budget)?;
            let same = |a: &[Id], b: &[Id]| {
                let (mut a, mut b) = (a.to_vec(), b.to_vec());
                a.sort_unstable();
                a.dedup();
                b.sort_unstable();
                b.dedup();
                a == b
            };
            let ok = explicit(cmp, next).is_some()
                && same(&generated.0, &written.0)
                && same(&generated.1, &written.1);
            Ok((!ok).then_some(StepFailure::NotTheOptions))
        }
        StepRule::Dominated => {
            let (Some((pl, pr)), Some((nl, nr))) = (explicit(cmp, prev), explicit(cmp, next))
            else {
                return Ok(Some(StepFailure::NotExplicit));
            };
            for (old, new, player) in [(&pl, &nl, Player::Left), (&pr, &nr, Player::Right)] {
                if new.iter().any(|o| !old.contains(o)) {
                    return Ok(Some(StepFailure::NotASubset));
                }
                for &removed in old.iter().filter(|o| !new.contains(o)) {
                    let mut dominated = false;
                    for &kept in new {
                        dominated = match player {
                            Player::Left => cmp.ge(kept, removed)?,
                            Player::Right => cmp.ge(removed, kept)?,
                        };
                        if dominated {
                            break;
                        }
                    }
                    if !dominated {
                        return Ok(Some(StepFailure::NotDominated {
                            option: cmp.games.describe(removed),
                        }));
                    }
                }
            }
            Ok(None)
        }
        StepRule::Reversible => reversible(cmp, prev, next),
        StepRule::SimplestNumber => {
            let Some((left, right)) = explicit(cmp, prev) else {
                return Ok(Some(StepFailure::NotExplicit));
            };
            let numbers = |ids: &[Id]| -> Option<Vec<Dyadic>> {
                ids.iter()
                    .map(|&o| cmp.games.as_number(o).cloned())
                    .collect()
            };
            let (Some(l), Some(r)) = (numbers(&left), numbers(&right)) else {
                return Ok(Some(StepFailure::OptionsNotNumbers));
            };
            let low = l.iter().max();
            let high = r.iter().min();
            let simplest = simplest_between(low, high);
            match (simplest, cmp.games.as_number(next)) {
                (Some(s), Some(x)) if s == *x => Ok(None),
                (Some(s), _) => Ok(Some(StepFailure::NotSimplest {
                    expected: s.to_string(),
                })),
                (None, _) => Ok(Some(StepFailure::OptionsNotNumbers)),
            }
        }
    }
}

/// `next` is `prev` with one option bypassed: a left option X of `prev` with
/// a right option X^R <= prev replaced by the left options of X^R (or the
/// mirror image for a right option).
fn reversible(cmp: &mut Comparer, prev: Id, next: Id) -> Result<Option<StepFailure>, Exhausted> {
    let (Some((pl, pr)), Some((nl, nr))) = (
        cmp.games.explicit_options(prev),
        cmp.games.explicit_options(next),
    ) else {
        return Ok(Some(StepFailure::NotExplicit));
    };
    for player in [Player::Left, Player::Right] {
        let (old, new, other_old, other_new) = match player {
            Player::Left => (&pl, &nl, &pr, &nr),
            Player::Right => (&pr, &nr, &pl, &nl),
        };
        if other_old != other_new {
            continue;
        }
        for &x in old {
            let x_options = cmp.games.options(x, &cmp.budget)?;
            let replies = match player {
                Player::Left => &x_options.1,
                Player::Right => &x_options.0,
            };
            for &reply in replies {
                let reverses = match player {
                    Player::Left => cmp.ge(prev, reply)?,
                    Player::Right => cmp.ge(reply, prev)?,
                };
                if !reverses {
                    continue;
                }
                let reply_options = cmp.games.options(reply, &cmp.budget)?;
                let bypass = match player {
                    Player::Left => &reply_options.0,
                    Player::Right => &reply_options.1,
                };
                let mut expected: Vec<Id> = old.iter().copied().filter(|&o| o != x).collect();
                expected.extend_from_slice(bypass);
                expected.sort_unstable();
                expected.dedup();
                if expected == *new {
                    return Ok(None);
                }
            }
        }
    }
    Ok(Some(StepFailure::NotReversible))
}

/// Whether every Hackenbush picture of the claim fits the kernel (at most
/// [`MAX_EDGES`] edges); larger pictures are UNDECIDED, not truncated.
fn within_limits(statement: &Statement, evidence: &Evidence) -> bool {
    fn fits(t: &Term) -> bool {
        match t {
            Term::Options(l, r) => l.iter().chain(r).all(fits),
            Term::Sum(parts) => parts.iter().all(fits),
            Term::Neg(inner) => fits(inner),
            Term::Hackenbush(p) => p.edges.len() <= MAX_EDGES,
            // *n has n options, each a nimber with its own: larger ones
            // would be interned by the million outside the budget.
            Term::Nimber(n) => u64::from(*n) <= MAX_NIMBER,
            Term::Number(_) | Term::Domineering(_) => true,
        }
    }
    if let Statement::Grundy { value, .. } = statement
        && u64::from(*value) > MAX_NIMBER
    {
        return false;
    }
    let terms: Vec<&Term> = match statement {
        Statement::Value { game, value } => vec![game, value],
        Statement::Outcome { game, .. }
        | Statement::Grundy { game, .. }
        | Statement::Number { game, .. } => vec![game],
        Statement::Compare { left, right, .. } => vec![left, right],
    };
    let steps: Vec<&Term> = match evidence {
        Evidence::Definition | Evidence::Answers(_) => Vec::new(),
        Evidence::Derivation(steps) => steps.iter().map(|s| &s.term).collect(),
    };
    terms.into_iter().chain(steps).all(fits)
}

/// Rule P5: a Domineering outcome from an answer file. The claimed class
/// is two facts (N: both players win moving first; P: both lose; L: Left
/// wins moving first and Right loses moving first; R the other way round).
fn check_answers(statement: &Statement, bytes: &[u8], budget: Budget) -> Verdict {
    use super::answers::{self, Finding, fact};
    use crate::kernel::impartial::answers::Failure;
    let rule = Rule::PartizanAnswers;
    let reject = |failure| Verdict::Rejected {
        rule,
        rejection: Rejection::Answers(failure),
    };
    let Statement::Outcome { game, outcome } = statement else {
        return reject(Failure::NotASum);
    };
    let mut grids = Vec::new();
    let mut pending = vec![game];
    while let Some(term) = pending.pop() {
        match term {
            Term::Domineering(grid) => grids.push(*grid),
            Term::Sum(terms) => pending.extend(terms),
            _ => return reject(Failure::NotASum),
        }
    }
    let (left_wins, right_wins) = match outcome {
        PartizanOutcome::N => (true, true),
        PartizanOutcome::P => (false, false),
        PartizanOutcome::L => (true, false),
        PartizanOutcome::R => (false, true),
    };
    let wanted = [(Player::Left, left_wins), (Player::Right, right_wins)];
    let (finding, budget) = answers::verify(&grids, bytes, budget);
    match finding {
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
        Ok(Finding::Fails(failure)) => reject(failure),
        Ok(Finding::Facts { facts, records }) => {
            if let Some(&(mover, wins)) = wanted.iter().find(|(m, w)| facts & fact(*m, !*w) != 0) {
                return Verdict::Refuted {
                    rule,
                    refutation: Refutation::MoverFact { mover, wins: !wins },
                };
            }
            if wanted.iter().all(|&(m, w)| facts & fact(m, w) != 0) {
                Verdict::Verified {
                    rule,
                    nodes: budget.nodes(),
                    measure: u64::from(records),
                    theorem: Theorem::new(Established::Partizan(statement.clone())),
                }
            } else {
                reject(Failure::Unestablished)
            }
        }
    }
}
