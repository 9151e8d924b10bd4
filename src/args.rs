//! The flags of the command line, mirrored as clap types, and their
//! conversion into the values the library uses.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use gamecert::driver::Limits;
use gamecert::kernel::budget::{BYTES_PER_ENTRY, DEFAULT_MAX_ENTRIES};

/// The exit codes of `check` (SPEC 5), shown in `--help`.
pub const EXIT_CODES: &str = "Exit codes of check:
  0    every claim VERIFIED (and at least one claim checked)
  1    some claim REFUTED or REJECTED (with --baseline: some claim got worse)
  2    malformed input, unknown name, I/O or usage error, or nothing checked
  3    otherwise, when some claim is UNDECIDED
  130  interrupted (Ctrl-C or a termination signal): the claims decided so far
       and the summary are printed
fmt --check and diff --check exit 1 when a file is not in the canonical layout
or a verified claim no longer is.";

/// Checks proof certificates about combinatorial games.
#[derive(Parser, Debug)]
#[command(name = "gamecert", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Kernel-check every claim of the given files and directories.
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// Print the Grundy values and outcomes of a game expression.
    Eval(EvalArgs),
    /// Time the kernel on the performance targets (or on the given games).
    Bench(BenchArgs),
    /// Draw the animals a file declares as SVG pictures.
    Render(RenderArgs),
    /// Translate a machine-made certificate into a gamecert certificate.
    Import(ImportArgs),
    /// Search for a maker win and write its proof sequence as a certificate.
    Prove(ProveArgs),
    /// Print a certificate with every proof sequence made explicit (the
    /// congruences, marks and searched sequences the elaborator filled in).
    Elaborate(ElaborateArgs),
    /// Rewrite certificate files in their canonical layout, comments kept
    /// (exit 0; with --check, 1 when a file is not in it; 2 on a file that
    /// cannot be read or parsed, which is left untouched).
    Fmt(FmtArgs),
    /// Compare two versions of certificates claim by claim: added, removed,
    /// renamed, statement or evidence changed, and with --check verdicts
    /// (exit 1 when a verified claim no longer is, 2 on unreadable input).
    Diff(DiffArgs),
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// OLD and NEW (files or directories); with --git, the one path in the
    /// repository to compare.
    #[arg(required = true, num_args = 1..=2)]
    pub paths: Vec<PathBuf>,
    /// Compare two git revisions of the path instead of two paths.
    #[arg(long, value_name = "REV1..REV2")]
    pub git: Option<String>,
    /// Check both versions and report verdicts that changed.
    #[arg(long)]
    pub check: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Worker threads for --check (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args, Debug)]
pub struct FmtArgs {
    /// Files and directories (searched for `*.cert`).
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
    /// Change nothing: list the files that are not in the canonical layout
    /// and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

#[derive(Args, Debug)]
pub struct ElaborateArgs {
    /// The certificate file.
    pub file: std::path::PathBuf,
}

#[derive(Args, Debug)]
pub struct ProveArgs {
    /// The claim, e.g. `winner V3 on cube (1,1)`.
    #[arg(required = true, num_args = 1..)]
    pub statement: Vec<String>,
    /// A certificate file whose board and animal declarations the claim uses.
    #[arg(long)]
    pub file: Option<std::path::PathBuf>,
    /// On an infinite lattice: search on the rectangle of ROWSxCOLS cells.
    #[arg(long, value_name = "ROWSxCOLS")]
    pub window: Option<String>,
    /// Where to write the certificate (default: standard output).
    #[arg(short, long)]
    pub out: Option<std::path::PathBuf>,
    /// Threads for the search of `prove grundy` and `prove outcome`
    /// (default: one per core; the misère producer, `prove grundy misere
    /// GAME`, runs on one).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub limits: BudgetArgs,
}

/// Formats `import` reads.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ImportFormat {
    /// `snaky-cards-txt-v1`: maker (1,1) strategies on the square lattice as cards.
    SnakyCards,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The format of the file.
    pub format: ImportFormat,
    /// The file to translate.
    pub file: std::path::PathBuf,
    /// The goal animal: `snaky`, `domino`, or its cells `(x,y) (x,y) ...`.
    #[arg(long, default_value = "snaky")]
    pub goal: String,
    /// The claim's id in the certificate.
    #[arg(long, default_value = "imported")]
    pub id: String,
    /// Where to write the certificate (default: standard output).
    #[arg(short, long)]
    pub out: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The certificate file.
    pub file: std::path::PathBuf,
    /// The directory to write `NAME.svg` files into (created if missing).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per claim, streamed as claims are decided, then a summary.
    Human,
    /// One JSON document (SPEC 5) at the end.
    Json,
    /// JUnit XML for CI dashboards: a test suite per file, a test case per
    /// claim (only `check`).
    Junit,
}

/// Search limits shared by `check` and `eval`.
#[derive(Args, Debug)]
pub struct BudgetArgs {
    /// Per-claim search budget: a time (`30s`, `2m`), a node count (`500000`),
    /// or both separated by a comma.
    #[arg(long, default_value = "10m")]
    pub budget: String,
    /// Cap on the memo tables of one claim (for `prove`, also the search's
    /// maps of option values), in MiB (turns into UNDECIDED); a memo grows
    /// only when its old and new tables both fit under it.
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
}

impl BudgetArgs {
    pub fn limits(&self) -> Result<Limits, String> {
        let mut limits = Limits {
            max_nodes: None,
            time: None,
            max_entries: DEFAULT_MAX_ENTRIES,
        };
        for part in self
            .budget
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let bad = || format!("cannot read budget `{part}`: use e.g. 30s, 2m or 500000");
            if let Some(secs) = part.strip_suffix('s') {
                limits.time = Some(Duration::from_secs_f64(
                    secs.parse::<f64>().map_err(|_| bad())?.max(0.0),
                ));
            } else if let Some(mins) = part.strip_suffix('m') {
                limits.time = Some(Duration::from_secs_f64(
                    mins.parse::<f64>().map_err(|_| bad())?.max(0.0) * 60.0,
                ));
            } else {
                limits.max_nodes = Some(part.parse().map_err(|_| bad())?);
            }
        }
        if let Some(mib) = self.max_memory {
            limits.max_entries =
                usize::try_from(mib.saturating_mul(1 << 20) / BYTES_PER_ENTRY as u64)
                    .unwrap_or(usize::MAX);
        }
        Ok(limits)
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files and directories (searched for *.cert); default `certificates`.
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Record the seconds spent on each claim.
    #[arg(long)]
    pub timings: bool,
    /// Check (and report) only the claims with this id.
    #[arg(long, value_name = "ID")]
    pub claim: Option<String>,
    /// Compare with the JSON report of an earlier run: exit 1 only when a
    /// claim that was VERIFIED is not any more, or a new claim is not
    /// VERIFIED; known failures pass.
    #[arg(long, value_name = "OLD.json")]
    pub baseline: Option<PathBuf>,
    /// Skip claims this kernel build verified before (a fingerprint cache
    /// in DIR, created if missing); new verified claims are added to it.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Show a progress bar on standard error: `auto` when it is a terminal.
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: Progress,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// When to draw the progress bar.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// When standard error is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The game expression, e.g. `cram 3x5`, `nim [1,2,3]` or `-1/2v*`.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub game: Vec<String>,
    /// Skip the misère value.
    #[arg(long)]
    pub normal_only: bool,
    /// Threads searching the game (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Games to time instead of the default targets.
    pub games: Vec<String>,
    /// Threads searching each game (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}
