//! Rule I7 (answer files): the producer's files against a naive oracle, and
//! mutations of valid files that the kernel must reject.
//!
//! The oracle (tests/common/naive.rs) values whole boards by plain recursion,
//! sharing no code with the kernel or the producer. Every mutation below
//! breaks a file that verifies; the kernel must then answer REJECTED (never
//! VERIFIED, never a panic), except where the mutation happens to leave a
//! true file, which the oracle decides.

mod common;

use common::naive::{self, Rules};
use common::rng::Rng;
use gamecert::kernel::budget::{Budget, Exhausted};
use gamecert::kernel::impartial::Outcome;
use gamecert::kernel::impartial::answers::{self, Failure, Finding, Ledger, Reader, Record};
use gamecert::kernel::impartial::grid::{Grid, GridRules};
use gamecert::produce::answers::{ProduceError, file_bytes, grundy, outcome};
use std::collections::HashMap;

fn board(rows: usize, cols: usize) -> Grid {
    Grid::empty_board(rows, cols).expect("small board")
}

fn oracle(rules: Rules, rows: usize, cols: usize, free: u64) -> u32 {
    naive::value_of(rules, rows, cols, free, false)
}

fn verify(rules: GridRules, grid: Grid, heap: u32, wanted: Outcome, bytes: &[u8]) -> Finding {
    answers::verify(rules, &[grid], heap, wanted, bytes, Budget::unlimited())
        .0
        .expect("within budget")
}

fn records(bytes: &[u8]) -> Vec<Record> {
    let mut reader = Reader::new(bytes);
    std::iter::from_fn(|| reader.next_record())
        .map(|r| r.expect("a valid file"))
        .collect()
}

#[test]
fn produced_values_agree_with_the_naive_oracle_and_verify() {
    let cases = [
        (Rules::Cram, GridRules::Cram),
        (Rules::DominoJuvavum, GridRules::DominoJuvavum),
    ];
    for (naive_rules, rules) in cases {
        for rows in 1..=4 {
            for cols in rows..=(20 / rows).min(7) {
                let grid = board(rows, cols);
                let produced = grundy(rules, &[grid], 0, Budget::unlimited(), 0).expect("decided");
                let value = produced.value.expect("a value");
                assert_eq!(
                    value,
                    oracle(naive_rules, rows, cols, grid.free),
                    "{rules:?} {rows}x{cols}"
                );
                assert_eq!(
                    verify(rules, grid, value, Outcome::P, &produced.bytes),
                    Finding::Holds {
                        records: produced.written as u32
                    }
                );
                // Every other value is refuted by the same file or rejected; never verified.
                for other in (0..4).filter(|&v| v != value) {
                    let finding = verify(rules, grid, other, Outcome::P, &produced.bytes);
                    assert!(
                        !matches!(finding, Finding::Holds { .. }),
                        "{rows}x{cols} = {other}"
                    );
                }
            }
        }
    }
}

/// Irregular positions: random free cells on boards of up to 25 cells and
/// long lines. Their options hold paths and trees longer than the kernel's
/// own small-part bound (8 cells), which the producer's search values from
/// their shape but a certificate must prove.
#[test]
fn produced_values_of_irregular_positions_agree_with_the_oracle_and_verify() {
    let mut rng = Rng(0x5eed_1e55);
    let mut cases: Vec<(usize, usize, u64)> = (9..=22).map(|n| (1, n, (1u64 << n) - 1)).collect();
    for _ in 0..60 {
        let (rows, cols) = [(4, 6), (5, 5), (3, 8), (4, 5), (3, 7)][rng.below(5)];
        let cells = rows * cols;
        let mut free = (1u64 << cells) - 1;
        for _ in 0..2 + rng.below(cells / 3) {
            free &= !(1u64 << rng.below(cells));
        }
        cases.push((rows, cols, free));
    }
    for (k, (rows, cols, free)) in cases.into_iter().enumerate() {
        let grid = Grid::new(rows, cols, free).expect("fits");
        // Every other case with a helper thread sharing the root's questions.
        let produced =
            grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), k % 2).expect("decided");
        let value = produced.value.expect("a value");
        assert_eq!(
            value,
            oracle(Rules::Cram, rows, cols, free),
            "{rows}x{cols} {free:#x}"
        );
        assert!(
            matches!(
                verify(GridRules::Cram, grid, value, Outcome::P, &produced.bytes),
                Finding::Holds { .. }
            ),
            "{rows}x{cols} {free:#x}"
        );
    }
}

/// With helper threads sharing the values they find (one to three, more
/// threads than this machine has cores), the file differs from run to run
/// but must verify all the same.
#[test]
fn files_made_with_a_helper_thread_verify() {
    for (rows, cols) in [(3, 5), (4, 4), (3, 6), (2, 9), (4, 5)] {
        let grid = board(rows, cols);
        for heap in 0..3 {
            let helpers = 1 + heap as usize;
            let produced = grundy(GridRules::Cram, &[grid], heap, Budget::unlimited(), helpers)
                .expect("decided");
            let value = produced.value.expect("a value");
            let truth = oracle(Rules::Cram, rows, cols, grid.free) ^ heap;
            assert_eq!(value, truth, "{rows}x{cols} + *{heap}");
            assert!(matches!(
                verify(
                    GridRules::Cram,
                    grid,
                    heap ^ value,
                    Outcome::P,
                    &produced.bytes
                ),
                Finding::Holds { .. }
            ));
            let produced =
                outcome(GridRules::Cram, &[grid], heap, Budget::unlimited(), 1).expect("decided");
            assert_eq!(produced.outcome, Outcome::of_value(truth));
            assert!(matches!(
                verify(
                    GridRules::Cram,
                    grid,
                    heap,
                    produced.outcome,
                    &produced.bytes
                ),
                Finding::Holds { .. }
            ));
        }
    }
}

#[test]
fn outcomes_of_sums_with_heaps_agree_with_the_oracle() {
    for (rows, cols) in [(2, 5), (3, 4), (3, 5), (4, 4), (2, 7)] {
        let grid = board(rows, cols);
        let value = oracle(Rules::Cram, rows, cols, grid.free);
        for heap in 0..5 {
            let produced =
                outcome(GridRules::Cram, &[grid], heap, Budget::unlimited(), 0).expect("decided");
            let truth = Outcome::of_value(value ^ heap);
            assert_eq!(produced.outcome, truth, "{rows}x{cols} + *{heap}");
            assert!(matches!(
                verify(GridRules::Cram, grid, heap, truth, &produced.bytes),
                Finding::Holds { .. }
            ));
            let other = match truth {
                Outcome::P => Outcome::N,
                Outcome::N => Outcome::P,
            };
            assert!(matches!(
                verify(GridRules::Cram, grid, heap, other, &produced.bytes),
                Finding::Opposite { .. }
            ));
        }
    }
}

/// A verified file for Cram 3x7 to mutate.
fn sample() -> (Grid, u32, Vec<Record>) {
    let grid = board(3, 7);
    let produced = grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), 0).expect("decided");
    let value = produced.value.expect("a value");
    let records = records(&produced.bytes);
    assert!(records.len() >= 20, "a sample worth mutating");
    (grid, value, records)
}

/// The producer's memory cap counts the maps its search fills besides the
/// table of values (witnesses, excluded values), which hold several times
/// as many entries: a cap twice the values found must stop the search,
/// with and without a helper thread.
#[test]
fn the_producers_memory_cap_counts_every_map_its_search_fills() {
    let grid = board(3, 11);
    for helpers in [0, 1] {
        let produced =
            grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), helpers).expect("decided");
        let cap = Budget::new(None, None, 2 * produced.decided);
        let capped = grundy(GridRules::Cram, &[grid], 0, cap, helpers);
        assert!(
            matches!(capped, Err(ProduceError::Exhausted(Exhausted::Memory(_)))),
            "{helpers} helpers, {} values: {:?}",
            produced.decided,
            capped.map(|p| p.decided)
        );
    }
}

fn verdict_of(grid: Grid, value: u32, records: &[Record]) -> Finding {
    verify(
        GridRules::Cram,
        grid,
        value,
        Outcome::P,
        &file_bytes(GridRules::Cram, records),
    )
}

/// The oracle's value of a position: the XOR of its components' and its heap.
fn value_of(position: &answers::Position) -> u32 {
    position
        .parts
        .iter()
        .map(|g| oracle(Rules::Cram, g.rows.into(), g.cols.into(), g.free))
        .fold(position.heap, |a, v| a ^ v)
}

/// Dropping a record leaves a file that either fails or still proves the
/// (true) claim: a component's value record can be redundant when other
/// records answer the same questions. Most drops must fail, the root's always.
#[test]
fn dropping_a_record_is_rejected_unless_the_rest_still_proves_the_claim() {
    let (grid, value, records) = sample();
    let mut rejected = 0;
    for drop in 0..records.len() {
        let mut fewer = records.clone();
        fewer.remove(drop);
        match verdict_of(grid, value, &fewer) {
            Finding::Fails(_) => rejected += 1,
            Finding::Holds { .. } => {}
            other => panic!("dropping record {}: {other:?}", drop + 1),
        }
    }
    let mut without_root = records.clone();
    without_root.pop();
    assert!(matches!(
        verdict_of(grid, value, &without_root),
        Finding::Fails(Failure::Unestablished)
    ));
    assert!(
        rejected * 10 >= records.len() * 9,
        "{rejected} of {} drops rejected",
        records.len()
    );
}

#[test]
fn changing_a_heap_is_rejected() {
    let (grid, value, records) = sample();
    for (index, record) in records.iter().enumerate() {
        let mut changed = records.clone();
        changed[index] = with_heap_changed(record);
        let finding = verdict_of(grid, value, &changed);
        assert!(
            matches!(finding, Finding::Fails(_)),
            "record {}: {finding:?}",
            index + 1
        );
    }
}

#[test]
fn changing_an_answer_is_rejected_unless_the_new_answer_also_wins() {
    let (grid, value, records) = sample();
    let mut rng = Rng(17);
    let mut rejected = 0;
    let mut fresh = Ledger::new(GridRules::Cram, Budget::unlimited());
    let mut used = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let Record::P(position, replies) = record else {
            continue;
        };
        let Some(option) = (0..replies.len()).find(|&i| replies[i] > 0) else {
            continue;
        };
        let child = fresh
            .option(position, option as u64, &mut used)
            .expect("budget")
            .expect("an option");
        let count = fresh.options(&child, &mut used).expect("budget").len() as u64;
        let mut changed = records.clone();
        let mut mutated = replies.clone();
        // Claim the option is known already: never true of an option that needed an answer.
        mutated[option] = 0;
        changed[index] = Record::P(position.clone(), mutated.clone());
        assert!(matches!(
            verdict_of(grid, value, &changed),
            Finding::Fails(Failure::Unanswered { .. })
        ));
        // An answer past the option's options.
        mutated[option] = count + 1;
        changed[index] = Record::P(position.clone(), mutated.clone());
        assert!(matches!(
            verdict_of(grid, value, &changed),
            Finding::Fails(_)
        ));
        // Another answer: it holds only when the oracle says it wins too.
        let other = rng.below(count as usize) as u64;
        mutated[option] = other + 1;
        changed[index] = Record::P(position.clone(), mutated);
        let reply = fresh
            .option(&child, other, &mut used)
            .expect("budget")
            .expect("an option");
        match verdict_of(grid, value, &changed) {
            Finding::Holds { .. } => assert_eq!(value_of(&reply), 0, "record {}", index + 1),
            Finding::Fails(_) => {
                rejected += 1;
            }
            other => panic!("record {}: {other:?}", index + 1),
        }
        // A removed answer.
        let mut short = replies.clone();
        short.pop();
        changed[index] = Record::P(position.clone(), short);
        assert!(matches!(
            verdict_of(grid, value, &changed),
            Finding::Fails(Failure::AnswerCount { .. })
        ));
    }
    assert!(rejected > 5, "the sample has answers to change");
}

#[test]
fn a_file_cut_at_any_byte_or_with_a_flipped_bit_is_never_verified_falsely() {
    let grid = board(3, 5);
    let produced = grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), 0).expect("decided");
    let bytes = produced.bytes;
    let value = produced.value.expect("a value");
    for cut in 0..bytes.len() {
        let finding = verify(GridRules::Cram, grid, value, Outcome::P, &bytes[..cut]);
        // A cut between records leaves a shorter valid file, which misses the root's record.
        assert!(
            matches!(finding, Finding::Fails(_)),
            "cut at {cut}: {finding:?}"
        );
    }
    // Flipping any one bit must never make a false claim verify.
    for byte in 0..bytes.len() {
        for bit in 0..8 {
            let mut flipped = bytes.clone();
            flipped[byte] ^= 1 << bit;
            for claimed in 0..3 {
                let finding = verify(GridRules::Cram, grid, claimed, Outcome::P, &flipped);
                if claimed != value {
                    assert!(
                        !matches!(finding, Finding::Holds { .. }),
                        "byte {byte} bit {bit}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_mirror_rule_matches_the_oracle() {
    // Every centrally symmetric Cram position of small boards with no
    // self-symmetric move has value 0 by the oracle; the ledger drops such
    // components (they have no records), and keeps the others.
    let mut ledger = Ledger::new(GridRules::Cram, Budget::unlimited());
    let mut checked = 0;
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (2, 5), (4, 5), (3, 6)] {
        let cells = rows * cols;
        for free in 0u64..(1 << cells) {
            let mirrored = free.reverse_bits() >> (64 - cells);
            if mirrored != free {
                continue;
            }
            let grid = Grid::new(rows, cols, free).expect("fits");
            let value = oracle(Rules::Cram, rows, cols, free);
            let mut used = Vec::new();
            let normal = ledger.normalise(&[grid], 0, &mut used).expect("budget");
            // Whatever the ledger does, the normal form keeps the value.
            assert_eq!(value_of(&normal), value, "{rows}x{cols} {free:#b}");
            checked += 1;
        }
    }
    assert!(checked > 500);
}

/// Who wins Domineering moving first, by plain recursion over the whole
/// board (no components, no symmetry, its own move generation).
fn naive_wins_first(
    rows: usize,
    cols: usize,
    free: u64,
    left: bool,
    memo: &mut HashMap<(u64, bool), bool>,
) -> bool {
    if let Some(&known) = memo.get(&(free, left)) {
        return known;
    }
    let mut wins = false;
    'search: for r in 0..rows {
        for c in 0..cols {
            let (r2, c2) = if left { (r + 1, c) } else { (r, c + 1) };
            if r2 >= rows || c2 >= cols {
                continue;
            }
            let domino = 1u64 << (r * cols + c) | 1u64 << (r2 * cols + c2);
            if free & domino == domino && !naive_wins_first(rows, cols, free & !domino, !left, memo)
            {
                wins = true;
                break 'search;
            }
        }
    }
    memo.insert((free, left), wins);
    wins
}

#[test]
fn domineering_outcomes_agree_with_plain_recursion_and_verify() {
    use gamecert::kernel::partizan::answers::{self as partizan_answers, fact};
    use gamecert::kernel::partizan::game::Player;
    use gamecert::kernel::verdict::PartizanOutcome;
    for rows in 1..=5 {
        for cols in 1..=5 {
            if rows * cols > 20 {
                continue;
            }
            let grid = board(rows, cols);
            let mut memo = HashMap::new();
            let left = naive_wins_first(rows, cols, grid.free, true, &mut memo);
            let right = naive_wins_first(rows, cols, grid.free, false, &mut memo);
            let produced = gamecert::produce::domineering::outcome(&[grid], Budget::unlimited())
                .expect("decided");
            let expected = match (left, right) {
                (true, true) => PartizanOutcome::N,
                (false, false) => PartizanOutcome::P,
                (true, false) => PartizanOutcome::L,
                (false, true) => PartizanOutcome::R,
            };
            assert_eq!(produced.outcome, expected, "{rows}x{cols}");
            let (finding, _) =
                partizan_answers::verify(&[grid], &produced.bytes, Budget::unlimited());
            let facts = match finding.expect("budget") {
                partizan_answers::Finding::Facts { facts, .. } => facts,
                other => panic!("{rows}x{cols}: {other:?}"),
            };
            assert_eq!(facts & fact(Player::Left, left), fact(Player::Left, left));
            assert_eq!(
                facts & fact(Player::Right, right),
                fact(Player::Right, right)
            );
            assert_eq!(
                facts & fact(Player::Left, !left),
                0,
                "{rows}x{cols}: a false fact"
            );
            assert_eq!(
                facts & fact(Player::Right, !right),
                0,
                "{rows}x{cols}: a false fact"
            );
        }
    }
}

#[test]
fn domineering_files_fail_when_cut_or_flipped_and_never_establish_a_false_fact() {
    use gamecert::kernel::partizan::answers::{self as partizan_answers, fact};
    use gamecert::kernel::partizan::game::Player;
    let grid = board(4, 4);
    let mut memo = HashMap::new();
    let left = naive_wins_first(4, 4, grid.free, true, &mut memo);
    let right = naive_wins_first(4, 4, grid.free, false, &mut memo);
    let bytes = gamecert::produce::domineering::outcome(&[grid], Budget::unlimited())
        .expect("decided")
        .bytes;
    let false_facts = fact(Player::Left, !left) | fact(Player::Right, !right);
    for byte in 6..bytes.len() {
        for bit in 0..8 {
            let mut flipped = bytes.clone();
            flipped[byte] ^= 1 << bit;
            let (finding, _) = partizan_answers::verify(&[grid], &flipped, Budget::unlimited());
            if let Ok(partizan_answers::Finding::Facts { facts, .. }) = finding {
                assert_eq!(facts & false_facts, 0, "byte {byte} bit {bit}");
            }
        }
    }
    for cut in 6..bytes.len() {
        let (finding, _) = partizan_answers::verify(&[grid], &bytes[..cut], Budget::unlimited());
        if let Ok(partizan_answers::Finding::Facts { facts, .. }) = finding {
            assert_eq!(facts & false_facts, 0);
            assert_ne!(
                facts & (fact(Player::Left, left) | fact(Player::Right, right)),
                fact(Player::Left, left) | fact(Player::Right, right),
                "a file cut at {cut} still proves the outcome"
            );
        }
    }
}

/// The sequential reading of rule I7: each record is checked against the
/// facts admitted before it, and the first that fails ends the check.
fn checked_in_order(grid: Grid, heap: u32, records: &[Record]) -> Finding {
    let mut ledger = Ledger::new(GridRules::Cram, Budget::unlimited());
    let mut used = Vec::new();
    for record in records {
        used.clear();
        if let Err(failure) = ledger.admit(record, &mut used).expect("budget") {
            return Finding::Fails(failure);
        }
    }
    used.clear();
    let root = ledger.normalise(&[grid], heap, &mut used).expect("budget");
    match ledger.outcome(&root, &mut used) {
        Some(Outcome::P) => Finding::Holds {
            records: ledger.admitted(),
        },
        Some(outcome) => Finding::Opposite {
            outcome,
            record: used.last().copied().unwrap_or(0),
        },
        None => Finding::Fails(Failure::Unestablished),
    }
}

/// A record with its heap changed (a P record's by one bit, an N record's
/// by one).
fn with_heap_changed(record: &Record) -> Record {
    match record {
        Record::P(p, replies) => {
            let mut p = p.clone();
            p.heap ^= 1;
            Record::P(p, replies.clone())
        }
        Record::N(p, option) => {
            let mut p = p.clone();
            p.heap += 1;
            Record::N(p, *option)
        }
    }
}

/// The kernel checks a file's records on several threads, each against the
/// facts of the records before it; it must find exactly what checking them
/// one by one finds: the same first failure when one or two records far
/// apart (in different threads' shares) are broken, the same count when
/// none is.
#[test]
fn checking_on_threads_finds_what_checking_in_order_finds() {
    let grid = board(3, 12);
    let produced = grundy(GridRules::Cram, &[grid], 0, Budget::unlimited(), 0).expect("decided");
    let value = produced.value.expect("a value");
    let records = records(&produced.bytes);
    assert!(
        records.len() > 1000,
        "shares for both threads: {}",
        records.len()
    );
    let both = |records: &[Record]| {
        let threaded = verdict_of(grid, value, records);
        assert_eq!(threaded, checked_in_order(grid, value, records));
        threaded
    };
    assert!(matches!(both(&records), Finding::Holds { .. }));
    let mut rng = Rng(29);
    let mut failures = 0;
    for _ in 0..30 {
        let (a, b) = (rng.below(records.len()), rng.below(records.len()));
        let mut one = records.clone();
        one[a] = with_heap_changed(&records[a]);
        failures += usize::from(matches!(both(&one), Finding::Fails(_)));
        let mut two = one;
        two[b] = with_heap_changed(&records[b]);
        failures += usize::from(matches!(both(&two), Finding::Fails(_)));
    }
    assert!(failures >= 50, "{failures} of 60 broken files rejected");
}

/// A P record whose answers are asked for as the kernel checks them
/// (`admit_answering`, the producer's way) is admitted exactly when the
/// same record written out is: per P record of a sample, its own answers,
/// and each answer in turn replaced by 0 and by another option's number.
#[test]
fn answers_asked_during_the_check_are_checked_as_written_ones_are() {
    let (_, _, records) = sample();
    let mut rng = Rng(23);
    let mut compared = 0;
    for index in 0..records.len() {
        let Record::P(position, replies) = &records[index] else {
            continue;
        };
        let mut variants = vec![replies.clone()];
        for option in 0..replies.len() {
            for answer in [0, 1 + rng.below(8) as u64] {
                let mut changed = replies.clone();
                changed[option] = answer;
                variants.push(changed);
            }
        }
        for answers in variants {
            let written = Record::P(position.clone(), answers.clone());
            let by_record = admitted_after(&records[..index], |ledger, used| {
                ledger.admit(&written, used).expect("budget").map(|_| ())
            });
            let by_asking = admitted_after(&records[..index], |ledger, used| {
                let mut next = answers.iter().copied();
                let mut answer_of = |_: &mut Ledger, _: &answers::Position| {
                    Ok::<_, Exhausted>(next.next().unwrap_or(0))
                };
                let record = ledger
                    .admit_answering(position, used, &mut answer_of)
                    .expect("budget")?;
                assert_eq!(record, Record::P(position.clone(), answers.clone()));
                Ok(())
            });
            assert_eq!(by_asking, by_record, "record {}: {answers:?}", index + 1);
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared} records compared");
}

/// A producer may admit the records an option's answer needs while the
/// kernel checks a P record (`admit_answering`): the round of the check in
/// which that happened is repeated, so the record comes out exactly as the
/// file writes it after those records. Per P record of a sample: a ledger
/// that admitted only the first half of the records before it admits the
/// rest when asked for the first answer.
#[test]
fn records_admitted_while_a_record_is_checked_come_before_it() {
    let (_, _, records) = sample();
    let mut compared = 0;
    for index in 0..records.len() {
        let Record::P(position, replies) = &records[index] else {
            continue;
        };
        let (before, meanwhile) = records[..index].split_at(index / 2);
        if meanwhile.is_empty() {
            continue;
        }
        let mut ledger = ledger_after(before);
        let mut used = Vec::new();
        let mut asked = 0usize;
        let mut answer_of = |ledger: &mut Ledger, _: &answers::Position| {
            asked += 1;
            if asked == 1 {
                for record in meanwhile {
                    ledger
                        .admit(record, &mut Vec::new())?
                        .expect("a valid file");
                }
            }
            // The first round asks about every option; the second is checked.
            let answer = asked
                .checked_sub(replies.len() + 1)
                .map_or(0, |k| replies[k]);
            Ok::<_, Exhausted>(answer)
        };
        let record = ledger
            .admit_answering(position, &mut used, &mut answer_of)
            .expect("budget");
        assert_eq!(record, Ok(records[index].clone()), "record {}", index + 1);
        assert_eq!(ledger.admitted() as usize, index + 1);
        compared += 1;
    }
    assert!(compared > 10, "{compared} records compared");
}

/// The function that gives answers holds the ledger mid-check, so it may
/// swap in another ledger. Neither a ledger swapped out and back (its count
/// of records restored, the options met meanwhile unchecked) nor one of
/// other rules left in place makes `admit_answering` state a record of a
/// first-player win: per board and heap, the oracle decides.
#[test]
fn a_ledger_swapped_during_the_check_states_nothing_false() {
    let mut refused = 0;
    for (rows, cols) in [(3, 3), (2, 5)] {
        let value = oracle(Rules::Cram, rows, cols, (1u64 << (rows * cols)) - 1);
        for heap in 0..4 {
            for leave_it in [false, true] {
                let mut ledger = Ledger::new(GridRules::Cram, Budget::unlimited());
                let position = ledger
                    .normalise(&[board(rows, cols)], heap, &mut Vec::new())
                    .expect("budget");
                let options = ledger
                    .options(&position, &mut Vec::new())
                    .expect("budget")
                    .len();
                let rules = if leave_it {
                    GridRules::Juvavum
                } else {
                    GridRules::Cram
                };
                let mut spare = Ledger::new(rules, Budget::unlimited());
                if !leave_it {
                    // One record, so that swapping it in changes the count.
                    let empty = answers::Position {
                        parts: Vec::new(),
                        heap: 0,
                    };
                    spare
                        .admit(&Record::P(empty, Vec::new()), &mut Vec::new())
                        .expect("budget")
                        .expect("true");
                }
                let mut calls = 0;
                let mut answer_of = |ledger: &mut Ledger, _: &answers::Position| {
                    calls += 1;
                    if calls == 1 || (!leave_it && calls == options) {
                        std::mem::swap(ledger, &mut spare);
                    }
                    Ok::<_, Exhausted>(0)
                };
                let stated = ledger
                    .admit_answering(&position, &mut Vec::new(), &mut answer_of)
                    .expect("budget");
                if stated.is_ok() {
                    assert_eq!(
                        value, heap,
                        "{rows}x{cols} + *{heap}: a first-player win stated P"
                    );
                } else {
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 4, "{refused} refused");
}

/// What `admit` makes of a record on a ledger that admitted `earlier` first.
fn admitted_after(
    earlier: &[Record],
    admit: impl FnOnce(&mut Ledger, &mut Vec<u32>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    admit(&mut ledger_after(earlier), &mut Vec::new())
}

/// A ledger that admitted the valid records `earlier`.
fn ledger_after(earlier: &[Record]) -> Ledger {
    let mut ledger = Ledger::new(GridRules::Cram, Budget::unlimited());
    for record in earlier {
        ledger
            .admit(record, &mut Vec::new())
            .expect("budget")
            .expect("a valid file");
    }
    ledger
}
