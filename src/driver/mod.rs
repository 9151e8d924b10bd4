//! The pipeline of `gamecert check`: load, elaborate, run the kernel on every
//! claim (in parallel), and assemble the report while it runs.
//!
//! Key decision: the driver only schedules. `schedule` gives every claim a
//! place and resolves its citations to earlier places; `pipeline` checks
//! independent claims on worker threads while the calling thread keeps the
//! kernel's ledger; `assemble` turns each result into its report line the
//! moment the claim's turn in the report comes, so callers can stream the
//! report (`Event`). What a cited claim established is read by the kernel
//! from its ledger; the driver resolves ids to places and records verdicts,
//! nothing more. `cache` lets a run skip claims this kernel verified before.

mod assemble;
pub mod cache;
mod pipeline;
mod schedule;

use std::path::PathBuf;

use crate::elaborate::load::{SourceFile, UsageError, load_within};
use crate::kernel::verdict::Verdict;
use crate::report::{ClaimReport, ErrorReport, LimitsReport, Report, Summary, VerdictName};

use assemble::Assembler;
pub use cache::Cache;
use schedule::Schedule;

/// Limits for each claim's search (and elaboration).
pub use crate::kernel::budget::Limits;

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

/// What a run has decided, in report order, as it happens.
pub enum Event<'a> {
    /// The run starts and will report this many claims.
    Start {
        /// Claims the report will hold.
        claims: usize,
    },
    /// A file's problems (syntax, includes, declarations), before its claims.
    File {
        /// The file as shown in reports.
        path: &'a str,
        /// Its problems.
        errors: &'a [ErrorReport],
        /// Their miette renderings.
        diagnostics: &'a [String],
    },
    /// One claim's verdict.
    Claim {
        /// Its file as shown in reports.
        path: &'a str,
        /// The claim's report.
        claim: &'a ClaimReport,
        /// The miette rendering of a failure, if any.
        diagnostics: &'a [String],
    },
}

/// Kernel-checks every claim of every file reached from `paths`. The
/// per-claim limits bound each claim's elaboration too (a fresh budget of
/// them for its searches), as well as its kernel check.
pub fn check_paths(paths: &[PathBuf], options: &CheckOptions) -> Result<Outcome, UsageError> {
    check_paths_with(paths, options, None, &mut |_| {})
}

/// [`check_paths`] with a verdict cache and a listener that sees every
/// claim as soon as its turn in the report comes.
pub fn check_paths_with(
    paths: &[PathBuf],
    options: &CheckOptions,
    cache: Option<&Cache>,
    listen: &mut dyn FnMut(Event<'_>),
) -> Result<Outcome, UsageError> {
    let files = load_within(paths, &options.limits, options.jobs)?;
    Ok(check_files_with(&files, options, cache, listen))
}

/// Kernel-checks every claim of already loaded files.
pub fn check_files(files: &[SourceFile], options: &CheckOptions) -> Outcome {
    check_files_with(files, options, None, &mut |_| {})
}

/// Kernel-checks every claim of already loaded files, telling `listen` of
/// each claim in report order as soon as it is decided.
///
/// With a cache, a selected claim this kernel verified before is reported
/// from the cache, unless a claim that is checked cites it: the kernel's
/// ledger must then hold its verdict, so it is checked again.
pub fn check_files_with(
    files: &[SourceFile],
    options: &CheckOptions,
    cache: Option<&Cache>,
    listen: &mut dyn FnMut(Event<'_>),
) -> Outcome {
    let schedule = Schedule::of(files);
    let mut assembler = Assembler::new(files, &schedule, options);
    let count = schedule.jobs.len();
    let is_selected = |place: usize| {
        let (f, c) = schedule.jobs[place];
        selected(options, &files[f].claims[c].id)
    };
    let hits: Vec<Option<String>> = (0..count)
        .map(|place| {
            let cache = cache.filter(|_| is_selected(place) && schedule.claims[place].is_ok())?;
            cache.lookup(&schedule.fingerprints[place])
        })
        .collect();
    let needed = schedule.needed(|place| is_selected(place) && hits[place].is_none());
    for (place, hit) in hits.into_iter().enumerate() {
        if let Some(rule) = hit.filter(|_| !needed[place]) {
            assembler.cached(place, rule);
        }
    }
    listen(Event::Start {
        claims: assembler.claim_count(),
    });
    assembler.advance(listen);
    pipeline::check_needed(&schedule, &needed, options, |place, checked| {
        assembler.finished(place, checked, cache, listen);
    });
    assembler.advance(listen);
    let report = Report::new(
        limits_report(&options.limits),
        std::mem::take(&mut assembler.reports),
        assembler.summary,
        false,
    );
    Outcome {
        report,
        diagnostics: std::mem::take(&mut assembler.diagnostics),
    }
}

/// The limits of a run, as the report states them.
pub fn limits_report(limits: &Limits) -> LimitsReport {
    LimitsReport {
        nodes: limits.max_nodes,
        seconds: limits.time.map(|t| t.as_secs_f64()),
        memo_entries: limits.max_entries,
    }
}

/// The report's name of a kernel verdict (a malformed claim is an ERROR).
pub(crate) fn verdict_name(v: &Verdict) -> VerdictName {
    match v {
        Verdict::Verified { .. } => VerdictName::Verified,
        Verdict::Refuted { .. } => VerdictName::Refuted,
        Verdict::Rejected { .. } => VerdictName::Rejected,
        Verdict::Undecided { .. } => VerdictName::Undecided,
        Verdict::Malformed { .. } => VerdictName::Error,
    }
}

pub(crate) fn selected(options: &CheckOptions, id: &str) -> bool {
    options.only.as_deref().is_none_or(|only| only == id)
}

/// Kernel-checks a certificate given as text (its includes are resolved
/// relative to the working directory, inside it).
pub fn check_source(display: &str, text: &str, options: &CheckOptions) -> Outcome {
    let file = crate::elaborate::load::from_source_within(display, text, &options.limits);
    check_files(&[file], options)
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
