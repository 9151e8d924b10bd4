//! The pipeline of `gamecert check`: load, elaborate, run the kernel on every
//! claim (in parallel), and assemble the report.
//!
//! Key decision: claims are independent jobs with their own budget and memo,
//! handed to `--jobs` worker threads through a shared counter; results are
//! stored by job index, so the report is identical whatever the scheduling.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::elaborate::Explicit;
use crate::elaborate::canonical::Canonical;
use crate::elaborate::load::{SourceFile, UsageError, load_within};
use crate::kernel::budget::Budget;
use crate::kernel::impartial::check::check;
use crate::kernel::partizan::check::Statement;
use crate::kernel::partizan::check::check as check_partizan;
use crate::kernel::verdict::Verdict;
use crate::report::diagnostics::{LineIndex, Problem, elab_problem, render, syntax_problem};
use crate::report::{ClaimReport, ErrorReport, FileReport, Report, Summary, VerdictName, wording};

/// Limits for each claim's search (and elaboration).
pub use crate::kernel::budget::Limits;

/// A claim's verdict, seconds, and the elaborator's suggestion if any.
type ClaimResult = (Verdict, f64, Option<String>);

/// For a refuted partizan value claim, the game's canonical form (computed
/// by the untrusted elaborator, within a small budget) as a suggestion.
fn suggestion(explicit: &Explicit, verdict: &Verdict) -> Option<String> {
    let (Explicit::Partizan(Statement::Value { game, .. }, _), Verdict::Refuted { .. }) =
        (explicit, verdict)
    else {
        return None;
    };
    let budget = Budget::new(Some(2_000_000), Some(Duration::from_secs(5)), 4_000_000);
    let mut canon = Canonical::new(budget);
    let g = canon.of_term(game).ok()?;
    Some(canon.print(g))
}

/// Options of a check run.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Worker threads.
    pub jobs: usize,
    /// Per-claim limits.
    pub limits: Limits,
    /// Whether to record seconds per claim.
    pub timings: bool,
    /// Check only the claims with this id (and report only them).
    pub only: Option<String>,
}

/// The report and the rendered diagnostics of a run.
pub struct Outcome {
    /// The report.
    pub report: Report,
    /// miette renderings of every file problem, for standard error.
    pub diagnostics: Vec<String>,
}

/// Kernel-checks every claim of every file reached from `paths`. The
/// per-claim limits bound each claim's elaboration too (a fresh budget of
/// them for its searches), as well as its kernel check.
pub fn check_paths(paths: &[PathBuf], options: &CheckOptions) -> Result<Outcome, UsageError> {
    let files = load_within(paths, &options.limits)?;
    Ok(check_files(&files, options))
}

/// Kernel-checks every claim of already loaded files.
pub fn check_files(files: &[SourceFile], options: &CheckOptions) -> Outcome {
    let jobs: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| (0..file.claims.len()).map(move |c| (f, c)))
        .filter(|&(f, c)| selected(options, &files[f].claims[c].id))
        .collect();
    let results: Vec<Mutex<Option<ClaimResult>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    // Cores left idle by a run with fewer claims than workers search inside
    // the claims. A node budget must give the same verdict on every run, and
    // helpers change how many positions the main search expands, so a run
    // with a node budget uses none.
    let workers = options.jobs.max(1);
    let helpers = if options.limits.max_nodes.is_some() || jobs.is_empty() {
        0
    } else {
        (workers / jobs.len()).saturating_sub(1)
    };
    let next = AtomicUsize::new(0);
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(f, c)) = jobs.get(i) else { break };
        let Ok(explicit) = &files[f].claims[c].explicit else {
            continue;
        };
        let started = Instant::now();
        let Some(verdict) = run_kernel(explicit, options, helpers) else {
            continue; // derived: after the claims it cites, below
        };
        let seconds = started.elapsed().as_secs_f64();
        let hint = suggestion(explicit, &verdict);
        if let Ok(mut slot) = results[i].lock() {
            *slot = Some((verdict, seconds, hint));
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..workers.min(jobs.len().max(1)) {
            // The searches recurse once per move; a large stack keeps the
            // deepest boards (64 cells) far from the limit.
            let spawned = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                worker();
            }
        }
    });
    let mut results: Vec<Option<ClaimResult>> = results
        .into_iter()
        .map(|m| m.into_inner().ok().flatten())
        .collect();
    derive_all(files, &jobs, &mut results, options);
    let mut verdicts = results.into_iter();
    let mut summary = Summary::default();
    let mut diagnostics = Vec::new();
    let mut reports = Vec::new();
    for file in files {
        let index = LineIndex::new(&file.source);
        let mut problems: Vec<Problem> = file.ast.errors.iter().map(syntax_problem).collect();
        problems.extend(file.file_errors.iter().map(elab_problem));
        let errors: Vec<ErrorReport> = problems.iter().map(|p| error_report(p, &index)).collect();
        summary.errors += errors.len();
        for p in &problems {
            diagnostics.push(render(p, &file.display, &index));
        }
        let mut claims = Vec::new();
        for claim in file.claims.iter().filter(|c| selected(options, &c.id)) {
            let result = verdicts.next().flatten();
            let (line, _) = index.line_column(claim.span.start);
            let (verdict, rule, detail, seconds) = match (&claim.explicit, result) {
                (Err(e), _) => {
                    let problem = elab_problem(e);
                    diagnostics.push(render(&problem, &file.display, &index));
                    (
                        VerdictName::Error,
                        String::new(),
                        format!("{} [{}]", problem.message, problem.code),
                        None,
                    )
                }
                (Ok(_), Some((v, secs, hint))) => {
                    let (name, rule) = match &v {
                        Verdict::Verified { rule, .. } => (VerdictName::Verified, rule),
                        Verdict::Refuted { rule, .. } => (VerdictName::Refuted, rule),
                        Verdict::Undecided { rule, .. } => (VerdictName::Undecided, rule),
                    };
                    (
                        name,
                        rule.code().to_string(),
                        wording::detail(&v) + &hint.map(wording::suggestion).unwrap_or_default(),
                        Some(secs),
                    )
                }
                (Ok(_), None) => (
                    VerdictName::Error,
                    String::new(),
                    "the check did not complete".to_string(),
                    None,
                ),
            };
            match verdict {
                VerdictName::Verified => summary.verified += 1,
                VerdictName::Refuted => summary.refuted += 1,
                VerdictName::Undecided => summary.undecided += 1,
                VerdictName::Error => summary.errors += 1,
            }
            let depends_on = claim
                .explicit
                .as_ref()
                .ok()
                .and_then(Explicit::citations)
                .map(<[String]>::to_vec)
                .unwrap_or_default();
            claims.push(ClaimReport {
                id: claim.id.clone(),
                statement: claim.statement.clone(),
                verdict,
                rule,
                depends_on,
                detail,
                line,
                seconds: seconds.filter(|_| options.timings),
            });
        }
        reports.push(FileReport {
            path: file.display.clone(),
            sha256: file.sha256.clone(),
            claims,
            errors,
        });
    }
    Outcome {
        report: Report {
            gamecert: "1",
            files: reports,
            summary,
        },
        diagnostics,
    }
}

/// Verdicts of the derived claims among `jobs`, each after the claims it
/// cites (a cited claim that was not selected is checked here too). A
/// derived claim stands only on verified citations; the elaborator has
/// already refused unknown and circular citations.
fn derive_all(
    files: &[SourceFile],
    jobs: &[(usize, usize)],
    results: &mut [Option<ClaimResult>],
    options: &CheckOptions,
) {
    use std::collections::HashMap;
    let mut known: HashMap<(usize, usize), Verdict> = HashMap::new();
    for (&job, result) in jobs.iter().zip(results.iter()) {
        if let Some((v, _, _)) = result {
            known.insert(job, v.clone());
        }
    }
    for (i, &(f, c)) in jobs.iter().enumerate() {
        let cites = files[f].claims[c]
            .explicit
            .as_ref()
            .ok()
            .and_then(Explicit::citations);
        if cites.is_some() {
            let started = Instant::now();
            let verdict = verdict_of(&files[f], f, c, &mut known, options, 0);
            results[i] = Some((verdict, started.elapsed().as_secs_f64(), None));
        }
    }
}

/// The verdict of claim `c` of file `f`, computing what it cites first.
fn verdict_of(
    file: &SourceFile,
    f: usize,
    c: usize,
    known: &mut std::collections::HashMap<(usize, usize), Verdict>,
    options: &CheckOptions,
    depth: usize,
) -> Verdict {
    use crate::kernel::maker::derived::{Cited, Side};
    use crate::kernel::verdict::{Rule, Undecided};
    if let Some(v) = known.get(&(f, c)) {
        return v.clone();
    }
    let not_verified = |rule| Verdict::Undecided {
        rule,
        reason: Undecided::CitationNotVerified,
    };
    let verdict = match &file.claims[c].explicit {
        // Citations are acyclic (checked when elaborating); the depth guard
        // only keeps a bug from recursing forever.
        Ok(_) if depth > file.claims.len() => not_verified(Rule::ProofSequence),
        Ok(explicit) => match explicit.citations() {
            Some(cites) => {
                let mut cited = Vec::new();
                let mut all_verified = true;
                for id in cites {
                    let Some(j) = file.claims.iter().position(|k| &k.id == id) else {
                        all_verified = false;
                        continue;
                    };
                    let v = verdict_of(file, f, j, known, options, depth + 1);
                    let claim = file.claims[j]
                        .explicit
                        .as_ref()
                        .ok()
                        .and_then(Explicit::game_claim);
                    match (v, claim) {
                        (Verdict::Verified { value, .. }, Some(claim)) => {
                            // A verified win's value is its turn bound (0: none).
                            let bounded = claim.side == Side::Winner && value > 0;
                            cited.push(Cited {
                                claim,
                                turns: bounded.then_some(value),
                            });
                        }
                        _ => all_verified = false,
                    }
                }
                cited_verdict(explicit, &cited, all_verified, options)
            }
            None => run_kernel(explicit, options, 0)
                .unwrap_or_else(|| not_verified(Rule::ProofSequence)),
        },
        Err(_) => not_verified(Rule::ProofSequence),
    };
    known.insert((f, c), verdict.clone());
    verdict
}

/// The kernel's verdict on a claim that cites others, given what they
/// establish (`all_verified`: every citation was verified).
fn cited_verdict(
    explicit: &Explicit,
    cited: &[crate::kernel::maker::derived::Cited],
    all_verified: bool,
    options: &CheckOptions,
) -> Verdict {
    use crate::kernel::breaker::{classify, threshold};
    use crate::kernel::maker::derived;
    use crate::kernel::verdict::{Rule, Undecided};
    let games: Vec<_> = cited.iter().map(|c| c.claim.clone()).collect();
    let (rule, verdict) = match explicit {
        Explicit::Derived(claim, rule, _) => (
            derived::rule_of(rule),
            all_verified.then(|| derived::check(claim, rule, cited, options.limits.budget())),
        ),
        Explicit::Threshold(claim, _) => (
            Rule::Threshold,
            all_verified.then(|| threshold::check(claim, &games, options.limits.budget())),
        ),
        Explicit::Classify(claim, _) => (
            Rule::Classification,
            all_verified.then(|| classify::check(claim, &games, options.limits.budget())),
        ),
        _ => (Rule::ProofSequence, None),
    };
    verdict.unwrap_or(Verdict::Undecided {
        rule,
        reason: Undecided::CitationNotVerified,
    })
}

/// The kernel's verdict on a claim that rests on nothing else (`None` for
/// derived claims, which need their citations' verdicts first);
/// `helpers`: extra threads a search may use.
fn run_kernel(explicit: &Explicit, options: &CheckOptions, helpers: usize) -> Option<Verdict> {
    let budget = options.limits.budget();
    Some(match explicit {
        Explicit::Impartial(statement, evidence) => check(statement, evidence, budget, helpers),
        Explicit::Partizan(statement, evidence) => check_partizan(statement, evidence, budget),
        Explicit::Animals(claim) => crate::kernel::animals::check(claim, budget, helpers + 1),
        Explicit::Maker(claim, proof) => crate::kernel::maker::check(claim, proof, budget),
        Explicit::Breaker(claim, strategy) => {
            crate::kernel::breaker::check(claim, strategy, budget)
        }
        Explicit::Priority(claim, strategy) => {
            crate::kernel::breaker::priority::check(claim, strategy, budget)
        }
        Explicit::Derived(..) | Explicit::Threshold(..) | Explicit::Classify(..) => return None,
    })
}

fn selected(options: &CheckOptions, id: &str) -> bool {
    options.only.as_deref().is_none_or(|only| only == id)
}

/// Kernel-checks a certificate given as text (its includes are resolved
/// relative to the working directory, inside it).
pub fn check_source(display: &str, text: &str, options: &CheckOptions) -> Outcome {
    let file = crate::elaborate::load::from_source_within(display, text, &options.limits);
    check_files(&[file], options)
}

fn error_report(p: &Problem, index: &LineIndex) -> ErrorReport {
    let (line, column) = index.line_column(p.span.start);
    ErrorReport {
        code: p.code,
        message: p.message.clone(),
        line,
        column,
        start: p.span.start,
        end: p.span.end,
    }
}

/// The exit code of a finished run (SPEC 5): errors first (the run did not
/// check everything it was given), then refutations, then undecided claims.
pub fn exit_code(summary: &Summary) -> i32 {
    if summary.errors > 0 {
        2
    } else if summary.refuted > 0 {
        1
    } else if summary.undecided > 0 {
        3
    } else {
        0
    }
}
