//! `gamecert bench`: wall-clock timings of the kernel and the elaborator on
//! the performance targets of the issues, in one process.
//!
//! Impartial games are valued by the kernel's search; partizan games get
//! their canonical form from the elaborator (what `eval` prints) and then a
//! kernel check of `value G = that form` by definition (what `check` does).
//! The Snaky card file is read, translated and checked as the `cards` method
//! does, and the kernel's rate of option checks is reported.

use std::time::Instant;

use gamecert::elaborate::canonical::Canonical;
use gamecert::elaborate::{games, partizan};
use gamecert::kernel::budget::Budget;
use gamecert::kernel::impartial::{Play, evaluate};
use gamecert::kernel::partizan::check::{Evidence, Statement, check};
use gamecert::kernel::verdict::Verdict;
use gamecert::report::output::{Out, error};
use gamecert::syntax::parse_game;

/// The default targets: Cram and Domino Juvavum (issue 2), Domineering and a
/// 20-edge blue-red-green Hackenbush tree (issue 6).
const TARGETS: &[&str] = &[
    "cram 4x6",
    "cram 5x5",
    "cram 3x12",
    "cram 4x9",
    "cram 5x7",
    "domino-juvavum 3x7",
    "domineering 4x4",
    "domineering 4x5",
    "domineering 5x5",
    "hackenbush \"0-1 e, 1-2 e, 1-3 e, 2-4 e, 4-5 r, 4-6 r, 1-7 l, 2-8 r, 1-9 e, 8-10 r, \
     0-11 l, 6-12 e, 11-13 r, 1-14 r, 14-15 r, 4-16 e, 16-17 e, 16-18 l, 11-19 e, 18-20 r\"",
];

/// Runs the benchmark; `jobs` threads search each impartial game.
/// Writes through `out`, which stops quietly when the reader goes away.
pub fn run(games: Vec<String>, jobs: usize, out: &mut Out) -> i32 {
    let default_targets = games.is_empty();
    let cases: Vec<String> = if games.is_empty() {
        TARGETS.iter().map(|s| s.to_string()).collect()
    } else {
        games
    };
    out.line(&format!(
        "{} cores available, {jobs} search threads for impartial games",
        gamecert::parallel::cores(),
    ));
    for case in cases {
        if case == "breaker" {
            time_breaker(jobs, out);
            continue;
        }
        let Ok(expr) = parse_game(&case) else {
            error(&format!("error: cannot parse `{case}`\n"));
            return 2;
        };
        let name: String = case.chars().take(22).collect();
        if partizan::uses_partizan_notation(&expr.node) {
            let Ok(term) = partizan::term(&expr) else {
                error(&format!("error: cannot elaborate `{case}`\n"));
                return 2;
            };
            // Canonical forms recurse once per move: a large stack.
            let timed = std::thread::Builder::new()
                .stack_size(gamecert::parallel::STACK_BYTES)
                .spawn(move || time_partizan(&term))
                .ok()
                .and_then(|h| h.join().ok())
                .flatten();
            match timed {
                Some((canonical, check, ok)) => out.line(&format!(
                    "{name:<22} canonical form {canonical:>8.3} s   kernel check {check:>8.3} s ({})",
                    if ok { "verified" } else { "NOT verified" }
                )),
                None => out.line(&format!("{name:<22} undecided (budget)")),
            }
            continue;
        }
        let Ok(game) = games::game(&expr) else {
            error(&format!("error: cannot elaborate `{case}`\n"));
            return 2;
        };
        let started = Instant::now();
        match evaluate(&game, Play::Normal, Budget::unlimited(), jobs - 1) {
            Ok((a, nodes)) => out.line(&format!(
                "{name:<22} grundy {:>3}  {:>10} positions  {:>8.3} s",
                a.value,
                nodes,
                started.elapsed().as_secs_f64()
            )),
            Err(_) => out.line(&format!("{name:<22} undecided (memory cap)")),
        }
    }
    if default_targets {
        time_cards(out);
        time_breaker(jobs, out);
    }
    0
}

/// The breaker certificates of issue 5's targets, relative to the crate root.
const NORRIS_SIEBEN: &str = "certificates/norris-sieben-2014";
const PLATONIC: &str = "certificates/bode-2000/platonic-classification.cert";
/// Issue 15's classifications and bounds (target: 60 s together, the snub
/// cube's 5.5 million polyominoes under 30 s of that).
const SNUB_CUBE: &str = "certificates/bode-2000/snub-cube.cert";
const ARCHIMEDEAN: &[&str] = &[
    "certificates/bode-2000/archimedean-classification.cert",
    SNUB_CUBE,
    "certificates/bode-2000/rhombicuboctahedron.cert",
    "certificates/bode-2000/icosidodecahedron.cert",
    "certificates/bode-2000/truncated-cuboctahedron.cert",
    "certificates/bode-2000/snub-dodecahedron.cert",
    BOUNDS,
];
/// Bode's upper bounds (Tables 12, 16, 21, 23) and gamecert's smaller ones.
const BOUNDS: &str = "certificates/bode-2000/bounds";

/// Times the kernel's check of the history-dependent priority strategy for
/// P4_5 (target 50 ms), and `check` end to end (parse, elaborate, kernel)
/// on the Norris-Sieben directory (every threshold sequence of Figures 5
/// and 14; target 5 s), on the platonic classifications (the icosahedron's
/// target: 10 s) and on Bode's archimedean classifications and bounds.
fn time_breaker(jobs: usize, out: &mut Out) {
    use gamecert::elaborate::Explicit;
    let square = format!("{NORRIS_SIEBEN}/square.cert");
    let Ok(text) = std::fs::read_to_string(&square) else {
        out.line(&format!(
            "breaker                skipped ({square} not found; run from the crate root)"
        ));
        return;
    };
    let file = gamecert::syntax::parse_file(&text);
    let p45 = gamecert::elaborate::claims(&file)
        .into_iter()
        .find(|c| c.id == "p45-24")
        .and_then(|c| match c.explicit {
            Ok(Explicit::Priority(claim, strategy)) => Some((claim, strategy)),
            _ => None,
        });
    match p45 {
        Some((claim, strategy)) => {
            let runs = 20;
            let started = Instant::now();
            let mut verified = true;
            for _ in 0..runs {
                let verdict = gamecert::kernel::breaker::priority::check(
                    &claim,
                    &strategy,
                    Budget::unlimited(),
                );
                verified &= matches!(verdict, Verdict::Verified { .. });
            }
            out.line(&format!(
                "P4_5 (2,4) priority    kernel {:.2} ms per check (mean of {runs}) ({})",
                started.elapsed().as_secs_f64() * 1000.0 / f64::from(runs),
                if verified { "verified" } else { "NOT verified" }
            ));
        }
        None => out.line(&format!(
            "P4_5 (2,4) priority    claim p45-24 not found in {square}"
        )),
    }
    for (name, paths) in [
        ("figures 5 and 14", &[NORRIS_SIEBEN][..]),
        ("platonic solids", &[PLATONIC][..]),
        ("snub cube", &[SNUB_CUBE][..]),
        ("archimedean bounds", &[BOUNDS][..]),
        ("archimedean, all", ARCHIMEDEAN),
    ] {
        let options = gamecert::driver::CheckOptions {
            jobs,
            limits: gamecert::driver::Limits {
                max_nodes: None,
                time: None,
                max_entries: gamecert::kernel::budget::DEFAULT_MAX_ENTRIES,
            },
            timings: false,
            only: None,
        };
        let started = Instant::now();
        let paths: Vec<std::path::PathBuf> = paths.iter().map(std::path::PathBuf::from).collect();
        match gamecert::driver::check_paths(&paths, &options) {
            Ok(outcome) => {
                let s = &outcome.report.summary;
                out.line(&format!(
                    "{name:<22} check {:.3} s ({} verified, {} refuted, {} undecided, {} errors; {jobs} jobs)",
                    started.elapsed().as_secs_f64(),
                    s.verified,
                    s.refuted,
                    s.undecided,
                    s.errors
                ));
            }
            Err(_) => out.line(&format!("{name:<22} skipped (a file was not found)")),
        }
    }
}

/// The card file of the Snaky certificate (issue 4's target: read,
/// translated and kernel-checked in under 0.5 s), if the working directory
/// is the crate's.
const SNAKY_CARDS: &str = "certificates/external/snaky-15x15-cards.txt";

/// Times reading, translating and checking the Snaky cards, and the
/// kernel's option checks per second.
fn time_cards(out: &mut Out) {
    use gamecert::kernel::animals::lattice::Lattice;
    use gamecert::kernel::animals::{Board, Region};
    use gamecert::kernel::maker::{Justification, WinnerClaim, check};
    let started = Instant::now();
    let Ok(text) = std::fs::read_to_string(SNAKY_CARDS) else {
        out.line(&format!(
            "snaky cards            skipped ({SNAKY_CARDS} not found; run from the crate root)"
        ));
        return;
    };
    let Ok(cards) = gamecert::import::CardFile::parse(&text) else {
        out.line("snaky cards            the card file does not parse");
        return;
    };
    let read = started.elapsed().as_secs_f64();
    let board = Board::Region(std::sync::Arc::new(Region::rectangle(
        Lattice::Square,
        15,
        15,
    )));
    let goal = gamecert::import::SNAKY.to_vec();
    let proof = cards.proof_sequence(&board, &goal);
    let translated = started.elapsed().as_secs_f64();
    let claim = WinnerClaim {
        board,
        goal,
        a: 1,
        finish: None,
        b: 1,
    };
    let checking = Instant::now();
    let verdict = check(&claim, &proof, Budget::unlimited());
    let kernel = checking.elapsed().as_secs_f64();
    let options: usize = proof
        .situations
        .iter()
        .map(|(_, j)| match j {
            Justification::Options(o) => o.len(),
            Justification::Replies { replies, pass } => replies.len() + usize::from(pass.is_some()),
        })
        .sum();
    out.line(&format!(
        "snaky cards ({} cards) read {:.3} s, translated {:.3} s, kernel {:.3} s: {:.3} s end to end ({}); {options} options, {:.0} option checks per second",
        cards.len(),
        read,
        translated - read,
        kernel,
        translated + kernel,
        if matches!(verdict, Verdict::Verified { .. }) {
            "verified"
        } else {
            "NOT verified"
        },
        options as f64 / kernel.max(1e-9)
    ));
}

/// Seconds for the canonical form, seconds for the kernel's check of it, and
/// whether the check verified.
fn time_partizan(term: &gamecert::kernel::partizan::game::Term) -> Option<(f64, f64, bool)> {
    let started = Instant::now();
    let mut canon = Canonical::new(Budget::unlimited());
    let g = canon.of_term(term).ok()?;
    let canonical = started.elapsed().as_secs_f64();
    let value = canon.to_term(g);
    let started = Instant::now();
    let statement = Statement::Value {
        game: term.clone(),
        value,
    };
    let verdict = check(&statement, &Evidence::Definition, Budget::unlimited());
    let ok = matches!(verdict, Verdict::Verified { .. });
    Some((canonical, started.elapsed().as_secs_f64(), ok))
}
