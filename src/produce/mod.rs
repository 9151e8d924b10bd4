//! Producers: searches that write certificates (untrusted; whatever they
//! write, the kernel checks like a hand-written certificate).

pub mod maker;

use crate::elaborate::{Explicit, maker::proof_text};
use crate::kernel::budget::Budget;
use crate::kernel::verdict::Verdict;
use crate::syntax::ast::Item;

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
    let decls = crate::syntax::parse_file(declarations);
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
    let probe = format!(
        "gamecert 1\n{header}claim proved: {statement} by proof-sequence {{\n  start goal\n}}\n"
    );
    let file = crate::syntax::parse_file(&probe);
    if let Some(e) = file.errors.first() {
        return Err((format!("error: the claim cannot be read: {:?}", e.kind), 2));
    }
    let claims = crate::elaborate::claims(&file);
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
    let verdict = crate::kernel::maker::check(&claim, &proof, Budget::unlimited());
    let code = match &verdict {
        Verdict::Verified { .. } => 0,
        Verdict::Refuted { .. } => 1,
        Verdict::Undecided { .. } => 3,
    };
    let word = match code {
        0 => "VERIFIED",
        1 => "REFUTED",
        _ => "UNDECIDED",
    };
    eprintln!("{word}: {}", crate::report::wording::detail(&verdict));
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
