//! Cells and congruences of a hyperbolic (3,q) mosaic, for games on it
//! (rule A5 of docs/soundness.md, "Games on mosaics").
//!
//! Key decisions. A cell is a triangle's number in the ring order of
//! [`Disc::around_root`], written `(t)`: a disc of more rings numbers its
//! first triangles the same, so a number names one triangle of the mosaic
//! whatever disc reads it. A congruence is named by the flag it takes the
//! root's flag (triangle 0, side 0, counterclockwise) to: `at K (t)`, side
//! K / 2 of triangle t, mirrored when K is odd. The mosaic's isometries act
//! simply transitively on flags, so every flag names exactly one. Its image
//! of a cell is read by walking: every triangle but the root was built
//! against an earlier one across its side 0 (its parent), so the image of
//! a triangle is the triangle across the matching side of its parent's
//! image. Nothing is stored per congruence and nothing is trusted: a walk
//! that leaves the disc gives no image.

// Arithmetic here is on side numbers (mod 3) and triangle numbers below
// the disc's size; nothing can overflow.
#![allow(clippy::arithmetic_side_effects)]

use std::sync::Arc;

use super::lattice::Cell;
use super::mosaic::{Disc, Mosaic};
use crate::kernel::budget::{Budget, Exhausted};

/// Flags per triangle: three sides, two senses.
pub const FLAGS: u8 = 6;

/// The triangle numbers a game may name are below this: far beyond what a
/// game touches, and small enough that the discs reaching them are cheap
/// to build even on (3,6), where rings grow slowly (about 100 rings).
pub const MAX_CELL: u32 = 1 << 16;

/// The triangle number of a mosaic cell `[t, 0, 0]` (`None` for any other
/// cell).
pub fn triangle(c: Cell) -> Option<u32> {
    u32::try_from(c[0]).ok().filter(|_| c[1] == 0 && c[2] == 0)
}

/// The cell of triangle `t` (below [`MAX_CELL`], or within a disc, so it
/// fits an i32).
pub fn cell(t: u32) -> Cell {
    [t as i32, 0, 0]
}

/// A flag: a triangle, one of its sides, and a sense of turning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Flag {
    /// The triangle.
    pub triangle: u32,
    /// Flag number K: side K / 2, clockwise (mirrored) when K is odd.
    pub index: u8,
}

impl Flag {
    /// The root's flag, which every congruence's flag is the image of.
    pub const ROOT: Flag = Flag {
        triangle: 0,
        index: 0,
    };

    /// The flag's side of its triangle.
    pub(super) fn side(self) -> usize {
        usize::from(self.index / 2)
    }

    /// Whether the flag turns clockwise.
    pub(super) fn mirrored(self) -> bool {
        self.index % 2 == 1
    }
}

/// A disc large enough for the cells a claim names and the images its
/// congruences take them to.
#[derive(Debug, Clone)]
pub struct Frame {
    disc: Arc<Disc>,
}

impl Frame {
    /// A disc holding every triangle within `rings(r)` rings of the root,
    /// where r is the ring of the largest of `cells` (ring 0: the root);
    /// `None` when a cell is beyond [`MAX_CELL`] or the disc would be too
    /// large for the kernel (see [`Disc::around_root`]).
    pub fn reaching(
        mosaic: Mosaic,
        cells: impl IntoIterator<Item = u32>,
        rings: impl Fn(usize) -> usize,
        budget: &mut Budget,
    ) -> Result<Option<Frame>, Exhausted> {
        let largest = cells.into_iter().max().unwrap_or(0);
        let Some(ring) = Frame::ring_of(mosaic, largest, budget)? else {
            return Ok(None);
        };
        Ok(Disc::around_root(mosaic, rings(ring), budget)?.map(|disc| Frame { disc }))
    }

    /// The ring of triangle `t` (0: the root); `None` when `t` is beyond
    /// [`MAX_CELL`] or a disc holding it would be too large for the kernel.
    fn ring_of(mosaic: Mosaic, t: u32, budget: &mut Budget) -> Result<Option<usize>, Exhausted> {
        if t >= MAX_CELL {
            return Ok(None);
        }
        let mut ring = 0;
        loop {
            let Some(disc) = Disc::around_root(mosaic, ring, budget)? else {
                return Ok(None);
            };
            if disc.triangles() > t as usize {
                return Ok(Some(ring));
            }
            ring += 1;
        }
    }

    /// A disc for rule M1's congruences on a mosaic: r + r' + 1 rings, r
    /// the ring of the largest of `cells` and `flags` (the triangles the
    /// congruences' flags are on), r' that of the largest of `flags`. M1
    /// applies a congruence only to cells the claim names, and the image
    /// of a cell of ring r under the congruence of a flag in ring r', with
    /// the walk to it, lies within ring r + r' + 1 (docs/soundness.md,
    /// "Games on mosaics").
    pub fn for_congruences(
        mosaic: Mosaic,
        cells: impl IntoIterator<Item = u32>,
        flags: impl IntoIterator<Item = u32>,
        budget: &mut Budget,
    ) -> Result<Option<Frame>, Exhausted> {
        let largest_flag = flags.into_iter().max().unwrap_or(0);
        let Some(flag_ring) = Frame::ring_of(mosaic, largest_flag, budget)? else {
            return Ok(None);
        };
        Frame::reaching(
            mosaic,
            cells.into_iter().chain([largest_flag]),
            |r| r.saturating_add(flag_ring).saturating_add(1),
            budget,
        )
    }

    /// The disc.
    pub fn disc(&self) -> &Disc {
        &self.disc
    }

    /// Whether triangle `t` is in the disc.
    pub fn holds(&self, t: u32) -> bool {
        (t as usize) < self.disc.triangles()
    }

    /// The triangles across the three sides of `t`, if all are in the disc.
    pub fn neighbours(&self, t: u32) -> Option<[u32; 3]> {
        if !self.holds(t) {
            return None;
        }
        let [a, b, c] = [0, 1, 2].map(|side| self.disc.neighbour(t, side));
        Some([a?, b?, c?])
    }

    /// The parent chain from `t` down to the root (parents come first in
    /// the ring order, so it is finite); `None` outside the disc.
    fn chain(&self, t: u32) -> Option<Vec<u32>> {
        if !self.holds(t) {
            return None;
        }
        let mut chain = vec![t];
        let mut at = t;
        while at != 0 {
            let parent = self.disc.neighbour(at, 0)?;
            if parent >= at {
                return None;
            }
            chain.push(parent);
            at = parent;
        }
        Some(chain)
    }

    /// Follows a congruence along `path` (triangles, each adjacent to the
    /// one before), starting from its image of `path[0]` and the image
    /// side `zero` of `path[0]`'s side 0. Side j of a triangle goes to side
    /// `zero + j` of its image (`zero - j` when `mirrored`). Returns the
    /// image of the last triangle and its `zero`.
    fn follow(&self, path: &[u32], start: (u32, usize), mirrored: bool) -> Option<(u32, usize)> {
        let turn = |zero: usize, j: usize| {
            if mirrored {
                (zero + 3 - j) % 3
            } else {
                (zero + j) % 3
            }
        };
        let (mut image, mut zero) = start;
        for w in path.windows(2) {
            let (from, to) = (w[0], w[1]);
            let next = self
                .disc
                .neighbour(image, turn(zero, self.disc.side_towards(from, to)))?;
            // `to`'s side facing `from` goes to `next`'s side facing `image`.
            let back = self.disc.side_towards(to, from);
            let facing = self.disc.side_towards(next, image);
            zero = if mirrored {
                (facing + back) % 3
            } else {
                (facing + 3 - back) % 3
            };
            image = next;
        }
        Some((image, zero))
    }

    /// The image of triangle `t` under the congruence taking the root's
    /// flag to `to`, with the side of the image that `t`'s side 0 goes to;
    /// `None` when the walk leaves the disc.
    fn image_with_side(&self, to: Flag, t: u32) -> Option<(u32, usize)> {
        if !self.holds(to.triangle) || to.index >= FLAGS {
            return None;
        }
        let mut path = self.chain(t)?;
        path.reverse();
        self.follow(&path, (to.triangle, to.side()), to.mirrored())
    }

    /// The flag of the inverse of the congruence taking the root's flag to
    /// `to`: the flag that congruence takes to the root's.
    pub fn inverse(&self, to: Flag) -> Option<Flag> {
        if to.index >= FLAGS {
            return None;
        }
        // The inverse takes `to`'s triangle to the root, side to.side() to
        // side 0; follow it down the parent chain to the root.
        let path = self.chain(to.triangle)?;
        let zero = if to.mirrored() {
            to.side()
        } else {
            (3 - to.side()) % 3
        };
        let (triangle, zero) = self.follow(&path, (0, zero), to.mirrored())?;
        Some(Flag {
            triangle,
            index: (2 * zero + usize::from(to.mirrored())) as u8,
        })
    }

    /// The image of triangle `t` under the congruence taking the root's
    /// flag to `to`; `None` when it or the walk to it leaves the disc.
    pub fn image(&self, to: Flag, t: u32) -> Option<u32> {
        self.image_with_side(to, t).map(|(image, _)| image)
    }

    /// The image of a flag under the congruence taking the root's flag to
    /// `to`: the congruences compose as `to` followed by this.
    pub fn image_of_flag(&self, to: Flag, flag: Flag) -> Option<Flag> {
        let (triangle, zero) = self.image_with_side(to, flag.triangle)?;
        let side = if to.mirrored() {
            (zero + 3 - flag.side()) % 3
        } else {
            (zero + flag.side()) % 3
        };
        let mirrored = to.mirrored() != flag.mirrored();
        Some(Flag {
            triangle,
            index: (2 * side + usize::from(mirrored)) as u8,
        })
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn frame(q: u8, rings: usize) -> Frame {
        let mosaic = Mosaic::new(q).expect("q in range");
        let mut budget = Budget::new(None, None, 1 << 24);
        Frame::reaching(mosaic, [0], |_| rings, &mut budget)
            .expect("budget")
            .expect("small disc")
    }

    /// Every flag's congruence is a bijection near the root that keeps
    /// sides: the images of a triangle's neighbours are its image's
    /// neighbours, and no two triangles share an image.
    #[test]
    fn flag_congruences_keep_adjacency() {
        for q in [7u8, 8] {
            let frame = frame(q, 5);
            let inner = Frame::reaching(Mosaic::new(q).expect("q"), [0], |_| 1, &mut {
                Budget::new(None, None, 1 << 24)
            })
            .expect("budget")
            .expect("disc")
            .disc()
            .triangles() as u32;
            for to_t in 0..inner {
                for index in 0..FLAGS {
                    let to = Flag {
                        triangle: to_t,
                        index,
                    };
                    let mut images = HashSet::new();
                    for t in 0..inner {
                        let image = frame.image(to, t).expect("inside");
                        assert!(images.insert(image), "q {q}: two cells onto {image}");
                        let around = frame.neighbours(t).expect("inside");
                        let mut mapped: Vec<u32> = around
                            .iter()
                            .map(|&u| frame.image(to, u).expect("inside"))
                            .collect();
                        let mut expected = frame.neighbours(image).expect("inside").to_vec();
                        mapped.sort_unstable();
                        expected.sort_unstable();
                        assert_eq!(mapped, expected, "q {q}, flag {to:?}, cell {t}");
                    }
                    assert_eq!(frame.image_of_flag(to, Flag::ROOT), Some(to));
                }
            }
        }
    }

    /// The six flags of the root give six different maps, and composing
    /// by flags agrees with applying one map after the other.
    #[test]
    fn flags_compose() {
        let frame = frame(7, 5);
        let f = Flag {
            triangle: 5,
            index: 3,
        };
        let g = Flag {
            triangle: 9,
            index: 4,
        };
        let composed = frame.image_of_flag(f, g).expect("inside");
        for t in 0..16 {
            let twice = frame
                .image(g, t)
                .and_then(|u| frame.image(f, u))
                .expect("inside");
            assert_eq!(frame.image(composed, t), Some(twice), "cell {t}");
        }
        for to in [f, g, composed] {
            let back = frame.inverse(to).expect("inside");
            assert_eq!(frame.image_of_flag(to, back), Some(Flag::ROOT), "{to:?}");
            assert_eq!(frame.image_of_flag(back, to), Some(Flag::ROOT), "{to:?}");
        }
        let images: HashSet<Vec<Option<u32>>> = (0..FLAGS)
            .map(|index| {
                (0..16)
                    .map(|t| frame.image(Flag { triangle: 0, index }, t))
                    .collect()
            })
            .collect();
        assert_eq!(images.len(), usize::from(FLAGS));
    }
}
