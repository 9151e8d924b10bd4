//! The trusted kernel: checks fully explicit claims and returns facts.
//!
//! Architecture invariant: this module depends only on `std` (and may use
//! `bitvec`); it never sees source text, spans or file names, never calls the
//! elaborator or a producer, and never panics on input. Its failures are closed
//! enums of facts; the wording of every verdict lives in `report`.

// The kernel never panics on input: no unwrap, expect, panic or
// unreachable, and arithmetic on quantities that come from input is
// checked. Modules whose arithmetic is on bounded internal quantities (bit
// boards of at most 64 cells, face numbers below 128, memo slots, big
// integers) allow it at their top and say why; overflow-checks in the
// release profile and the driver's panic boundary are the second net.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented,
    clippy::arithmetic_side_effects
)]

pub mod animals;
pub mod bounds;
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
