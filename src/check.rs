//! The `check` command's glue: streams verdict lines as claims are decided,
//! draws the progress bar, prints what was decided when the run is
//! interrupted, and applies the baseline and the cache.
//!
//! Key decision: everything the run has decided lives in one [`Live`]
//! record that the listener updates claim by claim; the interrupt handler
//! prints from the same record, so Ctrl-C or a `timeout` still leaves the
//! decided claims and a summary, in the format asked for.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::args::{self, Format, Progress};
use gamecert::baseline::Baseline;
use gamecert::driver::{Cache, CheckOptions, Event, Limits, check_paths_with, exit_code};
use gamecert::elaborate::load::{MAX_FILE_BYTES, read_text};
use gamecert::report::diagnostics::{read_error, usage_error};
use gamecert::report::junit::junit;
use gamecert::report::output::{Out, error};
use gamecert::report::{FileReport, Report, Summary, error_lines};

/// The exit code of an interrupted run (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// What the run has decided so far.
struct Live {
    format: Format,
    limits: Limits,
    files: Vec<FileReport>,
    summary: Summary,
    total: usize,
    done: usize,
    bar: Option<ProgressBar>,
}

impl Live {
    /// The report of the claims decided so far.
    fn report(&self, interrupted: bool) -> Report {
        Report::new(
            gamecert::driver::limits_report(&self.limits),
            self.files.clone(),
            self.summary,
            interrupted,
        )
    }

    /// Writes `text` to standard output, lifting the progress bar while it
    /// is written.
    fn print(&self, out: &mut Out, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| out.write(text)),
            None => out.write(text),
        }
    }

    /// Writes `text` to standard error, lifting the progress bar.
    fn warn(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| error(text)),
            None => error(text),
        }
    }

    /// Takes one event of the run.
    fn take(&mut self, event: Event<'_>, out: &mut Out) {
        match event {
            Event::Start { claims } => {
                self.total = claims;
                if let Some(bar) = &self.bar {
                    if let Ok(style) = ProgressStyle::with_template(
                        "{elapsed_precise} [{bar:30}] {pos}/{len} claims  {wide_msg}",
                    ) {
                        bar.set_style(style.progress_chars("=> "));
                    }
                    bar.set_length(claims as u64);
                    bar.set_message("");
                }
            }
            Event::File {
                path,
                errors,
                diagnostics,
            } => {
                for d in diagnostics {
                    self.warn(d);
                }
                if self.format == Format::Human {
                    self.print(out, &error_lines(path, errors));
                }
                self.summary.errors += errors.len();
                self.files.push(FileReport {
                    path: path.to_string(),
                    sha256: String::new(),
                    claims: Vec::new(),
                    errors: errors.to_vec(),
                });
            }
            Event::Claim {
                path,
                claim,
                diagnostics,
            } => {
                for d in diagnostics {
                    self.warn(d);
                }
                if self.format == Format::Human {
                    self.print(out, &claim.human(path));
                }
                self.summary.add(claim);
                self.done += 1;
                if let Some(bar) = &self.bar {
                    bar.set_position(self.done as u64);
                    bar.set_message(format!("{}: {}", claim.id, claim.verdict.word()));
                }
                if let Some(file) = self.files.last_mut() {
                    file.claims.push(claim.clone());
                }
            }
        }
    }

    /// What an interrupted run prints: the summary of the claims decided,
    /// or the partial report in the format asked for.
    fn interrupted(&self) -> String {
        let note = format!(
            "interrupted: {} of {} claims decided, the others were not checked\n",
            self.done, self.total
        );
        match self.format {
            Format::Human => note + &self.summary.human(),
            Format::Json => self.report(true).to_json() + "\n",
            Format::Junit => junit(&self.report(true)),
        }
    }
}

/// A progress bar on standard error, if one is wanted.
fn progress_bar(progress: Progress) -> Option<ProgressBar> {
    let wanted = match progress {
        Progress::Always => true,
        Progress::Never => false,
        Progress::Auto => std::io::stderr().is_terminal(),
    };
    if !wanted {
        return None;
    }
    // Until the files are read and elaborated the number of claims is not
    // known: a spinner says what is happening, the bar replaces it.
    let bar = ProgressBar::new_spinner();
    bar.set_message("reading and elaborating the certificates");
    bar.enable_steady_tick(Duration::from_millis(250));
    Some(bar)
}

/// Installs the handler that prints what was decided on Ctrl-C or a
/// termination signal and ends the process.
fn on_interrupt(live: Arc<Mutex<Live>>) {
    let installed = ctrlc::set_handler(move || {
        let live = live.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bar) = &live.bar {
            bar.finish_and_clear();
        }
        let text = live.interrupted();
        let mut out = Out::new();
        if live.format == Format::Human {
            error(&text);
        } else {
            out.write(&text);
        }
        std::process::exit(out.finish(INTERRUPTED));
    });
    if let Err(e) = installed {
        error(&format!("warning: Ctrl-C will not print a summary ({e})\n"));
    }
}

/// Reads the `--baseline` report.
fn read_baseline(path: &std::path::Path) -> Result<Baseline, String> {
    let text = read_text(path, MAX_FILE_BYTES).map_err(|e| {
        format!(
            "cannot read the baseline {}: {}",
            path.display(),
            read_error(&e)
        )
    })?;
    Baseline::parse(&text).map_err(|e| format!("cannot use the baseline {}: {e}", path.display()))
}

/// `gamecert check`.
pub fn run(c: args::CheckArgs, limits: Limits, jobs: usize, out: &mut Out) -> i32 {
    let paths = if c.paths.is_empty() {
        vec!["certificates".into()]
    } else {
        c.paths.clone()
    };
    let baseline = match c
        .baseline
        .as_deref()
        .map(|path| read_baseline(path).map(|b| (path, b)))
        .transpose()
    {
        Ok(b) => b,
        Err(e) => {
            error(&format!("error: {e}\n"));
            return 2;
        }
    };
    let cache = match c.cache.as_deref().map(Cache::open).transpose() {
        Ok(cache) => cache,
        Err(e) => {
            error(&format!("error: cannot use the cache directory: {e}\n"));
            return 2;
        }
    };
    let options = CheckOptions {
        jobs,
        limits: limits.clone(),
        timings: c.timings,
        only: c.claim.clone(),
    };
    let live = Arc::new(Mutex::new(Live {
        format: c.format,
        limits,
        files: Vec::new(),
        summary: Summary::default(),
        total: 0,
        done: 0,
        bar: progress_bar(c.progress),
    }));
    on_interrupt(Arc::clone(&live));
    let mut listen = |event: Event<'_>| {
        live.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take(event, out);
    };
    let checked = check_paths_with(&paths, &options, cache.as_ref(), &mut listen);
    let live = live.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(bar) = &live.bar {
        bar.finish_and_clear();
    }
    let outcome = match checked {
        Ok(o) => o,
        Err(e) => {
            error(&usage_error(&e));
            return 2;
        }
    };
    let report = &outcome.report;
    match c.format {
        Format::Human => out.write(&report.summary.human()),
        Format::Json => out.write(&(report.to_json() + "\n")),
        Format::Junit => out.write(&junit(report)),
    }
    if report.summary.claims() == 0 {
        // Exit 2 says the run checked nothing; say why.
        error(&match &c.claim {
            Some(id) => format!("error: no claim has the id `{id}`: nothing was checked\n"),
            None => "error: the paths hold no claim: nothing was checked\n".to_string(),
        });
    }
    match &baseline {
        Some((path, baseline)) => {
            let comparison = baseline.compare(report);
            let text = comparison.human(&path.display().to_string());
            if c.format == Format::Human {
                out.write(&text);
            } else {
                error(&text);
            }
            comparison.exit_code(report)
        }
        None => exit_code(&report.summary),
    }
}
