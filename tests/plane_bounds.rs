//! Bounds on the winners of plane boards (rule B6 on lattices and
//! tilings) against a second count: every free polyomino of a size is
//! listed by the counting enumeration (rule A1's, a different algorithm
//! from the bound's level enumeration) and tested for a copy of each cited
//! loser by the sub-animal test; the polyominoes holding none must be as
//! many as the level enumeration keeps, size by size.

mod common;

use gamecert::elaborate::tilings::builtin;
use gamecert::kernel::animals::Board;
use gamecert::kernel::animals::enumerate::{Geometry, Kind, canonical, list};
use gamecert::kernel::animals::lattice::{Cell, Lattice};
use gamecert::kernel::animals::levels;
use gamecert::kernel::animals::shape::is_sub_animal;
use gamecert::kernel::animals::tiling::Tiling;
use gamecert::kernel::budget::Budget;
use gamecert::report::VerdictName;
use std::sync::Arc;

/// Per size from 1 to `up_to`, the free polyominoes holding no copy of a
/// loser, by listing and testing each.
fn listed(board: &Board, geometry: &impl Geometry, losers: &[Vec<Cell>], up_to: usize) -> Vec<u64> {
    let mut budget = Budget::unlimited();
    (1..=up_to)
        .map(|size| {
            list(geometry, size, Kind::FreeSimplyConnected, &mut budget)
                .expect("listing")
                .iter()
                .filter(|p| {
                    !losers.iter().any(|l| {
                        l.len() <= p.len() && is_sub_animal(board, l, p, &mut budget).expect("test")
                    })
                })
                .count() as u64
        })
        .collect()
}

/// Per size, the polyominoes the level enumeration keeps (it stops after
/// the first size with none; the sizes after count 0).
fn levelled(geometry: &impl Geometry, losers: &[Vec<Cell>], up_to: usize) -> Vec<u64> {
    let forms: Vec<Vec<Cell>> = losers.iter().map(|l| canonical(geometry, l)).collect();
    let mut counts = vec![0; up_to];
    levels::loser_free(
        geometry,
        up_to,
        &mut |set, _| Ok(forms.iter().any(|f| f == set)),
        &mut |size, level| counts[size - 1] = level.polyominoes,
        &mut Budget::unlimited(),
    )
    .expect("levels");
    counts
}

fn cells(text: &str) -> Vec<Cell> {
    text.split(')')
        .filter_map(|c| c.trim().strip_prefix('('))
        .map(|c| {
            let v: Vec<i32> = c
                .split(',')
                .map(|n| n.trim().parse().expect("int"))
                .collect();
            [v[0], v[1], v.get(2).copied().unwrap_or(0)]
        })
        .collect()
}

#[test]
fn triangle_lattice_level_counts_match_listing() {
    let lattice = Lattice::Triangle;
    let board = Board::Lattice(lattice);
    let bar = cells("(0,0) (1,0) (2,0) (3,0)");
    let diamond2 = cells("(0,0) (1,0) (0,1) (1,1)");
    let big = cells("(0,0) (1,0) (2,0) (1,1)");
    for losers in [
        vec![bar.clone()],
        vec![bar.clone(), diamond2.clone()],
        vec![bar, diamond2, big],
    ] {
        let expected = listed(&board, &lattice, &losers, 9);
        assert_eq!(levelled(&lattice, &losers, 9), expected, "{losers:?}");
    }
}

#[test]
fn square_lattice_level_counts_match_listing() {
    let lattice = Lattice::Square;
    let board = Board::Lattice(lattice);
    // The 2x2 square and the X and I pentominoes: the rest keep growing.
    let losers = vec![
        cells("(0,0) (1,0) (0,1) (1,1)"),
        cells("(0,0) (0,1) (0,2) (-1,1) (1,1)"),
        cells("(0,0) (1,0) (2,0) (3,0) (4,0)"),
    ];
    assert_eq!(
        levelled(&lattice, &losers, 8),
        listed(&board, &lattice, &losers, 8)
    );
}

/// The shipped (3,4,6,4) survey's losers: the level enumeration and the
/// listing agree up to 7 cells, and both give the certificate's per-size
/// bounds there.
#[test]
fn shipped_tiling_bound_agrees_with_listing() {
    let text = std::fs::read_to_string("certificates/bode-2000/bounds/tiling-3464.cert")
        .expect("shipped certificate");
    let losers: Vec<Vec<Cell>> = text
        .lines()
        .filter(|l| l.starts_with("animal T3464_L"))
        .map(|l| cells(l.split_once(" = ").expect("cells").1))
        .collect();
    assert!(losers.len() > 100);
    let spec = builtin("(3,4,6,4)").expect("built in");
    let tiling = Arc::new(Tiling::new(spec).expect("tiles"));
    let board = Board::Tiling(tiling.clone());
    let expected = listed(&board, &*tiling, &losers, 7);
    assert_eq!(levelled(&*tiling, &losers, 7), expected);
    for (i, count) in expected.iter().enumerate() {
        let claim = format!(
            "claim t3464-bound-{}: bound T3464 size {} winners <= {count} ",
            i + 1,
            i + 1
        );
        assert!(text.contains(&claim), "{claim}");
    }
}

/// Every bound of the shipped (3,6,3,6) survey is exact for its losers:
/// one lower is rejected, and dropping the losers of one size makes the
/// total bound fail.
#[test]
fn shipped_tiling_bounds_one_lower_are_rejected() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("crate root");
    let text = std::fs::read_to_string("certificates/bode-2000/bounds/tiling-3636.cert")
        .expect("shipped certificate");
    let mut lowered = 0;
    for line in text.lines().filter(|l| l.starts_with("claim t3636-bound")) {
        let (head, rest) = line.split_once(" winners <= ").expect("bound");
        let (count, cites) = rest.split_once(' ').expect("count");
        let count: u64 = count.parse().expect("number");
        let id = head
            .strip_prefix("claim ")
            .and_then(|h| h.split_once(':'))
            .expect("id")
            .0;
        if count == 0 {
            continue;
        }
        let broken = text.replace(line, &format!("{head} winners <= {} {cites}", count - 1));
        let verdicts: Vec<VerdictName> = common::check_claim("mutant.cert", &broken, id)
            .report
            .files
            .iter()
            .flat_map(|f| f.claims.iter().map(|c| c.verdict))
            .collect();
        assert_eq!(
            verdicts,
            vec![VerdictName::Rejected],
            "{id} <= {}",
            count - 1
        );
        lowered += 1;
    }
    assert!(lowered >= 9, "{lowered}");
    // Without the losers of 9 cells, some polyomino of 10 cells holds no
    // cited loser: the total bound no longer holds.
    let total = text
        .lines()
        .find(|l| l.starts_with("claim t3636-bound:"))
        .expect("total");
    let nine: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("animal T3636_L"))
        .filter(|l| l.matches('(').count() == 9)
        .map(|l| format!("t3636-l{}", l.split_once(' ').expect("name").0))
        .collect();
    assert!(!nine.is_empty());
    let (head, cites) = total.split_once(" from ").expect("cites");
    let kept: Vec<&str> = cites
        .split(", ")
        .filter(|c| !nine.iter().any(|n| n == c))
        .collect();
    let broken = text.replace(total, &format!("{head} from {}", kept.join(", ")));
    let verdicts: Vec<VerdictName> = common::check_claim("mutant.cert", &broken, "t3636-bound")
        .report
        .files
        .iter()
        .flat_map(|f| f.claims.iter().map(|c| c.verdict))
        .collect();
    assert_ne!(verdicts, vec![VerdictName::Verified]);
}

/// The survey producer against a published table: Bode's Table 31 (the
/// hexagon polyominoes his periodic pairings do not show to be losers)
/// for sizes 1 to 7, with his properties; (24,1) is the one that spoils
/// the 214th polyomino of size 7.
#[test]
fn hexagon_survey_reproduces_bodes_table_31() {
    use gamecert::produce::bound::survey_plane;
    use gamecert::produce::breaker::PlaneProperty;
    let properties: Vec<PlaneProperty> = ["(24,1)", "(16,2)", "(10,3)", "(8,4)", "(6,6)"]
        .iter()
        .map(|p| PlaneProperty::parse(p).expect("property"))
        .collect();
    let survey = survey_plane(
        &Board::Lattice(Lattice::Hexagon),
        7,
        &properties,
        &Budget::unlimited,
    )
    .expect("within budget")
    .expect("a plane board");
    let left: Vec<usize> = survey.sizes.iter().map(|&(_, left)| left).collect();
    assert_eq!(left, vec![1, 1, 3, 7, 20, 67, 213]);
    assert_eq!(survey.open.len(), 312);
}
