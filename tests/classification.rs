//! The shipped classifications of finite solids against an independent
//! oracle: `common/naive_game.rs` finds the board's automorphisms by brute
//! force, the polyominoes are every face subset that is connected with a
//! connected complement (one per orbit), and each is played out
//! exhaustively. The counts must equal the `classify` claims, which the
//! kernel verified from the producer's certificates. Also Bode's remark
//! (Sec. 5.3) that corresponding polyominoes of the cuboctahedron, the
//! truncated cube and the truncated octahedron are winners or losers
//! together.

mod common;

use std::collections::HashMap;

use common::naive_game::{self as oracle};
use gamecert::driver::Limits;
use gamecert::elaborate::load::from_source_within;

const SHIPPED: &str = "certificates/bode-2000/archimedean-classification.cert";

/// A board as adjacency lists, from the kernel's board declaration (the
/// board is input to both sides; the game and the enumeration are the
/// oracle's).
fn adjacency(text: &str, name: &str) -> Vec<Vec<usize>> {
    let limits = Limits {
        max_nodes: None,
        time: None,
        max_entries: 1 << 20,
    };
    let file = from_source_within("shipped.cert", text, &limits);
    let (_, board) = file
        .boards
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("board {name}"));
    let graph = board.face_graph().expect("a solid");
    graph
        .adjacent
        .iter()
        .map(|&m| (0..128).filter(|&f| m >> f & 1 == 1).collect())
        .collect()
}

fn connected(adjacent: &[Vec<usize>], set: u32) -> bool {
    let Some(start) = (0..32).find(|&f| set >> f & 1 == 1) else {
        return false;
    };
    let mut seen = 1u32 << start;
    let mut stack = vec![start];
    while let Some(f) = stack.pop() {
        for &g in &adjacent[f] {
            if set >> g & 1 == 1 && seen >> g & 1 == 0 {
                seen |= 1 << g;
                stack.push(g);
            }
        }
    }
    seen == set
}

fn image(p: &[usize], set: u32) -> u32 {
    (0..p.len())
        .filter(|&f| set >> f & 1 == 1)
        .fold(0, |m, f| m | 1 << p[f])
}

/// Every polyomino of the board (as a face set) with whether the maker
/// wins it, and the orbit representative of each.
struct Oracle {
    adjacent: Vec<Vec<usize>>,
    group: Vec<Vec<usize>>,
    /// Orbit representative (least image) -> maker wins.
    outcomes: HashMap<u32, bool>,
}

impl Oracle {
    fn of(adjacent: Vec<Vec<usize>>) -> Oracle {
        let n = adjacent.len();
        assert!(n <= 20, "the oracle plays on small boards");
        let group = oracle::automorphisms(&adjacent);
        let all = (1u32 << n) - 1;
        let mut outcomes = HashMap::new();
        for set in 1..all {
            if !connected(&adjacent, set) || !connected(&adjacent, all & !set) {
                continue;
            }
            let least = group.iter().map(|p| image(p, set)).min().unwrap_or(set);
            if least != set {
                continue;
            }
            let cells: Vec<usize> = (0..n).filter(|&f| set >> f & 1 == 1).collect();
            let game = oracle::graph_placements(&group, &cells);
            outcomes.insert(set, oracle::maker_wins(&game, 1, 1, 1));
        }
        Oracle {
            adjacent,
            group,
            outcomes,
        }
    }

    fn counts(&self) -> (u64, u64) {
        let winners = self.outcomes.values().filter(|&&w| w).count() as u64;
        (winners, self.outcomes.len() as u64 - winners)
    }

    /// Whether the maker wins the face set, if it is a polyomino.
    fn wins(&self, set: u32) -> Option<bool> {
        let least = self.group.iter().map(|p| image(p, set)).min()?;
        self.outcomes.get(&least).copied()
    }
}

/// The `(W, L)` of the claim `classify NAME = (W winners, L losers)`.
fn claimed(text: &str, name: &str) -> (u64, u64) {
    let prefix = format!("classify {name} = (");
    let line = text
        .lines()
        .find_map(|l| l.split_once(&prefix).map(|(_, rest)| rest.to_string()))
        .unwrap_or_else(|| panic!("no classification of {name}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(2)
        .map(|s| s.parse().expect("a count"))
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn shipped_classifications_agree_with_exhaustive_play() {
    let text = std::fs::read_to_string(SHIPPED).expect("shipped");
    for name in ["P3", "P5", "P6", "A4", "A5", "A6", "CO", "TC", "TO"] {
        let oracle = Oracle::of(adjacency(&text, name));
        assert_eq!(
            oracle.counts(),
            claimed(&text, name),
            "{name}: the oracle's (winners, losers)"
        );
    }
}

/// A bijection from the faces of `from` to those of `to` that maps the
/// faces of each class (`class_*`: which faces stand for the cube's faces)
/// onto each other and preserves which face-faces meet which vertex-faces:
/// the three 14-faced solids all carry the cube's face-vertex incidence.
fn correspondence(
    from: &[Vec<usize>],
    from_class: &dyn Fn(usize) -> bool,
    to: &[Vec<usize>],
    to_class: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    fn extend(
        map: &mut Vec<usize>,
        from: &[Vec<usize>],
        fc: &dyn Fn(usize) -> bool,
        to: &[Vec<usize>],
        tc: &dyn Fn(usize) -> bool,
    ) -> bool {
        let v = map.len();
        if v == from.len() {
            return true;
        }
        for w in 0..to.len() {
            if map.contains(&w) || fc(v) != tc(w) {
                continue;
            }
            // Incidence: a face-class face and a vertex-class face meet.
            let fits =
                (0..v).all(|u| fc(u) == fc(v) || from[v].contains(&u) == to[w].contains(&map[u]));
            if fits {
                map.push(w);
                if extend(map, from, fc, to, tc) {
                    return true;
                }
                map.pop();
            }
        }
        false
    }
    let mut map = Vec::new();
    assert!(extend(&mut map, from, from_class, to, to_class));
    map
}

#[test]
fn corresponding_polyominoes_of_the_fourteen_faced_solids_agree() {
    let text = std::fs::read_to_string(SHIPPED).expect("shipped");
    let co = Oracle::of(adjacency(&text, "CO"));
    let tc = Oracle::of(adjacency(&text, "TC"));
    let to = Oracle::of(adjacency(&text, "TO"));
    // The faces that stand for the cube's faces: the squares of the
    // cuboctahedron (degree 4), the octagons of the truncated cube (degree
    // 8), the squares of the truncated octahedron (degree 4).
    let degree = |o: &Oracle, d: usize| {
        let a = o.adjacent.clone();
        move |f: usize| a[f].len() == d
    };
    let co_faces = degree(&co, 4);
    let tc_faces = degree(&tc, 8);
    let to_faces = degree(&to, 4);
    let to_tc = correspondence(&co.adjacent, &co_faces, &tc.adjacent, &tc_faces);
    let to_to = correspondence(&co.adjacent, &co_faces, &to.adjacent, &to_faces);
    let mut compared = 0;
    for set in 1u32..(1 << 14) - 1 {
        let here = co.wins(set);
        let there = [tc.wins(image(&to_tc, set)), to.wins(image(&to_to, set))];
        for other in there {
            if let (Some(a), Some(b)) = (here, other) {
                assert_eq!(a, b, "face set {set:#b}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} pairs compared");
}

/// The ids of the cited losers of `name`'s classification.
fn loser_ids(text: &str, name: &str) -> Vec<String> {
    let prefix = format!("claim {}-l", name.to_lowercase());
    text.lines()
        .filter_map(|l| l.strip_prefix("claim "))
        .filter(|l| format!("claim {l}").starts_with(&prefix))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn bounds_from_the_elementary_losers_are_exact_per_size() {
    use gamecert::driver::{CheckOptions, check_source};
    use gamecert::report::VerdictName;
    let text = std::fs::read_to_string(SHIPPED).expect("shipped");
    let mut claims = String::new();
    let mut expected = Vec::new();
    for name in ["CO", "TC", "TO", "A6"] {
        let oracle = Oracle::of(adjacency(&text, name));
        let losers = loser_ids(&text, name).join(", ");
        let faces = oracle.adjacent.len();
        let mut total = 0u64;
        for size in 1..faces {
            let winners = oracle
                .outcomes
                .iter()
                .filter(|(set, wins)| **wins && set.count_ones() as usize == size)
                .count() as u64;
            total += winners;
            let id = format!("{}-bound-{size}", name.to_lowercase());
            claims.push_str(&format!(
                "claim {id}: bound {name} size {size} winners <= {winners} by enumeration from {losers}\n"
            ));
            expected.push((id, VerdictName::Verified));
            if winners > 0 {
                let id = format!("{}-bound-{size}-low", name.to_lowercase());
                claims.push_str(&format!(
                    "claim {id}: bound {name} size {size} winners <= {} by enumeration from {losers}\n",
                    winners - 1
                ));
                expected.push((id, VerdictName::Rejected));
            }
        }
        let id = format!("{}-bound", name.to_lowercase());
        claims.push_str(&format!(
            "claim {id}: bound {name} winners <= {total} by enumeration from {losers}\n"
        ));
        expected.push((id, VerdictName::Verified));
        let id = format!("{}-bound-low", name.to_lowercase());
        claims.push_str(&format!(
            "claim {id}: bound {name} winners <= {} by enumeration from {losers}\n",
            total - 1
        ));
        expected.push((id, VerdictName::Rejected));
    }
    let options = CheckOptions {
        jobs: 2,
        limits: Limits {
            max_nodes: None,
            time: None,
            max_entries: 1 << 22,
        },
        timings: false,
        only: None,
    };
    let outcome = check_source("bounds.cert", &(text + &claims), &options);
    let verdicts: HashMap<&str, VerdictName> = outcome
        .report
        .files
        .iter()
        .flat_map(|f| &f.claims)
        .map(|c| (c.id.as_str(), c.verdict))
        .collect();
    for (id, verdict) in &expected {
        assert_eq!(verdicts.get(id.as_str()), Some(verdict), "{id}");
    }
    assert!(expected.len() > 50);
}

/// `text` with the claim `line` (`head` and its citations `cites`)
/// citing all but `dropped`.
fn without_citation(text: &str, line: &str, head: &str, cites: &[&str], dropped: &str) -> String {
    let kept: Vec<&str> = cites.iter().copied().filter(|c| *c != dropped).collect();
    text.replace(line, &format!("{head} from {}", kept.join(", ")))
}

/// The report line of claim `id` when `gamecert check PATH` runs in `dir`.
fn verdict_of(dir: &std::path::Path, path: &str, id: &str) -> String {
    let out = common::gamecert_in(dir, &["check", path]);
    let report = String::from_utf8_lossy(&out.stdout);
    report
        .lines()
        .find(|l| l.contains(&format!("{id}:")))
        .unwrap_or_default()
        .to_string()
}

/// Rule B7 must fail an "always accept" checker: the square lattice's
/// classification with any one of its cited losers dropped is not
/// verified (some polyomino is left undecided, or the counts change).
#[test]
fn dropping_any_cited_loser_breaks_the_square_classification() {
    let dir = common::scratch("classification", "plane");
    let copy = |from: &str| {
        let to = dir.join(from);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("dirs");
        std::fs::write(&to, common::shipped(&format!("certificates/{from}"))).expect("write");
    };
    for f in [
        "external/cards.cert",
        "external/snaky-15x15-cards.txt",
        "external/domino-cards.txt",
        "norris-sieben-2014/square.cert",
        "norris-sieben-2014/triangle.cert",
        "bode-2000/square-losers.cert",
    ] {
        copy(f);
    }
    let text = common::shipped("certificates/bode-2000/plane-classification.cert");
    let line = text
        .lines()
        .find(|l| l.starts_with("claim square-classification"))
        .expect("the claim");
    let (head, cites) = line.split_once(" from ").expect("citations");
    let cites: Vec<&str> = cites.split(", ").collect();
    let losers: Vec<&str> = cites
        .iter()
        .copied()
        .filter(|c| *c != "snaky" && *c != "y5-11")
        .collect();
    assert_eq!(losers.len(), 12);
    for dropped in losers {
        let mutated = without_citation(&text, line, head, &cites, dropped);
        std::fs::write(dir.join("bode-2000/plane-classification.cert"), &mutated).expect("write");
        let verdict = verdict_of(&dir, ".", "square-classification");
        assert!(
            verdict.starts_with("REJECTED") || verdict.starts_with("REFUTED"),
            "without {dropped}: {verdict}"
        );
    }
}

/// Rule B7 on the mosaics (3,7) to (3,12): the kernel's list of
/// polyominoes (one per class, without holes) against an oracle of this
/// test's own (every connected set of triangles through the root, one
/// per least code, holes found by the Euler characteristic of the closed
/// triangles: V - E + F = 1 for a disc), and the lemma B7 rests on: every
/// polyomino of k > 1 cells keeps a polyomino of k - 1 cells when some
/// cell is removed.
#[test]
fn mosaic_polyominoes_match_an_oracle_and_each_keeps_one_a_cell_smaller() {
    use gamecert::kernel::animals::enumerate::Kind;
    use gamecert::kernel::animals::mosaic::{self, Disc, Mosaic, least_code};
    use gamecert::kernel::budget::Budget;
    use std::collections::HashSet;

    fn connected(disc: &Disc, cells: &[u32]) -> bool {
        let mut reached = vec![cells[0]];
        let mut stack = vec![cells[0]];
        while let Some(t) = stack.pop() {
            for side in 0..3 {
                if let Some(u) = disc.neighbour(t, side)
                    && cells.contains(&u)
                    && !reached.contains(&u)
                {
                    reached.push(u);
                    stack.push(u);
                }
            }
        }
        reached.len() == cells.len()
    }
    fn hole_free(disc: &Disc, cells: &[u32]) -> bool {
        let vertices: HashSet<u32> = cells.iter().flat_map(|&t| disc.corners(t)).collect();
        let inner_sides = cells
            .iter()
            .flat_map(|&t| (0..3).filter_map(move |s| disc.neighbour(t, s)))
            .filter(|u| cells.contains(u))
            .count()
            / 2;
        let sides = 3 * cells.len() - inner_sides;
        vertices.len() + cells.len() == sides + 1
    }
    for q in 7u8..=12 {
        let mosaic = Mosaic::new(q).expect("q in range");
        let largest = if q <= 10 { 6 } else { 5 };
        let disc = Disc::around_root(mosaic, largest + 1, &mut Budget::unlimited())
            .expect("budget")
            .expect("a disc the kernel builds");
        let code =
            |cells: &[u32]| least_code(&disc, cells, &mut Budget::unlimited()).expect("code");
        for size in 1..=largest {
            let mut oracle: HashSet<Vec<u8>> = HashSet::new();
            let through_root = common::connected_sets(&[0], size, |t| {
                (0..3)
                    .filter_map(|s| disc.neighbour(t, s))
                    .collect::<Vec<_>>()
            });
            for cells in through_root {
                if hole_free(&disc, &cells) && oracle.insert(code(&cells)) && size > 1 {
                    let keeps = (0..size).any(|i| {
                        let mut rest = cells.clone();
                        rest.remove(i);
                        connected(&disc, &rest) && hole_free(&disc, &rest)
                    });
                    assert!(
                        keeps,
                        "(3,{q}): {cells:?} keeps no polyomino one cell smaller"
                    );
                }
            }
            let listed: Vec<Vec<u8>> = mosaic::animals(
                mosaic,
                size,
                Kind::FreeSimplyConnected,
                &mut Budget::unlimited(),
            )
            .expect("listed")
            .iter()
            .map(|cells| code(cells))
            .collect();
            let distinct: HashSet<Vec<u8>> = listed.iter().cloned().collect();
            assert_eq!(
                distinct.len(),
                listed.len(),
                "(3,{q}), size {size}: a class twice"
            );
            assert_eq!(distinct, oracle, "(3,{q}), size {size}");
        }
    }
}

/// Rule B7 on mosaics must fail an "always accept" checker too: each
/// shipped mosaic classification with any one of its cited losers dropped
/// is not verified.
#[test]
fn dropping_any_cited_loser_breaks_the_mosaic_classifications() {
    let dir = common::scratch("classification", "mosaic");
    for f in ["hyperbolic-games-8.cert", "hyperbolic-losers.cert"] {
        let text = common::shipped(&format!("certificates/bode-2000/{f}"));
        std::fs::write(dir.join(f), text).expect("write");
    }
    let text = common::shipped("certificates/bode-2000/hyperbolic-classification.cert");
    let claims: Vec<&str> = text.lines().filter(|l| l.contains(" classify ")).collect();
    assert_eq!(claims.len(), 3);
    let mut mutants = 0;
    for line in claims {
        let id = line["claim ".len()..].split(':').next().expect("an id");
        let (head, cites) = line.split_once(" from ").expect("citations");
        let cites: Vec<&str> = cites.split(", ").collect();
        // The first citation is the winner; the rest are the losers.
        for dropped in &cites[1..] {
            let mutated = without_citation(&text, line, head, &cites, dropped);
            std::fs::write(dir.join("hyperbolic-classification.cert"), &mutated).expect("write");
            let verdict = verdict_of(&dir, "hyperbolic-classification.cert", id);
            assert!(
                verdict.starts_with("REJECTED") || verdict.starts_with("REFUTED"),
                "{id} without {dropped}: {verdict}"
            );
            mutants += 1;
        }
    }
    assert_eq!(mutants, 9);
}

/// The embedding test B7 reads on mosaics ("is a congruent to a subset of
/// b", with a disc of r + |a| rings) against an oracle: every connected
/// subset of b with |a| triangles compared with a by least code, in a disc
/// of this test's choosing. The animals b are drawn away from the root
/// (from flags on triangles of the first and second rings), where the
/// congruences' walks reach furthest.
#[test]
fn mosaic_embeddings_agree_with_subsets_compared_by_code() {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::enumerate::Kind;
    use gamecert::kernel::animals::flags::{FLAGS, Flag, cell};
    use gamecert::kernel::animals::mosaic::{self, Disc, Mosaic, draw_cells_from, least_code};
    use gamecert::kernel::animals::shape::sub_animal;
    use gamecert::kernel::budget::Budget;
    use std::collections::HashSet;

    let (mut compared, mut inside, mut unknown) = (0, 0, 0);
    for (q, far, rings) in [(7u8, 2u32, 8usize), (8, 2, 7), (9, 1, 6), (10, 1, 6)] {
        let mosaic = Mosaic::new(q).expect("q in range");
        let board = Board::Mosaic(mosaic);
        let disc = Disc::around_root(mosaic, rings, &mut Budget::unlimited())
            .expect("budget")
            .expect("a disc the kernel builds");
        let near = Disc::around_root(mosaic, far as usize, &mut Budget::unlimited())
            .expect("budget")
            .expect("a small disc");
        let code =
            |cells: &[u32]| least_code(&disc, cells, &mut Budget::unlimited()).expect("code");
        let animals = |size: usize| {
            mosaic::animals(
                mosaic,
                size,
                Kind::FreeSimplyConnected,
                &mut Budget::unlimited(),
            )
            .expect("listed")
        };
        // Flags on the last triangles of the disc of `far` rings.
        let last = near.triangles() as u32;
        let flags: Vec<Flag> = (last - 3..last)
            .flat_map(|triangle| {
                (0..FLAGS)
                    .step_by(3)
                    .map(move |index| Flag { triangle, index })
            })
            .collect();
        for b_size in 4..=5 {
            for b in animals(b_size) {
                let b_code = code(&b);
                for &flag in &flags {
                    let Some(placed) = draw_cells_from(&disc, &b_code, flag) else {
                        continue;
                    };
                    for a_size in 1..=b_size {
                        let within = common::connected_sets(&placed, a_size, |t| {
                            (0..3)
                                .filter_map(|s| disc.neighbour(t, s))
                                .filter(|u| placed.contains(u))
                                .collect::<Vec<_>>()
                        });
                        let codes: HashSet<Vec<u8>> = within.iter().map(|s| code(s)).collect();
                        for a in animals(a_size) {
                            let oracle = codes.contains(&code(&a));
                            let a_cells: Vec<_> = a.iter().map(|&t| cell(t)).collect();
                            let b_cells: Vec<_> = placed.iter().map(|&t| cell(t)).collect();
                            let kernel =
                                sub_animal(&board, &a_cells, &b_cells, &mut Budget::unlimited())
                                    .expect("budget");
                            // Without its disc the test has no answer (B7
                            // is then undecided); an answer must be right.
                            let Some(kernel) = kernel else {
                                unknown += 1;
                                continue;
                            };
                            assert_eq!(kernel, oracle, "(3,{q}): {a:?} in {placed:?}");
                            compared += 1;
                            inside += usize::from(oracle);
                        }
                    }
                }
            }
        }
    }
    assert!(
        compared > 1000 && inside > 100 && inside < compared,
        "{compared} compared, {inside} inside, {unknown} without a disc"
    );
    println!("{compared} compared, {inside} inside, {unknown} without a disc");
}
