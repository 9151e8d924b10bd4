//! The kernel against the naive reference (tests/common/naive.rs): every board
//! up to 12 cells for each grid ruleset, every blocked-cell pattern of small
//! boards, position counts with and without symmetry, octal heaps, and Nim
//! against Bouton's theorems.

mod common;

use std::collections::{HashMap, HashSet};

use common::naive::{self, Board, Rules};
use gamecert::kernel::budget::Budget;
use gamecert::kernel::impartial::count::count_positions;
use gamecert::kernel::impartial::grid::{Grid, GridRules};
use gamecert::kernel::impartial::heap::HeapRules;
use gamecert::kernel::impartial::{Game, Play, evaluate};

const RULES: [(Rules, GridRules); 3] = [
    (Rules::Cram, GridRules::Cram),
    (Rules::DominoJuvavum, GridRules::DominoJuvavum),
    (Rules::Juvavum, GridRules::Juvavum),
];

fn kernel_value(rules: GridRules, rows: usize, cols: usize, free: u64, play: Play) -> u32 {
    let grid = Grid::new(rows, cols, free).expect("valid grid");
    let (analysis, _) =
        evaluate(&Game::Grid { rules, grid }, play, Budget::unlimited(), 0).expect("within budget");
    analysis.value
}

/// Compares normal and misère values of every position in `positions`.
fn compare(
    rules: (Rules, GridRules),
    rows: usize,
    cols: usize,
    positions: impl Iterator<Item = u64>,
) -> usize {
    let board = Board { rows, cols };
    let (mut normal, mut misere) = (HashMap::new(), HashMap::new());
    let mut compared = 0;
    for free in positions {
        let expect_normal = naive::grundy(&board, rules.0, free, false, &mut normal);
        let expect_misere = naive::grundy(&board, rules.0, free, true, &mut misere);
        assert_eq!(
            kernel_value(rules.1, rows, cols, free, Play::Normal),
            expect_normal,
            "{:?} {rows}x{cols} free {free:#b} normal",
            rules.0
        );
        assert_eq!(
            kernel_value(rules.1, rows, cols, free, Play::Misere),
            expect_misere,
            "{:?} {rows}x{cols} free {free:#b} misere",
            rules.0
        );
        compared += 1;
    }
    compared
}

#[test]
fn every_empty_board_up_to_12_cells() {
    let mut compared = 0;
    for rules in RULES {
        for rows in 1..=12 {
            for cols in 1..=12 / rows {
                compared += compare(
                    rules,
                    rows,
                    cols,
                    std::iter::once((1u64 << (rows * cols)) - 1),
                );
            }
        }
    }
    assert!(compared >= 3 * 35);
}

#[test]
fn every_position_of_small_boards() {
    // Every pattern of free cells, so blocked cells, pictures and the
    // component split are all exercised.
    for rules in RULES {
        for (rows, cols) in [(3, 3), (2, 4), (1, 8), (2, 5)] {
            let n = rows * cols;
            compare(rules, rows, cols, 0..(1u64 << n));
        }
    }
}

#[test]
fn sampled_positions_of_12_cell_boards() {
    // A fixed pseudo-random sample (xorshift), deterministic across runs.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for rules in RULES {
        for (rows, cols) in [(3, 4), (2, 6), (4, 3)] {
            let sample: Vec<u64> = (0..300)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state & ((1u64 << (rows * cols)) - 1)
                })
                .collect();
            compare(rules, rows, cols, sample.into_iter());
        }
    }
}

#[test]
fn position_counts_match_the_naive_traversal() {
    for rules in RULES {
        for (rows, cols) in [
            (1, 6),
            (2, 2),
            (2, 3),
            (2, 4),
            (3, 3),
            (3, 4),
            (2, 5),
            (4, 3),
        ] {
            let board = Board { rows, cols };
            let start = (1u64 << (rows * cols)) - 1;
            let reached = naive::reachable(&board, rules.0, start);
            let orbits: HashSet<u64> = reached
                .iter()
                .map(|&p| naive::images(&board, p).into_iter().min().unwrap_or(p))
                .collect();
            let game = Game::Grid {
                rules: rules.1,
                grid: Grid::new(rows, cols, start).expect("grid"),
            };
            let mut budget = Budget::unlimited();
            assert_eq!(
                count_positions(&game, false, &mut budget),
                Ok(reached.len() as u64),
                "{:?} {rows}x{cols}",
                rules.0
            );
            assert_eq!(
                count_positions(&game, true, &mut budget),
                Ok(orbits.len() as u64),
                "{:?} {rows}x{cols} sym",
                rules.0
            );
        }
    }
}

#[test]
fn octal_heaps_match_the_definition() {
    for digits in [
        vec![0u8, 7, 7],
        vec![0, 0, 7],
        vec![0, 1, 3, 7],
        vec![0, 3, 3],
        vec![0, 1, 5, 2, 7],
        vec![4, 0, 7],
    ] {
        let expected = naive::octal_values_with_d0(&digits, 40);
        for (n, &want) in expected.iter().enumerate() {
            let rules = HeapRules::octal(digits.clone()).expect("valid code");
            let game = Game::Heap {
                rules,
                size: n as u32,
            };
            let (a, _) = evaluate(&game, Play::Normal, Budget::unlimited(), 0).expect("budget");
            assert_eq!(a.value, want, "octal {digits:?} heap {n}");
        }
    }
}

#[test]
fn cram_strips_are_dawsons_kayles() {
    // Up to the longest side the bitboards allow, in both orientations.
    let dawson = naive::octal_values_with_d0(&[0, 0, 7], 63);
    for (n, &want) in dawson.iter().enumerate().skip(1) {
        let strip = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        assert_eq!(
            kernel_value(GridRules::Cram, 1, n, strip, Play::Normal),
            want,
            "cram 1x{n}"
        );
        assert_eq!(
            kernel_value(GridRules::Cram, n, 1, strip, Play::Normal),
            want,
            "cram {n}x1"
        );
    }
}

/// Bouton: normal Nim is the XOR; misère Nim is P iff (all heaps <= 1 and an
/// odd number of ones) or (some heap >= 2 and XOR zero).
#[test]
fn nim_matches_boutons_theorems() {
    let mut heaps_list = Vec::new();
    for a in 0..6u32 {
        for b in 0..6 {
            for c in 0..5 {
                heaps_list.push(vec![a, b, c]);
            }
        }
    }
    heaps_list.push(vec![1, 1, 1, 1, 1]);
    heaps_list.push(vec![7, 9, 12, 3]);
    for heaps in heaps_list {
        let xor = heaps.iter().fold(0, |x, h| x ^ h);
        let game = Game::Nim(heaps.clone());
        let (normal, _) = evaluate(&game, Play::Normal, Budget::unlimited(), 0).expect("budget");
        assert_eq!(normal.value, xor, "nim {heaps:?}");
        let (misere, _) = evaluate(&game, Play::Misere, Budget::unlimited(), 0).expect("budget");
        let big = heaps.iter().any(|&h| h >= 2);
        let ones = heaps.iter().filter(|&&h| h == 1).count();
        let p = if big { xor == 0 } else { ones % 2 == 1 };
        assert_eq!(misere.value == 0, p, "misere nim {heaps:?}");
    }
}

/// A sum's normal value is the XOR of the parts' values (independently
/// computed), and its misère value agrees with the naive search on the
/// combined board (two Cram strips side by side in one grid).
#[test]
fn sums_agree_with_the_combined_board() {
    for a in 1..=5usize {
        for b in 1..=5usize {
            let sum = Game::Sum(vec![
                Game::Grid {
                    rules: GridRules::Cram,
                    grid: Grid::empty_board(1, a).expect("grid"),
                },
                Game::Grid {
                    rules: GridRules::Cram,
                    grid: Grid::empty_board(1, b).expect("grid"),
                },
            ]);
            // One row: a cells, a blocked cell, b cells.
            let cols = a + b + 1;
            let free = ((1u64 << cols) - 1) & !(1u64 << a);
            let board = Board { rows: 1, cols };
            for (play, misere) in [(Play::Normal, false), (Play::Misere, true)] {
                let (k, _) = evaluate(&sum, play, Budget::unlimited(), 0).expect("budget");
                let want = naive::grundy(&board, Rules::Cram, free, misere, &mut HashMap::new());
                assert_eq!(k.value, want, "cram 1x{a} + cram 1x{b} misere={misere}");
            }
        }
    }
}

/// Larger boards (18 to 20 cells), where components of many shapes and the
/// fast path of the Cram search (the ring test) are exercised: a fixed sample
/// of positions against the naive reference.
#[test]
fn sampled_positions_of_larger_boards() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for (rules, rows, cols, count) in [
        (RULES[0], 4, 5, 40),
        (RULES[0], 3, 6, 40),
        (RULES[0], 5, 4, 20),
        (RULES[1], 3, 6, 10),
        (RULES[2], 3, 5, 5),
    ] {
        let sample: Vec<u64> = (0..count)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly free boards: clear about one cell in eight.
                let holes = state & (state >> 17) & (state >> 31);
                ((1u64 << (rows * cols)) - 1) & !holes
            })
            .collect();
        compare(rules, rows, cols, sample.into_iter());
    }
}

/// Helper threads share the memo (kernel/impartial/memo.rs); whatever they
/// publish, the value must be the one a single thread computes, and both must
/// agree with the naive reference where it is fast enough.
#[test]
fn parallel_search_matches_single_thread() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut compared = 0;
    for (rules, rows, cols) in [
        (GridRules::Cram, 5, 6),
        (GridRules::Cram, 3, 9),
        (GridRules::DominoJuvavum, 3, 6),
        (GridRules::Juvavum, 3, 4),
    ] {
        let all = Grid::empty_board(rows, cols).expect("board").free;
        for _ in 0..12 {
            // xorshift: reproducible blocked-cell patterns, about a sixth blocked.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let blocked = seed & (seed >> 11) & (seed >> 23) & all;
            let grid = Grid::new(rows, cols, all & !blocked).expect("grid");
            let game = Game::Grid { rules, grid };
            let (one, _) = evaluate(&game, Play::Normal, Budget::unlimited(), 0).expect("budget");
            let (two, _) = evaluate(&game, Play::Normal, Budget::unlimited(), 1).expect("budget");
            let (four, _) = evaluate(&game, Play::Normal, Budget::unlimited(), 3).expect("budget");
            assert_eq!(
                one.value, two.value,
                "{rules:?} {rows}x{cols} {:#x}",
                grid.free
            );
            assert_eq!(
                one.value, four.value,
                "{rules:?} {rows}x{cols} {:#x}",
                grid.free
            );
            let values = |a: &gamecert::kernel::impartial::Analysis| {
                a.options.iter().map(|o| o.value).collect::<Vec<_>>()
            };
            assert_eq!(values(&one), values(&two));
            compared += 1;
        }
    }
    assert_eq!(compared, 48);
}

/// The Cram components of a position as (rows, cols, free cells), sorted.
fn cram_shapes(rows: usize, cols: usize, free: u64) -> Vec<(u8, u8, u32)> {
    let grid = Grid::new(rows, cols, free).expect("grid");
    let mut parts: Vec<(u8, u8, u32)> = grid
        .components(GridRules::Cram)
        .iter()
        .map(|g| (g.rows, g.cols, g.free.count_ones()))
        .collect();
    parts.sort_unstable();
    parts
}

/// Cram components lose their removable cells (a cell each of whose
/// neighbours has another leaf): the step must fire where it should, and no
/// position of the boards searched in full may change value in either play.
#[test]
fn cram_removable_cells_keep_values() {
    // A path of five cells: the middle cell's neighbours each have a leaf.
    assert_eq!(cram_shapes(1, 5, 0b11111), vec![(1, 2, 2), (1, 2, 2)]);
    // A cell with three leaves keeps one of them: a domino.
    assert_eq!(cram_shapes(3, 3, 0b010_111_000), vec![(1, 2, 2)]);
    // A path of four has no removable cell.
    assert_eq!(cram_shapes(1, 4, 0b1111), vec![(1, 4, 4)]);
    for (rows, cols) in [(4, 4), (3, 5), (2, 7)] {
        compare(RULES[0], rows, cols, 0..(1u64 << (rows * cols)));
    }
}

/// Cram components are cut at twin squares (rule I3b: two diagonal cells
/// of a 2x2 square whose only free neighbours are the square's other two
/// cells; dropping two of the square's edges keeps every value). The cut
/// must fire where it should, and positions where it fires must keep their
/// values in both plays: this counts them on 4x4 with a detector of its own
/// (plain graph search, no bit tricks) and compares all of 4x4 with the
/// naive search, which knows nothing of the rule.
#[test]
fn cram_twin_square_cuts_keep_values() {
    // Rows 1111 / 1100 / 1000 / 1000: twins (0,0) and (1,1); dropping the
    // square's horizontal edges leaves a column of four and an L of four.
    assert_eq!(
        cram_shapes(4, 4, 0b0001_0001_0011_1111),
        vec![(1, 4, 4), (2, 3, 4)]
    );
    // A full 2x3 rectangle: each square has a cell with a third neighbour
    // on each diagonal, so no twins: one component.
    assert_eq!(cram_shapes(2, 3, 0b111_111), vec![(2, 3, 6)]);

    let (rows, cols) = (4usize, 4usize);
    let free_at = |free: u64, r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && free >> (r as usize * cols + c as usize) & 1 == 1
    };
    // The free cells `from` reaches without the edges `cut`.
    let reached = |free: u64, cut: [((isize, isize), (isize, isize)); 2], from| {
        let mut seen = vec![from];
        let mut stack = vec![from];
        while let Some((r, c)) = stack.pop() {
            for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let next = (r + dr, c + dc);
                let is_cut = cut
                    .iter()
                    .any(|&(x, y)| (x, y) == ((r, c), next) || (y, x) == ((r, c), next));
                if free_at(free, next.0, next.1) && !is_cut && !seen.contains(&next) {
                    seen.push(next);
                    stack.push(next);
                }
            }
        }
        seen
    };
    let cut_apart = |free: u64, cut, from, to| !reached(free, cut, from).contains(&to);
    let has_twin_cut = |free: u64| {
        let only_neighbours = |cell: (isize, isize), allowed: [(isize, isize); 2]| {
            [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().all(|&(dr, dc)| {
                let next = (cell.0 + dr, cell.1 + dc);
                !free_at(free, next.0, next.1) || allowed.contains(&next)
            })
        };
        (0..rows as isize - 1).any(|r| {
            (0..cols as isize - 1).any(|c| {
                let (a, b, cc, d) = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1));
                let all_free = [a, b, cc, d].iter().all(|&(r, c)| free_at(free, r, c));
                let twins = (only_neighbours(a, [b, cc]) && only_neighbours(d, [b, cc]))
                    || (only_neighbours(b, [a, d]) && only_neighbours(cc, [a, d]));
                all_free
                    && twins
                    && (cut_apart(free, [(a, b), (cc, d)], a, b)
                        || cut_apart(free, [(a, cc), (b, d)], a, cc))
            })
        })
    };
    let no_cut = [((-1, -1), (-1, -1)); 2];
    let mut cut = 0;
    for free in 1..1u64 << (rows * cols) {
        let first = free.trailing_zeros() as isize;
        let first = (first / cols as isize, first % cols as isize);
        if free.count_ones() < 2 || reached(free, no_cut, first).len() != free.count_ones() as usize
        {
            continue;
        }
        let grid = Grid::new(rows, cols, free).expect("grid");
        let expected = has_twin_cut(free);
        assert_eq!(
            grid.twin_square_cut().is_some(),
            expected,
            "4x4 free {free:#b}"
        );
        cut += usize::from(expected);
    }
    assert!(
        cut > 1000,
        "only {cut} connected sets of 4x4 have a twin cut"
    );
}
