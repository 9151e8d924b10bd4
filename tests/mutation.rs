//! Mutation tests: change the claimed value of every claim in certificates/
//! (Grundy value +1 and -1, outcome flipped, count +1 and -1; a partizan
//! value off by `*`, by `^` and by a tiny number, every other outcome class,
//! every comparison the claim excludes, `number G` made `G + *`; an octal
//! period's start or length moved, or a written value changed) and require
//! REFUTED. An always-accepting checker fails this test on every claim.

mod common;

use gamecert::report::VerdictName;
use gamecert::syntax::ast::{Item, Method, RelationAst, Span, Statement};

fn mutations(statement: &Statement, text: &str) -> Vec<(Span, String)> {
    let source = |span: Span| text[span.start..span.end].to_string();
    match statement {
        Statement::Grundy { value, .. } => {
            let mut m = vec![(value.span, (value.node + 1).to_string())];
            if value.node > 0 {
                m.push((value.span, (value.node - 1).to_string()));
            }
            m
        }
        Statement::Outcome { outcome, game, .. }
            if !gamecert::elaborate::partizan::uses_partizan_notation(&game.node) =>
        {
            vec![(
                outcome.span,
                if outcome.node.letter() == 'P' {
                    "N"
                } else {
                    "P"
                }
                .to_string(),
            )]
        }
        Statement::Outcome { outcome, .. } => ["L", "R", "P", "N"]
            .iter()
            .filter(|o| !o.starts_with(outcome.node.letter()))
            .map(|o| (outcome.span, o.to_string()))
            .collect(),
        Statement::Value { value, .. } => ["*", "^", "1/1024"]
            .iter()
            .map(|off| (value.span, format!("({}) + {off}", source(value.span))))
            .collect(),
        Statement::Number { game } => vec![(game.span, format!("({}) + *", source(game.span)))],
        // The values written out: the period's last value changed. A
        // period of another length or start: not the least, or no period.
        Statement::Period {
            values: Some(values),
            ..
        } => {
            let mut text = values.node.clone();
            let last = text.len().saturating_sub(2);
            let changed = if &text[last..=last] == "0" { "1" } else { "0" };
            text.replace_range(last..=last, changed);
            vec![(values.span, text)]
        }
        Statement::Period {
            preperiod, period, ..
        } => {
            let mut m = vec![
                (preperiod.span, (preperiod.node + 1).to_string()),
                (period.span, (period.node + 1).to_string()),
                (period.span, (period.node * 2).to_string()),
            ];
            if preperiod.node > 0 {
                m.push((preperiod.span, (preperiod.node - 1).to_string()));
            }
            if period.node > 1 {
                m.push((period.span, (period.node - 1).to_string()));
            }
            m
        }
        // Large enumerations are checked unmutated by tests/certificates.rs;
        // mutating the small ones keeps this test quick.
        Statement::CountAnimals { size, count, .. } if size.node <= 10 => vec![
            (count.span, (count.node + 1).to_string()),
            (count.span, count.node.saturating_sub(1).to_string()),
        ],
        Statement::CountAnimals { .. } => Vec::new(),
        Statement::Compare { relation, .. } => {
            use RelationAst::*;
            let excluded: &[RelationAst] = match relation.node {
                Equal => &[Less, Greater, Confused],
                Less => &[Equal, Greater, Confused, GreaterOrEqual],
                Greater => &[Equal, Less, Confused, LessOrEqual],
                Confused => &[Equal, Less, Greater, LessOrEqual, GreaterOrEqual],
                LessOrEqual => &[Greater, Confused],
                GreaterOrEqual => &[Less, Confused],
            };
            excluded
                .iter()
                .map(|r| (relation.span, r.symbol().to_string()))
                .collect()
        }
        // Maker certificates are mutated inside their proof sequences (a cell
        // dropped or moved, an option dropped) by tests/maker.rs.
        Statement::Winner { .. } | Statement::Loser { .. } => Vec::new(),
        // Threshold entries are mutated by tests/breaker.rs (their files
        // search proof sequences when elaborated, too slow to redo per mutant).
        Statement::Threshold { .. } => Vec::new(),
        // The snub cube's 5.5 million polyominoes take the kernel 20 s to
        // count; tests/certificates.rs checks that claim unmutated and the
        // smaller classifications show a miscount refuted.
        Statement::Classify { losers, .. } if losers.node > 100_000 => Vec::new(),
        Statement::Classify {
            winners, losers, ..
        } => vec![
            (winners.span, (winners.node + 1).to_string()),
            (winners.span, winners.node.saturating_sub(1).to_string()),
            (losers.span, (losers.node + 1).to_string()),
            (losers.span, losers.node.saturating_sub(1).to_string()),
        ],
        // A bound one lower is rejected, not refuted (other losers may
        // exist): tests/classification.rs lowers every bound it states.
        Statement::Bound { .. } => Vec::new(),
        Statement::CountPositions { count, .. } => {
            vec![
                (count.span, (count.node + 1).to_string()),
                (count.span, count.node.saturating_sub(1).to_string()),
            ]
        }
    }
}

/// Checks claim `id` of the mutant `text` of `original`, whose claim reads
/// the answer file `relative`: the mutant is written to a scratch directory
/// with a copy of that file at the same relative place.
fn check_with_answer_file(
    original: &std::path::Path,
    relative: &str,
    text: &str,
    id: &str,
    name: &str,
) -> gamecert::driver::Outcome {
    let dir = common::scratch("mutation", name);
    let source = original.parent().expect("a directory").join(relative);
    let target = dir.join(relative);
    std::fs::create_dir_all(target.parent().expect("a directory")).expect("scratch");
    std::fs::copy(&source, &target).expect("answer file copied");
    let mutant = dir.join("mutant.cert");
    std::fs::write(&mutant, text).expect("mutant written");
    let mut options = common::options();
    options.only = Some(id.to_string());
    gamecert::driver::check_paths(&[mutant], &options).expect("paths exist")
}

/// Checks a mutant of `original`, a file that includes others, in a
/// scratch copy of the certificates tree (includes resolve there), and
/// returns the outcome with only the claim `id` of the mutant reported.
fn check_with_includes(
    original: &std::path::Path,
    text: &str,
    id: &str,
    name: &str,
) -> Vec<VerdictName> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates");
    let dir = common::scratch("mutation-includes", name);
    let relative = original.strip_prefix(&root).expect("a shipped certificate");
    // The included files are beside or above the original, in the tree.
    for entry in [
        "external",
        "norris-sieben-2014",
        "bode-2000/square-losers.cert",
        "bode-2000/tiling-33344-games.cert",
        "bode-2000/bounds/tiling-33344.cert",
        "bode-2000/hyperbolic-games-8.cert",
        "bode-2000/hyperbolic-losers.cert",
    ] {
        let from = root.join(entry);
        let to = dir.join(entry);
        if from.is_dir() {
            std::fs::create_dir_all(&to).expect("scratch");
            for file in std::fs::read_dir(&from).expect("dir") {
                let file = file.expect("entry").path();
                std::fs::copy(&file, to.join(file.file_name().expect("name"))).expect("copy");
            }
        } else {
            std::fs::create_dir_all(to.parent().expect("parent")).expect("scratch");
            std::fs::copy(&from, &to).expect("copy");
        }
    }
    let mutant = dir.join(relative);
    std::fs::create_dir_all(mutant.parent().expect("parent")).expect("scratch");
    std::fs::write(&mutant, text).expect("mutant written");
    // The tree is checked (an include may not leave it), but only the
    // mutated claim: the included files are read for the claims it cites.
    let mut options = common::options();
    options.only = Some(id.to_string());
    let outcome = gamecert::driver::check_paths(&[dir.to_path_buf()], &options).expect("paths");
    outcome
        .report
        .files
        .iter()
        .filter(|f| f.path.ends_with(relative.to_string_lossy().as_ref()))
        .flat_map(|f| f.claims.iter().filter(|c| c.id == id).map(|c| c.verdict))
        .collect()
}

/// One mutant: a shipped file with one claim's statement changed.
struct Mutant<'a> {
    /// Its place among the mutants: names its scratch directory, apart
    /// from those of mutants checked at the same time.
    number: usize,
    file: &'a std::path::Path,
    /// The shipped file's text, and whether it includes others.
    source: &'a str,
    includes: bool,
    id: String,
    method: Method,
    /// The statement's part replaced, and by what.
    span: Span,
    replacement: String,
}

impl Mutant<'_> {
    /// The mutated file's text.
    fn text(&self) -> String {
        let (before, after) = (
            &self.source[..self.span.start],
            &self.source[self.span.end..],
        );
        format!("{before}{}{after}", self.replacement)
    }

    /// The verdicts the check of the mutated claim gives.
    fn verdicts(&self) -> Vec<VerdictName> {
        let (text, name) = (self.text(), self.number.to_string());
        if self.includes {
            return check_with_includes(self.file, &text, &self.id, &name);
        }
        let outcome = match &self.method {
            Method::Answers { path, .. } => {
                check_with_answer_file(self.file, &path.node, &text, &self.id, &name)
            }
            _ => common::check_claim("mutant.cert", &text, &self.id),
        };
        outcome
            .report
            .files
            .iter()
            .flat_map(|f| f.claims.iter().map(|c| c.verdict))
            .collect()
    }
}

#[test]
fn every_mutated_claim_is_refuted() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("crate root");
    let mut files = Vec::new();
    for dir in [
        "certificates/cram",
        "certificates/schneider-2006",
        "certificates/thiemann-lanzerath-2022",
        "certificates/cgt",
        "certificates/bode-2000",
        "certificates/octal",
        "certificates/domineering",
    ] {
        files.extend(common::cert_files(dir));
    }
    let sources: Vec<(std::path::PathBuf, String)> = files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).expect("readable");
            (file, text)
        })
        .collect();
    let mut mutants = Vec::new();
    for (file, text) in &sources {
        let parsed = gamecert::syntax::parse_file(text);
        let includes = text.contains("\ninclude ");
        for item in &parsed.items {
            let Item::Claim(claim) = item else { continue };
            for (span, replacement) in mutations(&claim.statement.node, text) {
                mutants.push(Mutant {
                    number: mutants.len(),
                    file,
                    source: text,
                    includes,
                    id: claim.id.node.clone(),
                    method: claim.method.node.clone(),
                    span,
                    replacement,
                });
            }
        }
    }
    assert!(mutants.len() >= 290, "only {} mutants", mutants.len());
    // The mutants are independent: one thread per core.
    common::on_every_core(&mutants, |mutant| {
        assert_eq!(
            mutant.verdicts(),
            vec![VerdictName::Refuted],
            "{}: {} with {}",
            mutant.file.display(),
            mutant.id,
            mutant.replacement
        );
    });
}

/// Mutating a table entry's value rejects the claim resting on it: the
/// table no longer establishes it (the claim itself is still true).
#[test]
fn every_mutated_table_entry_is_rejected() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/certificates/cram/table.cert"
    ))
    .expect("table");
    let parsed = gamecert::syntax::parse_file(&text);
    let mut mutated = 0;
    for item in &parsed.items {
        let Item::Claim(claim) = item else { continue };
        let gamecert::syntax::ast::Method::Table(rows) = &claim.method.node else {
            continue;
        };
        for row in rows {
            let span = row.value.span;
            let broken = format!(
                "{}{}{}",
                &text[..span.start],
                row.value.node + 1,
                &text[span.end..]
            );
            let outcome = common::check_claim("mutant.cert", &broken, &claim.id.node);
            let verdict = outcome.report.files[0].claims[0].verdict;
            assert_eq!(
                verdict,
                VerdictName::Rejected,
                "{} entry at {}",
                claim.id.node,
                span.start
            );
            mutated += 1;
        }
    }
    assert!(mutated >= 9);
}
