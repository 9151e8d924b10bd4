//! The trusted kernel: checks fully explicit claims and returns facts.
//!
//! Architecture invariant: this module depends only on `std` (and may use
//! `bitvec`); it never sees source text, spans or file names, never calls the
//! elaborator or a producer, and never panics on input. Its failures are closed
//! enums of facts; the wording of every verdict lives in `report`.

pub mod animals;
pub mod breaker;
pub mod budget;
pub mod claim;
pub mod game;
pub mod hash;
pub mod impartial;
pub mod ledger;
pub mod maker;
pub mod partizan;
pub mod verdict;
