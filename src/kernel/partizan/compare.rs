//! Rule P1: `G >= H` by the recursive definition, memoised.
//!
//! G >= H unless Right has a move G^R with G^R <= H, or Left has a move H^L
//! with G <= H^L. Two shortcuts, each a theorem argued in docs/soundness.md:
//! numbers, and sums of numbers, compare as the dyadic rationals they are
//! (P3), and every game is at least itself (P4). Everything else goes by
//! the definition, so a value claim `G = V` is checked as `G >= V` and
//! `V >= G` on the game trees themselves, never through a canonical form.

use super::dyadic::Dyadic;
use super::game::{Games, Id, Player};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::hash::FastMap;

/// The deepest chain of nested comparisons (moves along one line of play in
/// either game). Deep enough for every game the kernel can expand in budget;
/// deeper claims are UNDECIDED instead of exhausting the stack.
pub const MAX_DEPTH: usize = 20_000;

/// Why `G >= H` fails: a move after which the player who made it is no
/// worse off than in the other game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Right moves in G to this option, which is `<= H`.
    RightInFirst(Id),
    /// Left moves in H to this option, which is `>= G`.
    LeftInSecond(Id),
    /// Both games are numbers (or sums of numbers) and G is the smaller
    /// (rule P3).
    SmallerNumber,
}

/// The memoised comparison of one claim's games.
pub struct Comparer {
    /// The interned games.
    pub games: Games,
    memo: FastMap<(Id, Id), Option<Reason>>,
    /// Sum nodes added up (rule P3): their number, or `None` when some
    /// summand is not a number.
    sums: FastMap<Id, Option<Dyadic>>,
    /// The budget every comparison is charged to.
    pub budget: Budget,
    depth: usize,
}

impl Comparer {
    /// A comparer over `games`.
    pub fn new(games: Games, budget: Budget) -> Comparer {
        Comparer {
            games,
            memo: FastMap::default(),
            sums: FastMap::default(),
            budget,
            depth: 0,
        }
    }

    /// Comparisons decided so far.
    pub fn decided(&self) -> usize {
        self.memo.len()
    }

    /// Whether `g >= h`.
    pub fn ge(&mut self, g: Id, h: Id) -> Result<bool, Exhausted> {
        Ok(self.why_not_ge(g, h)?.is_none())
    }

    /// `None` when `g >= h`, otherwise the move that shows it is not.
    pub fn why_not_ge(&mut self, g: Id, h: Id) -> Result<Option<Reason>, Exhausted> {
        if g == h {
            return Ok(None);
        }
        self.add_up(g);
        self.add_up(h);
        if let (Some(x), Some(y)) = (self.number(g), self.number(h)) {
            return Ok((x < y).then_some(Reason::SmallerNumber));
        }
        if let Some(&known) = self.memo.get(&(g, h)) {
            return Ok(known);
        }
        let held = self
            .memo
            .len()
            .saturating_add(self.games.weight())
            .saturating_add(self.sums.len());
        self.budget.expand(held)?;
        if self.depth >= MAX_DEPTH {
            return Err(Exhausted::Depth(MAX_DEPTH));
        }
        // Below MAX_DEPTH, checked above.
        self.depth = self.depth.saturating_add(1);
        let reason = self.search(g, h);
        self.depth = self.depth.saturating_sub(1);
        let reason = reason?;
        self.memo.insert((g, h), reason);
        Ok(reason)
    }

    /// Adds up the sum node `g` once, if it is a sum: its number when its
    /// summands are all numbers (rule P3), else `None`. Kept, since a long
    /// sum may be compared with many games.
    fn add_up(&mut self, g: Id) {
        if self.games.is_sum(g) && !self.sums.contains_key(&g) {
            let value = self.games.sum_of_numbers(g);
            self.sums.insert(g, value);
        }
    }

    /// The number `g` is or equals (a number node, or a sum of number
    /// nodes already added up).
    fn number(&self, g: Id) -> Option<&Dyadic> {
        self.games
            .as_number(g)
            .or_else(|| self.sums.get(&g).and_then(Option::as_ref))
    }

    fn search(&mut self, g: Id, h: Id) -> Result<Option<Reason>, Exhausted> {
        let g_options = self.games.options(g, &self.budget)?;
        // Generating a sum's options costs work per option: charge it.
        self.budget
            .charge(g_options.0.len().saturating_add(g_options.1.len()))?;
        for &gr in &g_options.1 {
            self.budget.tick()?;
            if self.ge(h, gr)? {
                return Ok(Some(Reason::RightInFirst(gr)));
            }
        }
        let h_options = self.games.options(h, &self.budget)?;
        self.budget
            .charge(h_options.0.len().saturating_add(h_options.1.len()))?;
        for &hl in &h_options.0 {
            self.budget.tick()?;
            if self.ge(hl, g)? {
                return Ok(Some(Reason::LeftInSecond(hl)));
            }
        }
        Ok(None)
    }

    /// Whether `player`, moving first in `g`, wins: Left wins moving first
    /// when some `g^L >= 0`, Right when some `g^R <= 0`.
    pub fn first_player_wins(&mut self, g: Id, player: Player) -> Result<Option<Id>, Exhausted> {
        let zero = self.games.zero();
        let options = self.games.options(g, &self.budget)?;
        let side = match player {
            Player::Left => &options.0,
            Player::Right => &options.1,
        };
        for &o in side {
            let wins = match player {
                Player::Left => self.ge(o, zero)?,
                Player::Right => self.ge(zero, o)?,
            };
            if wins {
                return Ok(Some(o));
            }
        }
        Ok(None)
    }
}
