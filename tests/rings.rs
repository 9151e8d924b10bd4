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

/// The verdict of `loser A on (3,q) (1,1) by METHOD` for the animal of
/// `cells` (triangle numbers).
fn loser_verdict(q: u8, cells: &[u32], method: &str) -> VerdictName {
    let listed: Vec<String> = cells.iter().map(|t| format!("({t})")).collect();
    let text = format!(
        "gamecert 1\nboard H = mosaic (3,{q})\nanimal A on H = {}\n\
         claim a: loser A on H (1,1) by {method}\n",
        listed.join(" ")
    );
    let outcome = common::check_claim("pairing.cert", &text, "a");
    outcome.report.files[0].claims[0].verdict
}

/// VERIFIED when the oracle finds the claim true (counted), else REJECTED.
fn expected_verdict(holds: bool, verified: &mut usize) -> VerdictName {
    if holds {
        *verified += 1;
        VerdictName::Verified
    } else {
        VerdictName::Rejected
    }
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

/// Every connected set of `size` triangles of the disc holding one of
/// `starts`.
fn connected_sets(disc: &Disc, starts: &[u32], size: usize) -> BTreeSet<Vec<u32>> {
    common::connected_sets(starts, size, |t| {
        (0..3).filter_map(move |s| disc.neighbour(t, s))
    })
}

/// Every animal of `size` cells through the root triangle, one per least
/// code, with its code.
fn animals(disc: &Disc, size: usize) -> Vec<(Vec<u32>, Vec<u8>)> {
    let level = connected_sets(disc, &[0], size);
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
                let verdict = loser_verdict(q, &cells, "ring-pairing");
                let expected = expected_verdict(!inside.contains(&code), &mut verified);
                assert_eq!(verdict, expected, "q = {q}, cells {cells:?}");
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

/// A colouring of the disc's vertices with 0, 1, 2 made by crossing sides
/// from the root (corners 0, 1, 2): the new corner of a triangle gets the
/// colour its side's corners lack. `None` when two paths disagree.
fn three_colours(disc: &Disc) -> Option<HashMap<u32, u8>> {
    let root = disc.corners(0);
    let mut colour: HashMap<u32, u8> = (0..3).map(|i| (root[i], i as u8)).collect();
    let mut seen = HashSet::from([0u32]);
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(t) = queue.pop_front() {
        for u in (0..3).filter_map(|s| disc.neighbour(t, s)) {
            let corners = disc.corners(u);
            let known: Vec<u8> = corners
                .iter()
                .filter_map(|v| colour.get(v))
                .copied()
                .collect();
            if known.len() == 2 {
                let missing = 3 - known[0] - known[1];
                let new = corners.iter().find(|v| !colour.contains_key(v))?;
                colour.insert(*new, missing);
            }
            let mut all: Vec<u8> = corners
                .iter()
                .filter_map(|v| colour.get(v))
                .copied()
                .collect();
            all.sort_unstable();
            if all.len() == 3 && all != [0, 1, 2] {
                return None;
            }
            if seen.insert(u) {
                queue.push_back(u);
            }
        }
    }
    Some(colour)
}

/// Least codes of the animals of `size` cells inside the fan around
/// vertex `v`, by walking around it.
fn inside_fan(disc: &Disc, v: u32, size: usize) -> HashSet<Vec<u8>> {
    let around = |t: u32| -> Vec<u32> {
        (0..3)
            .filter_map(|s| disc.neighbour(t, s))
            .filter(|&u| disc.corners(u).contains(&v))
            .collect()
    };
    let fan: Vec<u32> = (0..disc.triangles() as u32)
        .filter(|&t| disc.corners(t).contains(&v))
        .collect();
    let mut codes = HashSet::new();
    for &start in &fan {
        for first in around(start) {
            let mut arc = vec![start, first];
            while arc.len() < size {
                let at = arc[arc.len() - 1];
                match around(at).into_iter().find(|u| !arc.contains(u)) {
                    Some(u) => arc.push(u),
                    None => break,
                }
            }
            arc.truncate(size);
            if arc.len() == size {
                codes.insert(least_code(disc, &arc, &mut Budget::unlimited()).expect("code"));
            }
        }
    }
    codes
}

#[test]
fn the_fan_pairing_verifies_exactly_the_animals_that_are_not_fans() {
    // For odd q the colours do not close up around a vertex.
    let odd = Disc::around_root(Mosaic::new(7).expect("q = 7"), 3, &mut Budget::unlimited())
        .expect("within budget")
        .expect("within limits");
    assert!(three_colours(&odd).is_none());
    for q in [8, 10, 12] {
        let mosaic = Mosaic::new(q).expect("a mosaic");
        let disc = Disc::around_root(mosaic, 4, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        let colour = three_colours(&disc).expect("three colours for even q");
        // Each triangle's partner: across the side opposite its corner of
        // colour 0. Partners are mutual and in another fan.
        let partner = |t: u32| -> Option<u32> {
            let c = disc.corners(t);
            let i = (0..3).find(|&i| colour[&c[i]] == 0)?;
            // Side s joins corners s and s + 1: the side opposite corner i.
            disc.neighbour(t, (i + 1) % 3)
        };
        for t in 0..disc.triangles() as u32 {
            if let Some(u) = partner(t)
                && let Some(back) = partner(u)
            {
                assert_eq!(back, t, "q = {q}: partners of {t}");
                let centre_of = |t: u32| disc.corners(t).into_iter().find(|v| colour[v] == 0);
                assert_ne!(
                    centre_of(t),
                    centre_of(u),
                    "q = {q}: {t} and {u} in one fan"
                );
            }
        }
        let centre = disc.corners(0)[0];
        let mut verified = 0;
        for size in 2..=7 {
            let inside = inside_fan(&disc, centre, size);
            for (cells, code) in animals(&disc, size) {
                let verdict = loser_verdict(q, &cells, "fan-pairing");
                let expected = expected_verdict(!inside.contains(&code), &mut verified);
                assert_eq!(verdict, expected, "q = {q}, cells {cells:?}");
            }
        }
        assert!(verified > 0, "q = {q}");
    }
}

/// Bode's labellings (Tables 47-50, as f(1) .. f(q)) with the pair labels
/// of Table 51, for q = 7, 8, 9: (q, figure, labels, pairs).
const LABELLINGS: [(u8, u32, &str, &str); 6] = [
    (7, 142, "7 5 3 4 2 6 1", "3 6"),
    (7, 143, "7 5 3 4 2 6 1", "4 6"),
    (8, 144, "8 6 3 5 4 2 7 1", "2 6"),
    (8, 145, "8 6 4 3 5 2 7 1", "5 7"),
    (9, 140, "7 5 3 4 2 6 1 8 9", "3 6 9"),
    (9, 141, "7 5 3 4 2 6 1 8 9", "4 6 8"),
];

/// The labels of every edge end of the disc (1..q counterclockwise
/// around each vertex, f(x) at the other end), found vertex by vertex
/// from the root's corner 0; panics if two paths disagree.
fn edge_labels(disc: &Disc, q: u8, f: &[u8]) -> HashMap<(u32, u32), u8> {
    // The next edge counterclockwise around a vertex, from the triangles.
    let mut next: HashMap<(u32, u32), u32> = HashMap::new();
    for t in 0..disc.triangles() as u32 {
        let [a, b, c] = disc.corners(t);
        next.insert((a, b), c);
        next.insert((b, c), a);
        next.insert((c, a), b);
    }
    let root = disc.corners(0);
    let mut labels = HashMap::from([((root[0], root[1]), 1u8)]);
    let mut pending = vec![(root[0], root[1])];
    let set = |labels: &mut HashMap<(u32, u32), u8>, end: (u32, u32), label: u8| -> bool {
        match labels.get(&end) {
            Some(&old) => {
                assert_eq!(old, label, "q = {q}: labels disagree at {end:?}");
                false
            }
            None => {
                labels.insert(end, label);
                true
            }
        }
    };
    while let Some((v, w)) = pending.pop() {
        let x = labels[&(v, w)];
        let mut ends = vec![((w, v), f[usize::from(x) - 1])];
        if let Some(&u) = next.get(&(v, w)) {
            ends.push(((v, u), x % q + 1));
        }
        for (end, label) in ends {
            if set(&mut labels, end, label) {
                pending.push(end);
            }
        }
    }
    labels
}

#[test]
fn bodes_label_pairings_hold_a_pair_in_every_placement_the_kernel_claims() {
    let mut verified = 0;
    for (q, figure, labels, pairs) in LABELLINGS {
        let mosaic = Mosaic::new(q).expect("a mosaic");
        let disc = Disc::around_root(mosaic, 6, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        let f: Vec<u8> = labels
            .split(' ')
            .map(|x| x.parse().expect("a label"))
            .collect();
        let pair_labels: Vec<u8> = pairs
            .split(' ')
            .map(|x| x.parse().expect("a label"))
            .collect();
        let label = edge_labels(&disc, q, &f);
        let pairs_edge = |a: u32, b: u32| -> bool {
            [(a, b), (b, a)]
                .iter()
                .any(|e| label.get(e).is_some_and(|l| pair_labels.contains(l)))
        };
        let shares_pair = |t: u32, u: u32| -> bool {
            let theirs = disc.corners(u);
            let common: Vec<u32> = disc
                .corners(t)
                .into_iter()
                .filter(|v| theirs.contains(v))
                .collect();
            common.len() == 2 && pairs_edge(common[0], common[1])
        };
        // Every triangle near the root: at most one pair edge.
        let near = Disc::around_root(mosaic, 3, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        for t in 0..near.triangles() as u32 {
            let paired = (0..3)
                .filter_map(|s| disc.neighbour(t, s))
                .filter(|&u| shares_pair(t, u))
                .count();
            assert!(paired <= 1, "q = {q}, figure {figure}: triangle {t}");
        }
        // Placements: every connected set through a triangle of the first
        // ring (around all three corners of the root, not only the vertex
        // the kernel places at), grouped by least code.
        let first_ring = Disc::around_root(mosaic, 1, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits")
            .triangles() as u32;
        let small = Disc::around_root(mosaic, 4, &mut Budget::unlimited())
            .expect("within budget")
            .expect("within limits");
        for size in 2..=5 {
            let starts: Vec<u32> = (0..first_ring).collect();
            let sets = connected_sets(&disc, &starts, size);
            let mut missed: HashSet<Vec<u8>> = HashSet::new();
            for set in &sets {
                let held = set
                    .iter()
                    .any(|&t| set.iter().any(|&u| u != t && shares_pair(t, u)));
                if !held {
                    missed.insert(least_code(&disc, set, &mut Budget::unlimited()).expect("code"));
                }
            }
            for (cells, code) in animals(&small, size) {
                let method = format!("label-pairing {{ labels {labels} pairs {pairs} }}");
                let verdict = loser_verdict(q, &cells, &method);
                let expected = expected_verdict(!missed.contains(&code), &mut verified);
                assert_eq!(
                    verdict, expected,
                    "q = {q}, figure {figure}, cells {cells:?}"
                );
            }
        }
    }
    assert!(verified > 0);
}

/// Mutants of the shipped label pairings: one pair label dropped (unless
/// its edges' other end is also listed, which names the same edges, as
/// Bode's 2 and 6 for q = 8 do). Each is needed, so no mutant verifies.
#[test]
fn a_shipped_label_pairing_less_a_pair_label_is_rejected() {
    let text = common::shipped("certificates/bode-2000/hyperbolic-losers.cert");
    let mut mutants = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(labels) = line.trim().strip_prefix("pairs ") else {
            continue;
        };
        let claim = lines[..i]
            .iter()
            .rev()
            .find(|l| l.starts_with("claim "))
            .expect("a claim above");
        let id = claim["claim ".len()..].split(':').next().expect("an id");
        let pairs: Vec<&str> = labels.split_whitespace().collect();
        let f: Vec<&str> = lines[i - 1]
            .trim()
            .strip_prefix("labels ")
            .expect("labels before pairs")
            .split_whitespace()
            .collect();
        for drop in 0..pairs.len() {
            let kept: Vec<&str> = (0..pairs.len())
                .filter(|&j| j != drop)
                .map(|j| pairs[j])
                .collect();
            // A label whose edges' other end is still a pair label names
            // the same edges: not a mutant.
            let other_end = f[pairs[drop].parse::<usize>().expect("a label") - 1];
            if kept.contains(&other_end) {
                continue;
            }
            let mut mutant_lines = lines.clone();
            let replaced = format!("  pairs {}", kept.join(" "));
            mutant_lines[i] = &replaced;
            let mutant = mutant_lines.join("\n");
            let outcome = common::check_claim("mutant.cert", &mutant, id);
            let verdict = outcome.report.files[0].claims[0].verdict;
            assert_eq!(
                verdict,
                VerdictName::Rejected,
                "{id} without pair label {}",
                pairs[drop]
            );
            mutants += 1;
        }
    }
    assert!(mutants >= 20, "only {mutants} mutants");
}
