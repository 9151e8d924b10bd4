//! Size-by-size enumeration of the connected cell sets of a plane lattice
//! or tiling that contain no loser (rule B6 on plane boards, in
//! docs/soundness.md). Which sets are losers is asked of the caller: the
//! kernel answers from the cited losers, the bound producer by searching a
//! pairing.
//!
//! Key decision: a level is kept whole, as the normal forms of every
//! image of its loser-free sets. A set one cell larger then holds a loser
//! exactly when it is one itself or some connected set left by removing
//! one of its cells is missing from the level below, so no set is ever
//! searched for copies of the losers: one lookup per cell removed.

use std::collections::HashSet;

use super::enumerate::{Geometry, least, normal_images, normalised};
use super::lattice::{Cell, pack};
use super::tiling::IdSet;
use crate::kernel::budget::{Budget, Exhausted};

/// The largest size a level may have: beyond it the levels of the boards
/// with bounds (Bode Sec. 6-7) would outgrow what a check should hold.
pub const MAX_SIZE: usize = 20;

/// What one level holds: the loser-free connected sets of one size.
#[derive(Clone, Debug, Default)]
pub struct Level {
    /// How many of them are polyominoes (no hole), counted per congruence
    /// class, and the first such one met.
    pub polyominoes: u64,
    pub example: Option<Vec<Cell>>,
    /// One canonical form per class, polyominoes or not.
    pub classes: Vec<Vec<Cell>>,
}

/// The caller's answer to whether a set (canonical form, whether it is a
/// polyomino) is a loser.
pub type IsLoser<'a> = dyn FnMut(&[Cell], bool) -> Result<bool, Exhausted> + 'a;

/// Enumerates the loser-free connected sets size by size from 1 up to
/// `last`, calling `visit` with each level, and stops after the first
/// level without a polyomino (none larger is loser-free either: every
/// polyomino of k > 1 cells keeps a polyomino of k - 1). `is_loser` is
/// asked once per class of connected sets none of whose one-smaller
/// connected subsets holds a loser, with its canonical form and whether it
/// is a polyomino; it says whether the set is a loser.
pub fn loser_free<G: Geometry>(
    geometry: &G,
    last: usize,
    is_loser: &mut IsLoser<'_>,
    visit: &mut dyn FnMut(usize, &Level),
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let mut below: HashSet<Vec<u64>> = HashSet::new();
    let mut previous: Vec<Vec<Cell>> = Vec::new();
    let mut seen = IdSet::default();
    // Entries held from the level below (its images and classes).
    let mut kept = 0usize;
    for size in 1..=last.min(MAX_SIZE) {
        let singles = if size == 1 {
            geometry.origins()
        } else {
            Vec::new()
        };
        let grown = (singles.into_iter().map(|c| vec![c]))
            .chain(previous.iter().flat_map(|set| one_larger(geometry, set)));
        let mut level = Level::default();
        let mut classes: HashSet<Vec<u64>> = HashSet::new();
        let mut images: HashSet<Vec<u64>> = HashSet::new();
        // Entries held now: the level below's, this level's classes tried,
        // and the images and classes this level keeps.
        let (mut held, mut keeps) = (kept, 0usize);
        for set in grown {
            budget.tick()?;
            // The set's images are its canonical form's: computed once,
            // they give the form and, if the set is kept, the level's
            // normal forms.
            let normals = normal_images(geometry, &set);
            let form = least(&normals);
            if !classes.insert(packed(&form)) {
                continue;
            }
            held = held.saturating_add(entries(&form));
            budget.expand(held)?;
            if size > 1 && holds_smaller_loser(geometry, &form, &below, budget)? {
                continue;
            }
            let polyomino = !geometry.has_hole(&form, &mut seen);
            if is_loser(&form, polyomino)? {
                continue;
            }
            for image in &normals {
                if images.insert(packed(image)) {
                    keeps = keeps.saturating_add(entries(&form));
                    budget.expand(held.saturating_add(keeps))?;
                }
            }
            keeps = keeps.saturating_add(entries(&form));
            budget.expand(held.saturating_add(keeps))?;
            if polyomino {
                level.polyominoes = level.polyominoes.saturating_add(1);
                if level.example.is_none() {
                    level.example = Some(form.clone());
                }
            }
            level.classes.push(form);
        }
        visit(size, &level);
        if level.polyominoes == 0 {
            break;
        }
        below = images;
        previous = level.classes;
        kept = keeps;
    }
    Ok(())
}

/// Every set one cell larger than `set`.
fn one_larger<G: Geometry>(geometry: &G, set: &[Cell]) -> Vec<Vec<Cell>> {
    let mut added: Vec<Cell> = Vec::new();
    for &c in set {
        geometry.for_each_neighbour(c, |m| {
            if !set.contains(&m) && !added.contains(&m) {
                added.push(m);
            }
        });
    }
    added
        .into_iter()
        .map(|m| {
            let mut larger = set.to_vec();
            larger.push(m);
            larger
        })
        .collect()
}

/// Whether some connected set left by removing one cell of `set` is not
/// among the loser-free sets one smaller (`below`, every image's normal
/// form), that is, holds a loser.
fn holds_smaller_loser<G: Geometry>(
    geometry: &G,
    set: &[Cell],
    below: &HashSet<Vec<u64>>,
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    for i in 0..set.len() {
        budget.tick()?;
        let mut rest = set.to_vec();
        rest.remove(i);
        if connected(geometry, &rest) && !below.contains(&packed(&normalised(geometry, &rest))) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether the cells are connected through neighbours among them.
fn connected<G: Geometry>(geometry: &G, cells: &[Cell]) -> bool {
    let mut reached: Vec<Cell> = cells.iter().take(1).copied().collect();
    let mut next = 0;
    while let Some(&c) = reached.get(next) {
        next = next.saturating_add(1);
        geometry.for_each_neighbour(c, |m| {
            if cells.contains(&m) && !reached.contains(&m) {
                reached.push(m);
            }
        });
    }
    reached.len() == cells.len()
}

/// What a stored set costs the budget's entry cap, an entry being 64
/// bytes: 8 or 12 per cell, its allocation's header and its table slot.
fn entries(cells: &[Cell]) -> usize {
    cells
        .len()
        .saturating_mul(12)
        .saturating_add(96)
        .div_ceil(64)
}

fn packed(cells: &[Cell]) -> Vec<u64> {
    cells.iter().map(|&c| pack(c)).collect()
}
