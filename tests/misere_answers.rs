//! Rule I8 (misère answer files): the producer's files against a naive
//! oracle, and mutations of valid files that the kernel must never turn
//! into a false verdict.
//!
//! The oracle (tests/common/naive.rs) values whole boards in misère play by
//! plain recursion, sharing no code with the kernel or the producer. For
//! every mutated file the kernel may reject, or verify a fact the oracle
//! confirms; it must never establish a false value.

mod common;

use common::naive::{self, Rules};
use common::rng::Rng;
use gamecert::kernel::budget::Budget;
use gamecert::kernel::impartial::Outcome;
use gamecert::kernel::impartial::answers::{Failure, Reader};
use gamecert::kernel::impartial::grid::{Grid, GridRules};
use gamecert::kernel::impartial::misere::{self, Finding, Record, Wanted};
use gamecert::produce::misere::{file_bytes, grundy, outcome};

fn oracle(rules: Rules, rows: usize, cols: usize, free: u64) -> u32 {
    naive::value_of(rules, rows, cols, free, true)
}

fn verify(rules: GridRules, grid: Grid, wanted: Wanted, bytes: &[u8]) -> Finding {
    misere::verify(rules, &[grid], wanted, bytes, Budget::unlimited())
        .0
        .expect("within budget")
}

fn records(bytes: &[u8]) -> Vec<Record> {
    let mut reader = Reader::new(bytes);
    std::iter::from_fn(|| misere::next_record(&mut reader))
        .map(|r| r.expect("a valid file"))
        .collect()
}

/// Every claim about the root's value that `bytes` makes the kernel accept
/// (values 0..=4, equal and different) is true by the oracle's `value`.
fn assert_no_false_fact(rules: GridRules, grid: Grid, value: u32, bytes: &[u8], what: &str) {
    for v in 0..=4 {
        for wanted in [Wanted::Equals(v), Wanted::Differs(v)] {
            let truth = match wanted {
                Wanted::Equals(v) => value == v,
                Wanted::Differs(v) => value != v,
            };
            match verify(rules, grid, wanted, bytes) {
                Finding::Holds { .. } => {
                    assert!(truth, "{what}: {wanted:?} verified, value {value}")
                }
                Finding::Opposite { .. } => {
                    assert!(!truth, "{what}: {wanted:?} refuted, value {value}")
                }
                Finding::Fails(_) => {}
            }
        }
    }
}

#[test]
fn produced_misere_values_agree_with_the_naive_oracle_and_verify() {
    let cases = [
        (Rules::Cram, GridRules::Cram, 20),
        (Rules::DominoJuvavum, GridRules::DominoJuvavum, 16),
        (Rules::Juvavum, GridRules::Juvavum, 9),
    ];
    for (naive_rules, rules, cells) in cases {
        for rows in 1..=4 {
            for cols in rows..=(cells / rows).min(7) {
                let grid = Grid::empty_board(rows, cols).expect("small board");
                let expected = oracle(naive_rules, rows, cols, grid.free);
                let produced = grundy(rules, &[grid], Budget::unlimited()).expect("decided");
                assert_eq!(produced.value, Some(expected), "{rules:?} {rows}x{cols}");
                let finding = verify(rules, grid, Wanted::Equals(expected), &produced.bytes);
                assert!(
                    matches!(finding, Finding::Holds { .. }),
                    "{rules:?} {rows}x{cols}: {finding:?}"
                );
                let produced = outcome(rules, &[grid], Budget::unlimited()).expect("decided");
                assert_eq!(produced.outcome, Outcome::of_value(expected));
                let wanted = if expected == 0 {
                    Wanted::Equals(0)
                } else {
                    Wanted::Differs(0)
                };
                let finding = verify(rules, grid, wanted, &produced.bytes);
                assert!(matches!(finding, Finding::Holds { .. }), "{finding:?}");
            }
        }
    }
}

#[test]
fn produced_misere_values_of_irregular_positions_agree_with_the_oracle() {
    let mut rng = Rng(0x5eed_0008);
    for _ in 0..150 {
        let rows = 2 + rng.below(3);
        let cols = 2 + rng.below(4);
        let full = Grid::empty_board(rows, cols).expect("small board");
        let free = full.free & (rng.next() | rng.next());
        let grid = full.with(free);
        let juvavum = (free.count_ones() <= 9).then_some((Rules::Juvavum, GridRules::Juvavum));
        for (naive_rules, rules) in [
            (Rules::Cram, GridRules::Cram),
            (Rules::DominoJuvavum, GridRules::DominoJuvavum),
        ]
        .into_iter()
        .chain(juvavum)
        {
            let expected = oracle(naive_rules, rows, cols, free);
            let produced = grundy(rules, &[grid], Budget::unlimited()).expect("decided");
            assert_eq!(produced.value, Some(expected), "{rules:?} {grid:?}");
            assert_no_false_fact(rules, grid, expected, &produced.bytes, "as produced");
            let finding = verify(rules, grid, Wanted::Equals(expected), &produced.bytes);
            assert!(matches!(finding, Finding::Holds { .. }), "{finding:?}");
        }
    }
}

/// Boards with files of a few dozen records and values 0, 1 and 2.
fn samples() -> Vec<(Grid, u32, Vec<Record>)> {
    [(3, 6), (4, 4), (3, 5), (2, 7), (5, 3)]
        .into_iter()
        .map(|(rows, cols)| {
            let grid = Grid::empty_board(rows, cols).expect("small board");
            let value = oracle(Rules::Cram, rows, cols, grid.free);
            let produced = grundy(GridRules::Cram, &[grid], Budget::unlimited()).expect("decided");
            (grid, value, records(&produced.bytes))
        })
        .collect()
}

#[test]
fn dropping_a_record_is_rejected() {
    for (grid, value, records) in samples() {
        for drop in 0..records.len() {
            let kept: Vec<&Record> = records
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != drop)
                .map(|(_, r)| r)
                .collect();
            let bytes = file_bytes(GridRules::Cram, kept);
            assert_no_false_fact(GridRules::Cram, grid, value, &bytes, "dropped");
            // The producer writes only what the root needs.
            let finding = verify(GridRules::Cram, grid, Wanted::Equals(value), &bytes);
            assert!(
                matches!(finding, Finding::Fails(_)),
                "{grid:?}: record {drop} of {} dropped: {finding:?}",
                records.len()
            );
        }
    }
}

/// The mutants of record `at`: (breaks the record for sure, records).
fn mutants(records: &[Record], at: usize) -> Vec<(bool, Vec<Record>)> {
    let mut out = Vec::new();
    let mut with = |sure: bool, f: &dyn Fn(&mut Record)| {
        let mut m = records.to_vec();
        f(&mut m[at]);
        out.push((sure, m));
    };
    match &records[at] {
        Record::Equals { answers, .. }
        | Record::AtMost {
            reasons: answers, ..
        } => {
            let n = answers.len();
            // Another answer: may happen to be another valid one.
            for i in 0..n {
                with(false, &|r| answers_of(r)[i] += 1);
            }
            // An answer dropped, or one too many: the count is wrong.
            with(true, &|r| {
                answers_of(r).pop();
            });
            with(true, &|r| answers_of(r).push(0));
            // An option number or reply past every option.
            with(true, &|r| answers_of(r)[n - 1] = 1 << 20);
        }
        Record::Has { .. } => with(true, &|r| {
            if let Record::Has { option, .. } = r {
                *option = 1 << 20;
            }
        }),
    }
    // Another value: for E the count no longer fits; for H and U the
    // value may still be true of the position (checked by the oracle below).
    with(matches!(records[at], Record::Equals { .. }), &|r| match r {
        Record::Equals { value, .. } | Record::Has { value, .. } | Record::AtMost { value, .. } => {
            *value += 1
        }
    });
    out
}

fn answers_of(record: &mut Record) -> &mut Vec<u64> {
    match record {
        Record::Equals { answers, .. }
        | Record::AtMost {
            reasons: answers, ..
        } => answers,
        Record::Has { .. } => unreachable!("only records with answer lists"),
    }
}

#[test]
fn changing_an_answer_or_a_value_never_establishes_a_false_fact() {
    for (grid, value, records) in samples() {
        for at in 0..records.len() {
            for (sure, mutant) in mutants(&records, at) {
                let bytes = file_bytes(GridRules::Cram, &mutant);
                assert_no_false_fact(GridRules::Cram, grid, value, &bytes, "changed");
                if sure {
                    let finding = verify(GridRules::Cram, grid, Wanted::Equals(value), &bytes);
                    assert!(
                        matches!(finding, Finding::Fails(_)),
                        "{grid:?}: record {at} broken: {finding:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_misere_file_cut_at_any_byte_or_with_a_flipped_bit_never_states_a_false_value() {
    let mut rng = Rng(0x5eed_0009);
    for (grid, value, records) in samples() {
        let bytes = file_bytes(GridRules::Cram, &records);
        for cut in 0..bytes.len() {
            assert_no_false_fact(GridRules::Cram, grid, value, &bytes[..cut], "cut");
        }
        let finding = verify(
            GridRules::Cram,
            grid,
            Wanted::Equals(value),
            &bytes[..bytes.len() - 1],
        );
        assert_eq!(
            finding,
            Finding::Fails(Failure::Truncated {
                offset: bytes.len() - {
                    let mut last = Vec::new();
                    gamecert::produce::misere::write_record(&records[records.len() - 1], &mut last);
                    last.len()
                }
            })
        );
        for _ in 0..200 {
            let mut flipped = bytes.clone();
            let at = 6 + rng.below(bytes.len() - 6);
            flipped[at] ^= 1 << rng.below(8);
            assert_no_false_fact(GridRules::Cram, grid, value, &flipped, "flipped");
        }
    }
}

#[test]
fn a_normal_play_file_does_not_prove_a_misere_claim_nor_the_other_way() {
    let grid = Grid::empty_board(3, 6).expect("small board");
    let normal =
        gamecert::produce::answers::grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), 0)
            .expect("decided");
    assert_eq!(
        verify(GridRules::Cram, grid, Wanted::Equals(1), &normal.bytes),
        Finding::Fails(Failure::NotASum)
    );
    let misere_file = grundy(GridRules::Cram, &[grid], Budget::unlimited()).expect("decided");
    let finding = gamecert::kernel::impartial::answers::verify(
        GridRules::Cram,
        &[grid],
        0,
        gamecert::kernel::impartial::Outcome::P,
        &misere_file.bytes,
        Budget::unlimited(),
    )
    .0
    .expect("within budget");
    assert_eq!(
        finding,
        gamecert::kernel::impartial::answers::Finding::Fails(Failure::NotASum)
    );
}

/// Every answer list of `len` entries below `base`.
fn all_lists(len: usize, base: u64) -> Vec<Vec<u64>> {
    (0..len).fold(vec![Vec::new()], |lists, _| {
        lists
            .iter()
            .flat_map(|l| {
                (0..base).map(move |a| {
                    let mut l = l.clone();
                    l.push(a);
                    l
                })
            })
            .collect()
    })
}

#[test]
fn no_record_about_a_small_board_makes_the_kernel_state_a_false_value() {
    // After a valid file, every E record of a wrong value, every H record
    // and every U record up to the true value, with every answer list of
    // small numbers: the false ones are refused, and none makes the kernel
    // state a false value.
    for (rows, cols) in [(2, 2), (1, 4), (1, 5), (2, 3)] {
        let grid = Grid::empty_board(rows, cols).expect("small board");
        let value = oracle(Rules::Cram, rows, cols, grid.free);
        let produced = grundy(GridRules::Cram, &[grid], Budget::unlimited()).expect("decided");
        let valid = records(&produced.bytes);
        let position = vec![grid.canonical()];
        let options =
            gamecert::kernel::impartial::misere::Ledger::new(GridRules::Cram, Budget::unlimited())
                .options(&position)
                .expect("within budget")
                .len();
        let base = options as u64 + 2;
        let mut forged = Vec::new();
        for v in (0..=2).filter(|&v| v != value) {
            let len = v as usize + options;
            if (base as usize).pow(len as u32) <= 200_000 {
                for answers in all_lists(len, base) {
                    forged.push(Record::Equals {
                        position: position.clone(),
                        value: v,
                        answers,
                    });
                }
            }
        }
        // H and U records of every value, true ones included: a true fact
        // must not be read as more than it says.
        for v in 0..=2 {
            for option in 0..base {
                forged.push(Record::Has {
                    position: position.clone(),
                    value: v,
                    option,
                });
            }
        }
        let lists = if (base as usize).pow(options as u32) <= 200_000 {
            all_lists(options, base)
        } else {
            Vec::new()
        };
        for v in 0..=value {
            for reasons in lists.iter().cloned() {
                forged.push(Record::AtMost {
                    position: position.clone(),
                    value: v,
                    reasons,
                });
            }
        }
        assert!(forged.len() > options, "{rows}x{cols}: forgeries tried");
        for record in forged {
            let bytes = file_bytes(GridRules::Cram, valid.iter().chain([&record]));
            assert_no_false_fact(GridRules::Cram, grid, value, &bytes, "forged");
        }
    }
}

#[test]
fn a_refutation_cites_the_record_that_contradicts_the_claim() {
    // Cram 1x4 has misère value 2 (record 2 of the producer's file, after
    // the E 0 record of a domino's rest); an H 0 record about the board
    // comes last and says nothing about the value 1.
    let grid = Grid::empty_board(1, 4).expect("small board");
    let produced = grundy(GridRules::Cram, &[grid], Budget::unlimited()).expect("decided");
    let mut records = records(&produced.bytes);
    let established = records.len() as u32;
    let position = vec![grid.canonical()];
    records.push(Record::Has {
        position: position.clone(),
        value: 0,
        option: 0,
    });
    let bytes = file_bytes(GridRules::Cram, &records);
    assert_eq!(
        verify(GridRules::Cram, grid, Wanted::Equals(1), &bytes),
        Finding::Opposite {
            record: established
        }
    );
}

/// The sequential reading of rule I8: each record is checked against the
/// facts admitted before it, and the first that fails ends the check.
fn checked_in_order(grid: Grid, wanted: Wanted, records: &[Record]) -> Finding {
    let mut ledger = misere::Ledger::new(GridRules::Cram, Budget::unlimited());
    for record in records {
        if let Err(failure) = ledger.admit(record).expect("budget") {
            return Finding::Fails(failure);
        }
    }
    let root = ledger.normalise(&[grid]);
    let (holds, opposite) = match wanted {
        Wanted::Equals(v) => (ledger.equals(&root, v), ledger.differs(&root, v)),
        Wanted::Differs(v) => (ledger.differs(&root, v), ledger.equals(&root, v)),
    };
    if holds {
        Finding::Holds {
            records: ledger.admitted(),
        }
    } else if opposite {
        Finding::Opposite {
            record: ledger.refuting_record(&root, wanted),
        }
    } else {
        Finding::Fails(Failure::Unestablished)
    }
}

/// The kernel checks a misère file's records on two threads, each against
/// the facts of the records before it; it must find exactly what checking
/// them one by one finds: the same first failure when one or two records
/// far apart (in different threads' shares) are broken or moved, the same
/// count when none is.
#[test]
fn checking_on_threads_finds_what_checking_in_order_finds() {
    let grid = Grid::empty_board(4, 7).expect("small board");
    let produced = grundy(GridRules::Cram, &[grid], Budget::unlimited()).expect("decided");
    let value = produced.value.expect("a value");
    let records = records(&produced.bytes);
    assert!(
        records.len() > 1000,
        "shares for both threads: {}",
        records.len()
    );
    let both = |records: &[Record]| {
        let bytes = file_bytes(GridRules::Cram, records);
        let threaded = verify(GridRules::Cram, grid, Wanted::Equals(value), &bytes);
        assert_eq!(
            threaded,
            checked_in_order(grid, Wanted::Equals(value), records)
        );
        threaded
    };
    assert!(matches!(both(&records), Finding::Holds { .. }));
    let with_value_changed = |record: &mut Record| match record {
        Record::Equals { value, .. } | Record::Has { value, .. } | Record::AtMost { value, .. } => {
            *value += 1
        }
    };
    let mut rng = Rng(31);
    let mut failures = 0;
    for _ in 0..20 {
        let (a, b) = (rng.below(records.len()), rng.below(records.len()));
        let mut one = records.clone();
        with_value_changed(&mut one[a]);
        failures += usize::from(matches!(both(&one), Finding::Fails(_)));
        let mut two = one;
        with_value_changed(&mut two[b]);
        failures += usize::from(matches!(both(&two), Finding::Fails(_)));
        // A record moved before the ones it rests on.
        let mut moved = records.clone();
        moved.swap(a.min(b), a.max(b));
        failures += usize::from(matches!(both(&moved), Finding::Fails(_)));
    }
    assert!(failures >= 40, "{failures} of 60 broken files rejected");
}
