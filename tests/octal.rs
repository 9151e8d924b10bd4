//! Octal periods against an independent oracle: the nim values computed
//! here by the plain mex rule (every option listed, a hash set, no shared
//! code with the kernel), compared with every sequence the table prints,
//! and with the table's (n0, p) of two nontrivial games through the
//! periodicity theorem applied here. Also each shipped claim moved (start,
//! period) must be refuted by the kernel.

mod common;

use std::collections::HashSet;

/// The table: code, preperiod, period, and the sequence if printed.
fn table() -> Vec<(Vec<u8>, usize, usize, Option<String>)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/octal-periods.txt");
    let text = std::fs::read_to_string(path).expect("the octal table beside the crate");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (whole, fraction) = f[0].split_once('.').unwrap_or((f[0], ""));
            let whole = if whole.is_empty() { "0" } else { whole };
            let digits = whole
                .chars()
                .chain(fraction.chars())
                .map(|c| c.to_digit(8).expect("octal") as u8)
                .collect();
            let n0 = f[1].parse().expect("n0");
            let p = f[2].parse().expect("p");
            (digits, n0, p, f.get(3).map(|s| s.to_string()))
        })
        .collect()
}

/// G(0..count) by listing every option of every heap.
fn oracle(digits: &[u8], count: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..count {
        let mut options = HashSet::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 == 1 && rest == 0 {
                options.insert(0);
            }
            if d & 2 == 2 && rest > 0 && k > 0 {
                options.insert(g[rest]);
            }
            if d & 4 == 4 {
                for a in 1..rest {
                    options.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).expect("a mex"));
    }
    g
}

/// The printed sequence, extended to `count` values by its period.
fn extended(sequence: &str, count: usize) -> Vec<u32> {
    let (prefix, rest) = sequence.split_once('(').expect("a period");
    let period = rest.trim_end_matches(')');
    let value = |c: char| c.to_digit(36).expect("a value");
    let prefix: Vec<u32> = prefix.chars().map(value).collect();
    let period: Vec<u32> = period.chars().map(value).collect();
    (0..count)
        .map(|n| {
            prefix
                .get(n)
                .copied()
                .unwrap_or_else(|| period[(n - prefix.len()) % period.len()])
        })
        .collect()
}

#[test]
fn printed_sequences_agree_with_the_oracle() {
    let mut compared = 0;
    for (digits, n0, p, sequence) in table() {
        let Some(sequence) = sequence else { continue };
        // Past the theorem's window, so the printed period is tested too.
        let t = digits.iter().rposition(|&d| d != 0).unwrap_or(0);
        let count = 2 * n0 + 2 * p + t + 10;
        assert_eq!(
            oracle(&digits, count),
            extended(&sequence, count),
            "{digits:?}"
        );
        compared += 1;
    }
    assert_eq!(compared, 82);
}

#[test]
fn two_nontrivial_periods_hold_by_the_oracle() {
    for (code, n0, p) in [(&[0u8, 4, 5][..], 498, 20), (&[0, 1, 5, 6][..], 3479, 349)] {
        let t = code.len() - 1;
        let g = oracle(code, 2 * n0 + 2 * p + t);
        assert!((n0..2 * n0 + p + t).all(|n| g[n + p] == g[n]), "{code:?}");
        assert_ne!(g[n0 - 1 + p], g[n0 - 1], "{code:?}: n0 is the least");
    }
}

#[test]
fn moved_periods_are_refuted() {
    let text = "gamecert 1\nclaim m: period octal 0.156 = (N0, P) by search\n";
    for (n0, p) in [
        (3480, 349),
        (3478, 349),
        (3479, 348),
        (3479, 350),
        (3479, 698),
    ] {
        let claim = text
            .replace("N0", &n0.to_string())
            .replace("P", &p.to_string());
        let outcome = common::check_claim("moved.cert", &claim, "m");
        let verdict = outcome.report.files[0].claims[0].verdict;
        assert_eq!(
            verdict,
            gamecert::report::VerdictName::Refuted,
            "({n0}, {p})"
        );
    }
}

/// The least (n0, p) that the oracle's own values prove by the periodicity
/// theorem within `count` heaps, if any.
fn oracle_period(digits: &[u8], count: usize) -> Option<(usize, usize)> {
    let g = oracle(digits, count);
    let t = digits.iter().rposition(|&d| d != 0).unwrap_or(0);
    // The least period first, then the least start for it.
    (1..count / 4).find_map(|p| {
        let n0 = (0..count)
            .take_while(|&n0| 2 * n0 + 2 * p + t <= count)
            .find(|&n0| (n0..2 * n0 + p + t).all(|n| g[n + p] == g[n]))?;
        // A shorter period from a later start is not possible once p
        // repeats: the periods of the tail are the multiples of the least.
        Some((n0, p))
    })
}

/// Random octal games of up to four digits: whatever period the oracle
/// proves within 1,200 heaps, the kernel verifies, and refutes it moved.
#[test]
fn random_games_agree_with_the_oracle() {
    let mut state = 0x2545f4914f6cdd1du64;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    let (mut proved, mut games) = (0, 0);
    while games < 150 {
        let len = 2 + next(3) as usize;
        let mut digits: Vec<u8> = (0..len).map(|_| next(8) as u8).collect();
        digits[0] = if next(4) == 0 { 4 } else { 0 };
        if digits[1..].iter().all(|&d| d == 0) {
            continue;
        }
        games += 1;
        let Some((n0, p)) = oracle_period(&digits, 1200) else {
            continue;
        };
        proved += 1;
        let code = format!(
            "{}.{}",
            digits[0],
            digits[1..]
                .iter()
                .map(|d| d.to_string())
                .collect::<String>()
        );
        // The values written out too (an empty prefix when n0 is 0).
        let g = oracle(&digits, n0 + p);
        let digit = |v: &u32| char::from_digit(*v, 36).map(|c| c.to_ascii_uppercase());
        let written: Option<String> = g[..n0].iter().map(digit).collect();
        let cycle: Option<String> = g[n0..].iter().map(digit).collect();
        let values = written.zip(cycle).map(|(w, c)| format!("{w}({c})"));
        let numbers = |n0: usize, p: usize| format!("({n0}, {p})");
        for (claimed, expected) in [
            (numbers(n0, p), gamecert::report::VerdictName::Verified),
            (numbers(n0, 2 * p), gamecert::report::VerdictName::Refuted),
            (numbers(n0 + 1, p), gamecert::report::VerdictName::Refuted),
        ]
        .into_iter()
        .chain(values.map(|v| (v, gamecert::report::VerdictName::Verified)))
        {
            let text = format!("gamecert 1\nclaim r: period octal {code} = {claimed} by search\n");
            let outcome = common::check_claim("random.cert", &text, "r");
            let verdict = outcome.report.files[0].claims[0].verdict;
            assert_eq!(
                verdict, expected,
                "{code} = {claimed} (oracle: ({n0}, {p}))"
            );
        }
    }
    eprintln!("{proved} of {games} random games periodic within 1,200 heaps");
    assert!(proved >= 50, "{proved}");
}
