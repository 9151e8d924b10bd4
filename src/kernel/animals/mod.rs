//! Boards and animals: the lattices of SPEC 3.1, canonical forms of animals
//! under their congruences, and counting claims checked by enumeration
//! (rule A1 of docs/soundness.md).

pub mod enumerate;
pub mod lattice;

use crate::kernel::budget::Budget;
use crate::kernel::verdict::{Refutation, Rule, Undecided, Verdict};
use enumerate::Kind;
use lattice::Lattice;

/// `count [all|fixed] animals on LATTICE size n = k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountClaim {
    /// The lattice.
    pub lattice: Lattice,
    /// What is counted.
    pub kind: Kind,
    /// The number of cells.
    pub size: usize,
    /// The claimed count.
    pub count: u64,
}

/// Checks a counting claim by enumeration with `threads` threads.
pub fn check(claim: &CountClaim, mut budget: Budget, threads: usize) -> Verdict {
    let rule = Rule::AnimalEnumeration;
    match enumerate::count(claim.lattice, claim.size, claim.kind, threads, &mut budget) {
        Ok(actual) if actual == claim.count => Verdict::Verified {
            rule,
            nodes: budget.nodes(),
            value: actual,
        },
        Ok(actual) => Verdict::Refuted {
            rule,
            refutation: Refutation::AnimalCount {
                claimed: claim.count,
                actual,
            },
        },
        Err(e) => Verdict::Undecided {
            rule,
            reason: Undecided::Budget(e),
        },
    }
}
