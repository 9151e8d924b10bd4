//! `gamecert prove`: the command glue around the producers (which live in
//! the library, `gamecert::produce`): read the declarations and the
//! statement, search, have the kernel check what was found, and write the
//! certificate.

use gamecert::elaborate::Explicit;
use gamecert::kernel::budget::Budget;
use gamecert::kernel::verdict::Verdict;
use gamecert::produce::certificate::proof_text;
use gamecert::produce::{breaker, maker, priority};
use gamecert::syntax::ast::Item;

/// `gamecert prove`: the certificate for `statement` (a `winner` claim using
/// the board and animal declarations of `declarations`, a certificate's
/// text), with the kernel's verdict on it as the exit code; or a message and
/// an exit code (1: the maker loses on the board searched, 2: bad input, 3:
/// budget exhausted or board too large).
pub fn prove_text(
    declarations: &str,
    statement: &str,
    window: Option<(u16, u16)>,
    mut budget: Budget,
) -> Result<(String, i32), (String, i32)> {
    let decls = gamecert::syntax::parse_file(declarations);
    let header: String = decls
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Board(b) => Some(&declarations[b.span.start..b.span.end]),
            Item::Animal(a) => Some(&declarations[a.span.start..a.span.end]),
            _ => None,
        })
        .map(|text| format!("{text}\n"))
        .collect();
    if statement.trim_start().starts_with("loser") {
        return prove_loser(&header, statement, budget);
    }
    let probe = format!(
        "gamecert 1\n{header}claim proved: {statement} by proof-sequence {{\n  start goal\n}}\n"
    );
    let file = gamecert::syntax::parse_file(&probe);
    if let Some(e) = file.errors.first() {
        return Err((format!("error: the claim cannot be read: {:?}", e.kind), 2));
    }
    let claims = gamecert::elaborate::claims(&file);
    let claim = match claims
        .into_iter()
        .find(|c| c.id == "proved")
        .map(|c| c.explicit)
    {
        Some(Ok(Explicit::Maker(claim, _))) => claim,
        Some(Ok(_)) => return Err(("error: `prove` proves `winner` claims".into(), 2)),
        Some(Err(e)) => return Err((format!("error: {:?}", e.kind), 2)),
        None => return Err(("error: the claim cannot be read".into(), 2)),
    };
    let proof = match maker::prove(&claim, window, &mut budget) {
        Ok(maker::Search::Won(proof)) => proof,
        Ok(maker::Search::Lost) => {
            let on = if window.is_some() {
                "on the window"
            } else {
                "on the board"
            };
            return Err((format!("the breaker wins {on}: no maker win to write"), 1));
        }
        Ok(maker::Search::TooLarge) => {
            return Err((
                "the board is infinite (give --window ROWSxCOLS) or has more than 64 cells".into(),
                3,
            ));
        }
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let verdict = gamecert::kernel::maker::check(&claim, &proof, Budget::unlimited());
    let (code, word) = match &verdict {
        Verdict::Verified { .. } => (0, "VERIFIED"),
        Verdict::Refuted { .. } => (1, "REFUTED"),
        Verdict::Rejected { .. } => (1, "REJECTED"),
        Verdict::Undecided { .. } => (3, "UNDECIDED"),
        Verdict::Malformed { .. } => (2, "ERROR"),
    };
    let detail = gamecert::report::wording::detail(&verdict);
    gamecert::report::output::error(&format!("{word}: {detail}\n"));
    let body = proof_text(&proof, claim.board.dimension());
    Ok((
        format!(
            "gamecert 1\n# Written by `gamecert prove {statement}`{}; {} situations.\n{header}claim proved: {statement} by proof-sequence {{\n{body}}}\n",
            window.map_or_else(String::new, |(r, c)| format!(" on a {r}x{c} window")),
            proof.situations.len()
        ),
        code,
    ))
}

/// How many maker marks a strategy tree answers before its pairing.
const TREE_DEPTH: usize = 2;

/// Mutations tried from each random start of the history-dependent search.
const HISTORY_ROUNDS: usize = 3000;

/// The longest priority list the priority producer tries.
const PRIORITY_LIST_LENGTH: usize = 3;

/// `gamecert prove loser ...`: a paving (periodic on a lattice), or on a
/// finite board a pairing or a strategy tree ending in pairings, checked by
/// the kernel before it is written.
fn prove_loser(
    header: &str,
    statement: &str,
    mut budget: Budget,
) -> Result<(String, i32), (String, i32)> {
    let probe = format!("gamecert 1\n{header}claim proved: {statement} by paving {{\n}}\n");
    let file = gamecert::syntax::parse_file(&probe);
    if let Some(e) = file.errors.first() {
        return Err((format!("error: the claim cannot be read: {:?}", e.kind), 2));
    }
    let claim = match gamecert::elaborate::claims(&file)
        .into_iter()
        .find(|c| c.id == "proved")
        .map(|c| c.explicit)
    {
        Some(Ok(Explicit::Breaker(claim, _))) => claim,
        Some(Ok(_)) | None => return Err(("error: the claim cannot be read".into(), 2)),
        Some(Err(e)) => return Err((format!("error: {:?}", e.kind), 2)),
    };
    if claim.finish.is_some() {
        return Err(("error: breaker strategies answer (a,b) games".into(), 2));
    }
    let dimension = claim.board.dimension();
    let (method, body) = if claim.a == 1 {
        let tree = match breaker::prove(&claim, TREE_DEPTH, &mut budget) {
            Ok(Some(tree)) => tree,
            Ok(None) => {
                return Err((
                    "no paving found (periods of up to 24 classes; on a finite board, trees of depth 2)"
                        .into(),
                    1,
                ));
            }
            Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
        };
        // Finite boards list their pairs: a pairing; lattices repeat them: a paving.
        let method = if matches!(claim.board, gamecert::kernel::animals::Board::Lattice(_)) {
            "paving"
        } else {
            "pairing"
        };
        (method, breaker::tree_text(&tree, dimension, 1))
    } else {
        let found =
            priority::prove(&claim, PRIORITY_LIST_LENGTH, &mut budget).and_then(
                |plain| match plain {
                    Some(s) => Ok(Some(s)),
                    None => priority::prove_history(&claim, HISTORY_ROUNDS, &mut budget),
                },
            );
        match found {
            Ok(Some(strategy)) => ("priority", priority::text(&strategy, dimension, 1)),
            Ok(None) => {
                return Err((
                    "no priority strategy found (one rule per class, lists of up to 2 cells within 2 steps)"
                        .into(),
                    1,
                ));
            }
            Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
        }
    };
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove {statement}`.\n{header}claim proved: {statement} by {method} {{\n{body}}}\n"
    );
    // Check what is written, as `check` will.
    let outcome = gamecert::driver::check_source(
        "proved.cert",
        &text,
        &gamecert::driver::CheckOptions {
            jobs: 1,
            limits: gamecert::driver::Limits {
                max_nodes: None,
                time: None,
                max_entries: 1 << 20,
            },
            timings: false,
            only: None,
        },
    );
    let summary = &outcome.report.summary;
    let code = gamecert::driver::exit_code(summary);
    let detail = outcome
        .report
        .files
        .first()
        .and_then(|f| f.claims.first())
        .map(|c| format!("{:?}: {}", c.verdict, c.detail))
        .unwrap_or_default();
    gamecert::report::output::error(&format!("{detail}\n"));
    Ok((text, code))
}
