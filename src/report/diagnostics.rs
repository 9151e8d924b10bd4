//! Every syntax and elaboration error's wording, code and help, and their
//! rendering as miette diagnostics with the source and a byte-offset span.
//!
//! Codes are stable and hierarchical (`gamecert::parse::unknown_ruleset`); a
//! test checks that no two kinds share a code.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
};

use crate::elaborate::load::{ReadError, UsageError};
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

fn problem(
    code: &'static str,
    message: String,
    label: &str,
    help: Option<&str>,
    span: Span,
) -> Problem {
    Problem {
        code,
        message,
        label: label.to_string(),
        help: help.map(str::to_string),
        span,
    }
}

/// The wording of a syntax error.
pub fn syntax_problem(e: &SyntaxError) -> Problem {
    use SyntaxErrorKind::*;
    let (code, message, label, help): (_, String, &str, Option<&str>) = match &e.kind {
        MissingHeader => (
            "gamecert::parse::missing_header",
            "a certificate file must start with `gamecert 1`".into(),
            "expected `gamecert 1` here",
            Some("add the line `gamecert 1` at the top of the file"),
        ),
        UnsupportedVersion(v) => (
            "gamecert::parse::unsupported_version",
            format!("certificate language version {v} is not supported"),
            "unsupported version",
            Some("this gamecert reads version 1"),
        ),
        Expected(what) => {
            let message = format!("expected {what}");
            return problem(
                "gamecert::parse::expected",
                message.clone(),
                &message,
                None,
                e.span,
            );
        }
        UnknownRuleset(name) => (
            "gamecert::parse::unknown_ruleset",
            format!("unknown game `{name}`"),
            "not a ruleset",
            Some(
                "impartial games: nim [..], cram RxC, domino-juvavum RxC, juvavum RxC, \
                 octal 0.07 n, kayles n, dawson n",
            ),
        ),
        UnknownStatement(word) => (
            "gamecert::parse::unknown_statement",
            format!("unknown statement `{word}`"),
            "not a statement this version checks",
            Some(
                "statements: grundy [misere] GAME = n, outcome [misere] GAME = P|N, \
                 count positions [up to symmetry] GAME = k",
            ),
        ),
        UnknownMethod(word) => (
            "gamecert::parse::unknown_method",
            format!("unknown method `{word}`"),
            "not a method",
            Some("impartial claims are checked `by search` or `by table { GAME = n ... }`"),
        ),
        NumberTooLarge => (
            "gamecert::parse::number_too_large",
            "number too large".into(),
            "does not fit in 64 bits",
            None,
        ),
        UnclosedString => (
            "gamecert::parse::unclosed_string",
            "string without closing quote".into(),
            "this string is not closed on its line",
            None,
        ),
        NestingTooDeep => (
            "gamecert::parse::nesting_too_deep",
            "parentheses nested too deeply".into(),
            "more than 64 levels",
            None,
        ),
        UnclosedBlock => (
            "gamecert::parse::unclosed_block",
            "block without closing `}`".into(),
            "this `{` is never closed",
            None,
        ),
    };
    problem(code, message, label, help, e.span)
}

/// The wording of an elaboration error.
pub fn elab_problem(e: &ElabError) -> Problem {
    use ElabErrorKind::*;
    let (code, message, label, help): (_, String, &str, Option<&str>) = match &e.kind {
        DuplicateId(id) => (
            "gamecert::elaborate::duplicate_id",
            format!("claim id `{id}` is used twice in this file"),
            "second use",
            Some("claim ids must be unique within a file"),
        ),
        BoardTooLarge { cells, max } => (
            "gamecert::elaborate::board_too_large",
            format!(
                "the board has {cells} cells; the kernel handles at most {max}, with sides of at most 63"
            ),
            "oversize board",
            None,
        ),
        EmptyBoard => (
            "gamecert::elaborate::empty_board",
            "the board has no cells".into(),
            "empty board",
            None,
        ),
        RaggedPicture => (
            "gamecert::elaborate::ragged_picture",
            "the picture's rows differ in length".into(),
            "rows of unequal length",
            Some("rows are separated by `|`; each must have the same number of cells"),
        ),
        PictureChar(c) => (
            "gamecert::elaborate::picture_char",
            format!("`{c}` is not a picture cell"),
            "unexpected character",
            Some("use `.` for a free cell and `#` for a filled one"),
        ),
        BadOctalCode => (
            "gamecert::elaborate::octal_code",
            "not a valid octal code".into(),
            "bad code",
            Some("write d0.d1d2... with digits 0-7, d0 being 0 or 4 (e.g. 0.07, 0.77, 4.07)"),
        ),
        HeapTooLarge { max } => (
            "gamecert::elaborate::heap_too_large",
            format!("heap larger than {max}"),
            "too large",
            None,
        ),
        TooManySummands { summands, max } => (
            "gamecert::elaborate::too_many_summands",
            format!("the game has {summands} summands; the kernel accepts at most {max}"),
            "too many summands",
            None,
        ),
        ValueTooLarge => (
            "gamecert::elaborate::value_too_large",
            "value beyond the kernel's range (2^32 - 1)".into(),
            "too large",
            None,
        ),
        MethodNotApplicable { method } => (
            "gamecert::elaborate::method_not_applicable",
            format!("method `{method}` does not apply to this statement"),
            "not applicable",
            Some(
                "impartial values and outcomes are checked `by search` or `by table`, position counts `by search`; partizan values, outcomes and comparisons `by definition`, values also `by derivation`",
            ),
        ),
        IncludeAbsolute => (
            "gamecert::include::absolute",
            "include paths must be relative".into(),
            "absolute path",
            None,
        ),
        IncludeEscapes => (
            "gamecert::include::escapes",
            "the include leads outside the tree being checked".into(),
            "outside the tree",
            Some("include only files below the directory given to `gamecert check`"),
        ),
        IncludeUnreadable(reason) => (
            "gamecert::include::unreadable",
            format!("cannot read the included file: {}", read_error(reason)),
            "cannot be read",
            None,
        ),
        FileUnreadable(reason) => (
            "gamecert::include::file_unreadable",
            format!("this certificate file was not read: {}", read_error(reason)),
            "not read",
            None,
        ),
        LinkEscapes => (
            "gamecert::include::link_escapes",
            "this symbolic link leads outside the tree being checked and was not followed".into(),
            "outside the tree",
            Some("check the link's target as an argument of its own, or copy it into the tree"),
        ),
        IncludeCycle => (
            "gamecert::include::cycle",
            "this include closes a cycle of includes".into(),
            "cyclic include",
            None,
        ),
        PinMismatch { actual } => (
            "gamecert::include::pin_mismatch",
            format!("the included file does not match its pin (its sha256 is {actual})"),
            "pin does not match",
            None,
        ),
        BadPin => (
            "gamecert::include::bad_pin",
            "a sha256 pin must be 64 hexadecimal digits".into(),
            "malformed pin",
            None,
        ),
        NotImpartial => (
            "gamecert::elaborate::not_impartial",
            "this claim needs an impartial game, and this is a partizan one".into(),
            "partizan game",
            Some(
                "grundy values, misère play and position counts are defined for impartial games; use `value`, `outcome ... = L|R|P|N` or `compare` `by definition`",
            ),
        ),
        NotPartizan => (
            "gamecert::elaborate::not_partizan",
            "this impartial ruleset has no partizan form here".into(),
            "impartial ruleset",
            Some(
                "partizan expressions take {L|R}, numbers, *n, ^, nim, hackenbush and domineering",
            ),
        ),
        NotDyadic => (
            "gamecert::elaborate::not_dyadic",
            "short games' numbers are dyadic: the denominator must be a power of two".into(),
            "not a dyadic rational",
            None,
        ),
        MultipleTooLarge { max } => (
            "gamecert::elaborate::multiple_too_large",
            format!("`*n` and `^n` take n up to {max}"),
            "too large",
            None,
        ),
        HackenbushChar(c) => (
            "gamecert::elaborate::hackenbush_char",
            format!("`{c}` is not a Hackenbush edge here"),
            "unexpected character",
            Some(
                "edges are `l` (blue, Left), `r` (red, Right), `e` (green); green-hackenbush takes `e` only; trees branch with `(a;b)`",
            ),
        ),
        HackenbushUnbalanced => (
            "gamecert::elaborate::hackenbush_unbalanced",
            "unbalanced parentheses in the Hackenbush tree".into(),
            "unbalanced",
            None,
        ),
        HackenbushEdge => (
            "gamecert::elaborate::hackenbush_edge",
            "a Hackenbush graph edge is written `u-v c` (vertex 0 is the ground)".into(),
            "not an edge",
            Some("for example \"0-1 l, 1-2 r, 2-0 e\""),
        ),
        TooManyEdges { max } => (
            "gamecert::elaborate::too_many_edges",
            format!("the Hackenbush picture has more than {max} edges"),
            "too many edges",
            None,
        ),
        UnknownRule(rule) => (
            "gamecert::elaborate::unknown_rule",
            format!("`{rule}` is not a derivation rule"),
            "unknown rule",
            Some("the rules are definition, options, dominated, reversible, simplest-number"),
        ),
        BadGraph(reason) => (
            "gamecert::elaborate::bad_graph",
            format!("this graph board cannot be used: {reason}"),
            "graph board",
            Some(
                "write the edges as `a-b` between vertices numbered 0 to n-1; at most 128 vertices",
            ),
        ),
        UnknownBoard(name) => (
            "gamecert::elaborate::unknown_board",
            format!("no board is named `{name}`"),
            "unknown board",
            Some("declare it with `board NAME = KIND`, or use square, triangle, hexagon, cubic"),
        ),
        BoardKindNotSupported(kind) => (
            "gamecert::elaborate::board_kind_not_supported",
            format!("boards of kind `{kind}` cannot be built by this version"),
            "not supported yet",
            Some(
                "boards are square, triangle, hexagon, cubic, `square RxC`, the platonic and archimedean solids, `prism N`, `antiprism N`, `LATTICE picture { ... }` and `graph { a-b ... }`",
            ),
        ),
        DuplicateBoard(name) => (
            "gamecert::elaborate::duplicate_board",
            format!("board `{name}` is declared twice in this file"),
            "second declaration",
            None,
        ),
        SizeTooLarge { max } => (
            "gamecert::elaborate::size_too_large",
            format!("animal sizes go up to {max}"),
            "too large",
            None,
        ),
        DuplicateAnimal(name) => (
            "gamecert::elaborate::duplicate_animal",
            format!("animal `{name}` is declared twice in this file"),
            "second declaration",
            None,
        ),
        EmptyAnimal => (
            "gamecert::elaborate::empty_animal",
            "an animal needs at least one cell".into(),
            "no cells",
            None,
        ),
        CellOffBoard => (
            "gamecert::elaborate::cell_off_board",
            "this cell is not a cell of the animal's board".into(),
            "off the board",
            Some("solids number their faces from 0; plane lattices take (x,y), cubic (x,y,z)"),
        ),
        RepeatedCell => (
            "gamecert::elaborate::repeated_cell",
            "this cell is listed twice".into(),
            "repeated",
            None,
        ),
        DisconnectedAnimal => (
            "gamecert::elaborate::disconnected_animal",
            "the animal is not connected: this cell is not joined to the first through its cells"
                .into(),
            "not connected",
            Some("cells are joined when they share an edge (a face on the cubic lattice)"),
        ),
        WrongDimension { expected } => (
            "gamecert::elaborate::wrong_dimension",
            format!("cells of this board have {expected} coordinate(s)"),
            "wrong number of coordinates",
            None,
        ),
        PictureNotSupported => (
            "gamecert::elaborate::picture_not_supported",
            "pictures are read on the square, triangle and hexagon lattices only; give coordinates"
                .into(),
            "no picture convention",
            None,
        ),
        UnknownAnimal(name) => (
            "gamecert::elaborate::unknown_animal",
            format!("no animal is named `{name}` in this file"),
            "unknown animal",
            Some("declare it with `animal NAME on BOARD = ...`"),
        ),
        AnimalOnOtherBoard(name) => (
            "gamecert::elaborate::animal_on_other_board",
            format!("animal `{name}` is declared on another board"),
            "other board",
            Some(
                "declare the animal on the claim's board, or on the lattice the board is a region of",
            ),
        ),
        BadMarks { max } => (
            "gamecert::elaborate::bad_marks",
            format!("the maker marks 1 to {max} cells per turn, the breaker 0 to {max}"),
            "marks per turn",
            None,
        ),
        DuplicateSituation(name) => (
            "gamecert::elaborate::duplicate_situation",
            format!(
                "situation `{name}` is defined twice (or is named `goal`, which names the goal)"
            ),
            "second definition",
            None,
        ),
        UnknownSituation(name) => (
            "gamecert::elaborate::unknown_situation",
            format!("no situation is named `{name}`"),
            "unknown situation",
            Some("targets are `goal` or situations of this proof sequence"),
        ),
        MixedJustification => (
            "gamecert::elaborate::mixed_justification",
            "a situation is justified by options or by replies, not both, and a proof sequence is written or searched for, not both".into(),
            "this situation",
            None,
        ),
        OrderAxis => (
            "gamecert::elaborate::order_axis",
            "the board's cells have no such coordinate".into(),
            "this key",
            Some("order keys are x, y (and z on the cubic lattice), each optionally negated: `order -y x`"),
        ),
        EmptyProofSequence => (
            "gamecert::elaborate::empty_proof_sequence",
            "the proof sequence has no situation and no start".into(),
            "empty",
            Some("write `start goal` when the maker's first turn completes the goal"),
        ),
        BadCongruence => (
            "gamecert::elaborate::bad_congruence",
            "this congruence does not fit the board".into(),
            "congruence",
            Some(
                "lattices take `at G (dx,dy)` (a point-group element and a translation), solids and graphs `at [i0 i1 ...]` (the image of every face)",
            ),
        ),
        SearchFailed(reason) => (
            "gamecert::elaborate::search_failed",
            format!("no proof sequence was found: {reason}"),
            "search",
            Some("give a larger window, or write the proof sequence"),
        ),
        UnknownCitation(id) => (
            "gamecert::elaborate::unknown_citation",
            format!("no claim of this file has the id `{id}`"),
            "cited here",
            Some("derived rules cite claims of the same file"),
        ),
        CyclicCitation => (
            "gamecert::elaborate::cyclic_citation",
            "this claim rests, through its citations, on itself".into(),
            "cycle",
            None,
        ),
        BadCards(message) => (
            "gamecert::elaborate::bad_cards",
            format!("the card file cannot be read: {message}"),
            "card file",
            Some("the format is described in docs/language.md (snaky-cards-txt-v1)"),
        ),
        CardsNotApplicable => (
            "gamecert::elaborate::cards_not_applicable",
            "card files prove (1,1) maker wins on the square lattice or a region of it".into(),
            "cards",
            None,
        ),
        HexagonColumn => (
            "gamecert::elaborate::hexagon_column",
            "on the hexagon lattice this column lies between two hexagons of the row".into(),
            "between hexagons",
            Some(
                "counting rows from the bottom (y = 0) and columns from the left, row y uses the columns c with c - y even: each row is shifted one column right of the row below",
            ),
        ),
        AnimalPictureChar(c) => (
            "gamecert::elaborate::animal_picture_char",
            format!("`{c}` is not a picture cell"),
            "unexpected character",
            Some("use `#` for a cell of the animal and `.` for none"),
        ),
        OutcomeNotImpartial => (
            "gamecert::elaborate::outcome_letter",
            "an impartial game's outcome is P or N".into(),
            "L or R",
            None,
        ),
    };
    problem(code, message, label, help, e.span)
}

/// Why a file was not read, as a phrase (never quoting the file's text).
pub fn read_error(e: &ReadError) -> String {
    match e {
        ReadError::NotRegular => "not a regular file".into(),
        ReadError::NotFileOrDirectory => "neither a regular file nor a directory".into(),
        ReadError::TooLarge { max } => format!("larger than {max} bytes"),
        ReadError::NotUtf8 { offset } => {
            format!("not UTF-8 text (the byte at offset {offset} is not)")
        }
        ReadError::Io(message) => message.clone(),
    }
}

/// The line a command-line path that cannot be used gets on standard error.
pub fn usage_error(e: &UsageError) -> String {
    format!("error: {}: {}\n", e.path.display(), read_error(&e.reason))
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
