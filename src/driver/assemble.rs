//! Turning checked places into the report, in report order, as soon as
//! each claim's turn comes.
//!
//! Key decision: places come from the pipeline in place order (included
//! files first), the report lists files in the order given and claims in
//! source order. The assembler keeps the results that arrive early and
//! walks a cursor over the report's order, emitting every claim whose
//! result is in; a file's problems are emitted when the cursor enters it.

use super::cache::Cache;
use super::pipeline::Checked;
use super::schedule::Schedule;
use super::{CheckOptions, Event, selected, verdict_name};
use crate::elaborate::load::SourceFile;
use crate::report::diagnostics::{
    LineIndex, Problem, elab_problem, render, syntax_problem, verdict_problem,
};
use crate::report::locate::{Location, locate};
use crate::report::{
    ClaimReport, ErrorReport, FileReport, LocationReport, Summary, VerdictName, wording,
};
use crate::syntax::ast::{Claim as AstClaim, Item};

/// What is known of one place.
enum Slot {
    /// Not decided yet.
    Pending,
    /// The pipeline's result.
    Done(Option<Checked>),
    /// Verified by an earlier run with this kernel, by this rule.
    Cached(String),
}

/// One step of the report's order.
#[derive(Clone, Copy)]
enum Step {
    /// The file's problems.
    Enter(usize),
    /// A selected claim: its file and index.
    Claim(usize, usize),
}

/// Builds the report of a run while the claims are checked.
pub(super) struct Assembler<'a> {
    files: &'a [SourceFile],
    schedule: &'a Schedule,
    options: &'a CheckOptions,
    results: Vec<Slot>,
    steps: Vec<Step>,
    cursor: usize,
    /// Each file's line index and its claims as written.
    indexes: Vec<LineIndex<'a>>,
    written: Vec<Vec<&'a AstClaim>>,
    /// The report so far, by file.
    pub(super) reports: Vec<FileReport>,
    pub(super) summary: Summary,
    pub(super) diagnostics: Vec<String>,
}

impl<'a> Assembler<'a> {
    pub(super) fn new(
        files: &'a [SourceFile],
        schedule: &'a Schedule,
        options: &'a CheckOptions,
    ) -> Assembler<'a> {
        let mut steps = Vec::new();
        for (f, file) in files.iter().enumerate() {
            steps.push(Step::Enter(f));
            for (c, claim) in file.claims.iter().enumerate() {
                if selected(options, &claim.id) {
                    steps.push(Step::Claim(f, c));
                }
            }
        }
        Assembler {
            files,
            schedule,
            options,
            results: schedule.jobs.iter().map(|_| Slot::Pending).collect(),
            steps,
            cursor: 0,
            indexes: files.iter().map(|f| LineIndex::new(&f.source)).collect(),
            written: files
                .iter()
                .map(|file| {
                    file.ast
                        .items
                        .iter()
                        .filter_map(|item| match item {
                            Item::Claim(c) => Some(c.as_ref()),
                            _ => None,
                        })
                        .collect()
                })
                .collect(),
            reports: Vec::new(),
            summary: Summary::default(),
            diagnostics: Vec::new(),
        }
    }

    /// How many claims the report will hold.
    pub(super) fn claim_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Claim(..)))
            .count()
    }

    /// Marks a place as verified before, so it needs no check.
    pub(super) fn cached(&mut self, place: usize, rule: String) {
        self.results[place] = Slot::Cached(rule);
    }

    /// Takes a place's result and emits every claim whose turn has come.
    pub(super) fn finished(
        &mut self,
        place: usize,
        checked: Option<Checked>,
        cache: Option<&Cache>,
        emit: &mut dyn FnMut(Event<'_>),
    ) {
        if let (Some(cache), Some(Checked::Kernel(v, ..))) = (cache, &checked)
            && v.is_verified()
        {
            cache.store(&self.schedule.fingerprints[place], v.rule().code());
        }
        self.results[place] = Slot::Done(checked);
        self.advance(emit);
    }

    /// Emits the steps from the cursor on, up to the first claim still
    /// pending.
    pub(super) fn advance(&mut self, emit: &mut dyn FnMut(Event<'_>)) {
        while let Some(&step) = self.steps.get(self.cursor) {
            match step {
                Step::Enter(f) => self.enter(f, emit),
                Step::Claim(f, c) => {
                    let place = self.schedule.first_place[f] + c;
                    let result = std::mem::replace(&mut self.results[place], Slot::Pending);
                    if matches!(result, Slot::Pending) && self.schedule.claims[place].is_ok() {
                        return;
                    }
                    let (report, diagnostics) = self.claim(f, c, place, result);
                    self.summary.add(&report);
                    let path = &self.files[f].display;
                    emit(Event::Claim {
                        path,
                        claim: &report,
                        diagnostics: &diagnostics,
                    });
                    self.diagnostics.extend(diagnostics);
                    if let Some(file) = self.reports.last_mut() {
                        file.claims.push(report);
                    }
                }
            }
            self.cursor += 1;
        }
    }

    /// Starts the report of file `f` with its problems.
    fn enter(&mut self, f: usize, emit: &mut dyn FnMut(Event<'_>)) {
        let file = &self.files[f];
        let index = &self.indexes[f];
        let mut problems: Vec<Problem> = file.ast.errors.iter().map(syntax_problem).collect();
        problems.extend(file.file_errors.iter().map(elab_problem));
        let errors: Vec<ErrorReport> = problems.iter().map(|p| error_report(p, index)).collect();
        let diagnostics: Vec<String> = problems
            .iter()
            .map(|p| render(p, &file.display, index))
            .collect();
        self.summary.errors += errors.len();
        emit(Event::File {
            path: &file.display,
            errors: &errors,
            diagnostics: &diagnostics,
        });
        self.diagnostics.extend(diagnostics);
        self.reports.push(FileReport {
            path: file.display.clone(),
            sha256: file.sha256.clone(),
            claims: Vec::new(),
            errors,
        });
    }

    /// The report of the claim `c` of file `f` at `place`, and its
    /// rendered diagnostics.
    fn claim(&self, f: usize, c: usize, place: usize, result: Slot) -> (ClaimReport, Vec<String>) {
        let file = &self.files[f];
        let claim = &file.claims[c];
        let index = &self.indexes[f];
        let mut diagnostics = Vec::new();
        let (line, _) = index.line_column(claim.span.start);
        let depends_on = claim
            .explicit
            .as_ref()
            .ok()
            .and_then(|e| e.citations())
            .map(|ids| ids.iter().map(|id| id.node.clone()).collect())
            .unwrap_or_default();
        let mut location = None;
        let mut cached = false;
        let (verdict, rule, detail, seconds) = match (&self.schedule.claims[place], result) {
            (Err(e), _) => {
                let problem = elab_problem(e);
                diagnostics.push(render(&problem, &file.display, index));
                let detail = format!("{} [{}]", problem.message, problem.code);
                (VerdictName::Error, String::new(), detail, None)
            }
            (Ok(_), Slot::Cached(rule)) => {
                cached = true;
                (VerdictName::Verified, rule, wording::cached(), None)
            }
            (Ok(c), Slot::Done(Some(Checked::Internal(message)))) => (
                VerdictName::Error,
                c.rule().code().to_string(),
                wording::internal_error(&message),
                None,
            ),
            (Ok(_), Slot::Done(Some(Checked::Kernel(v, secs, hint)))) => {
                let name = verdict_name(&v);
                let detail =
                    wording::detail(&v) + &hint.map(wording::suggestion).unwrap_or_default();
                if let Some(ast_claim) = self.written[f].get(c)
                    && let Some(at) = locate(ast_claim, &v)
                {
                    let problem = verdict_problem(name, &claim.id, &detail, &at);
                    diagnostics.push(render(&problem, &file.display, index));
                    location = Some(location_report(&at, index));
                }
                (name, v.rule().code().to_string(), detail, Some(secs))
            }
            (Ok(c), _) => (
                VerdictName::Error,
                c.rule().code().to_string(),
                wording::internal_error("the check did not complete"),
                None,
            ),
        };
        let report = ClaimReport {
            id: claim.id.clone(),
            statement: claim.statement.clone(),
            verdict,
            rule,
            depends_on,
            detail,
            line,
            fingerprint: self.schedule.fingerprints[place].clone(),
            cached,
            location,
            seconds: seconds.filter(|_| self.options.timings),
        };
        (report, diagnostics)
    }
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
