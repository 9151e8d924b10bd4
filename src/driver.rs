//! The pipeline of `gamecert check`: load, elaborate, run the kernel on every
//! claim (in parallel), and assemble the report.
//!
//! Key decision: the driver only schedules. Claims that cite nothing are
//! independent jobs with their own budget and memo, handed to `--jobs`
//! worker threads through a shared counter; results are stored by place, so
//! the report is identical whatever the scheduling. What a cited claim
//! established is read by the kernel from its ledger; the driver resolves
//! ids to places and records verdicts, nothing more. Every kernel call runs
//! behind a panic boundary, so a bug costs one claim, not the run.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::elaborate::canonical::Canonical;
use crate::elaborate::load::{SourceFile, UsageError, load_within};
use crate::elaborate::{ElabError, ElabErrorKind};
use crate::kernel::budget::Budget;
use crate::kernel::claim::{self, Claim};
use crate::kernel::ledger::{Ledger, Place};
use crate::kernel::partizan::check::Statement;
use crate::kernel::verdict::Verdict;
use crate::report::diagnostics::{
    LineIndex, Problem, elab_problem, render, syntax_problem, verdict_problem,
};
use crate::report::locate::{Location, locate};
use crate::report::{
    ClaimReport, ErrorReport, FileReport, LimitsReport, LocationReport, Report, Summary,
    VerdictName, wording,
};
use crate::syntax::ast::Item;

/// Limits for each claim's search (and elaboration).
pub use crate::kernel::budget::Limits;

/// How one claim's check ended.
#[derive(Clone, Debug)]
enum Checked {
    /// The kernel's verdict, the seconds it took, and for a refuted value
    /// claim the elaborator's suggestion.
    Kernel(Verdict, f64, Option<String>),
    /// A bug stopped the check of this claim (a panic caught at the claim's
    /// boundary); the message says where.
    Internal(String),
}

/// The most a suggestion may cost: it only decorates a REFUTED line.
const SUGGESTION_NODES: u64 = 2_000_000;
const SUGGESTION_TIME: Duration = Duration::from_secs(5);
const SUGGESTION_ENTRIES: usize = 4_000_000;

/// For a refuted partizan value claim, the game's canonical form (computed
/// by the untrusted elaborator, within a small budget that never exceeds
/// the run's own limits) as a suggestion.
fn suggestion(claim: &Claim<Place>, verdict: &Verdict, limits: &Limits) -> Option<String> {
    let (Claim::Partizan(Statement::Value { game, .. }, _), Verdict::Refuted { .. }) =
        (claim, verdict)
    else {
        return None;
    };
    let nodes = limits
        .max_nodes
        .map_or(SUGGESTION_NODES, |n| n.min(SUGGESTION_NODES));
    let time = limits
        .time
        .map_or(SUGGESTION_TIME, |t| t.min(SUGGESTION_TIME));
    let entries = limits.max_entries.min(SUGGESTION_ENTRIES);
    let budget = Budget::new(Some(nodes), Some(time), entries);
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

/// Every claim of the run in order (files that are included before the
/// files including them, otherwise in the order given; each file's claims
/// in source order): its file, its index in the file, and the claim with
/// its citations resolved to places, or why it cannot be checked. A claim
/// cites claims of its file defined before it, or claims of the files its
/// file includes (directly or not), which all come earlier.
struct Schedule {
    jobs: Vec<(usize, usize)>,
    /// Each claim's fingerprint, by place (see `ClaimReport::fingerprint`).
    fingerprints: Vec<String>,
    /// The place of each file's first claim, by the file's index.
    first_place: Vec<usize>,
    claims: Vec<Result<Claim<Place>, ElabError>>,
}

impl Schedule {
    fn of(files: &[SourceFile]) -> Schedule {
        let index: HashMap<&PathBuf, usize> = files
            .iter()
            .enumerate()
            .map(|(f, file)| (&file.key, f))
            .collect();
        let includes: Vec<Vec<usize>> = files
            .iter()
            .map(|file| {
                file.includes
                    .iter()
                    .filter_map(|k| index.get(k).copied())
                    .collect()
            })
            .collect();
        let mut jobs = Vec::new();
        let mut first_place = vec![0; files.len()];
        for f in included_first(&includes) {
            first_place[f] = jobs.len();
            jobs.extend((0..files[f].claims.len()).map(|c| (f, c)));
        }
        let claims: Vec<Result<Claim<Place>, ElabError>> = jobs
            .iter()
            .map(|&(f, c)| {
                let file = &files[f];
                let explicit = file.claims[c].explicit.as_ref().map_err(Clone::clone)?;
                explicit.resolve(|_, id| {
                    let error = |kind| ElabError {
                        kind,
                        span: id.span,
                    };
                    // Ids are unique per file (a repeated id is an error on
                    // the repeat), so the first claim with the id is the one.
                    let position = |g: usize| files[g].claims.iter().position(|k| k.id == id.node);
                    match position(f) {
                        Some(j) if j < c => return Ok(Place(first_place[f] + j)),
                        Some(_) => {
                            return Err(error(ElabErrorKind::CitationNotBefore(id.node.clone())));
                        }
                        None => {}
                    }
                    let found: Vec<Place> = reachable(&includes, f)
                        .into_iter()
                        .filter_map(|g| position(g).map(|j| Place(first_place[g] + j)))
                        .collect();
                    match found.as_slice() {
                        [one] => Ok(*one),
                        [] => Err(error(ElabErrorKind::UnknownCitation(id.node.clone()))),
                        _ => Err(error(ElabErrorKind::AmbiguousCitation(id.node.clone()))),
                    }
                })
            })
            .collect();
        let fingerprints = fingerprints(files, &jobs, &claims);
        Schedule {
            jobs,
            fingerprints,
            first_place,
            claims,
        }
    }

    /// The places to check: those selected, and every place they cite,
    /// directly or not (cited places come earlier, so one backward pass).
    fn needed(&self, selected: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut needed: Vec<bool> = (0..self.jobs.len()).map(selected).collect();
        for place in (0..self.jobs.len()).rev() {
            if !needed[place] {
                continue;
            }
            if let Ok(claim) = &self.claims[place] {
                for cited in claim.citations().unwrap_or_default() {
                    if let Some(n) = needed.get_mut(cited.0) {
                        *n = true;
                    }
                }
            }
        }
        needed
    }
}

/// The fingerprint of every claim, in place order (a cited claim comes
/// before the claims citing it, so its fingerprint is known): SHA-256 of
/// the explicit claim with each citation replaced by the cited claim's
/// fingerprint, or of the statement and the error for a claim that could
/// not be elaborated.
fn fingerprints(
    files: &[SourceFile],
    jobs: &[(usize, usize)],
    claims: &[Result<Claim<Place>, ElabError>],
) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(jobs.len());
    for (place, &(f, c)) in jobs.iter().enumerate() {
        let meaning = match &claims[place] {
            Ok(claim) => {
                let cited = claim.resolve(|_, p: &Place| out.get(p.0).cloned().ok_or(()));
                format!("{cited:?}")
            }
            Err(e) => format!("error {} {:?}", files[f].claims[c].statement, e.kind),
        };
        out.push(crate::elaborate::load::sha256_hex(meaning.as_bytes()));
    }
    out
}

/// The files in an order where every file comes after the files it
/// includes (a depth-first order; includes have no cycle, those closing one
/// were dropped when loading), otherwise in their given order.
fn included_first(includes: &[Vec<usize>]) -> Vec<usize> {
    fn visit(f: usize, includes: &[Vec<usize>], done: &mut [bool], order: &mut Vec<usize>) {
        if std::mem::replace(&mut done[f], true) {
            return;
        }
        for &g in &includes[f] {
            visit(g, includes, done, order);
        }
        order.push(f);
    }
    let mut done = vec![false; includes.len()];
    let mut order = Vec::with_capacity(includes.len());
    for f in 0..includes.len() {
        visit(f, includes, &mut done, &mut order);
    }
    order
}

/// The files `f` includes, directly or not.
fn reachable(includes: &[Vec<usize>], f: usize) -> Vec<usize> {
    let mut seen = vec![false; includes.len()];
    let mut stack = includes[f].clone();
    let mut out = Vec::new();
    while let Some(g) = stack.pop() {
        if g != f && !std::mem::replace(&mut seen[g], true) {
            out.push(g);
            stack.extend(&includes[g]);
        }
    }
    out
}

/// Runs `check` behind a panic boundary: a bug in a rule ends that claim
/// as an internal error and the run goes on.
fn guarded(check: impl FnOnce() -> Checked) -> Checked {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Checked::Internal(message)
    })
}

/// The kernel's check of the claim at `place`, timed, behind the panic
/// boundary.
fn run(
    place: Place,
    claim: &Claim<Place>,
    ledger: &Ledger,
    options: &CheckOptions,
    helpers: usize,
) -> Checked {
    guarded(|| {
        let started = Instant::now();
        let verdict = claim::check(place, claim, ledger, options.limits.budget(), helpers);
        let seconds = started.elapsed().as_secs_f64();
        let hint = suggestion(claim, &verdict, &options.limits);
        Checked::Kernel(verdict, seconds, hint)
    })
}

/// Kernel-checks every claim of already loaded files.
///
/// Claims that cite nothing run first, in parallel on `--jobs` workers
/// (results stored by place, so the report does not depend on
/// scheduling); then every claim, in order, has its verdict recorded in
/// the kernel's ledger, and claims that cite others are checked there,
/// reading the ledger.
pub fn check_files(files: &[SourceFile], options: &CheckOptions) -> Outcome {
    let schedule = Schedule::of(files);
    let is_selected = |place: usize| {
        let (f, c) = schedule.jobs[place];
        selected(options, &files[f].claims[c].id)
    };
    let needed = schedule.needed(is_selected);
    let independent: Vec<usize> = (0..schedule.jobs.len())
        .filter(|&p| needed[p])
        .filter(|&p| matches!(&schedule.claims[p], Ok(c) if c.citations().is_none()))
        .collect();
    let mut results: Vec<Option<Checked>> = run_independent(&schedule, &independent, options);
    let mut ledger = Ledger::new();
    for place in (0..schedule.jobs.len()).filter(|&p| needed[p]) {
        if results[place].is_none()
            && let Ok(claim) = &schedule.claims[place]
        {
            results[place] = Some(run(Place(place), claim, &ledger, options, 0));
        }
        match &results[place] {
            Some(Checked::Kernel(verdict, ..)) => ledger.record(Place(place), verdict),
            _ => ledger.record_error(Place(place)),
        }
    }
    assemble(files, &schedule, results, options)
}

/// The claims of `places` (none of which cites another) checked on the
/// worker threads; results by place.
fn run_independent(
    schedule: &Schedule,
    places: &[usize],
    options: &CheckOptions,
) -> Vec<Option<Checked>> {
    let slots: Vec<Mutex<Option<Checked>>> =
        schedule.jobs.iter().map(|_| Mutex::new(None)).collect();
    // Cores left idle by a run with fewer claims than workers search inside
    // the claims. A node budget must give the same verdict on every run, and
    // helpers change how many positions the main search expands, so a run
    // with a node budget uses none.
    let workers = options.jobs.max(1);
    let helpers = if options.limits.max_nodes.is_some() || places.is_empty() {
        0
    } else {
        (workers / places.len()).saturating_sub(1)
    };
    let empty = Ledger::new();
    let next = AtomicUsize::new(0);
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&place) = places.get(i) else { break };
        let Ok(claim) = &schedule.claims[place] else {
            continue;
        };
        let checked = run(Place(place), claim, &empty, options, helpers);
        if let Ok(mut slot) = slots[place].lock() {
            *slot = Some(checked);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..workers.min(places.len().max(1)) {
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
    slots
        .into_iter()
        .map(|m| m.into_inner().ok().flatten())
        .collect()
}

/// The report of a run: one line per selected claim, file problems, and
/// the summary.
fn assemble(
    files: &[SourceFile],
    schedule: &Schedule,
    mut results: Vec<Option<Checked>>,
    options: &CheckOptions,
) -> Outcome {
    let mut summary = Summary::default();
    let mut diagnostics = Vec::new();
    let mut reports = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let index = LineIndex::new(&file.source);
        let mut problems: Vec<Problem> = file.ast.errors.iter().map(syntax_problem).collect();
        problems.extend(file.file_errors.iter().map(elab_problem));
        let errors: Vec<ErrorReport> = problems.iter().map(|p| error_report(p, &index)).collect();
        summary.errors += errors.len();
        for p in &problems {
            diagnostics.push(render(p, &file.display, &index));
        }
        let mut claims = Vec::new();
        let written = file.ast.items.iter().filter_map(|item| match item {
            Item::Claim(c) => Some(c.as_ref()),
            _ => None,
        });
        for (c, (claim, ast_claim)) in file.claims.iter().zip(written).enumerate() {
            let here = schedule.first_place[f] + c;
            if !selected(options, &claim.id) {
                continue;
            }
            let (line, _) = index.line_column(claim.span.start);
            let depends_on = claim
                .explicit
                .as_ref()
                .ok()
                .and_then(|e| e.citations())
                .map(|ids| ids.iter().map(|id| id.node.clone()).collect())
                .unwrap_or_default();
            let mut location = None;
            let (verdict, rule, detail, seconds) =
                match (&schedule.claims[here], results[here].take()) {
                    (Err(e), _) => {
                        let problem = elab_problem(e);
                        diagnostics.push(render(&problem, &file.display, &index));
                        let detail = format!("{} [{}]", problem.message, problem.code);
                        (VerdictName::Error, String::new(), detail, None)
                    }
                    (Ok(c), Some(Checked::Internal(message))) => (
                        VerdictName::Error,
                        c.rule().code().to_string(),
                        wording::internal_error(&message),
                        None,
                    ),
                    (Ok(_), Some(Checked::Kernel(v, secs, hint))) => {
                        let name = verdict_name(&v);
                        let detail = wording::detail(&v)
                            + &hint.map(wording::suggestion).unwrap_or_default();
                        if let Some(at) = locate(ast_claim, &v) {
                            let problem = verdict_problem(name, &claim.id, &detail, &at);
                            diagnostics.push(render(&problem, &file.display, &index));
                            location = Some(location_report(&at, &index));
                        }
                        (name, v.rule().code().to_string(), detail, Some(secs))
                    }
                    (Ok(c), None) => (
                        VerdictName::Error,
                        c.rule().code().to_string(),
                        wording::internal_error("the check did not complete"),
                        None,
                    ),
                };
            summary.count(verdict);
            claims.push(ClaimReport {
                id: claim.id.clone(),
                statement: claim.statement.clone(),
                verdict,
                rule,
                depends_on,
                detail,
                line,
                fingerprint: schedule.fingerprints[here].clone(),
                location,
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
            tool: format!("gamecert {}", env!("CARGO_PKG_VERSION")),
            limits: LimitsReport {
                nodes: options.limits.max_nodes,
                seconds: options.limits.time.map(|t| t.as_secs_f64()),
                memo_entries: options.limits.max_entries,
            },
            files: reports,
            summary,
        },
        diagnostics,
    }
}

/// The report's name of a kernel verdict (a malformed claim is an ERROR).
fn verdict_name(v: &Verdict) -> VerdictName {
    match v {
        Verdict::Verified { .. } => VerdictName::Verified,
        Verdict::Refuted { .. } => VerdictName::Refuted,
        Verdict::Rejected { .. } => VerdictName::Rejected,
        Verdict::Undecided { .. } => VerdictName::Undecided,
        Verdict::Malformed { .. } => VerdictName::Error,
    }
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

fn location_report(at: &Location, index: &LineIndex) -> LocationReport {
    let (line, column) = index.line_column(at.span.start);
    LocationReport {
        line,
        column,
        start: at.span.start,
        end: at.span.end,
        label: at.label.clone(),
    }
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
/// check everything it was given, or checked nothing at all), then
/// refuted or rejected claims, then undecided ones.
pub fn exit_code(summary: &Summary) -> i32 {
    if summary.errors > 0 || summary.claims() == 0 {
        2
    } else if summary.refuted > 0 || summary.rejected > 0 {
        1
    } else if summary.undecided > 0 {
        3
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{Checked, guarded};

    #[test]
    fn a_panic_in_a_check_becomes_an_internal_error() {
        let checked = guarded(|| panic!("a bug in a rule"));
        assert!(matches!(checked, Checked::Internal(m) if m.contains("a bug in a rule")));
        let formatted = guarded(|| panic!("value {}", 7));
        assert!(matches!(formatted, Checked::Internal(m) if m.contains("value 7")));
    }
}
