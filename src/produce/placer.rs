//! The congruence searches the elaborator and the producers share
//! (untrusted): which congruences of a board place a target situation
//! inside a situation, and with which marks; which automorphism fixes a
//! position of a strategy tree and takes one maker move to another.
//!
//! Key decision: the search proposes, the kernel disposes. A congruence
//! found here is written into the explicit certificate and checked by rule
//! M1 like one the author wrote.

use std::collections::{BTreeSet, HashSet};

use crate::kernel::animals::Board;
use crate::kernel::animals::flags::{FLAGS, Flag, Frame, cell, triangle};
use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::mosaic::Mosaic;
use crate::kernel::animals::solid::Group;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::maker::Situation;
use crate::kernel::maker::congruence::{Congruence, Space};

/// Finds congruences placing a target in a situation (untrusted search).
pub struct Placer {
    board: Board,
    /// A finite board's automorphisms; empty for lattices and regions.
    group: Group,
}

impl Placer {
    /// A search on `board` (a finite board's group listed within `budget`).
    pub fn new(board: &Board, budget: &mut Budget) -> Result<Placer, Exhausted> {
        Ok(Placer {
            board: board.clone(),
            group: board.group(budget)?.unwrap_or_default(),
        })
    }

    /// A search on a lattice or a region of one, whose congruences are the
    /// lattice's: there is no group to list (on a finite board it would
    /// find no congruence, and the kernel would refute what it places).
    pub fn plane(board: &Board) -> Placer {
        Placer {
            board: board.clone(),
            group: Group::default(),
        }
    }

    /// Every congruence of the board that could place `anchor` on `onto`:
    /// on a lattice, each point-group element followed by the translation
    /// taking the anchor's image to a cell of `onto`; on a finite board,
    /// each automorphism; on a mosaic, the six taking the anchor onto each
    /// cell (through the root: back from the anchor's flag, then out to a
    /// flag of the cell).
    fn candidates(&self, space: Space<'_>, anchor: Cell, cells: &[Cell]) -> Vec<Congruence> {
        match space {
            Space::Mosaic(frame) => {
                let Some(back) = triangle(anchor).and_then(|t| {
                    frame.inverse(Flag {
                        triangle: t,
                        index: 0,
                    })
                }) else {
                    return Vec::new();
                };
                cells
                    .iter()
                    .filter_map(|&c| triangle(c))
                    .flat_map(|t| (0..FLAGS).map(move |index| Flag { triangle: t, index }))
                    .filter_map(|out| frame.image_of_flag(out, back))
                    .map(Congruence::Flag)
                    .collect()
            }
            Space::Unmapped => Vec::new(),
            Space::Lattice(_) | Space::Tiling(_) => (0..plane_order(space))
                .flat_map(|element| {
                    cells
                        .iter()
                        .filter_map(move |&t| onto(space, element, anchor, t))
                })
                .collect(),
            Space::Graph => self
                .group
                .iter()
                .map(|p| Congruence::Permutation(p.iter().map(|&v| u16::from(v)).collect()))
                .collect(),
        }
    }

    /// The image of a cell under a congruence of this board.
    pub fn apply(&self, map: &Congruence, c: Cell) -> Option<Cell> {
        let frame = match map {
            Congruence::Flag(f) => self.frame([c, cell(f.triangle)].iter()),
            _ => None,
        };
        map.image_in(self.space(frame.as_ref()), c)
    }

    /// Where this board's congruences act: on a mosaic, within `frame`.
    fn space<'s>(&'s self, frame: Option<&'s Frame>) -> Space<'s> {
        match frame {
            Some(frame) => Space::Mosaic(frame),
            None => Space::of(&self.board),
        }
    }

    /// On a mosaic, a disc for congruences among `cells` ([`search_frame`]),
    /// within an untrusted search's own budget.
    fn frame<'c>(&self, cells: impl Iterator<Item = &'c Cell>) -> Option<Frame> {
        let Board::Mosaic(mosaic) = self.board else {
            return None;
        };
        search_frame(mosaic, cells.filter_map(|&c| triangle(c)))
    }

    /// Marks and a congruence with which the target (`core`, `neighbourhood`)
    /// fits the situation: its core on the maker's cells after the marks, the
    /// rest inside the situation. With `written` marks, those marks; without,
    /// the fewest marks (at most `limit`) that make the core the maker's.
    pub fn place(
        &self,
        s: &Situation,
        written: &[Cell],
        core: &[Cell],
        neighbourhood: &[Cell],
        limit: usize,
    ) -> Option<(Vec<Cell>, Congruence)> {
        let owned: HashSet<Cell> = s.core.iter().chain(written).copied().collect();
        let inside: HashSet<Cell> = s.core.iter().chain(&s.neighbourhood).copied().collect();
        let anchor = *core.first().or(neighbourhood.first())?;
        // The anchor (the target's first cell) lands on a cell the maker owns
        // when the marks are written, else anywhere in the situation.
        let onto_owned = !written.is_empty() && !core.is_empty();
        let mut onto: Vec<Cell> = if onto_owned { &owned } else { &inside }
            .iter()
            .copied()
            .collect();
        onto.sort_unstable();
        let mut best: Option<(Vec<Cell>, Congruence)> = None;
        let frame = self.frame(inside.iter().chain(core).chain(neighbourhood));
        let space = self.space(frame.as_ref());
        for map in self.candidates(space, anchor, &onto) {
            let apply = |c: &Cell| map.image_in(space, *c);
            let placed_core: Option<Vec<Cell>> = core.iter().map(apply).collect();
            let placed_rest: Option<Vec<Cell>> = neighbourhood.iter().map(apply).collect();
            let (Some(placed_core), Some(placed_rest)) = (placed_core, placed_rest) else {
                continue;
            };
            if !placed_core
                .iter()
                .chain(&placed_rest)
                .all(|c| inside.contains(c))
            {
                continue;
            }
            let mark: Vec<Cell> = if written.is_empty() {
                let mut m: Vec<Cell> = placed_core
                    .iter()
                    .filter(|c| !s.core.contains(c))
                    .copied()
                    .collect();
                m.sort_unstable();
                m.dedup();
                m
            } else {
                if !placed_core.iter().all(|c| owned.contains(c)) {
                    continue;
                }
                written.to_vec()
            };
            if mark.len() > limit {
                continue;
            }
            if best.as_ref().is_none_or(|(m, _)| mark.len() < m.len()) {
                let done = !written.is_empty() || mark.is_empty();
                best = Some((mark, map));
                if done {
                    break;
                }
            }
        }
        best
    }
}

/// The memory cap of a disc built for a search (the kernel's own cap on
/// discs bounds it first).
const SEARCH_DISC_ENTRIES: usize = 1 << 23;

/// The work a disc built for a search may take (steps, as the kernel's
/// disc building charges them).
const SEARCH_DISC_STEPS: u64 = 50_000_000;

/// A disc for congruences among `triangles` of a mosaic, within an
/// untrusted search's own budget.
pub fn search_frame(mosaic: Mosaic, triangles: impl IntoIterator<Item = u32>) -> Option<Frame> {
    let mut budget =
        Budget::new(None, None, SEARCH_DISC_ENTRIES).with_step_limit(SEARCH_DISC_STEPS);
    // Twice the ring and one more: the search composes and inverts its
    // congruences, which M1 never does (its own disc can be smaller).
    Frame::reaching(
        mosaic,
        triangles,
        |r| r.saturating_mul(2).saturating_add(1),
        &mut budget,
    )
    .ok()
    .flatten()
}

/// An automorphism of `group` (face permutations) that takes `from` to
/// `to` and maps the maker's and the breaker's marks onto themselves.
pub fn fixing_symmetry<'g>(
    group: &'g [Vec<u8>],
    maker: &BTreeSet<Cell>,
    breaker: &BTreeSet<Cell>,
    from: Cell,
    to: Cell,
) -> Option<&'g [u8]> {
    mapping(group, (maker, breaker), (maker, breaker)).find(|p| image(p, from) == Some(to))
}

/// The automorphisms of `group` (face permutations) that take the marks
/// `from` (the maker's, the breaker's) onto the marks `to`.
pub fn mapping<'g>(
    group: &'g [Vec<u8>],
    from: (&BTreeSet<Cell>, &BTreeSet<Cell>),
    to: (&BTreeSet<Cell>, &BTreeSet<Cell>),
) -> impl Iterator<Item = &'g [u8]> {
    let (from, to) = (
        (from.0.clone(), from.1.clone()),
        (to.0.clone(), to.1.clone()),
    );
    let takes = |p: &[u8], set: &BTreeSet<Cell>, onto: &BTreeSet<Cell>| {
        set.iter()
            .map(|&c| image(p, c))
            .collect::<Option<BTreeSet<Cell>>>()
            .is_some_and(|i| i == *onto)
    };
    group
        .iter()
        .map(Vec::as_slice)
        .filter(move |p| takes(p, &from.0, &to.0) && takes(p, &from.1, &to.1))
}

/// The image of a face under a face permutation.
fn image(p: &[u8], c: Cell) -> Option<Cell> {
    let f = usize::try_from(c[0]).ok()?;
    p.get(f).map(|&v| [i32::from(v), 0, 0])
}

/// The number of symmetries modulo translations of a lattice or tiling
/// (0 on a graph board).
pub fn plane_order(space: Space<'_>) -> usize {
    match space {
        Space::Lattice(l) => l.point_group_order(),
        Space::Tiling(t) => t.group_order(),
        Space::Graph | Space::Mosaic(_) | Space::Unmapped => 0,
    }
}

/// The congruence of a lattice or tiling made of its symmetry `element`
/// followed by the translation taking `from`'s image to `to`, when one does
/// (the two are of one translation class: on the triangle lattice they
/// point the same way, on a tiling they are the same face).
pub fn onto(space: Space<'_>, element: usize, from: Cell, to: Cell) -> Option<Congruence> {
    let image = match space {
        Space::Lattice(l) => l.transform(element, from),
        Space::Tiling(t) => t.transform(element, from),
        Space::Graph | Space::Mosaic(_) | Space::Unmapped => return None,
    };
    (class_origin(space, image) == class_origin(space, to)).then_some(Congruence::Lattice {
        element,
        shift: [to[0] - image[0], to[1] - image[1], to[2] - image[2]],
    })
}

/// The origin of `c`'s translation class on a lattice or tiling.
pub fn class_origin(space: Space<'_>, c: Cell) -> Cell {
    match space {
        Space::Lattice(l) => l.origin_of(c),
        Space::Tiling(_) => [0, 0, c[2]],
        Space::Graph | Space::Mosaic(_) | Space::Unmapped => c,
    }
}
