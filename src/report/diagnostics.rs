//! Every syntax and elaboration error's wording, code and help, and their
//! rendering as miette diagnostics with the source and a byte-offset span.
//!
//! Codes are stable and hierarchical (`gamecert::parse::unknown_ruleset`); a
//! test checks that no two kinds share a code.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
};

use crate::elaborate::{ElabError, ElabErrorKind};
use crate::syntax::ast::{Span, SyntaxError, SyntaxErrorKind};

/// A problem in a file: code, sentence, label at the span, optional help.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Stable code.
    pub code: &'static str,
    /// One sentence saying what is wrong.
    pub message: String,
    /// Short text under the span.
    pub label: String,
    /// How to fix it, where there is something to say.
    pub help: Option<String>,
    /// Where.
    pub span: Span,
}

/// The wording of a syntax error.
pub fn syntax_problem(e: &SyntaxError) -> Problem {
    use SyntaxErrorKind::*;
    let (code, message, label, help) = match &e.kind {
        MissingHeader => (
            "gamecert::parse::missing_header",
            "a certificate file must start with `gamecert 1`".to_string(),
            "expected `gamecert 1` here".to_string(),
            Some("add the line `gamecert 1` at the top of the file".to_string()),
        ),
        UnsupportedVersion(v) => (
            "gamecert::parse::unsupported_version",
            format!("certificate language version {v} is not supported"),
            "unsupported version".to_string(),
            Some("this gamecert reads version 1".to_string()),
        ),
        Expected(what) => ("gamecert::parse::expected", format!("expected {what}"), format!("expected {what}"), None),
        UnknownRuleset(name) => (
            "gamecert::parse::unknown_ruleset",
            format!("unknown game `{name}`"),
            "not a ruleset".to_string(),
            Some("impartial games: nim [..], cram RxC, domino-juvavum RxC, juvavum RxC, octal 0.07 n, kayles n, dawson n".to_string()),
        ),
        UnknownStatement(word) => (
            "gamecert::parse::unknown_statement",
            format!("unknown statement `{word}`"),
            "not a statement this version checks".to_string(),
            Some("statements: grundy [misere] GAME = n, outcome [misere] GAME = P|N, count positions [up to symmetry] GAME = k".to_string()),
        ),
        UnknownMethod(word) => (
            "gamecert::parse::unknown_method",
            format!("unknown method `{word}`"),
            "not a method".to_string(),
            Some("impartial claims are checked `by search` or `by table { GAME = n ... }`".to_string()),
        ),
        NumberTooLarge => ("gamecert::parse::number_too_large", "number too large".to_string(), "does not fit in 64 bits".to_string(), None),
        UnclosedString => ("gamecert::parse::unclosed_string", "string without closing quote".to_string(), "this string is not closed on its line".to_string(), None),
        UnclosedBlock => ("gamecert::parse::unclosed_block", "block without closing `}`".to_string(), "this `{` is never closed".to_string(), None),
    };
    Problem {
        code,
        message,
        label,
        help,
        span: e.span,
    }
}

/// The wording of an elaboration error.
pub fn elab_problem(e: &ElabError) -> Problem {
    use ElabErrorKind::*;
    let (code, message, label, help) = match &e.kind {
        DuplicateId(id) => ("gamecert::elaborate::duplicate_id", format!("claim id `{id}` is used twice in this file"), "second use".to_string(), Some("claim ids must be unique within a file".to_string())),
        BoardTooLarge { cells, max } => ("gamecert::elaborate::board_too_large", format!("the board has {cells} cells; the kernel handles at most {max}"), "oversize board".to_string(), None),
        EmptyBoard => ("gamecert::elaborate::empty_board", "the board has no cells".to_string(), "empty board".to_string(), None),
        RaggedPicture => ("gamecert::elaborate::ragged_picture", "the picture's rows differ in length".to_string(), "rows of unequal length".to_string(), Some("rows are separated by `|`; each must have the same number of cells".to_string())),
        PictureChar(c) => ("gamecert::elaborate::picture_char", format!("`{c}` is not a picture cell"), "unexpected character".to_string(), Some("use `.` for a free cell and `#` for a filled one".to_string())),
        BadOctalCode => ("gamecert::elaborate::octal_code", "not a valid octal code".to_string(), "bad code".to_string(), Some("write d0.d1d2... with digits 0-7, d0 being 0 or 4 (e.g. 0.07, 0.77, 4.07)".to_string())),
        HeapTooLarge { max } => ("gamecert::elaborate::heap_too_large", format!("heap larger than {max}"), "too large".to_string(), None),
        ValueTooLarge => ("gamecert::elaborate::value_too_large", "value beyond the kernel's range (2^32 - 1)".to_string(), "too large".to_string(), None),
        MethodNotApplicable { method } => ("gamecert::elaborate::method_not_applicable", format!("method `{method}` does not apply to this statement"), "not applicable".to_string(), Some("impartial values and outcomes are checked `by search` or `by table`; position counts `by search`".to_string())),
        IncludeAbsolute => ("gamecert::include::absolute", "include paths must be relative".to_string(), "absolute path".to_string(), None),
        IncludeEscapes => ("gamecert::include::escapes", "the include leads outside the tree being checked".to_string(), "outside the tree".to_string(), Some("include only files below the directory given to `gamecert check`".to_string())),
        IncludeUnreadable(msg) => ("gamecert::include::unreadable", format!("cannot read the included file: {msg}"), "cannot be read".to_string(), None),
        IncludeCycle => ("gamecert::include::cycle", "this include closes a cycle of includes".to_string(), "cyclic include".to_string(), None),
        PinMismatch { actual } => ("gamecert::include::pin_mismatch", format!("the included file does not match its pin (its sha256 is {actual})"), "pin does not match".to_string(), None),
        BadPin => ("gamecert::include::bad_pin", "a sha256 pin must be 64 hexadecimal digits".to_string(), "malformed pin".to_string(), None),
    };
    Problem {
        code,
        message,
        label,
        help,
        span: e.span,
    }
}

/// A problem with its file, as a miette diagnostic.
struct Rendered<'a> {
    problem: &'a Problem,
    source: NamedSource<String>,
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.problem.message)
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.problem.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl Diagnostic for Rendered<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.problem.code))
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.problem
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.problem.span;
        let label = LabeledSpan::new(
            Some(self.problem.label.clone()),
            span.start,
            span.end - span.start,
        );
        Some(Box::new(std::iter::once(label)))
    }
}

/// Renders a problem with its source, without colours (deterministic output).
pub fn render(problem: &Problem, path: &str, source: &str) -> String {
    let diagnostic = Rendered {
        problem,
        source: NamedSource::new(path, source.to_string()),
    };
    let mut out = String::new();
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    if handler.render_report(&mut out, &diagnostic).is_err() {
        out = format!("{}: {}\n", problem.code, problem.message);
    }
    out
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
