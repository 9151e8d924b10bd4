//! The periodic tilings: counts of Bode's polyominoes on the archimedean
//! tilings (Tables 33-44 up to size 8 here; the larger sizes are claims in
//! certificates) and the regular tilings drawn as tilings against the
//! lattices' own enumeration (a different drawing, neighbour rule, group and
//! hole test).

mod common;

use gamecert::elaborate::tilings::builtin;
use gamecert::kernel::animals::enumerate::{Kind, count};
use gamecert::kernel::animals::lattice::Lattice;
use gamecert::kernel::animals::tiling::Tiling;
use gamecert::kernel::budget::Budget;

fn tiling(name: &str) -> Tiling {
    Tiling::new(builtin(name).expect("built in")).expect("tiles")
}

fn counts<G: gamecert::kernel::animals::enumerate::Geometry>(
    g: &G,
    kind: Kind,
    sizes: std::ops::RangeInclusive<usize>,
) -> Vec<u64> {
    sizes
        .map(|n| count(g, n, kind, 2, &mut Budget::unlimited()).expect("within budget"))
        .collect()
}

#[test]
fn bode_tables_33_to_44_up_to_size_8() {
    let tables: [(&str, [u64; 8]); 8] = [
        ("(3,3,3,3,6)", [3, 3, 7, 23, 69, 228, 762, 2594]),
        ("(3,3,3,4,4)", [2, 3, 5, 13, 32, 96, 281, 891]),
        ("(3,3,4,3,4)", [2, 2, 4, 10, 28, 79, 233, 705]),
        ("(3,4,6,4)", [3, 2, 7, 16, 59, 194, 790, 3116]),
        ("(3,6,3,6)", [2, 1, 4, 9, 29, 90, 330, 1167]),
        ("(3,12,12)", [2, 2, 8, 35, 173, 983, 5949, 37198]),
        ("(4,6,12)", [3, 3, 14, 49, 255, 1327, 7796, 45876]),
        ("(4,8,8)", [2, 2, 7, 21, 90, 388, 1914, 9645]),
    ];
    for (name, table) in tables {
        let t = tiling(name);
        assert_eq!(
            counts(&t, Kind::FreeSimplyConnected, 1..=8),
            table,
            "{name}"
        );
    }
}

#[test]
fn regular_tilings_count_as_their_lattices() {
    for (name, lattice, up_to) in [
        ("(4,4,4,4)", Lattice::Square, 10),
        ("(3,3,3,3,3,3)", Lattice::Triangle, 12),
        ("(6,6,6)", Lattice::Hexagon, 8),
    ] {
        let t = tiling(name);
        for kind in [Kind::Fixed, Kind::Free, Kind::FreeSimplyConnected] {
            assert_eq!(
                counts(&t, kind, 1..=up_to),
                counts(&lattice, kind, 1..=up_to),
                "{name} {kind:?}"
            );
        }
    }
}

#[test]
fn pictures_draw_every_face_of_the_window_and_fill_the_animal() {
    use gamecert::elaborate::DeclaredAnimal;
    use gamecert::kernel::animals::Board;
    use std::sync::Arc;
    for name in gamecert::elaborate::tilings::TILINGS {
        let board = Board::Tiling(Arc::new(tiling(name)));
        let picture = gamecert::render::board_svg(name, &board).expect("a tiling is drawn");
        let faces = picture.matches("<polygon").count();
        let numbered = picture.matches("<text").count();
        let Board::Tiling(t) = &board else {
            unreachable!()
        };
        assert_eq!(
            numbered,
            t.faces(),
            "{name}: the unit cell's faces are numbered"
        );
        assert!(
            faces >= 40 && faces.is_multiple_of(t.faces()),
            "{name}: {faces} faces"
        );
        // A domino of face 0 and a neighbour: two faces filled, no numbers.
        let mut neighbour = None;
        t.for_each_neighbour([0, 0, 0], |c| neighbour = neighbour.or(Some(c)));
        let cells = vec![[0, 0, 0], neighbour.expect("face 0 has neighbours")];
        let animal = DeclaredAnimal {
            name: "domino".into(),
            board: board.clone(),
            cells,
        };
        let picture = gamecert::render::animal_svg(&animal);
        assert_eq!(picture.matches("fill=\"#4a7ebb\"").count(), 2, "{name}");
        assert_eq!(picture.matches("<text").count(), 0, "{name}");
    }
}

/// Rule B7's lemma, tested: every simply connected animal of k > 1 cells
/// has a cell whose removal leaves a simply connected animal of k - 1
/// cells (on three lattices and four tilings, up to size 8).
#[test]
fn every_polyomino_keeps_a_polyomino_one_cell_smaller() {
    use gamecert::kernel::animals::enumerate::{Geometry, list};
    use gamecert::kernel::animals::lattice::Cell;
    use gamecert::kernel::animals::tiling::IdSet;
    fn connected(g: &impl Geometry, cells: &[Cell]) -> bool {
        let mut reached = vec![cells[0]];
        let mut stack = vec![cells[0]];
        while let Some(c) = stack.pop() {
            g.for_each_neighbour(c, |n| {
                if cells.contains(&n) && !reached.contains(&n) {
                    reached.push(n);
                    stack.push(n);
                }
            });
        }
        reached.len() == cells.len()
    }
    fn check(g: &impl Geometry, name: &str, up_to: usize) {
        let mut seen = IdSet::default();
        for size in 2..=up_to {
            let all = list(g, size, Kind::FreeSimplyConnected, &mut Budget::unlimited())
                .expect("within budget");
            assert!(!all.is_empty());
            for p in all {
                let keeps = (0..p.len()).any(|i| {
                    let mut rest = p.clone();
                    rest.remove(i);
                    connected(g, &rest) && !g.has_hole(&rest, &mut seen)
                });
                assert!(
                    keeps,
                    "{name}: {p:?} keeps no polyomino of {} cells",
                    size - 1
                );
            }
        }
    }
    check(&Lattice::Square, "square", 8);
    check(&Lattice::Triangle, "triangle", 9);
    check(&Lattice::Hexagon, "hexagon", 7);
    for name in ["(3,3,3,3,6)", "(3,4,6,4)", "(4,6,12)", "(4,8,8)"] {
        check(&tiling(name), name, 6);
    }
}

/// Games on a tiling end to end: the producers write a maker win (on a
/// window of unit cells) and a periodic pairing, and the kernel verifies
/// both from the files alone.
#[test]
fn games_on_a_tiling_are_proved_and_checked() {
    let dir = common::scratch("tilings", "games");
    std::fs::write(
        dir.join("animals.cert"),
        "gamecert 1\nboard T = tiling (3,3,3,4,4)\n\
         animal S2 on T = (0,0,2) (1,0,2)\n\
         animal S3 on T = (0,0,2) (1,0,2) (2,0,2)\n",
    )
    .expect("write");
    let run = |args: &[&str]| {
        let out = common::gamecert_in(&dir, args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "prove",
        "winner",
        "S2",
        "on",
        "T",
        "(1,1)",
        "--file",
        "animals.cert",
        "--window",
        "3x4",
        "-o",
        "win.cert",
    ]);
    run(&[
        "prove",
        "loser",
        "S3",
        "on",
        "T",
        "(1,1)",
        "--file",
        "animals.cert",
        "-o",
        "lose.cert",
    ]);
    for file in ["win.cert", "lose.cert"] {
        let out = common::gamecert_in(&dir, &["check", file]);
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && report.contains("VERIFIED"),
            "{file}: {report}"
        );
    }
}

/// User-declared tilings (faces out of the cell, clockwise periods, faces
/// in several orders and orbit sizes) against counts from an independent
/// brute force, kept in tests/tilings/.
#[test]
fn declared_tilings_match_an_independent_brute_force() {
    let files = common::cert_files("tests/tilings");
    assert!(files.len() >= 5);
    for file in files {
        let path = file.to_string_lossy().to_string();
        let outcome = common::check(&[&path]);
        let claims: Vec<_> = outcome
            .report
            .files
            .iter()
            .flat_map(|f| &f.claims)
            .collect();
        assert!(claims.len() >= 15, "{path}");
        for claim in claims {
            assert_eq!(
                claim.verdict,
                gamecert::report::VerdictName::Verified,
                "{path}: {}",
                claim.id
            );
        }
    }
}
