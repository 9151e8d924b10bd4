//! Reports: the JSON document of SPEC 5 (serde), the human lines, and the
//! wording of every verdict and diagnostic.
//!
//! Architecture invariant: this is the only place that turns facts into
//! sentences; it decides nothing about claims.

pub mod breaker;
pub mod diagnostics;
pub mod junit;
pub mod locate;
pub mod output;
pub mod wording;

use serde::Serialize;

/// The whole report of one `check` run (SPEC 5, contract; `line` and the
/// per-file `errors` are extensions).
#[derive(Debug, Serialize)]
pub struct Report {
    /// Always "1".
    pub gamecert: &'static str,
    /// The tool that wrote the report (`gamecert 0.1.0`).
    pub tool: String,
    /// The per-claim limits the run used.
    pub limits: LimitsReport,
    /// Files sorted by path.
    pub files: Vec<FileReport>,
    /// Counts over all files.
    pub summary: Summary,
    /// The run was stopped (Ctrl-C or a termination signal) before every
    /// claim was decided; the report holds the claims decided until then.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// The per-claim limits of a run, as data (`null`: no limit).
#[derive(Debug, Serialize, Clone, PartialEq)]
pub struct LimitsReport {
    /// Positions a claim's search may expand.
    pub nodes: Option<u64>,
    /// Seconds a claim's search may take.
    pub seconds: Option<f64>,
    /// Memo entries a claim's search may hold.
    pub memo_entries: usize,
}

/// One file's claims and problems.
#[derive(Debug, Serialize, Clone)]
pub struct FileReport {
    /// The path as given (relative to the working directory when below it).
    pub path: String,
    /// SHA-256 of the file.
    pub sha256: String,
    /// Claims in source order.
    pub claims: Vec<ClaimReport>,
    /// Problems not tied to one claim's check (syntax, includes).
    pub errors: Vec<ErrorReport>,
}

/// One claim's verdict.
#[derive(Debug, Serialize, Clone)]
pub struct ClaimReport {
    /// The claim id.
    pub id: String,
    /// The normalised statement.
    pub statement: String,
    /// VERIFIED, REFUTED, REJECTED, UNDECIDED or ERROR.
    pub verdict: VerdictName,
    /// The kernel rule the verdict rests on (empty for ERROR).
    pub rule: String,
    /// Ids of the claims this one rests on.
    pub depends_on: Vec<String>,
    /// What was checked, or the witness, or the reason.
    pub detail: String,
    /// 1-based line of the claim.
    pub line: usize,
    /// SHA-256 of what the claim means: its statement and evidence as the
    /// elaborator made them explicit (declarations resolved, searched
    /// sequences included) and the fingerprints of the claims it cites.
    /// Layout, comments, the id and the line do not enter it; it is stable
    /// within one version of gamecert.
    pub fingerprint: String,
    /// Whether the verdict was taken from the cache (`check --cache`)
    /// instead of a kernel check in this run.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// The part of the certificate a REFUTED, REJECTED or ERROR verdict
    /// points at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationReport>,
    /// Seconds spent, only with `--timings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

/// Where a verdict points, as data.
#[derive(Debug, Serialize, Clone, PartialEq, Eq)]
pub struct LocationReport {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// Byte offsets.
    pub start: usize,
    /// End byte offset.
    pub end: usize,
    /// What is there.
    pub label: String,
}

/// A problem as data.
#[derive(Debug, Serialize, Clone)]
pub struct ErrorReport {
    /// Stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// Byte offsets.
    pub start: usize,
    /// End byte offset.
    pub end: usize,
}

/// The five verdicts (SPEC 5).
#[derive(Debug, Serialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "UPPERCASE")]
pub enum VerdictName {
    /// Every step kernel-checked.
    Verified,
    /// Shown false.
    Refuted,
    /// The certificate does not establish the claim; nothing is said about
    /// the claim's truth.
    Rejected,
    /// Not decided within the budget or outside what the kernel decides.
    Undecided,
    /// Malformed or unknown input.
    Error,
}

impl VerdictName {
    /// The word printed in human reports.
    pub fn word(self) -> &'static str {
        match self {
            VerdictName::Verified => "VERIFIED",
            VerdictName::Refuted => "REFUTED",
            VerdictName::Rejected => "REJECTED",
            VerdictName::Undecided => "UNDECIDED",
            VerdictName::Error => "ERROR",
        }
    }
}

/// Counts of verdicts; `errors` also counts file-level problems.
#[derive(Debug, Serialize, Default, Clone, Copy)]
pub struct Summary {
    /// VERIFIED claims.
    pub verified: usize,
    /// REFUTED claims.
    pub refuted: usize,
    /// REJECTED claims.
    pub rejected: usize,
    /// UNDECIDED claims.
    pub undecided: usize,
    /// ERROR claims plus file-level problems.
    pub errors: usize,
    /// Of the VERIFIED claims, those taken from the cache.
    #[serde(skip_serializing_if = "is_zero")]
    pub cached: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Counts one claim's verdict (and whether it came from the cache).
    pub fn add(&mut self, claim: &ClaimReport) {
        self.cached += usize::from(claim.cached);
        let counter = match claim.verdict {
            VerdictName::Verified => &mut self.verified,
            VerdictName::Refuted => &mut self.refuted,
            VerdictName::Rejected => &mut self.rejected,
            VerdictName::Undecided => &mut self.undecided,
            VerdictName::Error => &mut self.errors,
        };
        *counter += 1;
    }

    /// How many claims (and file problems) the run reported.
    pub fn claims(&self) -> usize {
        self.verified + self.refuted + self.rejected + self.undecided + self.errors
    }
}

impl Report {
    /// The report of this version of gamecert, run with `limits`.
    pub fn new(
        limits: LimitsReport,
        files: Vec<FileReport>,
        summary: Summary,
        interrupted: bool,
    ) -> Report {
        Report {
            gamecert: "1",
            tool: format!("gamecert {}", env!("CARGO_PKG_VERSION")),
            limits,
            files,
            summary,
            interrupted,
        }
    }

    /// The JSON document, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The human lines: one per claim, a line per file problem, the summary.
    pub fn to_human(&self) -> String {
        let mut out = String::new();
        for file in &self.files {
            out.push_str(&error_lines(&file.path, &file.errors));
            for c in &file.claims {
                out.push_str(&c.human(&file.path));
            }
        }
        out.push_str(&self.summary.human());
        out
    }
}

/// The human lines of a file's problems.
pub fn error_lines(path: &str, errors: &[ErrorReport]) -> String {
    errors
        .iter()
        .map(|e| {
            format!(
                "ERROR     {path}:{}:{}  {} [{}]\n",
                e.line, e.column, e.message, e.code
            )
        })
        .collect()
}

/// The most characters of a statement, or of a verdict's detail, a human
/// line shows (JSON has them whole).
const SHOWN_STATEMENT: usize = 500;

/// `statement` cut to [`SHOWN_STATEMENT`] characters, saying how many more
/// there are: a statement of megabytes would otherwise fill the terminal,
/// and so would a detail naming a game as long (a move to a sum of 10,000
/// summands).
pub(crate) fn shortened(statement: &str) -> std::borrow::Cow<'_, str> {
    match statement.char_indices().nth(SHOWN_STATEMENT) {
        None => statement.into(),
        Some((cut, _)) => {
            let more = statement[cut..].chars().count();
            format!("{} ... ({more} more characters)", &statement[..cut]).into()
        }
    }
}

impl ClaimReport {
    /// The claim's human lines: the verdict line, then for anything but
    /// VERIFIED the detail and where it points, and the seconds if timed.
    pub fn human(&self, path: &str) -> String {
        let cached = if self.cached { "  (cached)" } else { "" };
        let mut out = format!(
            "{:<9} {path}:{}  {}: {}{cached}\n",
            self.verdict.word(),
            self.line,
            self.id,
            shortened(&self.statement)
        );
        if self.verdict != VerdictName::Verified {
            out.push_str(&format!("          {}\n", shortened(&self.detail)));
        }
        if let Some(at) = &self.location {
            out.push_str(&format!(
                "          at {path}:{}:{}: {}\n",
                at.line, at.column, at.label
            ));
        }
        if let Some(s) = self.seconds {
            out.push_str(&format!("          {s:.3} s\n"));
        }
        out
    }
}

impl Summary {
    /// The summary line.
    pub fn human(&self) -> String {
        let cached = if self.cached > 0 {
            format!(" ({} from the cache)", self.cached)
        } else {
            String::new()
        };
        format!(
            "{} verified{cached}, {} refuted, {} rejected, {} undecided, {} errors\n",
            self.verified, self.refuted, self.rejected, self.undecided, self.errors
        )
    }
}
