//! Symmetric pairing producer (untrusted): pairings of a solid's faces that
//! a subgroup of its automorphisms carries onto itself, with pairs of
//! bounded length. Bode (Sec. 5.1) gives a pairing the property (s, l) when
//! at least s maps carry it onto itself and no pair is longer than l (the
//! number of steps between neighbouring faces from one face to the other);
//! his upper bounds on the number of winners of the larger solids come from
//! such pairings.
//!
//! Key decision: a pairing invariant under a subgroup H spoils a placement
//! exactly when it spoils each of the placement's H-images, so the search
//! covers one placement per H-orbit and adds pairs a whole H-orbit at a
//! time. A large H leaves few choices and the search is quick; H = the
//! identity is the plain search. Subgroups are tried once per conjugacy
//! class: the placements of a polyomino are all of its images under the
//! whole group, so conjugate subgroups find the same pairings, moved.
//! Nothing here is trusted: the kernel checks the pairing written.

use std::collections::{BTreeSet, HashMap};

use crate::kernel::animals::solid::{self, FaceGraph};
use crate::kernel::budget::{Budget, Exhausted};

/// A pairing property (s, l): at least `symmetries` maps carry the pairing
/// onto itself, and no pair is longer than `length` (`None`: any length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property {
    pub symmetries: usize,
    pub length: Option<usize>,
}

impl Property {
    /// Reads `S,L` (L a number or `inf`), as Bode writes (5,inf).
    pub fn parse(text: &str) -> Option<Property> {
        let (s, l) = text
            .trim_matches(|c| c == '(' || c == ')')
            .split_once(',')?;
        let symmetries = s.trim().parse().ok().filter(|&s| s >= 1)?;
        let length = match l.trim() {
            "inf" | "∞" => None,
            l => Some(l.parse().ok().filter(|&l| l >= 1)?),
        };
        Some(Property { symmetries, length })
    }
}

impl std::fmt::Display for Property {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.length {
            Some(l) => write!(f, "({},{l})", self.symmetries),
            None => write!(f, "({},inf)", self.symmetries),
        }
    }
}

/// The largest group whose subgroups are all listed (the icosahedral
/// group with reflections has 120); a larger group (a long prism's)
/// contributes its cyclic subgroups only.
const MAX_GROUP_FOR_ALL: usize = 240;

/// A board's faces, automorphisms and their subgroups, ready to search
/// pairings for any polyomino.
pub struct Searcher {
    group: Vec<Vec<u8>>,
    /// Steps between faces (`u8::MAX`: unreachable).
    distance: Vec<Vec<u8>>,
    /// One subgroup per conjugacy class, largest first, as permutations.
    subgroups: Vec<Vec<Vec<u8>>>,
}

impl Searcher {
    /// Prepares the search on `graph` with its automorphisms `group`.
    pub fn new(graph: &FaceGraph, group: &[Vec<u8>]) -> Searcher {
        let n = graph.faces();
        let distance = (0..n).map(|f| distances_from(graph, f)).collect();
        let subgroups = subgroup_classes(group)
            .into_iter()
            .map(|s| s.into_iter().map(|i| group[i].clone()).collect())
            .collect();
        Searcher {
            group: group.to_vec(),
            distance,
            subgroups,
        }
    }

    /// The orders of the listed subgroups (one per conjugacy class).
    pub fn subgroup_orders(&self) -> Vec<usize> {
        self.subgroups.iter().map(Vec::len).collect()
    }

    /// A pairing spoiling every placement of the face set `set`, tried by
    /// each property in turn (each subgroup of at least s elements, largest
    /// first), with `budget()` a fresh budget per subgroup; the property it
    /// has and the pairs.
    pub fn pairing(
        &self,
        set: u128,
        properties: &[Property],
        budget: &dyn Fn() -> Budget,
    ) -> Option<(Property, Vec<(usize, usize)>)> {
        let mut placements: Vec<u128> = self.group.iter().map(|p| solid::image(p, set)).collect();
        placements.sort_unstable();
        placements.dedup();
        for property in properties {
            for subgroup in self
                .subgroups
                .iter()
                .filter(|h| h.len() >= property.symmetries)
            {
                let mut search = Search::new(self, subgroup, &placements, property.length);
                if let Ok(true) = search.run(&mut budget()) {
                    return Some((*property, search.pairs()));
                }
            }
        }
        None
    }
}

/// Steps from `from` to every face (`u8::MAX`: unreachable).
fn distances_from(graph: &FaceGraph, from: usize) -> Vec<u8> {
    let mut distance = vec![u8::MAX; graph.faces()];
    let (mut reached, mut frontier, mut step) = (1u128 << from, 1u128 << from, 0u8);
    while frontier != 0 {
        for f in solid::members(frontier) {
            distance[f] = step;
        }
        let around = solid::members(frontier).fold(0, |m, f| m | graph.neighbours(f));
        frontier = around & !reached;
        reached |= frontier;
        step = step.saturating_add(1);
    }
    distance
}

/// The subgroups of `group` (permutations) up to conjugacy, each as its
/// elements' indices, largest first: all of them for a group of at most
/// [`MAX_GROUP_FOR_ALL`] elements, else the cyclic ones.
fn subgroup_classes(group: &[Vec<u8>]) -> Vec<Vec<usize>> {
    let index: HashMap<&[u8], usize> = group
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_slice(), i))
        .collect();
    let order = group.len();
    // product[a][b]: the element doing b, then a.
    let compose = |a: usize, b: usize| -> Option<usize> {
        let p: Vec<u8> = group[b].iter().map(|&f| group[a][f as usize]).collect();
        index.get(p.as_slice()).copied()
    };
    let mut product = vec![vec![0usize; order]; order];
    for (a, row) in product.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            match compose(a, b) {
                Some(c) => *cell = c,
                // Not closed under composition: not a group to search in.
                None => return Vec::new(),
            }
        }
    }
    let unit: Vec<u8> = (0..group.first().map_or(0, Vec::len) as u8).collect();
    let Some(&identity) = index.get(unit.as_slice()) else {
        return Vec::new();
    };
    let inverse: Vec<usize> = (0..order)
        .map(|a| (0..order).find(|&b| product[a][b] == identity).unwrap_or(a))
        .collect();
    let generated = |gens: &[usize]| -> Vec<usize> {
        let mut members = vec![false; order];
        members[identity] = true;
        let mut list = vec![identity];
        let mut at = 0;
        while at < list.len() {
            let x = list[at];
            at += 1;
            for &g in gens {
                let y = product[g][x];
                if !members[y] {
                    members[y] = true;
                    list.push(y);
                }
            }
        }
        list.sort_unstable();
        list
    };
    let canonical = |s: &Vec<usize>| -> Vec<usize> {
        (0..order)
            .map(|g| {
                let mut c: Vec<usize> = s
                    .iter()
                    .map(|&x| product[product[g][x]][inverse[g]])
                    .collect();
                c.sort_unstable();
                c
            })
            .min()
            .unwrap_or_default()
    };
    let mut found: BTreeSet<Vec<usize>> = BTreeSet::new();
    if order <= MAX_GROUP_FOR_ALL {
        // Every subgroup is reached from a smaller one by one more
        // generator, and a class's representative stands for the class:
        // <gHg', x> is conjugate to <H, g'xg>.
        let trivial = generated(&[identity]);
        found.insert(trivial.clone());
        let mut work = vec![trivial];
        while let Some(h) = work.pop() {
            for x in 0..order {
                if h.binary_search(&x).is_ok() {
                    continue;
                }
                let mut gens = h.clone();
                gens.push(x);
                let class = canonical(&generated(&gens));
                if found.insert(class.clone()) {
                    work.push(class);
                }
            }
        }
    } else {
        found.extend((0..order).map(|a| canonical(&generated(&[a]))));
    }
    let mut classes: Vec<Vec<usize>> = found.into_iter().collect();
    classes.sort_by_key(|s| std::cmp::Reverse(s.len()));
    classes
}

/// Marks no face is paired with.
const UNPAIRED: u8 = u8::MAX;

/// One search for a pairing invariant under one subgroup.
struct Search<'a> {
    subgroup: &'a [Vec<u8>],
    distance: &'a [Vec<u8>],
    /// One placement per orbit of the subgroup.
    placements: Vec<u128>,
    length: Option<usize>,
    partner: Vec<u8>,
    paired: u128,
}

impl<'a> Search<'a> {
    fn new(
        searcher: &'a Searcher,
        subgroup: &'a [Vec<u8>],
        all: &[u128],
        length: Option<usize>,
    ) -> Search<'a> {
        let mut seen: BTreeSet<u128> = BTreeSet::new();
        let mut placements = Vec::new();
        for &p in all {
            if seen.insert(p) {
                placements.push(p);
                seen.extend(subgroup.iter().map(|h| solid::image(h, p)));
            }
        }
        Search {
            subgroup,
            distance: &searcher.distance,
            placements,
            length,
            partner: vec![UNPAIRED; searcher.distance.len()],
            paired: 0,
        }
    }

    /// Whether the placement holds both faces of a pair.
    fn spoiled(&self, placement: u128) -> bool {
        solid::members(placement & self.paired).any(|f| placement >> self.partner[f] & 1 == 1)
    }

    /// The pairs a placement could still take, shortest first.
    fn choices(&self, placement: u128) -> Vec<(usize, usize)> {
        let free = placement & !self.paired;
        let mut out: Vec<(usize, usize, u8)> = Vec::new();
        for u in solid::members(free) {
            for w in solid::members(free >> (u + 1) << (u + 1)) {
                let d = self.distance[u][w];
                if self.length.is_none_or(|l| (d as usize) <= l) {
                    out.push((u, w, d));
                }
            }
        }
        out.sort_by_key(|c| c.2);
        out.into_iter().map(|(u, w, _)| (u, w)).collect()
    }

    /// Pairs `u` with `w` and every image of the pair; the faces paired, or
    /// `None` (and nothing changed) when an image clashes with a pair.
    fn add_orbit(&mut self, u: usize, w: usize) -> Option<Vec<usize>> {
        let mut changed = Vec::new();
        for h in self.subgroup {
            let (a, b) = (h[u] as usize, h[w] as usize);
            if self.partner[a] as usize == b {
                continue;
            }
            if self.partner[a] != UNPAIRED || self.partner[b] != UNPAIRED {
                self.undo(&changed);
                return None;
            }
            self.partner[a] = b as u8;
            self.partner[b] = a as u8;
            self.paired |= 1 << a | 1 << b;
            changed.extend([a, b]);
        }
        Some(changed)
    }

    fn undo(&mut self, changed: &[usize]) {
        for &f in changed {
            self.partner[f] = UNPAIRED;
            self.paired &= !(1 << f);
        }
    }

    /// Whether pairs can be added so that every placement is spoiled.
    fn run(&mut self, budget: &mut Budget) -> Result<bool, Exhausted> {
        budget.tick()?;
        // The placement with the fewest ways left to spoil it.
        let mut best: Option<Vec<(usize, usize)>> = None;
        for &p in &self.placements {
            if self.spoiled(p) {
                continue;
            }
            let choices = self.choices(p);
            if best.as_ref().is_none_or(|b| choices.len() < b.len()) {
                let empty = choices.is_empty();
                best = Some(choices);
                if empty {
                    break;
                }
            }
        }
        let Some(choices) = best else {
            return Ok(true);
        };
        for (u, w) in choices {
            if let Some(changed) = self.add_orbit(u, w) {
                if self.run(budget)? {
                    return Ok(true);
                }
                self.undo(&changed);
            }
        }
        Ok(false)
    }

    /// The pairs found, each once.
    fn pairs(&self) -> Vec<(usize, usize)> {
        (0..self.partner.len())
            .filter(|&f| self.partner[f] != UNPAIRED && f < self.partner[f] as usize)
            .map(|f| (f, self.partner[f] as usize))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::animals::solid::Solid;

    #[test]
    fn properties_read_as_bode_writes_them() {
        assert_eq!(
            Property::parse("(5,inf)"),
            Some(Property {
                symmetries: 5,
                length: None
            })
        );
        assert_eq!(
            Property::parse("3,2"),
            Some(Property {
                symmetries: 3,
                length: Some(2)
            })
        );
        assert_eq!(Property::parse("0,2"), None);
        assert_eq!(Property::parse("3"), None);
    }

    #[test]
    fn the_cube_group_has_its_subgroup_classes() {
        let graph = FaceGraph::of(Solid::Cube).expect("cube");
        let group = graph.group(&mut Budget::unlimited()).expect("group");
        let orders = Searcher::new(&graph, &group).subgroup_orders();
        // The full octahedral group (48) has 98 subgroups in 33 conjugacy
        // classes.
        assert_eq!(orders.first(), Some(&48));
        assert_eq!(orders.last(), Some(&1));
        assert_eq!(orders.len(), 33);
    }
}
