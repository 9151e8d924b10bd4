//! The ring pairing on (3,q) mosaics (rule B8) against an oracle of its
//! own: rings computed in a disc by vertex distance from a centre, the
//! animals that lie inside one of them found by walking along each ring,
//! and every animal up to 7 cells checked with `by ring-pairing`.
//!
//! The oracle shares with the kernel only the disc (rule A5) and the least
//! codes that name animals up to congruence; it knows nothing of the
//! kernel's words of turns or their closure.

mod common;

use std::collections::{BTreeSet, HashMap, HashSet};

use gamecert::kernel::animals::mosaic::{Disc, Mosaic, least_code};
use gamecert::kernel::budget::Budget;
use gamecert::report::VerdictName;

/// The rings around corner 0 of the root triangle: for each triangle of
/// the disc whose ring is known exactly, its ring (1 for the centre's fan).
/// Vertex distances within `exact` of the centre are the mosaic's (a
/// shortest path stays among vertices the disc holds with all their
/// sides, A5), so rings up to `exact + 1` are exact.
fn rings(disc: &Disc, exact: usize) -> HashMap<u32, usize> {
    let triangles = disc.triangles() as u32;
    let mut edges: HashMap<u32, BTreeSet<u32>> = HashMap::new();
    for t in 0..triangles {
        let c = disc.corners(t);
        for i in 0..3 {
            edges.entry(c[i]).or_default().insert(c[(i + 1) % 3]);
            edges.entry(c[(i + 1) % 3]).or_default().insert(c[i]);
        }
    }
    let centre = disc.corners(0)[0];
    let mut distance: HashMap<u32, usize> = HashMap::from([(centre, 0)]);
    let mut frontier = vec![centre];
    for d in 1..=exact {
        let mut next = Vec::new();
        for v in frontier {
            for &w in &edges[&v] {
                if let std::collections::hash_map::Entry::Vacant(e) = distance.entry(w) {
                    e.insert(d);
                    next.push(w);
                }
            }
        }
        frontier = next;
    }
    (0..triangles)
        .filter_map(|t| {
            let nearest = disc
                .corners(t)
                .iter()
                .filter_map(|v| distance.get(v))
                .min()
                .copied()?;
            (nearest < exact).then_some((t, nearest + 1))
        })
        .collect()
}

/// Least codes of the animals of `size` cells lying inside one ring of
/// `ring` (rings up to `last` only), by walking along each ring.
fn inside_rings(
    disc: &Disc,
    ring: &HashMap<u32, usize>,
    last: usize,
    size: usize,
) -> HashSet<Vec<u8>> {
    let mut codes = HashSet::new();
    for (&start, &k) in ring {
        if k > last {
            continue;
        }
        let same: Vec<u32> = (0..3)
            .filter_map(|s| disc.neighbour(start, s))
            .filter(|u| ring.get(u) == Some(&k))
            .collect();
        for &first in &same {
            let mut arc = vec![start, first];
            while arc.len() < size {
                let at = arc[arc.len() - 1];
                let before = arc[arc.len() - 2];
                let next = (0..3)
                    .filter_map(|s| disc.neighbour(at, s))
                    .find(|u| *u != before && ring.get(u) == Some(&k));
                match next {
                    Some(u) if !arc.contains(&u) => arc.push(u),
                    _ => break,
                }
            }
            if arc.len() == size {
                codes.insert(least_code(disc, &arc, &mut Budget::unlimited()).expect("code"));
            }
        }
    }
    codes
}

/// Every animal of `size` cells through the root triangle, one per least
/// code, with its code.
fn animals(disc: &Disc, size: usize) -> Vec<(Vec<u32>, Vec<u8>)> {
    let mut level: BTreeSet<Vec<u32>> = BTreeSet::from([vec![0]]);
    for _ in 1..size {
        let mut next = BTreeSet::new();
        for set in &level {
            for &t in set {
                for u in (0..3).filter_map(|s| disc.neighbour(t, s)) {
                    if !set.contains(&u) {
                        let mut grown = set.clone();
                        grown.push(u);
                        grown.sort_unstable();
                        next.insert(grown);
                    }
                }
            }
        }
        level = next;
    }
    let mut seen = HashSet::new();
    level
        .into_iter()
        .filter_map(|cells| {
            let code = least_code(disc, &cells, &mut Budget::unlimited()).expect("code");
            seen.insert(code.clone()).then_some((cells, code))
        })
        .collect()
}

/// Each triangle has exactly one side towards another ring, one ring
/// away (Bode's remark the pairing rests on).
fn one_side_leaves_the_ring(disc: &Disc, ring: &HashMap<u32, usize>, last: usize) {
    for (&t, &k) in ring {
        if k > last {
            continue;
        }
        let others: Vec<usize> = (0..3)
            .filter_map(|s| disc.neighbour(t, s))
            .map(|u| ring[&u])
            .filter(|&j| j != k)
            .collect();
        assert_eq!(others.len(), 1, "triangle {t} of ring {k}");
        assert_eq!(others[0].abs_diff(k), 1, "triangle {t} of ring {k}");
    }
}

#[test]
fn the_ring_pairing_verifies_exactly_the_animals_no_ring_holds() {
    // (q, rings of the disc, vertex distances known exactly): rings 1-5
    // (1-4 for q >= 9) are walked, which hold every local shape a ring has.
    for (q, disc_rings, exact) in [(7, 9, 6), (8, 8, 6), (9, 7, 5), (10, 7, 5)] {
        let mosaic = Mosaic::new(q).expect("a mosaic");
        let disc = Disc::around_root(mosaic, disc_rings, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        let ring = rings(&disc, exact);
        let last = exact - 1;
        one_side_leaves_the_ring(&disc, &ring, last);
        let small = Disc::around_root(mosaic, 5, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        let mut verified = 0;
        let mut six_cell_paths = BTreeSet::new();
        // One cell is won in the first turn (REFUTED before any rule runs).
        for size in 2..=7 {
            let inside = inside_rings(&disc, &ring, last, size);
            for (cells, code) in animals(&small, size) {
                let listed: Vec<String> = cells.iter().map(|t| format!("({t})")).collect();
                let text = format!(
                    "gamecert 1\nboard H = mosaic (3,{q})\nanimal A on H = {}\n\
                     claim a: loser A on H (1,1) by ring-pairing\n",
                    listed.join(" ")
                );
                let outcome = common::check_claim("rings.cert", &text, "a");
                let verdict = outcome.report.files[0].claims[0].verdict;
                let expected = if inside.contains(&code) {
                    VerdictName::Rejected
                } else {
                    verified += 1;
                    VerdictName::Verified
                };
                assert_eq!(verdict, expected, "q = {q}, cells {}", listed.join(" "));
                if size == 6
                    && verdict == VerdictName::Verified
                    && let Some(word) = path_turns(&small, &cells)
                {
                    six_cell_paths.insert(word);
                }
            }
        }
        assert!(verified > 0, "q = {q}: some animal misses every ring");
        // Bode's Fig. 138: the six-cell paths no ring holds are the
        // straight strip (LRLR), two fans of four sharing two triangles
        // (LLRR), and for q >= 8 a fan of four with a triangle on each end
        // (LRRL), which a ring holds when q = 7.
        let mut expected = BTreeSet::from(["LLRR".to_string(), "LRLR".to_string()]);
        if q >= 8 {
            expected.insert("LRRL".to_string());
        }
        assert_eq!(six_cell_paths, expected, "q = {q}");
    }
}

/// The turns of an animal whose cells form a path of triangles, read from
/// an end (L: the side it leaves by follows the side it came in by
/// counterclockwise), least over both ends and mirror images; `None` when
/// the cells are not a path.
fn path_turns(disc: &Disc, cells: &[u32]) -> Option<String> {
    let inside = |t: u32| -> Vec<(usize, u32)> {
        (0..3)
            .filter_map(|s| disc.neighbour(t, s).map(|u| (s, u)))
            .filter(|(_, u)| cells.contains(u))
            .collect()
    };
    if cells.iter().any(|&t| inside(t).len() > 2) {
        return None;
    }
    let end = *cells.iter().find(|&&t| inside(t).len() == 1)?;
    let mut order = vec![end];
    while order.len() < cells.len() {
        let at = order[order.len() - 1];
        let next = inside(at)
            .into_iter()
            .map(|(_, u)| u)
            .find(|u| !order.contains(u))?;
        order.push(next);
    }
    let side = |at: u32, to: u32| {
        inside(at)
            .into_iter()
            .find(|&(_, u)| u == to)
            .map(|(s, _)| s)
    };
    let mut word = String::new();
    for w in order.windows(3) {
        let (entry, exit) = (side(w[1], w[0])?, side(w[1], w[2])?);
        word.push(if (exit + 3 - entry) % 3 == 1 {
            'L'
        } else {
            'R'
        });
    }
    let swap = |w: &str| -> String {
        w.chars()
            .map(|c| if c == 'L' { 'R' } else { 'L' })
            .collect()
    };
    let reversed: String = word.chars().rev().collect();
    [swap(&word), swap(&reversed), reversed, word]
        .into_iter()
        .min()
}

/// Mutants of the shipped ring-pairing losers: each animal with one cell
/// removed. Every shipped loser is minimal for the rule (what remains is a
/// path a ring holds, or not an animal), so no mutant may verify, and each
/// animal has mutants the rule rejects.
#[test]
fn a_shipped_ring_pairing_loser_less_a_cell_is_not_verified() {
    let path = "certificates/bode-2000/hyperbolic-losers.cert";
    let text = common::shipped(path);
    let mut rejected = 0;
    for line in text.lines().filter(|l| l.starts_with("animal ")) {
        let name = line.split_whitespace().nth(1).expect("a name");
        let claim = text
            .lines()
            .find(|l| l.starts_with("claim ") && l.contains(&format!(" {name} ")))
            .expect("a claim per animal");
        let id = claim["claim ".len()..].split(':').next().expect("an id");
        let cells: Vec<&str> = line
            .split('=')
            .nth(1)
            .expect("cells")
            .split_whitespace()
            .collect();
        let mut rejected_here = 0;
        for drop in 0..cells.len() {
            let kept: Vec<&str> = (0..cells.len())
                .filter(|&i| i != drop)
                .map(|i| cells[i])
                .collect();
            let mutant = text.replace(
                line,
                &format!(
                    "{} = {}",
                    line.split('=').next().expect("head").trim_end(),
                    kept.join(" ")
                ),
            );
            let outcome = common::check_claim("mutant.cert", &mutant, id);
            let verdict = outcome.report.files[0].claims[0].verdict;
            assert!(
                matches!(verdict, VerdictName::Rejected | VerdictName::Error),
                "{name} without {}: {verdict:?}",
                cells[drop]
            );
            if verdict == VerdictName::Rejected {
                rejected_here += 1;
            }
        }
        assert!(rejected_here > 0, "{name}: no mutant reached the rule");
        rejected += rejected_here;
    }
    assert!(rejected >= 23, "only {rejected} mutants rejected");
}
