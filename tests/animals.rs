//! Animal enumeration against published counts (OEIS) and a naive
//! enumerator (every connected cell set grown cell by cell, canonicalised by
//! brute force over all congruences).

use std::collections::HashSet;

use gamecert::kernel::animals::enumerate::{Kind, count};
use gamecert::kernel::animals::lattice::{Cell, Lattice};
use gamecert::kernel::budget::Budget;

fn counts(lattice: Lattice, kind: Kind, up_to: usize) -> Vec<u64> {
    (1..=up_to)
        .map(|n| count(&lattice, n, kind, 2, &mut Budget::unlimited()).expect("budget"))
        .collect()
}

/// OEIS: fixed polyominoes A001168, free A000105, free without holes A000104.
#[test]
fn square_lattice_matches_oeis() {
    assert_eq!(
        counts(Lattice::Square, Kind::Fixed, 10),
        [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446]
    );
    assert_eq!(
        counts(Lattice::Square, Kind::Free, 10),
        [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]
    );
    assert_eq!(
        counts(Lattice::Square, Kind::FreeSimplyConnected, 10),
        [1, 1, 2, 5, 12, 35, 107, 363, 1248, 4460]
    );
}

/// OEIS: fixed polyiamonds A001420, free A000577, free without holes A070765.
#[test]
fn triangle_lattice_matches_oeis() {
    assert_eq!(
        counts(Lattice::Triangle, Kind::Fixed, 10),
        [2, 3, 6, 14, 36, 94, 250, 675, 1838, 5053]
    );
    assert_eq!(
        counts(Lattice::Triangle, Kind::Free, 10),
        [1, 1, 1, 3, 4, 12, 24, 66, 160, 448]
    );
    assert_eq!(
        counts(Lattice::Triangle, Kind::FreeSimplyConnected, 10),
        [1, 1, 1, 3, 4, 12, 24, 66, 159, 444]
    );
}

/// OEIS: fixed polyhexes A001207, free A000228, free without holes A018190
/// (which Bode Table 28 quotes: 1435 at size 8).
#[test]
fn hexagon_lattice_matches_oeis() {
    assert_eq!(
        counts(Lattice::Hexagon, Kind::Fixed, 8),
        [1, 3, 11, 44, 186, 814, 3652, 16689]
    );
    assert_eq!(
        counts(Lattice::Hexagon, Kind::Free, 8),
        [1, 1, 3, 7, 22, 82, 333, 1448]
    );
    assert_eq!(
        counts(Lattice::Hexagon, Kind::FreeSimplyConnected, 8),
        [1, 1, 3, 7, 22, 81, 331, 1435]
    );
}

/// OEIS: fixed polycubes A001931, free with mirror images identified A038119.
#[test]
fn cubic_lattice_matches_oeis() {
    assert_eq!(
        counts(Lattice::Cubic, Kind::Fixed, 6),
        [1, 3, 15, 86, 534, 3481]
    );
    assert_eq!(counts(Lattice::Cubic, Kind::Free, 6), [1, 1, 2, 7, 23, 112]);
}

/// Every fixed animal up to `size`, grown naively: each animal of size k + 1
/// is an animal of size k plus a neighbouring cell, normalised by translation.
fn naive_fixed(lattice: Lattice, size: usize) -> Vec<HashSet<Vec<Cell>>> {
    let normal = |cells: &[Cell]| -> Vec<Cell> {
        let mut v = cells.to_vec();
        v.sort_by_key(|c| (c[2], c[1], c[0]));
        let m = v[0];
        // Triangle translations keep orientation: a down least cell goes to (1,0).
        let target = if lattice == Lattice::Triangle && (m[0] + m[1]).rem_euclid(2) == 1 {
            [1, 0, 0]
        } else {
            [0, 0, 0]
        };
        v.iter()
            .map(|c| {
                [
                    c[0] - m[0] + target[0],
                    c[1] - m[1] + target[1],
                    c[2] - m[2],
                ]
            })
            .collect()
    };
    let mut levels = vec![HashSet::new()];
    let mut first = HashSet::new();
    first.insert(vec![[0, 0, 0]]);
    if lattice == Lattice::Triangle {
        first.insert(vec![[1, 0, 0]]);
    }
    levels.push(first);
    for k in 1..size {
        let mut next = HashSet::new();
        for animal in &levels[k] {
            for c in animal {
                for n in lattice.neighbours(*c) {
                    if !animal.contains(&n) {
                        let mut grown = animal.clone();
                        grown.push(n);
                        next.insert(normal(&grown));
                    }
                }
            }
        }
        levels.push(next);
    }
    levels
}

/// The kernel's counts against the naive enumeration: fixed animals, free
/// ones (orbits under the point group, found by brute force over all
/// images), and free ones without holes.
#[test]
fn enumeration_matches_a_naive_enumerator() {
    use gamecert::kernel::animals::enumerate::{canonical, has_hole};
    for (lattice, size) in [
        (Lattice::Square, 8),
        (Lattice::Triangle, 9),
        (Lattice::Hexagon, 7),
        (Lattice::Cubic, 5),
    ] {
        let levels = naive_fixed(lattice, size);
        for (n, level) in levels.iter().enumerate().skip(1) {
            let fixed = level.len() as u64;
            let free: HashSet<Vec<Cell>> = level.iter().map(|a| canonical(&lattice, a)).collect();
            let simple = free.iter().filter(|a| !has_hole(lattice, a)).count() as u64;
            let kernel =
                |kind| count(&lattice, n, kind, 1, &mut Budget::unlimited()).expect("budget");
            assert_eq!(kernel(Kind::Fixed), fixed, "{lattice:?} fixed {n}");
            assert_eq!(
                kernel(Kind::Free),
                free.len() as u64,
                "{lattice:?} free {n}"
            );
            assert_eq!(
                kernel(Kind::FreeSimplyConnected),
                simple,
                "{lattice:?} simple {n}"
            );
        }
    }
}

/// Each lattice's point group: every element maps neighbours to neighbours
/// and is a bijection on a patch, and the elements are distinct (so the group
/// has the stated order: 8, 12, 12, 48).
#[test]
fn point_groups_are_lattice_symmetries_of_the_stated_order() {
    for lattice in [
        Lattice::Square,
        Lattice::Triangle,
        Lattice::Hexagon,
        Lattice::Cubic,
    ] {
        let patch: Vec<Cell> = naive_fixed(lattice, 3)[3]
            .iter()
            .flatten()
            .copied()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let mut images = HashSet::new();
        for g in 0..lattice.point_group_order() {
            for &c in &patch {
                let gc = lattice.transform(g, c);
                for n in lattice.neighbours(c) {
                    assert!(
                        lattice.neighbours(gc).contains(&lattice.transform(g, n)),
                        "{lattice:?} element {g} breaks adjacency at {c:?}"
                    );
                }
            }
            let image: Vec<Cell> = patch.iter().map(|&c| lattice.transform(g, c)).collect();
            assert_eq!(image.iter().collect::<HashSet<_>>().len(), patch.len());
            images.insert(image);
        }
        assert_eq!(images.len(), lattice.point_group_order(), "{lattice:?}");
    }
}

mod solids {
    use std::collections::HashSet;

    use gamecert::kernel::animals::orbits::polyomino_orbits;
    use gamecert::kernel::animals::solid::{FaceGraph, FiniteKind, Solid, count};
    use gamecert::kernel::budget::Budget;

    fn graph(solid: Solid) -> FaceGraph {
        FaceGraph::of(solid).expect("buildable")
    }

    fn is_automorphism(g: &FaceGraph, p: &[u8]) -> bool {
        (0..g.faces()).all(|a| {
            (0..g.faces()).all(|b| {
                let was = g.adjacent[a] & (1u128 << b) != 0;
                let is = g.adjacent[p[a] as usize] & (1u128 << p[b]) != 0;
                was == is
            })
        })
    }

    /// Every permutation of the faces, tested one by one (small boards only).
    fn brute_force_group_order(g: &FaceGraph) -> usize {
        fn permute(g: &FaceGraph, p: &mut Vec<u8>, k: usize, found: &mut usize) {
            if k == p.len() {
                *found += usize::from(is_automorphism(g, p));
                return;
            }
            for i in k..p.len() {
                p.swap(k, i);
                permute(g, p, k + 1, found);
                p.swap(k, i);
            }
        }
        let mut p: Vec<u8> = (0..g.faces() as u8).collect();
        let mut found = 0;
        permute(g, &mut p, 0, &mut found);
        found
    }

    #[test]
    fn solids_have_their_faces_and_symmetry_groups() {
        for (solid, faces, order) in [
            (Solid::Tetrahedron, 4, 24),
            (Solid::Cube, 6, 48),
            (Solid::Octahedron, 8, 48),
            (Solid::Dodecahedron, 12, 120),
            (Solid::Icosahedron, 20, 120),
            (Solid::Prism(3), 5, 12),
            (Solid::Prism(4), 6, 48),
            (Solid::Prism(7), 9, 28),
            (Solid::Antiprism(3), 8, 48),
            (Solid::Antiprism(5), 12, 20),
        ] {
            let g = graph(solid);
            assert_eq!(g.faces(), faces, "{solid:?}");
            let group = g.automorphisms(&mut Budget::unlimited()).expect("budget");
            assert_eq!(group.len(), order, "{solid:?}");
            assert!(group.iter().all(|p| is_automorphism(&g, p)));
            assert_eq!(group.iter().collect::<HashSet<_>>().len(), order);
            if faces <= 8 {
                assert_eq!(brute_force_group_order(&g), order, "{solid:?} brute force");
            }
        }
    }

    /// Every subset of faces, tested one by one, against the enumeration.
    #[test]
    fn solid_counts_match_brute_force_over_all_subsets() {
        for solid in [
            Solid::Tetrahedron,
            Solid::Cube,
            Solid::Octahedron,
            Solid::Dodecahedron,
            Solid::Icosahedron,
            Solid::Prism(5),
            Solid::Antiprism(4),
        ] {
            let g = graph(solid);
            let n = g.faces();
            let group = g.automorphisms(&mut Budget::unlimited()).expect("budget");
            let all = (1u128 << n) - 1;
            let mut labelled = vec![0u64; n];
            let mut free = vec![HashSet::new(); n];
            let mut simple = vec![HashSet::new(); n];
            for set in 1..all {
                if !g.connected(set) {
                    continue;
                }
                let k = set.count_ones() as usize;
                labelled[k] += 1;
                let least = group
                    .iter()
                    .map(|p| {
                        (0..n)
                            .filter(|&f| set >> f & 1 == 1)
                            .fold(0u128, |m, f| m | 1 << p[f])
                    })
                    .min()
                    .unwrap_or(set);
                free[k].insert(least);
                if g.connected(all & !set) {
                    simple[k].insert(least);
                }
            }
            let orbits = polyomino_orbits(&g, &group, &mut Budget::unlimited())
                .expect("budget")
                .expect("a group");
            for k in 1..n {
                assert_eq!(orbits[k], simple[k].len() as u64, "{solid:?} {k} by orbits");
                let kernel = |kind| count(&g, k, kind, &mut Budget::unlimited()).expect("budget");
                assert_eq!(kernel(FiniteKind::Labelled), labelled[k], "{solid:?} {k}");
                assert_eq!(
                    kernel(FiniteKind::Free),
                    free[k].len() as u64,
                    "{solid:?} {k}"
                );
                assert_eq!(
                    kernel(FiniteKind::FreeSimplyConnected),
                    simple[k].len() as u64,
                    "{solid:?} {k}"
                );
            }
        }
    }
}

mod archimedean {
    use gamecert::kernel::animals::solid::{FaceGraph, Operator, Platonic, Solid};
    use gamecert::kernel::budget::Budget;

    /// Face counts, face sizes (by degree in the face graph) and symmetry
    /// group orders of the thirteen archimedean solids (the snubs are
    /// chiral: rotations only).
    #[test]
    fn archimedean_solids_have_their_faces_and_groups() {
        use Operator::*;
        use Platonic::*;
        for (op, base, faces, degrees, order) in [
            (Truncate, Tetrahedron, 8, vec![(3, 4), (6, 4)], 24),
            (Ambo, Cube, 14, vec![(3, 8), (4, 6)], 48),
            (Truncate, Cube, 14, vec![(3, 8), (8, 6)], 48),
            (Truncate, Octahedron, 14, vec![(4, 6), (6, 8)], 48),
            (Expand, Cube, 26, vec![(3, 8), (4, 18)], 48),
            (Bevel, Cube, 26, vec![(4, 12), (6, 8), (8, 6)], 48),
            (Snub, Cube, 38, vec![(3, 32), (4, 6)], 24),
            (Ambo, Dodecahedron, 32, vec![(3, 20), (5, 12)], 120),
            (Truncate, Dodecahedron, 32, vec![(3, 20), (10, 12)], 120),
            (Truncate, Icosahedron, 32, vec![(5, 12), (6, 20)], 120),
            (
                Expand,
                Dodecahedron,
                62,
                vec![(3, 20), (4, 30), (5, 12)],
                120,
            ),
            (
                Bevel,
                Dodecahedron,
                62,
                vec![(4, 30), (6, 20), (10, 12)],
                120,
            ),
            (Snub, Dodecahedron, 92, vec![(3, 80), (5, 12)], 60),
        ] {
            let g = FaceGraph::of(Solid::Archimedean(op, base)).expect("buildable");
            assert_eq!(g.faces(), faces, "{op:?} {base:?}");
            let mut seen = std::collections::BTreeMap::new();
            for a in &g.adjacent {
                *seen.entry(a.count_ones()).or_insert(0) += 1;
            }
            let seen: Vec<(u32, usize)> = seen.into_iter().collect();
            let expected: Vec<(u32, usize)> = degrees.iter().map(|&(d, n)| (d, n)).collect();
            assert_eq!(seen, expected, "{op:?} {base:?}");
            let group = g.automorphisms(&mut Budget::unlimited()).expect("budget");
            assert_eq!(group.len(), order, "{op:?} {base:?}");
        }
    }

    /// The orbit counts by the orbit-counting lemma against the per-size
    /// enumeration with one least image per orbit, on the 14-faced solids
    /// (every size) and the snub cube (sizes up to 7, and the total).
    #[test]
    fn polyomino_orbits_agree_with_the_least_image_enumeration() {
        use Operator::*;
        use Platonic::*;
        use gamecert::kernel::animals::orbits::polyomino_orbits;
        use gamecert::kernel::animals::solid::{FiniteKind, count};
        for (op, base, sizes) in [
            (Ambo, Cube, 13),
            (Truncate, Octahedron, 13),
            (Truncate, Tetrahedron, 7),
            (Snub, Cube, 7),
        ] {
            let g = FaceGraph::of(Solid::Archimedean(op, base)).expect("buildable");
            let group = g.automorphisms(&mut Budget::unlimited()).expect("budget");
            let orbits = polyomino_orbits(&g, &group, &mut Budget::unlimited())
                .expect("budget")
                .expect("a group");
            for (k, &by_orbits) in orbits.iter().enumerate().take(sizes + 1).skip(1) {
                let by_image = count(
                    &g,
                    k,
                    FiniteKind::FreeSimplyConnected,
                    &mut Budget::unlimited(),
                )
                .expect("budget");
                assert_eq!(by_orbits, by_image, "{op:?} {base:?} size {k}");
            }
            if op == Snub {
                // Bode 2000, Table 17.
                assert_eq!(orbits.iter().sum::<u64>(), 5_552_332);
            }
        }
    }
}

mod shapes {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::lattice::Cell;
    use gamecert::kernel::animals::lattice::Lattice;
    use gamecert::kernel::animals::shape::{self, site_perimeter, validate};
    use gamecert::kernel::animals::solid::Solid;
    use gamecert::kernel::budget::Budget;

    fn canonical_form(board: &Board, cells: &[Cell]) -> Vec<Cell> {
        shape::canonical_form(board, cells, &mut Budget::unlimited()).expect("unlimited")
    }

    fn is_sub_animal(board: &Board, a: &[Cell], b: &[Cell]) -> bool {
        shape::is_sub_animal(board, a, b, &mut Budget::unlimited()).expect("unlimited")
    }

    const SQUARE: Board = Board::Lattice(Lattice::Square);

    #[test]
    fn congruent_declarations_have_equal_canonical_forms() {
        // The L tetromino, rotated and reflected and moved.
        let l = [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]];
        let l2 = [[5, 5, 0], [6, 5, 0], [7, 5, 0], [7, 4, 0]];
        let t = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]];
        assert_eq!(canonical_form(&SQUARE, &l), canonical_form(&SQUARE, &l2));
        assert_ne!(canonical_form(&SQUARE, &l), canonical_form(&SQUARE, &t));
        // Triangle lattice: an up and a down triangle are one monoiamond.
        let tri = Board::Lattice(Lattice::Triangle);
        assert_eq!(
            canonical_form(&tri, &[[0, 0, 0]]),
            canonical_form(&tri, &[[1, 0, 0]])
        );
        // On the cube every single face is the same animal.
        let cube = Board::Solid(Solid::Cube);
        assert_eq!(
            canonical_form(&cube, &[[0, 0, 0]]),
            canonical_form(&cube, &[[5, 0, 0]])
        );
    }

    #[test]
    fn validation_rejects_what_is_not_an_animal() {
        assert!(validate(&SQUARE, &[]).is_err());
        assert!(validate(&SQUARE, &[[0, 0, 0], [2, 0, 0]]).is_err());
        assert!(validate(&SQUARE, &[[0, 0, 0], [0, 0, 0]]).is_err());
        assert!(validate(&Board::Solid(Solid::Cube), &[[6, 0, 0]]).is_err());
        // Diagonal neighbours are not joined; on the triangle lattice (0,0)
        // (up) and (0,1) (up) share only a corner.
        assert!(validate(&SQUARE, &[[0, 0, 0], [1, 1, 0]]).is_err());
        assert!(validate(&Board::Lattice(Lattice::Triangle), &[[0, 0, 0], [0, 1, 0]]).is_err());
        assert!(validate(&SQUARE, &[[0, 0, 0], [1, 0, 0], [1, 1, 0]]).is_ok());
    }

    #[test]
    fn sub_animals_and_perimeters() {
        let domino = [[0, 0, 0], [1, 0, 0]];
        let l = [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]];
        let o = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]];
        let i3 = [[0, 0, 0], [0, 1, 0], [0, 2, 0]];
        assert!(is_sub_animal(&SQUARE, &domino, &l));
        assert!(is_sub_animal(&SQUARE, &i3, &l));
        assert!(!is_sub_animal(&SQUARE, &i3, &o));
        assert!(!is_sub_animal(&SQUARE, &l, &o));
        // Site perimeters: a single square has 4, the domino 6, the O 8.
        assert_eq!(site_perimeter(&SQUARE, &[[0, 0, 0]]), 4);
        assert_eq!(site_perimeter(&SQUARE, &domino), 6);
        assert_eq!(site_perimeter(&SQUARE, &o), 8);
        // A face of the icosahedron has 3 neighbours, of the dodecahedron 5.
        assert_eq!(
            site_perimeter(&Board::Solid(Solid::Icosahedron), &[[0, 0, 0]]),
            3
        );
        assert_eq!(
            site_perimeter(&Board::Solid(Solid::Dodecahedron), &[[0, 0, 0]]),
            5
        );
    }
}

#[test]
fn placements_count_the_distinct_images() {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::solid::Solid;
    let square = Board::Lattice(Lattice::Square);
    let n = |board: &Board, cells: &[Cell]| placements(board, cells).len();
    // Square lattice, modulo translation: L 8, T 4, S 4, I 2, O 1.
    assert_eq!(n(&square, &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]]), 8);
    assert_eq!(n(&square, &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]]), 4);
    assert_eq!(n(&square, &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]), 4);
    assert_eq!(n(&square, &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]), 2);
    assert_eq!(n(&square, &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]), 1);
    // Triangle lattice: a single triangle points up or down (2); the
    // straight triamond has 6 placements modulo translation.
    let tri = Board::Lattice(Lattice::Triangle);
    assert_eq!(n(&tri, &[[0, 0, 0]]), 2);
    assert_eq!(n(&tri, &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]), 6);
    // On the cube a single face has 6 placements, two adjacent faces 12.
    let cube = Board::Solid(Solid::Cube);
    assert_eq!(n(&cube, &[[0, 0, 0]]), 6);
    assert_eq!(n(&cube, &[[0, 0, 0], [2, 0, 0]]), 12);
}

#[test]
fn placements_on_finite_regions() {
    use gamecert::kernel::animals::shape::validate;
    use gamecert::kernel::animals::{Board, Region};
    let region = |lattice, rows, cols| {
        Board::Region(std::sync::Arc::new(Region::rectangle(lattice, rows, cols)))
    };
    let n = |board: &Board, cells: &[Cell]| placements(board, cells).len();
    let domino = [[0, 0, 0], [1, 0, 0]];
    // A domino on an R x C board: R(C-1) horizontal + (R-1)C vertical.
    assert_eq!(n(&region(Lattice::Square, 3, 4), &domino), 3 * 3 + 2 * 4);
    assert_eq!(n(&region(Lattice::Square, 1, 5), &domino), 4);
    // The L tetromino on 3x3: 8 orientations, each in 2x3 or 3x2 boxes: 2 places each.
    assert_eq!(
        n(
            &region(Lattice::Square, 3, 3),
            &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]]
        ),
        16
    );
    // The O tetromino on 5x5: 16 placements.
    assert_eq!(
        n(
            &region(Lattice::Square, 5, 5),
            &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]
        ),
        16
    );
    // Every placement lies on the board and is an animal of it.
    let board = region(Lattice::Triangle, 3, 6);
    for p in placements(&board, &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]) {
        assert!(validate(&board, &p).is_ok(), "{p:?}");
    }
    // Cells outside the region are rejected.
    assert!(validate(&region(Lattice::Square, 2, 2), &[[1, 1, 0], [2, 1, 0]]).is_err());
}

/// Pictures read as documented: rows from the top, y = 0 at the bottom; on
/// the hexagon lattice rows are shifted half a cell per row.
#[test]
fn pictures_give_the_documented_cells() {
    let text = "gamecert 1\n\
        animal S on square = picture {\n    ##\n   ###\n}\n\
        animal H on hexagon = picture {\n   # #\n  # # #\n}\n\
        animal T on triangle = picture {\n  .##\n  ###\n}\n";
    let declared = gamecert::elaborate::declarations(&gamecert::syntax::parse_file(text));
    let (animals, errors) = (declared.animals, declared.errors);
    assert!(errors.is_empty(), "{errors:?}");
    let cells = |name: &str| {
        let mut c = animals
            .iter()
            .find(|a| a.name == name)
            .expect("declared")
            .cells
            .clone();
        c.sort();
        c
    };
    assert_eq!(
        cells("S"),
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0], [2, 1, 0]]
    );
    assert_eq!(
        cells("H"),
        [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]]
    );
    assert_eq!(
        cells("T"),
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0], [2, 1, 0]]
    );
}

/// Counts on finite regions against the lattice's naive enumeration: an
/// animal of the lattice is counted on a region when some translate of one
/// of its fixed forms lies inside it (translations on the triangle lattice
/// keep up triangles up).
#[test]
fn region_counts_match_the_fitting_lattice_animals() {
    use gamecert::kernel::animals::enumerate::{canonical, has_hole};
    use gamecert::kernel::animals::{Board, CountClaim, Region, check};
    use gamecert::kernel::verdict::Verdict;
    use std::sync::Arc;
    // A region with a notch and a hole, besides rectangles.
    let ring: Vec<Cell> = (0..4)
        .flat_map(|y| (0..4).map(move |x| [x, y, 0]))
        .filter(|c| *c != [1, 1, 0] && *c != [3, 3, 0])
        .collect();
    let regions = [
        Region::rectangle(Lattice::Square, 3, 4),
        Region::of_cells(Lattice::Square, ring),
        Region::rectangle(Lattice::Triangle, 3, 5),
        Region::rectangle(Lattice::Hexagon, 3, 4),
    ];
    for region in regions {
        let lattice = region.lattice;
        let max = region.cells().len().min(7);
        let levels = naive_fixed(lattice, max);
        let fits = |animal: &Vec<Cell>| {
            region.cells().iter().any(|t| {
                let (dx, dy) = (t[0] - animal[0][0], t[1] - animal[0][1]);
                (lattice != Lattice::Triangle || (dx + dy).rem_euclid(2) == 0)
                    && animal
                        .iter()
                        .all(|c| region.contains([c[0] + dx, c[1] + dy, 0]))
            })
        };
        let board = Board::Region(Arc::new(region.clone()));
        for (n, level) in levels.iter().enumerate().skip(1) {
            let inside: Vec<&Vec<Cell>> = level.iter().filter(|a| fits(a)).collect();
            let free: HashSet<Vec<Cell>> = inside.iter().map(|a| canonical(&lattice, a)).collect();
            let simple = free.iter().filter(|a| !has_hole(lattice, a)).count();
            for (kind, expected) in [
                (Kind::Fixed, inside.len()),
                (Kind::Free, free.len()),
                (Kind::FreeSimplyConnected, simple),
            ] {
                let claim = CountClaim {
                    board: board.clone(),
                    kind,
                    size: n,
                    count: expected as u64,
                };
                let verdict = check(&claim, Budget::unlimited(), 1);
                assert!(
                    matches!(verdict, Verdict::Verified { .. }),
                    "{lattice:?} region of {} cells, {kind:?} size {n}: expected {expected}, got {verdict:?}",
                    region.cells().len()
                );
            }
        }
    }
}

/// Graph boards as declared: the Petersen graph has its 120 automorphisms
/// and one animal of each size 1-3 (it is 3-arc-transitive, without
/// triangles); on a 7-cycle every arc of k < 7 vertices is one animal with 7
/// labelled placements.
#[test]
fn graph_boards_have_their_groups_and_counts() {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::solid::{FiniteKind, count};
    let text = "gamecert 1\n\
        board Pet = graph { 0-1 1-2 2-3 3-4 4-0 0-5 1-6 2-7 3-8 4-9 5-7 7-9 9-6 6-8 8-5 }\n\
        board C7 = graph {\n  0-1, 1-2, 2-3\n  3-4, 4-5, 5-6, 6-0\n}\n";
    let declared = gamecert::elaborate::declarations(&gamecert::syntax::parse_file(text));
    assert!(declared.errors.is_empty(), "{:?}", declared.errors);
    let graph = |name: &str| {
        let (_, board) = declared
            .boards
            .iter()
            .find(|(n, _)| n == name)
            .expect("declared");
        let Board::Graph(g) = board else {
            panic!("{name} is not a graph board")
        };
        g.as_ref().clone()
    };
    let petersen = graph("Pet");
    let group = petersen
        .automorphisms(&mut Budget::unlimited())
        .expect("budget");
    assert_eq!(group.len(), 120);
    for k in 1..=3 {
        assert_eq!(
            count(&petersen, k, FiniteKind::Free, &mut Budget::unlimited()),
            Ok(1)
        );
    }
    let cycle = graph("C7");
    assert_eq!(
        cycle
            .automorphisms(&mut Budget::unlimited())
            .map(|g| g.len()),
        Ok(14)
    );
    for k in 1..7 {
        let n = |kind| count(&cycle, k, kind, &mut Budget::unlimited());
        assert_eq!(n(FiniteKind::Labelled), Ok(7), "arcs of {k}");
        assert_eq!(n(FiniteKind::Free), Ok(1), "arcs of {k}");
        assert_eq!(n(FiniteKind::FreeSimplyConnected), Ok(1), "arcs of {k}");
    }
}

/// Every placement of `cells` on `board`, the group listed without limit.
fn placements(board: &gamecert::kernel::animals::Board, cells: &[Cell]) -> Vec<Vec<Cell>> {
    gamecert::kernel::animals::shape::placements(board, cells, &mut Budget::unlimited())
        .expect("unlimited")
}

/// A board's automorphism group is listed once and shared: a second use
/// does not list it again, even on a budget too small to list it.
#[test]
fn a_group_is_listed_once_and_shared() {
    use gamecert::kernel::animals::solid::{FaceGraph, Solid};
    let prism = FaceGraph::of(Solid::Prism(61)).expect("a prism");
    let spent = Budget::new(Some(0), Some(std::time::Duration::ZERO), 0);
    assert!(
        prism.group(&mut spent.clone()).is_err(),
        "listed on no budget"
    );
    let group = prism.group(&mut Budget::unlimited()).expect("listed");
    assert_eq!(group.len(), 4 * 61);
    let again = prism
        .group(&mut spent.clone())
        .expect("shared, not listed again");
    assert!(std::sync::Arc::ptr_eq(&group, &again));
}

/// The (3,6) mosaic is the triangle lattice: the mosaic's disc and flag
/// codes (no coordinates, no translations) must count what the lattice's
/// enumeration counts (normal forms by translation, holes by flooding).
#[test]
fn mosaic_q6_counts_what_the_triangle_lattice_counts() {
    use gamecert::kernel::animals::mosaic::{self, Mosaic};
    let q6 = Mosaic::new(6).expect("q = 6 is built");
    for kind in [Kind::Free, Kind::FreeSimplyConnected] {
        let mosaic: Vec<u64> = (1..=11)
            .map(|n| mosaic::count(q6, n, kind, &mut Budget::unlimited()).expect("counted"))
            .collect();
        assert_eq!(mosaic, counts(Lattice::Triangle, kind, 11), "{kind:?}");
    }
}
