//! Every syntax and elaboration error's wording, code and help, and their
//! rendering as miette diagnostics with the source and a byte-offset span.
//!
//! Codes are stable and hierarchical (`gamecert::parse::unknown_ruleset`); a
//! test checks that no two kinds share a code.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

mod help;

use crate::elaborate::load::{ReadError, UsageError};
use crate::elaborate::{ElabError, ElabErrorKind};
use crate::kernel::animals::mosaic;
use crate::syntax::ast::{DeclarationKind, Span, StatementKind, SyntaxError, SyntaxErrorKind};

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
    /// Another place of the file the problem comes from (a failed
    /// declaration that a claim uses), shown after the problem.
    pub note: Option<Note>,
}

/// A place of the file that explains a problem, shown with its own lines.
#[derive(Debug, Clone)]
pub struct Note {
    /// One sentence about the place.
    pub message: String,
    /// Short text under the span.
    pub label: String,
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
        note: None,
    }
}

/// A problem whose help is built for it (a suggestion, a family's list).
fn problem_with_help(
    code: &'static str,
    message: String,
    label: &str,
    help: String,
    span: Span,
) -> Problem {
    Problem {
        help: Some(help),
        ..problem(code, message, label, None, span)
    }
}

/// The diagnostic of a claim's verdict that points at a part of the
/// certificate (REFUTED, REJECTED, or a claim the kernel found malformed).
pub fn verdict_problem(
    verdict: super::VerdictName,
    id: &str,
    detail: &str,
    at: &super::locate::Location,
) -> Problem {
    use super::VerdictName;
    let (code, word) = match verdict {
        VerdictName::Refuted => ("gamecert::verdict::refuted", "is false"),
        VerdictName::Rejected => (
            "gamecert::verdict::rejected",
            "is not established by its certificate",
        ),
        _ => (
            "gamecert::verdict::malformed",
            "cannot be checked as written",
        ),
    };
    Problem {
        code,
        message: format!("claim `{id}` {word}: {}", super::shortened(detail)),
        label: at.label.clone(),
        help: None,
        span: at.span,
        note: None,
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
        UnknownRuleset { word, suggestion } => {
            return problem_with_help(
                "gamecert::parse::unknown_ruleset",
                format!("unknown game `{word}`"),
                "not a ruleset",
                help::did_you_mean(*suggestion, &help::games(*suggestion)),
                e.span,
            );
        }
        UnknownStatement { word, suggestion } => {
            // The family of the keyword the author most likely meant: a
            // misspelled `winner` is answered with the animal statements.
            let families = suggestion
                .map(StatementKind::families_of_keyword)
                .unwrap_or_default();
            return problem_with_help(
                "gamecert::parse::unknown_statement",
                format!("unknown statement `{word}`"),
                "not a statement this version checks",
                help::did_you_mean(*suggestion, &help::statements(&families)),
                e.span,
            );
        }
        UnknownMethod {
            word,
            suggestion,
            statement,
        } => {
            return problem_with_help(
                "gamecert::parse::unknown_method",
                format!("unknown method `{word}`"),
                "not a method",
                help::did_you_mean(*suggestion, help::methods(*statement)),
                e.span,
            );
        }
        UnknownStepRule { word, suggestion } => {
            let rules = "the rules are definition, options, dominated, reversible, simplest-number";
            return problem_with_help(
                "gamecert::parse::unknown_rule",
                format!("`{word}` is not a derivation rule"),
                "unknown rule",
                help::did_you_mean(*suggestion, rules),
                e.span,
            );
        }
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
        LopsidedMinus => (
            "gamecert::parse::lopsided_minus",
            "a `-` with a space before it and none after reads two ways".into(),
            "difference or negative?",
            Some("write `G - H` for a difference, or `G, -H` for two options"),
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
        MethodNotApplicable { method, statement } => (
            "gamecert::elaborate::method_not_applicable",
            format!("method `{method}` does not apply to this statement"),
            "not applicable",
            Some(help::methods(*statement)),
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
        HackenbushAfterBranches => (
            "gamecert::elaborate::hackenbush_after_branches",
            "a Hackenbush tree's branches all go inside its brackets".into(),
            "after `)`",
            Some(
                "after `)` write `;`, another `)` or the end: `l(l;r;e)` puts three branches on the top of `l`",
            ),
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
        TermTooLarge { max } => (
            "gamecert::elaborate::term_too_large",
            format!(
                "the partizan games of this file expand to more than {max} copied terms; this expression passes the limit"
            ),
            "too large once expanded",
            Some(
                "`+-G` contains G twice, so each level of nesting doubles the game, and `^n` is a sum of n copies of ^",
            ),
        ),
        BadGraph(reason) => (
            "gamecert::elaborate::bad_graph",
            format!("this graph board cannot be used: {reason}"),
            "graph board",
            Some(
                "write the edges as `a-b` between vertices numbered 0 to n-1; at most 128 vertices",
            ),
        ),
        BadTiling(reason) => (
            "gamecert::elaborate::bad_tiling",
            format!("this tiling cannot be used: {reason}"),
            "tiling board",
            Some(
                "list `basis square|hexagonal`, `periods (a,b) (c,d)`, each face of one unit cell as `face (x,y) ...` counterclockwise, and optionally `symmetry (a,b,c,d) (e,f)` (x -> [a b; c d] x + (e,f))",
            ),
        ),
        UnknownBoard { name, suggestion } => {
            let declare =
                "declare it with `board NAME = KIND`, or use square, triangle, hexagon, cubic";
            return problem_with_help(
                "gamecert::elaborate::unknown_board",
                format!("no board is named `{name}`"),
                "unknown board",
                help::did_you_mean(suggestion.as_deref(), declare),
                e.span,
            );
        }
        BoardKindNotSupported { kind, suggestion } => {
            let kinds = "boards are square, triangle, hexagon, cubic, `square RxC`, the platonic and archimedean solids, `prism N`, `antiprism N`, `tiling (3,4,6,4)` and the other archimedean tilings, `mosaic (3,q)` for q from 6 to 64, `LATTICE picture { ... }`, `graph { a-b ... }` and `tiling { ... }`";
            return problem_with_help(
                "gamecert::elaborate::board_kind_not_supported",
                format!("boards of kind `{kind}` cannot be built by this version"),
                "not supported yet",
                help::did_you_mean(*suggestion, kinds),
                e.span,
            );
        }
        MosaicParameters => (
            "gamecert::elaborate::mosaic_parameters",
            format!(
                "mosaics are `mosaic (3,q)` for q from {} to {}",
                mosaic::MIN_Q,
                mosaic::MAX_Q
            ),
            "not a mosaic this version builds",
            Some(
                "with fewer than 6 triangles at a vertex the triangles close up into a solid \
                 (q = 3, 4, 5: the tetrahedron, octahedron and icosahedron, boards of their own)",
            ),
        ),
        FixedOnMosaic => (
            "gamecert::elaborate::fixed_on_mosaic",
            "a mosaic has no translations, so it has no fixed animals".to_string(),
            "count `animals` or `all animals` here",
            None,
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
        FailedDeclaration {
            kind,
            name,
            declared_at,
        } => {
            let what = match kind {
                DeclarationKind::Board => "board",
                DeclarationKind::Animal => "animal",
            };
            return Problem {
                note: Some(Note {
                    message: format!("the declaration of {what} `{name}` has an error"),
                    label: "reported on its own".into(),
                    span: *declared_at,
                }),
                ..problem(
                    "gamecert::elaborate::failed_declaration",
                    format!(
                        "{what} `{name}` cannot be used: its declaration has an error, reported on its own"
                    ),
                    "declared with an error",
                    Some(
                        "fix the declaration; the claims using it are checked once it is (this one is not checked)",
                    ),
                    e.span,
                )
            };
        }
        UnknownAnimal { name, suggestion } => {
            let declare = "declare it with `animal NAME on BOARD = ...`";
            return problem_with_help(
                "gamecert::elaborate::unknown_animal",
                format!("no animal is named `{name}` in this file"),
                "unknown animal",
                help::did_you_mean(suggestion.as_deref(), declare),
                e.span,
            );
        }
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
                "lattices take `at G (dx,dy)` (a point-group element and a translation), solids and graphs `at [i0 i1 ...]` (the image of every face), mosaics `at K (t)` (flag K = 0..5 of triangle t)",
            ),
        ),
        SearchFailed(reason) => (
            "gamecert::elaborate::search_failed",
            format!("no proof sequence was found: {reason}"),
            "search",
            Some("give a larger window, or write the proof sequence"),
        ),
        OutOfBudget(e) => (
            "gamecert::elaborate::out_of_budget",
            format!(
                "the elaborator's search ran out of the claim's budget: {}",
                crate::report::wording::limit_reached(e)
            ),
            "searched here",
            Some(
                "give a larger --budget (or --max-memory), or write out what the search was to find: the proof sequence, the congruences",
            ),
        ),
        UnknownCitation(id) => (
            "gamecert::elaborate::unknown_citation",
            format!("no claim of this file or of the files it includes has the id `{id}`"),
            "cited here",
            Some("a claim cites claims defined before it, in its file or in a file it includes"),
        ),
        AmbiguousCitation(id) => (
            "gamecert::elaborate::ambiguous_citation",
            format!("several included files have a claim with the id `{id}`"),
            "cited here",
            Some("give the claims distinct ids, or include only the file whose claim is meant"),
        ),
        CitationNotBefore(id) => (
            "gamecert::elaborate::citation_not_before",
            format!("the claim `{id}` is defined after this one"),
            "cited here",
            Some("a claim cites only claims defined before it (so citations cannot form a cycle): move the cited claim up"),
        ),
        CompletingBelowMarks { a, c } => (
            "gamecert::elaborate::completing_below_marks",
            format!("({a}->{c},b) is not a game: the completing turn marks c >= a cells"),
            "c < a",
            Some("write (a,b) for the game without a larger completing turn (SPEC 3.2)"),
        ),
        ReservedBoardName(name) => (
            "gamecert::elaborate::reserved_board_name",
            format!("`{name}` is a built-in board name and keeps its meaning"),
            "reserved name",
            Some("choose another name for this board (SPEC 4 reserves the built-in names)"),
        ),
        Internal(message) => (
            "gamecert::elaborate::internal",
            format!("internal error while elaborating this claim: {message}"),
            "here",
            Some("this is a bug in gamecert; the other claims were checked"),
        ),
        BadCards(message) => (
            "gamecert::elaborate::bad_cards",
            format!("the card file cannot be read: {message}"),
            "card file",
            Some("the format is described in docs/language.md (snaky-cards-txt-v1)"),
        ),
        AnswersUnpinned => (
            "gamecert::elaborate::answers_unpinned",
            "an answer file must be pinned: `by answers \"FILE\" sha256 \"HEX\"`".into(),
            "no sha256 pin",
            Some("`gamecert prove grundy` writes the claim with its pin"),
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

/// Where each line of a source starts, built once per file: locating an
/// offset is then a binary search, not a scan from the start of the file
/// (which made a report of n claims take time quadratic in n). Columns are
/// counted from checkpoints, so a long line costs no more than a short one.
pub struct LineIndex<'a> {
    source: &'a str,
    /// Byte offset of the first character of each line.
    starts: Vec<usize>,
    /// `chars[k]`: characters that start in the first `k * CHECKPOINT` bytes.
    chars: Vec<usize>,
}

/// Bytes between two character-count checkpoints.
const CHECKPOINT: usize = 4096;

/// Whether a byte starts a character (is not a UTF-8 continuation byte).
fn starts_char(b: &u8) -> bool {
    b & 0xC0 != 0x80
}

impl<'a> LineIndex<'a> {
    /// The index of `source`.
    pub fn new(source: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let chars = std::iter::once(0)
            .chain(
                source
                    .as_bytes()
                    .chunks(CHECKPOINT)
                    .scan(0, |total, chunk| {
                        *total += chunk.iter().filter(|b| starts_char(b)).count();
                        Some(*total)
                    }),
            )
            .collect();
        LineIndex {
            source,
            starts,
            chars,
        }
    }

    /// The indexed source.
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// 0-based line of a byte offset (clamped to the source).
    fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.source.len());
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// Byte offset where 0-based line `line` starts (the end of the source
    /// past the last line).
    fn start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.source.len())
    }

    /// Characters that start before byte `offset`.
    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let from = block * CHECKPOINT;
        let counted = self.chars.get(block).copied().unwrap_or(0);
        let rest = self.source.as_bytes().get(from..offset).unwrap_or_default();
        counted + rest.iter().filter(|b| starts_char(b)).count()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.source.len());
        let line = self.line(offset);
        let column = self.chars_before(offset) - self.chars_before(self.start(line));
        (line + 1, column + 1)
    }
}

/// Lines of context the rendering shows around a span (miette's default).
const CONTEXT_LINES: usize = 1;

/// The most bytes of source a diagnostic shows; beyond it (a very long
/// line), only the span with a little of its line around it. miette pads a
/// label to its column with a formatting width, which panics past 65535.
const MAX_EXCERPT: usize = 4096;

/// Bytes of a long line shown on each side of the span.
const MARGIN: usize = 80;

/// The most bytes of a one-line span a label underlines: a longer one (the
/// statement of a claim about a sum of 10,000 games) is shown by its start,
/// so that a diagnostic does not print the whole line. A span over several
/// lines is kept whole: cut, its label would point at a line it does not
/// mean.
const MAX_LABELLED: usize = 400;

/// `span` cut to [`MAX_LABELLED`] bytes, at a character boundary, when it
/// lies on one line of `index`'s source.
fn labelled(span: Span, index: &LineIndex) -> Span {
    let source = index.source;
    if span.end.saturating_sub(span.start) <= MAX_LABELLED
        || index.line(span.start) != index.line(span.end)
    {
        return span;
    }
    let mut end = (span.start + MAX_LABELLED).min(source.len());
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    Span::new(span.start, end.max(span.start))
}

/// The lines of a file around a span, as miette reads them: only these are
/// handed over, since miette locates a span by scanning its source from the
/// start, once per diagnostic.
struct Excerpt<'a> {
    name: &'a str,
    /// The lines (or, on a long line, a piece of it).
    text: &'a str,
    /// Byte offset of `text` in the file.
    offset: usize,
    /// 0-based line of the file where `text` starts.
    line: usize,
    /// Bytes of that line before `text` (0 unless a piece of a long line).
    column: usize,
}

impl<'a> Excerpt<'a> {
    /// The lines of `index`'s source around `span`, with a line of margin
    /// beyond the context shown; a piece of the line when they are long.
    fn around(name: &'a str, index: &LineIndex<'a>, span: Span) -> Excerpt<'a> {
        let source = index.source;
        let start = span.start.min(source.len());
        let span = Span::new(start, span.end.clamp(start, source.len()));
        let line = index.line(span.start);
        let first = line.saturating_sub(CONTEXT_LINES + 1);
        let last = index.line(span.end) + CONTEXT_LINES + 2;
        let (offset, end) = (index.start(first), index.start(last));
        if end - offset <= MAX_EXCERPT + span.end.saturating_sub(span.start) {
            return Excerpt {
                name,
                text: source.get(offset..end).unwrap_or_default(),
                offset,
                line: first,
                column: 0,
            };
        }
        let line_start = index.start(line);
        let mut from = span.start.saturating_sub(MARGIN).max(line_start);
        while !source.is_char_boundary(from) {
            from -= 1;
        }
        let line_end = index.start(index.line(span.end) + 1);
        let mut to = (span.end + MARGIN).min(line_end).min(source.len());
        while !source.is_char_boundary(to) {
            to += 1;
        }
        Excerpt {
            name,
            text: source.get(from..to).unwrap_or_default(),
            offset: from,
            line,
            column: from - line_start,
        }
    }
}

impl SourceCode for Excerpt<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let local = span
            .offset()
            .checked_sub(self.offset)
            .ok_or(MietteError::OutOfBounds)?;
        let inner =
            self.text
                .read_span(&SourceSpan::new(local.into(), span.len()), before, after)?;
        let at = SourceSpan::new(
            (inner.span().offset() + self.offset).into(),
            inner.span().len(),
        );
        // A column is counted from the start of its line, which a piece of
        // a long line does not begin with.
        let column = if inner.line() == 0 {
            inner.column() + self.column
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            at,
            inner.line() + self.line,
            column,
            inner.line_count() + self.line,
        )))
    }
}

/// A problem with its file, as a miette diagnostic.
struct Rendered<'a> {
    problem: &'a Problem,
    /// The problem's span as labelled (see [`labelled`]).
    span: Span,
    source: Excerpt<'a>,
    /// The problem's note with the lines around it (each place gets its
    /// own excerpt: the note may be far from the problem).
    note: Option<RenderedNote<'a>>,
}

/// A note with the lines around it, as a related miette diagnostic.
struct RenderedNote<'a> {
    note: &'a Note,
    /// The note's span as labelled (see [`labelled`]).
    span: Span,
    source: Excerpt<'a>,
}

impl fmt::Debug for RenderedNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.note.message)
    }
}

impl fmt::Display for RenderedNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.note.message)
    }
}

impl std::error::Error for RenderedNote<'_> {}

impl Diagnostic for RenderedNote<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span;
        let label = LabeledSpan::new(
            Some(self.note.label.clone()),
            span.start,
            span.end - span.start,
        );
        Some(Box::new(std::iter::once(label)))
    }
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
        let span = self.span;
        let label = LabeledSpan::new(
            Some(self.problem.label.clone()),
            span.start,
            span.end - span.start,
        );
        Some(Box::new(std::iter::once(label)))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        let note = self.note.as_ref()?;
        Some(Box::new(std::iter::once(note as &dyn Diagnostic)))
    }
}

/// Renders a problem with its source (given by its line index, built once
/// per file), without colours (deterministic output).
pub fn render(problem: &Problem, path: &str, index: &LineIndex) -> String {
    let span = labelled(problem.span, index);
    let diagnostic = Rendered {
        problem,
        span,
        source: Excerpt::around(path, index, span),
        note: problem.note.as_ref().map(|note| {
            let span = labelled(note.span, index);
            RenderedNote {
                note,
                span,
                source: Excerpt::around(path, index, span),
            }
        }),
    };
    let mut out = String::new();
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    if handler.render_report(&mut out, &diagnostic).is_err() {
        out = format!("{}: {}\n", problem.code, problem.message);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The old scan from the start of the source, as the reference.
    fn scanned(source: &str, offset: usize) -> (usize, usize) {
        let before = source.get(..offset.min(source.len())).unwrap_or(source);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }

    #[test]
    fn the_index_agrees_with_a_scan() {
        let source = "gamecert 1\n\nclaim \u{e9}t\u{e9}: x\nlast";
        let index = LineIndex::new(source);
        for (offset, _) in source.char_indices().chain([(source.len(), ' ')]) {
            assert_eq!(
                index.line_column(offset),
                scanned(source, offset),
                "{offset}"
            );
        }
        assert_eq!(index.line_column(10_000), scanned(source, source.len()));
        assert_eq!(LineIndex::new("").line_column(0), (1, 1));
        let long = "\u{e9}".repeat(3 * CHECKPOINT) + "\nx";
        let index = LineIndex::new(&long);
        for offset in [0, 2, 4094, 4096, 8190, 3 * 2 * CHECKPOINT, long.len()] {
            assert_eq!(
                index.line_column(offset),
                scanned(&long, offset),
                "{offset}"
            );
        }
    }

    /// A span far into a very long line renders a piece of the line, with
    /// the span's true line and column (miette panicked on the whole line).
    #[test]
    fn a_span_far_into_a_long_line_renders_a_piece_of_it() {
        let source = format!("gamecert 1\n{}claim\n", "x ".repeat(40_000));
        let index = LineIndex::new(&source);
        let start = source.len() - 6;
        let problem = Problem {
            code: "test::code",
            message: "message".into(),
            label: "here".into(),
            help: None,
            span: Span::new(start, start + 5),
            note: None,
        };
        let out = render(&problem, "f.cert", &index);
        assert!(out.contains("[f.cert:2:80001]"), "{out}");
        assert!(out.contains("here") && out.len() < 1000, "{out}");
    }

    /// A span longer than [`MAX_LABELLED`] (a claim statement of a whole
    /// line) is labelled by its start: the rendering stays short.
    #[test]
    fn a_long_span_is_labelled_by_its_start() {
        let statement = format!("value {} = 0", vec!["1"; 10_000].join(" + "));
        let source = format!("gamecert 1\nclaim c: {statement} by definition\n");
        let index = LineIndex::new(&source);
        let start = source.find("value").unwrap_or_default();
        let problem = Problem {
            code: "test::code",
            message: "message".into(),
            label: "this claim".into(),
            help: None,
            span: Span::new(start, start + statement.len()),
            note: None,
        };
        let out = render(&problem, "f.cert", &index);
        assert!(out.contains("[f.cert:2:10]"), "{out}");
        assert!(out.contains("this claim") && out.len() < 4000, "{out}");
    }

    #[test]
    fn excerpts_render_like_the_whole_source() {
        let mut source = String::from("gamecert 1\n");
        for i in 0..50 {
            source.push_str(&format!("claim c{i}: grundy nim [1] = 1 by search\n"));
        }
        let index = LineIndex::new(&source);
        for line in [0, 1, 2, 25, 49, 50] {
            let start = index.start(line) + 6;
            let problem = Problem {
                code: "test::code",
                message: "message".into(),
                label: "label".into(),
                help: None,
                span: Span::new(start.min(source.len()), (start + 3).min(source.len())),
                note: None,
            };
            let whole = Rendered {
                note: None,
                problem: &problem,
                span: problem.span,
                source: Excerpt {
                    name: "f.cert",
                    text: &source,
                    offset: 0,
                    line: 0,
                    column: 0,
                },
            };
            let mut expected = String::new();
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
                .with_width(100)
                .render_report(&mut expected, &whole)
                .expect("renders");
            assert_eq!(render(&problem, "f.cert", &index), expected, "line {line}");
        }
    }
}
