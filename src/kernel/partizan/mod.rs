//! Partizan short games: values, outcomes and comparisons by the recursive
//! definition (rules P1-P4 of docs/soundness.md).
//!
//! - P1 order: `G >= H` unless Right has a move `G^R <= H` or Left a move
//!   `H^L >= G`; `G = H` is both directions (compare.rs).
//! - P2 isomorphic forms: interning normalises a game to an isomorphic game
//!   tree (sums flattened and sorted, negations pushed inwards, rulesets split
//!   into independent parts, Domineering parts flipped) (game.rs).
//! - P3 numbers: two number nodes compare as their dyadic values.
//! - P4 reflexivity: every game is at least itself.
//!
//! Key decision: the kernel never computes canonical forms. A claimed value is
//! a second game, and the claim holds when the two are equal by P1; canonical
//! forms are the elaborator's business (untrusted, for `eval` and for
//! suggestions), so a bug there can at worst make a true claim look false.

pub mod answers;
pub mod check;
pub mod compare;
pub mod dyadic;
pub mod game;
