//! Derived results about maker-breaker games (rules M2-M8 of
//! docs/soundness.md, SPEC 3.5): consequences of cited, verified claims and
//! of the game's numbers alone, each with its hypotheses checked here.

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::verdict::{DerivedFailure, DerivedKind, Refutation, Rule, Undecided, Verdict};

/// Who wins, as a claim states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Winner,
    Loser,
}

/// `winner|loser GOAL on BOARD (a[->c],b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClaim {
    pub side: Side,
    pub board: Board,
    pub goal: Vec<Cell>,
    pub a: usize,
    /// Marks of the completing turn in an (a->c,b) game.
    pub finish: Option<usize>,
    pub b: usize,
}

impl GameClaim {
    /// The game of a winner claim, stated for `side`.
    pub fn of(side: Side, claim: super::WinnerClaim) -> GameClaim {
        GameClaim {
            side,
            board: claim.board,
            goal: claim.goal,
            a: claim.a,
            finish: claim.finish,
            b: claim.b,
        }
    }

    /// The marks the maker may use in the completing turn.
    fn last(&self) -> usize {
        self.finish.unwrap_or(self.a).max(self.a)
    }
}

/// A cited claim, verified, with the turns its proof needs when it is a
/// proof sequence (a bounded win).
#[derive(Clone, Debug)]
pub struct Cited {
    pub claim: GameClaim,
    pub turns: Option<u64>,
}

/// A derived rule and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DerivedRule {
    /// The maker marks the whole goal in his first turn.
    Trivial,
    /// Norris-Sieben Prop. 2.1.
    Proposition21,
    /// Norris-Sieben Prop. 2.2, with the placements through one cell.
    Proposition22 { placements: Vec<Vec<Cell>> },
    /// Norris-Sieben Cor. 3.4: b < a.
    Corollary34,
    /// Lemma 5.2 from one cited claim.
    Monotonicity,
    /// Prop. 5.5 from one cited claim.
    SubAnimal,
    /// Thm. 3.1 (Cor. 3.3 is the case of one cited claim used a times).
    Theorem31 { corollary: bool },
}

/// The number of cells adjacent to one cell, at most: the site perimeter
/// of a single cell on a lattice, the largest degree on a finite board.
fn delta(board: &Board) -> usize {
    match board.lattice() {
        Some(Lattice::Triangle) => 3,
        Some(Lattice::Square) => 4,
        Some(Lattice::Hexagon | Lattice::Cubic) => 6,
        None => board.face_graph().map_or(0, |g| {
            g.adjacent
                .iter()
                .map(|a| a.count_ones() as usize)
                .max()
                .unwrap_or(0)
        }),
    }
}

/// The verdict rule of a derived rule.
pub fn rule_of(rule: &DerivedRule) -> Rule {
    Rule::Derived(match rule {
        DerivedRule::Trivial => DerivedKind::Trivial,
        DerivedRule::Proposition21 => DerivedKind::Proposition21,
        DerivedRule::Proposition22 { .. } => DerivedKind::Proposition22,
        DerivedRule::Corollary34 => DerivedKind::Corollary34,
        DerivedRule::Monotonicity => DerivedKind::Monotonicity,
        DerivedRule::SubAnimal => DerivedKind::SubAnimal,
        DerivedRule::Theorem31 { corollary: true } => DerivedKind::Corollary33,
        DerivedRule::Theorem31 { corollary: false } => DerivedKind::Theorem31,
    })
}

/// Checks a derived claim; `cited` are the cited claims, all verified;
/// `budget` bounds listing a finite board's congruences.
pub fn check(
    claim: &GameClaim,
    rule: &DerivedRule,
    cited: &[Cited],
    mut budget: Budget,
) -> Verdict {
    let code = rule_of(rule);
    match derive(claim, rule, cited, &mut budget) {
        Ok(turns) => Verdict::Verified {
            rule: code,
            nodes: 0,
            value: turns,
        },
        Err(Failure::Refuted(failure)) => Verdict::Refuted {
            rule: code,
            refutation: Refutation::Derived(failure),
        },
        Err(Failure::TooLarge) => Verdict::Undecided {
            rule: code,
            reason: Undecided::OutsideLimits,
        },
        Err(Failure::Budget(e)) => Verdict::Undecided {
            rule: code,
            reason: Undecided::Budget(e),
        },
    }
}

enum Failure {
    Refuted(DerivedFailure),
    TooLarge,
    Budget(Exhausted),
}

impl From<Exhausted> for Failure {
    fn from(e: Exhausted) -> Failure {
        Failure::Budget(e)
    }
}

fn fail(f: DerivedFailure) -> Failure {
    Failure::Refuted(f)
}

/// The verdict's value: a bound on the maker's turns when the rule gives one
/// (the whole goal in one turn; two turns for Prop. 2.2; the cited bound for
/// Lemma 5.2 and Prop. 5.5, whose strategies are the cited ones; the stage
/// diagram for Thm. 3.1), else 0.
fn derive(
    claim: &GameClaim,
    rule: &DerivedRule,
    cited: &[Cited],
    budget: &mut Budget,
) -> Result<u64, Failure> {
    let winner = claim.side == Side::Winner;
    let lattice = claim
        .board
        .lattice()
        .filter(|_| matches!(claim.board, Board::Lattice(_)));
    let size = claim.goal.len();
    match rule {
        DerivedRule::Trivial => (winner && claim.last() >= size)
            .then_some(1)
            .ok_or(fail(DerivedFailure::Hypothesis)),
        DerivedRule::Proposition21 => {
            let holds = !winner && claim.a < size && claim.a * delta(&claim.board) <= claim.b;
            holds.then_some(0).ok_or(fail(DerivedFailure::Hypothesis))
        }
        DerivedRule::Corollary34 => {
            let holds = winner && lattice.is_some() && claim.b < claim.a;
            holds.then_some(0).ok_or(fail(DerivedFailure::Hypothesis))
        }
        DerivedRule::Proposition22 { placements } => {
            proposition22(claim, placements, lattice.is_some(), budget).map(|()| 2)
        }
        DerivedRule::Monotonicity | DerivedRule::SubAnimal => {
            let [from] = cited else {
                return Err(fail(DerivedFailure::Citations));
            };
            if from.claim.side != claim.side || from.claim.board != claim.board {
                return Err(fail(DerivedFailure::CitedOtherGame));
            }
            let (c, f) = (claim, &from.claim);
            let holds = match (rule, claim.side) {
                (DerivedRule::Monotonicity, Side::Winner) => {
                    f.goal == c.goal && c.a >= f.a && c.last() >= f.last() && c.b <= f.b
                }
                (DerivedRule::Monotonicity, Side::Loser) => {
                    f.goal == c.goal
                        && c.finish.is_none()
                        && f.finish.is_none()
                        && c.a <= f.a
                        && c.b >= f.b
                }
                (_, Side::Winner) => {
                    (f.a, f.finish, f.b) == (c.a, c.finish, c.b)
                        && shape::is_sub_animal(&c.board, &c.goal, &f.goal, budget)?
                }
                (_, Side::Loser) => {
                    (f.a, f.finish, f.b) == (c.a, c.finish, c.b)
                        && shape::is_sub_animal(&c.board, &f.goal, &c.goal, budget)?
                }
            };
            let turns = if winner { from.turns.unwrap_or(0) } else { 0 };
            holds
                .then_some(turns)
                .ok_or(fail(DerivedFailure::Hypothesis))
        }
        DerivedRule::Theorem31 { corollary } => {
            theorem31(claim, cited, *corollary, lattice.is_some())
        }
    }
}

/// Prop. 2.2: |A| = a + 1, the placements are placements of A on the board
/// meeting pairwise in exactly one common cell, a * h > b; on a lattice
/// (the maker needs a far-apart copies of the configuration).
fn proposition22(
    claim: &GameClaim,
    placements: &[Vec<Cell>],
    lattice: bool,
    budget: &mut Budget,
) -> Result<(), Failure> {
    if claim.side != Side::Winner || !lattice || claim.goal.len() != claim.a + 1 {
        return Err(fail(DerivedFailure::Hypothesis));
    }
    let canonical = shape::canonical_form(&claim.board, &claim.goal, budget)?;
    for (i, p) in placements.iter().enumerate() {
        let mut sorted = p.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != p.len() || shape::canonical_form(&claim.board, p, budget)? != canonical {
            return Err(fail(DerivedFailure::NotAPlacement { placement: i + 1 }));
        }
    }
    let common: Vec<Cell> = placements
        .first()
        .map(|p| {
            p.iter()
                .filter(|c| placements.iter().all(|q| q.contains(c)))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    for (i, p) in placements.iter().enumerate() {
        for (j, q) in placements.iter().enumerate().skip(i + 1) {
            let shared = p.iter().filter(|c| q.contains(c)).count();
            if shared != 1 || common.len() != 1 {
                return Err(fail(DerivedFailure::PlacementsMeet {
                    first: i + 1,
                    second: j + 1,
                    shared,
                }));
            }
        }
    }
    if claim.a * placements.len() <= claim.b {
        return Err(fail(DerivedFailure::Hypothesis));
    }
    Ok(())
}

/// The most stages a stage diagram may have before the kernel declines.
const MAX_STAGES: u64 = 1_000_000;

/// Thm. 3.1: the cited claims are bounded (a_i -> a, b_i) wins of the same
/// goal on the same lattice with a = sum a_i; the claim is (a, b) with
/// b <= sum b_i + s - 1. Cor. 3.3 cites one (1 -> a, b_1) win, used a times.
/// Returns the stage diagram's turn bound.
fn theorem31(
    claim: &GameClaim,
    cited: &[Cited],
    corollary: bool,
    lattice: bool,
) -> Result<u64, Failure> {
    if claim.side != Side::Winner || !lattice || claim.finish.is_some() {
        return Err(fail(DerivedFailure::Hypothesis));
    }
    let games: Vec<&Cited> = match (corollary, cited) {
        (true, [one]) if one.claim.a == 1 => std::iter::repeat_n(one, claim.a).collect(),
        (true, _) => return Err(fail(DerivedFailure::Citations)),
        (false, []) => return Err(fail(DerivedFailure::Citations)),
        (false, many) => many.iter().collect(),
    };
    let mut lengths = Vec::new();
    for g in &games {
        let f = &g.claim;
        if f.side != Side::Winner || f.board != claim.board || f.goal != claim.goal {
            return Err(fail(DerivedFailure::CitedOtherGame));
        }
        if f.last() > claim.a {
            return Err(fail(DerivedFailure::Hypothesis));
        }
        lengths.push(g.turns.ok_or(fail(DerivedFailure::Unbounded))?);
    }
    let s = games.len();
    let a: usize = games.iter().map(|g| g.claim.a).sum();
    let b: usize = games.iter().map(|g| g.claim.b).sum();
    if a != claim.a || claim.b > b + s - 1 {
        return Err(fail(DerivedFailure::SumsDoNotMatch));
    }
    let breaker: Vec<u64> = games.iter().map(|g| g.claim.b as u64).collect();
    stage_bound(&breaker, &lengths).ok_or(Failure::TooLarge)
}

/// The turn bound of Norris-Sieben's stage diagram for s games with
/// breaker marks `b_i` and lengths `l_i` (Example 3.2: b = (1, 2),
/// l = (3, 4) gives 440); `None` when the diagram or a number is too large.
///
/// A stage is a progress vector p (p_i < l_i). From a stage where some
/// p_i = l_i - 1 the maker wins in one turn, needing one such subboard.
/// Otherwise, with q^(i) the supply of the i-th successor, the stage takes
/// n = 1 + sum_i (q^(i)_i - 1)(b_i + 1) turns and needs the supply
/// q_i = max((n - 1)(B + s) + 1, q^(j)_i + n (B + s) for j != i with
/// q^(j)_i > 0), B = sum b_i. The bound is the most turns along a path.
pub fn stage_bound(b: &[u64], lengths: &[u64]) -> Option<u64> {
    let s = b.len();
    let stages = lengths.iter().try_fold(1u64, |n, &l| n.checked_mul(l))?;
    if s == 0 || stages > MAX_STAGES || lengths.contains(&0) {
        return None;
    }
    let total_b: u64 = b.iter().sum();
    let step = total_b.checked_add(s as u64)?;
    // Memo over progress vectors, in mixed radix.
    let mut memo: Vec<Option<(Vec<u64>, u64)>> = vec![None; stages as usize];
    fn index(p: &[u64], lengths: &[u64]) -> usize {
        p.iter()
            .zip(lengths)
            .fold(0u64, |acc, (&x, &l)| acc * l + x) as usize
    }
    fn stage(
        p: &mut Vec<u64>,
        b: &[u64],
        lengths: &[u64],
        step: u64,
        memo: &mut Vec<Option<(Vec<u64>, u64)>>,
    ) -> Option<(Vec<u64>, u64)> {
        let s = b.len();
        let at = index(p, lengths);
        if let Some(known) = &memo[at] {
            return Some(known.clone());
        }
        let result = if let Some(i) = (0..s).find(|&i| p[i] + 1 == lengths[i]) {
            let mut q = vec![0; s];
            q[i] = 1;
            (q, 1)
        } else {
            let mut successors = Vec::with_capacity(s);
            for i in 0..s {
                p[i] += 1;
                successors.push(stage(p, b, lengths, step, memo)?);
                p[i] -= 1;
            }
            let mut n = 1u64;
            for i in 0..s {
                n = n.checked_add(successors[i].0[i].checked_sub(1)?.checked_mul(b[i] + 1)?)?;
            }
            let mut q = Vec::with_capacity(s);
            for i in 0..s {
                let mut need = (n - 1).checked_mul(step)?.checked_add(1)?;
                for (j, succ) in successors.iter().enumerate() {
                    if j != i && succ.0[i] > 0 {
                        need = need.max(succ.0[i].checked_add(n.checked_mul(step)?)?);
                    }
                }
                q.push(need);
            }
            let longest = successors.iter().map(|s| s.1).max()?;
            (q, n.checked_add(longest)?)
        };
        memo[at] = Some(result.clone());
        Some(result)
    }
    let mut p = vec![0; s];
    stage(&mut p, b, lengths, step, &mut memo).map(|(_, turns)| turns)
}

#[cfg(test)]
mod tests {
    use super::stage_bound;

    #[test]
    fn example_3_2_gives_440_turns() {
        assert_eq!(stage_bound(&[1, 2], &[3, 4]), Some(440));
    }
}
