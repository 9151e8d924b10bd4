//! Counting polyominoes of a finite board up to its automorphisms without
//! listing one per orbit (rule B4 of docs/soundness.md): the orbit-counting
//! lemma (Burnside) turns the count into sums of fixed sets.
//!
//! Key decision: testing every connected set for being the least of its
//! orbit costs one image per automorphism per set, which made the snub
//! cube's 5.5 million polyominoes (133 million labelled sets) take minutes.
//! Here the labelled sets are only counted, and each other automorphism's
//! fixed sets (unions of its cycles) are enumerated on the much smaller
//! graph of its cycles. A polyomino's complement is a polyomino too, so only
//! sizes up to half the board are enumerated and the rest mirrored.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): face numbers
// are below 128 and counts are bounded by the budget's node count.
#![allow(clippy::arithmetic_side_effects)]

use super::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};

/// The number of polyominoes (connected proper face sets with a connected
/// complement) of each size, up to the automorphisms `group`: entry `k` is
/// the count of size `k`. `None` if `group` is not a group of the board's
/// automorphisms that contains the identity (the sums would not divide).
pub fn polyomino_orbits(
    graph: &FaceGraph,
    group: &[Vec<u8>],
    budget: &mut Budget,
) -> Result<Option<Vec<u64>>, Exhausted> {
    let n = graph.faces();
    let mut total = vec![0u64; n + 1];
    for p in group {
        for (k, fixed) in fixed_polyominoes(graph, p, budget)?.into_iter().enumerate() {
            total[k] += fixed;
        }
    }
    let order = group.len() as u64;
    if order == 0 || total.iter().any(|&t| t % order != 0) {
        return Ok(None);
    }
    Ok(Some(total.into_iter().map(|t| t / order).collect()))
}

/// The number of polyominoes of each size that the automorphism `p` maps
/// onto themselves: the unions of its cycles that are polyominoes.
fn fixed_polyominoes(
    graph: &FaceGraph,
    p: &[u8],
    budget: &mut Budget,
) -> Result<Vec<u64>, Exhausted> {
    let n = graph.faces();
    let cycles = cycles(p);
    // Two cycles are adjacent when a face of one shares an edge with a face
    // of the other. A union of cycles that is connected on the board is
    // connected in this graph, so every fixed polyomino is reached.
    let quotient = FaceGraph::from_edges(
        cycles.len(),
        (0..cycles.len()).flat_map(|a| {
            let around = solid::members(cycles[a]).fold(0u128, |m, f| m | graph.adjacent[f]);
            let cycles = &cycles;
            (a + 1..cycles.len()).filter_map(move |b| (around & cycles[b] != 0).then_some((a, b)))
        }),
    );
    let mut fixed = vec![0u64; n + 1];
    let Some(quotient) = quotient else {
        return Ok(fixed);
    };
    let half = n / 2;
    let all = graph.all();
    if cycles.len() == n {
        // The identity: every connected set of up to half the faces. Each
        // carries its complement split as one component (`main`) and the
        // rest (`holes`), which growing by one face changes cheaply.
        solid::for_each_connected_while(graph, budget, &mut |set, added, parent| {
            let size = set.count_ones() as usize;
            let (main, holes) = match parent {
                Some((main, holes)) if holes >> added & 1 == 1 => (main, holes & !(1u128 << added)),
                Some((main, holes)) => {
                    let rest = main & !(1u128 << added);
                    if graph.connected_without(rest, added) {
                        (rest, holes)
                    } else {
                        let (largest, others) = split(graph, rest);
                        (largest, holes | others)
                    }
                }
                None => split(graph, all & !set),
            };
            // A polyomino grown from here absorbs every part of the
            // complement but one: if even that makes it larger than half
            // the board, it is counted as the complement of a smaller one.
            let least_absorbed = main.count_ones().min(holes.count_ones()) as usize;
            if size + least_absorbed > half {
                return None;
            }
            fixed[size] += u64::from(holes == 0 && main != 0);
            Some((main, holes))
        })?;
    } else {
        solid::for_each_connected_while(&quotient, budget, &mut |chosen, _, _: Option<()>| {
            let set = solid::members(chosen).fold(0u128, |m, c| m | cycles[c]);
            let size = set.count_ones() as usize;
            if size > half {
                return None;
            }
            fixed[size] += u64::from(graph.connected(set) && graph.connected(all & !set));
            Some(())
        })?;
    }
    // Complements: a fixed polyomino of size k < n/2 gives one of n - k.
    for k in 1..n.div_ceil(2) {
        fixed[n - k] = fixed[k];
    }
    Ok(fixed)
}

/// The cycles of the permutation `p`, each as a face set.
fn cycles(p: &[u8]) -> Vec<u128> {
    let (mut seen, mut out) = (0u128, Vec::new());
    for start in 0..p.len() {
        let (mut cycle, mut f) = (0u128, start);
        while (seen | cycle) >> f & 1 == 0 {
            cycle |= 1u128 << f;
            f = usize::from(p[f]);
        }
        if cycle != 0 {
            seen |= cycle;
            out.push(cycle);
        }
    }
    out
}

/// The largest component of `set` and the rest of `set`.
fn split(graph: &FaceGraph, set: u128) -> (u128, u128) {
    let mut largest = 0u128;
    let mut left = set;
    while left != 0 {
        let part = graph.component(set, left & left.wrapping_neg());
        if part.count_ones() > largest.count_ones() {
            largest = part;
        }
        left &= !part;
    }
    (largest, set & !largest)
}
