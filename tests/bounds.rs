//! Bode's upper bounds on the winners of the archimedean solids (Sec. 5,
//! Tables 12, 16, 21, 23): the symmetric pairing producer, given the
//! properties (s, l) a table names, leaves the same number of possible
//! winners of every size as the table prints; each pairing it reports has
//! the property it claims (checked here by brute force: the maps that
//! carry the pairing onto itself counted over the board's automorphisms,
//! pair lengths by breadth-first search) and spoils every copy of its
//! polyomino. The kernel's enumeration of loser-free polyominoes, which
//! bounds and classifications count with, is compared with a pass over
//! every subset of the faces of six solids.

mod common;

use common::rng::Rng;
use gamecert::elaborate::builtin_board;
use gamecert::kernel::animals::Board;
use gamecert::kernel::animals::solid::{self, FaceGraph};
use gamecert::kernel::budget::Budget;
use gamecert::produce::bound::{Strategy, Survey, survey};
use gamecert::produce::symmetric::Property;

fn properties(text: &str) -> Vec<Property> {
    text.split_whitespace()
        .map(|p| Property::parse(p).expect("property"))
        .collect()
}

fn surveyed(board: &str, max_size: usize, props: &str) -> (Board, Survey) {
    let board = builtin_board(board).expect("board");
    let found = survey(
        &board,
        max_size,
        &properties(props),
        false,
        &Budget::unlimited,
    )
    .expect("within budget")
    .expect("a solid");
    (board, found)
}

/// Steps between two faces.
fn steps(graph: &FaceGraph, from: usize, to: usize) -> usize {
    let (mut reached, mut frontier, mut step) = (1u128 << from, 1u128 << from, 0);
    while reached >> to & 1 == 0 {
        let around = solid::members(frontier).fold(0, |m, f| m | graph.neighbours(f));
        frontier = around & !reached;
        reached |= frontier;
        step += 1;
    }
    step
}

/// Checks every loser's pairing: disjoint pairs, spoiling every image of
/// the polyomino, carried onto itself by at least s automorphisms, no pair
/// longer than l.
fn pairings_have_their_properties(board: &Board, found: &Survey) {
    let graph = board.face_graph().expect("solid");
    let group = graph.group(&mut Budget::unlimited()).expect("group");
    for (set, strategy) in &found.losers {
        let Strategy::Pairing(property, pairs) = strategy else {
            panic!("only pairings were asked for");
        };
        let mut partner = vec![usize::MAX; graph.faces()];
        for &(u, w) in pairs {
            assert!(partner[u] == usize::MAX && partner[w] == usize::MAX);
            partner[u] = w;
            partner[w] = u;
            if let Some(l) = property.length {
                assert!(steps(&graph, u, w) <= l, "pair ({u}, {w}) longer than {l}");
            }
        }
        for p in group.iter() {
            let copy = solid::image(p, *set);
            assert!(
                pairs
                    .iter()
                    .any(|&(u, w)| copy >> u & 1 == 1 && copy >> w & 1 == 1),
                "a copy of {set:#x} holds no pair"
            );
        }
        let keeping = group
            .iter()
            .filter(|p| {
                pairs
                    .iter()
                    .all(|&(u, w)| partner[p[u] as usize] == p[w] as usize)
            })
            .count();
        assert!(
            keeping >= property.symmetries,
            "{keeping} maps keep a pairing of property {property}"
        );
    }
}

fn left_per_size(found: &Survey) -> Vec<usize> {
    found.sizes.iter().map(|s| s.1).collect()
}

#[test]
fn table_16_icosidodecahedron_and_truncated_icosahedron() {
    let (board, found) = surveyed("icosidodecahedron", 10, "5,inf 3,3 2,1");
    assert_eq!(left_per_size(&found), [2, 1, 3, 7, 14, 18, 7, 0, 0]);
    assert!(found.complete);
    pairings_have_their_properties(&board, &found);
    let (board, found) = surveyed("truncated-icosahedron", 10, "5,inf 3,3 2,1");
    assert_eq!(left_per_size(&found), [2, 2, 5, 13, 33, 66, 78, 8, 0, 0]);
    pairings_have_their_properties(&board, &found);
    // Of size 8, 14 polyominoes fall only to pairings kept by the group of
    // order 8 (three perpendicular mirror planes), which two elements do
    // not generate: without every subgroup the table is not reached.
    let (board, found) = surveyed("truncated-dodecahedron", 10, "5,inf 3,2 2,1");
    assert_eq!(left_per_size(&found), [2, 2, 6, 20, 55, 129, 175, 24, 0]);
    pairings_have_their_properties(&board, &found);
}

#[test]
fn table_12_rhombicuboctahedron_and_truncated_cuboctahedron() {
    let (board, found) = surveyed("rhombicuboctahedron", 8, "3,inf 2,2");
    assert_eq!(left_per_size(&found), [3, 2, 6, 8, 6, 0, 0]);
    pairings_have_their_properties(&board, &found);
    let (board, found) = surveyed("truncated-cuboctahedron", 9, "3,inf 2,1");
    assert_eq!(left_per_size(&found), [3, 3, 11, 24, 52, 53, 4, 0]);
    pairings_have_their_properties(&board, &found);
}

#[test]
fn tables_21_and_23_rhombicosidodecahedron_and_snub_dodecahedron() {
    let (board, found) = surveyed("rhombicosidodecahedron", 10, "10,inf 6,3 5,2 3,1");
    assert_eq!(left_per_size(&found), [3, 2, 6, 11, 24, 29, 8, 0, 0]);
    pairings_have_their_properties(&board, &found);
    let (board, found) = surveyed("snub-dodecahedron", 7, "60,inf 12,4 10,3 4,1");
    assert_eq!(left_per_size(&found), [3, 2, 3, 4, 0, 0]);
    pairings_have_their_properties(&board, &found);
}

#[test]
fn an_incomplete_survey_says_so() {
    // Sizes 1 to 4 of the icosidodecahedron all leave polyominoes without
    // a loser, so no total bound follows.
    let (_, found) = surveyed("icosidodecahedron", 4, "5,inf");
    assert!(!found.complete);
    assert_eq!(found.sizes.len(), 4);
}

/// A random connected set of `size` faces.
fn random_connected(graph: &FaceGraph, size: usize, rng: &mut Rng) -> u128 {
    let mut set = 1u128 << rng.below(graph.faces());
    while (set.count_ones() as usize) < size {
        let around = solid::members(set).fold(0, |m, f| m | graph.neighbours(f)) & !set;
        let options: Vec<usize> = solid::members(around).collect();
        set |= 1u128 << options[rng.below(options.len())];
    }
    set
}

/// The kernel's enumeration of loser-free polyominoes (the one bounds and
/// classifications count with) against a pass over every subset of the
/// faces: per size, the classes of connected proper sets with a connected
/// complement that hold no image of a random loser set.
#[test]
fn loser_free_polyominoes_agree_with_every_subset() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for name in [
        "cube",
        "octahedron",
        "dodecahedron",
        "truncated-tetrahedron",
        "cuboctahedron",
        "icosahedron",
    ] {
        let board = builtin_board(name).expect("board");
        let graph = board.face_graph().expect("solid");
        let group = graph.group(&mut Budget::unlimited()).expect("group");
        let n = graph.faces();
        let all = graph.all();
        for round in 0..4 {
            let losers: Vec<u128> = (0..1 + round % 3)
                .map(|_| random_connected(&graph, 2 + rng.below(3), &mut rng))
                .collect();
            let copies: Vec<u128> = losers
                .iter()
                .flat_map(|&l| group.iter().map(move |p| solid::image(p, l)))
                .collect();
            let mut expected = vec![0u64; n + 1];
            for set in 1..all {
                if graph.connected(set)
                    && graph.connected(all & !set)
                    && group.iter().all(|p| solid::image(p, set) >= set)
                    && !copies.iter().any(|&c| c & !set == 0)
                {
                    expected[set.count_ones() as usize] += 1;
                }
            }
            let mut counted = vec![0u64; n + 1];
            gamecert::kernel::breaker::classify::loser_free(
                &graph,
                &group,
                &losers,
                n,
                &mut Budget::unlimited(),
                &mut |set| counted[set.count_ones() as usize] += 1,
            )
            .expect("unlimited");
            assert_eq!(counted, expected, "{name}, losers {losers:x?}");
        }
    }
}
