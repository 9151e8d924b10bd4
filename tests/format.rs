//! `gamecert fmt`: on every shipped certificate and every rejection file
//! without syntax errors, the canonical layout parses without errors, is
//! idempotent, keeps every comment in order, and means the same: the
//! elaborated claims, declarations and errors are those of the original.

mod common;

use gamecert::elaborate::{ElabError, Explicit};
use gamecert::kernel::budget::Limits;
use gamecert::syntax::ast::Spanned;
use gamecert::syntax::format::format_file;
use gamecert::syntax::parse_file;
use std::path::{Path, PathBuf};

/// Every `*.cert` below `dir` (relative to the crate root).
fn files_below(dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("directory")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out);
            } else if e.extension().is_some_and(|x| x == "cert") {
                out.push(e);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut out);
    out
}

/// What a file means, without positions: its claims elaborated (with the
/// elaborator's searches bounded by nodes, so that searched hints fail
/// alike on every machine), its
/// declarations, and the kinds of its elaboration errors.
fn meaning(text: &str) -> String {
    let file = parse_file(text);
    let limits = Limits {
        max_nodes: Some(200_000),
        time: None,
        max_entries: 1_000_000,
    };
    let no_files = |path: &Spanned<String>,
                    _: Option<&Spanned<String>>,
                    _: u64|
     -> Result<Vec<u8>, ElabError> {
        Err(ElabError {
            kind: gamecert::elaborate::ElabErrorKind::Internal("no files".into()),
            span: path.span,
        })
    };
    let claims = gamecert::elaborate::claims_reading(&file, &no_files, &limits);
    let declared = gamecert::elaborate::declarations_within(&file, &limits);
    let mut out = String::new();
    for c in claims {
        let explicit = c
            .explicit
            .map(|e: Explicit| format!("{:?}", e.resolve(|_, id| Ok::<_, ()>(id.node.clone()))))
            .map_err(|e| match e.kind {
                // Where the failed declaration is moves with the layout;
                // which declaration it is does not.
                gamecert::elaborate::ElabErrorKind::FailedDeclaration { kind, name, .. } => {
                    format!("FailedDeclaration({kind:?}, {name})")
                }
                kind => format!("{kind:?}"),
            });
        out.push_str(&format!("{} | {} | {:?}\n", c.id, c.statement, explicit));
    }
    out.push_str(&format!("{:?}\n", declared.boards));
    for a in declared.animals {
        out.push_str(&format!("{} {:?} {:?}\n", a.name, a.board, a.cells));
    }
    for e in declared.errors {
        out.push_str(&format!("{:?}\n", e.kind));
    }
    out
}

/// Every comment with where it is: inside the n-th item, or before it.
fn placed_comments(file: &gamecert::syntax::ast::File) -> Vec<(String, usize, bool)> {
    use gamecert::syntax::ast::Item;
    let spans: Vec<gamecert::syntax::ast::Span> = file
        .items
        .iter()
        .map(|item| match item {
            Item::Include(i) => i.span,
            Item::Claim(c) => c.span,
            Item::Board(b) => b.span,
            Item::Animal(a) => a.span,
        })
        .collect();
    file.comments
        .iter()
        .map(|c| {
            let at = c.span.start;
            let next = spans.iter().position(|s| s.end > at).unwrap_or(spans.len());
            let inside = spans.get(next).is_some_and(|s| s.start < at);
            (c.text.clone(), next, inside)
        })
        .collect()
}

/// Formats one file and checks the result; `false` for a file that does
/// not parse (left out: the formatter refuses those).
fn round_trips(path: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(path).expect("readable");
    let parsed = parse_file(&text);
    if !parsed.errors.is_empty() {
        return false;
    }
    let name = path.display();
    let formatted = format_file(&parsed, &text);
    let again = parse_file(&formatted);
    assert!(
        again.errors.is_empty(),
        "{name}: {:?}\n{formatted}",
        again.errors
    );
    assert_eq!(
        format_file(&again, &formatted),
        formatted,
        "{name}: not idempotent"
    );
    assert_eq!(
        placed_comments(&parsed),
        placed_comments(&again),
        "{name}: comments"
    );
    assert_eq!(meaning(&text), meaning(&formatted), "{name}: meaning");
    true
}

#[test]
fn fmt_round_trips_every_shipped_and_rejection_file() {
    let files: Vec<PathBuf> = files_below("certificates")
        .into_iter()
        .chain(files_below("tests/reject"))
        .collect();
    // The files are independent: one thread per core (elaborating the
    // large certificates twice dominates).
    let round_tripped = common::on_every_core(&files, |path| round_trips(path));
    let checked = round_tripped.into_iter().filter(|&ok| ok).count();
    assert!(checked > 150, "only {checked} files");
}
