//! Elaboration (untrusted): from syntax trees to fully explicit kernel claims.
//!
//! Resolves files and includes, checks ids, resolves names, expands boards and
//! pictures, range-checks numbers and attaches each claim's evidence. Nothing
//! it produces is trusted: the kernel re-checks every claim it is handed.
//! Architecture invariant: errors here are values with spans
//! ([`ElabError`]); their wording lives in `report::diagnostics`.

pub mod breaker;
pub mod canonical;
pub mod explicit;
pub mod games;
pub mod load;
pub mod maker;
pub mod partizan;
pub mod tilings;

use std::collections::HashMap;
use std::sync::Arc;

use crate::kernel::animals;
use crate::kernel::animals::enumerate::Kind;
use crate::kernel::animals::lattice::Lattice;
use crate::kernel::animals::mosaic::{self, Mosaic};
use crate::kernel::animals::solid::{FaceGraph, Solid};
use crate::kernel::animals::tiling::Tiling;
use crate::kernel::animals::{Board, Region};
use crate::kernel::budget::{Budget, Exhausted, Limits};
use crate::kernel::impartial::answers::FileBytes;
use crate::kernel::impartial::check::{Evidence, Statement};
use crate::kernel::impartial::table::TableEntry;
use crate::kernel::impartial::{Outcome, Play};
use crate::kernel::partizan::check as pcheck;
use crate::kernel::verdict::{PartizanOutcome, Relation};
use crate::syntax::ast::{self, Method, PlayAst, Span, Spanned};
use crate::syntax::suggest;

/// An elaboration error and where it points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElabError {
    /// What is wrong.
    pub kind: ElabErrorKind,
    /// Where.
    pub span: Span,
}

/// The closed set of elaboration errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElabErrorKind {
    /// Two claims of one file share an id.
    DuplicateId(String),
    /// A board with more cells than the kernel handles.
    BoardTooLarge { cells: u64, max: usize },
    /// A board without cells.
    EmptyBoard,
    /// A picture whose rows differ in length.
    RaggedPicture,
    /// A picture character other than `.` and `#`.
    PictureChar(char),
    /// An octal code that is not `d.ddd` with octal digits (d0 only 0 or 4).
    BadOctalCode,
    /// A heap larger than the kernel handles.
    HeapTooLarge { max: u32 },
    /// A game with more summands than the kernel accepts.
    TooManySummands { summands: usize, max: usize },
    /// A claimed Grundy value or table value beyond the kernel's range.
    ValueTooLarge,
    /// A method of the language that does not apply to this kind of
    /// statement.
    MethodNotApplicable {
        method: String,
        statement: ast::StatementKind,
    },
    /// An include path that is absolute.
    IncludeAbsolute,
    /// An include that leads outside the tree being checked.
    IncludeEscapes,
    /// An include or card file that cannot be read.
    IncludeUnreadable(load::ReadError),
    /// A certificate file found by a directory walk that cannot be read.
    FileUnreadable(load::ReadError),
    /// A symbolic link found by a directory walk that leads outside the
    /// tree being checked (not followed).
    LinkEscapes,
    /// An include that leads back to a file including it.
    IncludeCycle,
    /// An include whose content does not match its pin.
    PinMismatch { actual: String },
    /// A pin that is not 64 hexadecimal digits.
    BadPin,
    /// A partizan construct where an impartial game is needed.
    NotImpartial,
    /// An impartial ruleset (Cram, octal...) inside a partizan expression.
    NotPartizan,
    /// A fraction whose denominator is not a power of two.
    NotDyadic,
    /// `*n` or `^n` with n too large.
    MultipleTooLarge { max: u64 },
    /// A Hackenbush picture character other than `l`, `r`, `e` (or, for
    /// `green-hackenbush`, other than `e`).
    HackenbushChar(char),
    /// Unbalanced parentheses in a Hackenbush tree.
    HackenbushUnbalanced,
    /// An edge or a `(` right after a Hackenbush tree's `)`: every branch
    /// goes inside the brackets.
    HackenbushAfterBranches,
    /// A Hackenbush graph item that is not `u-v c`.
    HackenbushEdge,
    /// A Hackenbush picture with too many edges.
    TooManyEdges { max: usize },
    /// An outcome letter that does not fit the claim (L or R for an impartial game).
    OutcomeNotImpartial,
    /// A board name that is neither declared nor built in, and the name
    /// it is closest to, if one is close.
    UnknownBoard {
        name: String,
        suggestion: Option<String>,
    },
    /// A board kind that this version cannot build (or that the language
    /// does not have), and the kind it is closest to, if one is close.
    BoardKindNotSupported {
        kind: String,
        suggestion: Option<&'static str>,
    },
    /// Two boards of one file share a name.
    DuplicateBoard(String),
    /// `mosaic` with other parameters than `(3,q)`, 6 <= q <= 64.
    MosaicParameters,
    /// `count fixed animals` on a mosaic, which has no translations.
    FixedOnMosaic,
    /// Partizan terms copying more nodes than the elaborator builds (`+-G`
    /// nested deeply, many `^n`).
    TermTooLarge { max: usize },
    /// An animal size beyond what enumeration accepts.
    SizeTooLarge { max: u64 },
    /// Two animals of one file share a name.
    DuplicateAnimal(String),
    /// An animal without cells.
    EmptyAnimal,
    /// A cell that is not a cell of the animal's board.
    CellOffBoard,
    /// A cell listed twice.
    RepeatedCell,
    /// An animal whose cells are not edge-connected; the span is a cell not
    /// connected to the first.
    DisconnectedAnimal,
    /// Coordinates of the wrong length for the board (2 for plane
    /// lattices, 3 for cubic, 1 face index for solids).
    WrongDimension { expected: usize },
    /// A picture on a board that has no picture convention here.
    PictureNotSupported,
    /// A picture character other than `#` and `.`.
    AnimalPictureChar(char),
    /// A claim names a board or animal whose declaration has an error
    /// (reported on its own, at `declared_at`), so the claim cannot be
    /// checked; the span is the claim's use of the name.
    FailedDeclaration {
        kind: ast::DeclarationKind,
        name: String,
        declared_at: Span,
    },
    /// A claim's animal is not declared in the file, and the declared
    /// name it is closest to, if one is close.
    UnknownAnimal {
        name: String,
        suggestion: Option<String>,
    },
    /// A winner claim's animal is declared on another board.
    AnimalOnOtherBoard(String),
    /// Marks per turn of 0 for the maker, or beyond the limit.
    BadMarks { max: u64 },
    /// An (a->c,b) game with c < a, which is not a game (SPEC 3.2).
    CompletingBelowMarks { a: u64, c: u64 },
    /// A board declaration that reuses a built-in board name (SPEC 4).
    ReservedBoardName(String),
    /// Several files the claim's file includes have a claim with this id.
    AmbiguousCitation(String),
    /// A cited claim is defined after the citing one (cycles are
    /// impossible because a claim cites only claims before it).
    CitationNotBefore(String),
    /// The elaborator failed unexpectedly on this claim (a bug); the
    /// message says where.
    Internal(String),
    /// Two situations share a name (or one is named `goal`).
    DuplicateSituation(String),
    /// An option's target names no situation.
    UnknownSituation(String),
    /// A situation with both a list of options and replies.
    MixedJustification,
    /// A proof sequence without situations or start.
    EmptyProofSequence,
    /// A priority strategy's `order` names an axis the board does not have.
    OrderAxis,
    /// A congruence that does not fit the board's kind (a translation on a
    /// solid, coordinates of the wrong length, numbers out of range).
    BadCongruence,
    /// A `search` hint found no proof sequence; the reason says why.
    SearchFailed(String),
    /// A search of the elaborator (a `search` hint, the congruences a
    /// certificate leaves out, a board's automorphisms) ran out of the
    /// claim's budget.
    OutOfBudget(Exhausted),
    /// A derived rule cites a claim id the file does not have.
    UnknownCitation(String),
    /// A card file that cannot be read as cards; the message says where.
    BadCards(String),
    /// Card files hold (1,1) strategies on the square lattice.
    CardsNotApplicable,
    /// An answer file named without its sha256 pin.
    AnswersUnpinned,
    /// A hexagon picture cell in a column between two hexagons of its row.
    HexagonColumn,
    /// A `graph { ... }` board that is not a connected graph on 0..n-1 with
    /// a small automorphism group; the reason says which.
    BadGraph(String),
    /// A `tiling { ... }` board that is malformed or does not tile the
    /// plane; the reason says which.
    BadTiling(String),
}

/// A declared and validated animal.
#[derive(Clone, Debug)]
pub struct DeclaredAnimal {
    /// Its name.
    pub name: String,
    /// Its board.
    pub board: Board,
    /// Its cells.
    pub cells: Vec<animals::lattice::Cell>,
}

/// The boards and animals a file declares.
#[derive(Clone, Debug, Default)]
pub struct Declarations {
    /// The boards that could be built, by name, in the order declared.
    pub boards: Vec<(String, Board)>,
    /// The animals that are animals of their boards, in the order declared.
    pub animals: Vec<DeclaredAnimal>,
    /// Why the other declarations could not be used (an animal on a board
    /// that cannot be built is not reported again).
    pub errors: Vec<ElabError>,
    /// The animals whose declarations have an error (a syntax error, an
    /// invalid shape, a board that cannot be built), with where it is:
    /// a claim on one of them is told so rather than that it is unknown.
    pub failed_animals: Vec<ast::FailedDeclaration>,
}

/// The file's board and animal declarations, validated by the kernel
/// (within the default limits).
pub fn declarations(file: &ast::File) -> Declarations {
    declarations_within(file, &Limits::default())
}

/// The file's board and animal declarations, validated by the kernel
/// within the run's per-claim `limits`.
pub fn declarations_within(file: &ast::File, limits: &Limits) -> Declarations {
    let boards = boards(file, limits);
    let mut out = Declarations::default();
    let mut broken = Vec::new();
    for item in &file.items {
        let ast::Item::Board(decl) = item else {
            continue;
        };
        match boards.get(&decl.name.node) {
            Some(Ok(board)) if !out.boards.iter().any(|(n, _)| *n == decl.name.node) => {
                out.boards.push((decl.name.node.clone(), board.clone()));
            }
            Some(Err(e)) if !broken.contains(&decl.name.node) => {
                out.errors.push(e.clone());
                broken.push(decl.name.node.clone());
            }
            _ => {}
        }
    }
    let failed = |decl: &ast::AnimalDecl, error: Span| ast::FailedDeclaration {
        kind: ast::DeclarationKind::Animal,
        name: decl.name.clone(),
        error,
    };
    for item in &file.items {
        let ast::Item::Animal(decl) = item else {
            continue;
        };
        // The board's error is reported once, with the board.
        if let Some(Err(e)) = boards.get(&decl.board.node) {
            out.failed_animals.push(failed(decl, e.span));
            continue;
        }
        let (animals, errors) = (&mut out.animals, &mut out.errors);
        match declared_animal(decl, &boards) {
            Ok(animal) if animals.iter().any(|a| a.name == animal.name) => errors.push(ElabError {
                kind: ElabErrorKind::DuplicateAnimal(animal.name),
                span: decl.name.span,
            }),
            Ok(animal) => animals.push(animal),
            Err(e) => {
                out.failed_animals.push(failed(decl, e.span));
                errors.push(e);
            }
        }
    }
    let stopped_by_syntax = file
        .failed_declarations
        .iter()
        .filter(|f| f.kind == ast::DeclarationKind::Animal);
    out.failed_animals.extend(stopped_by_syntax.cloned());
    out
}

fn declared_animal(
    decl: &ast::AnimalDecl,
    boards: &HashMap<String, Result<Board, ElabError>>,
) -> Result<DeclaredAnimal, ElabError> {
    let board = resolve_board(&decl.board, boards)?;
    let expected = board.dimension();
    let (cells, spans): (Vec<animals::lattice::Cell>, Vec<Span>) = match &decl.cells {
        ast::AnimalCells::Coordinates(list) => {
            let cells = cells_of(list, expected)?;
            (cells, list.iter().map(|c| c.span).collect())
        }
        ast::AnimalCells::Picture(rows) => {
            let Some(lattice) = board.lattice().filter(|&l| l != Lattice::Cubic) else {
                return Err(ElabError {
                    kind: ElabErrorKind::PictureNotSupported,
                    span: decl.board.span,
                });
            };
            picture_cells(lattice, rows)?
        }
    };
    if cells.len() > MAX_ANIMAL_CELLS {
        return Err(ElabError {
            kind: ElabErrorKind::SizeTooLarge {
                max: MAX_ANIMAL_CELLS as u64,
            },
            span: decl.span,
        });
    }
    animals::shape::validate(&board, &cells).map_err(|e| {
        use animals::shape::ShapeError;
        let (kind, i) = match e {
            ShapeError::Empty => (ElabErrorKind::EmptyAnimal, None),
            ShapeError::OffBoard(i) => (ElabErrorKind::CellOffBoard, Some(i)),
            ShapeError::Repeated(i) => (ElabErrorKind::RepeatedCell, Some(i)),
            ShapeError::Disconnected(i) => (ElabErrorKind::DisconnectedAnimal, Some(i)),
        };
        let span = i.and_then(|i| spans.get(i).copied()).unwrap_or(decl.span);
        ElabError { kind, span }
    })?;
    Ok(DeclaredAnimal {
        name: decl.name.node.clone(),
        board,
        cells,
    })
}

/// One written coordinate tuple as a cell, as [`cells_of`] reads it.
pub fn cell_of(
    c: &Spanned<Vec<i64>>,
    expected: usize,
) -> Result<crate::kernel::animals::lattice::Cell, ElabError> {
    Ok(cells_of(std::slice::from_ref(c), expected)?[0])
}

/// Written coordinate tuples as cells: each of `expected` coordinates,
/// none beyond 2^20 in size.
pub fn cells_of(
    list: &[Spanned<Vec<i64>>],
    expected: usize,
) -> Result<Vec<animals::lattice::Cell>, ElabError> {
    list.iter()
        .map(|c| {
            if c.node.len() != expected {
                return Err(ElabError {
                    kind: ElabErrorKind::WrongDimension { expected },
                    span: c.span,
                });
            }
            let coordinate = |i: usize| -> Result<i32, ElabError> {
                i32::try_from(*c.node.get(i).unwrap_or(&0))
                    .ok()
                    .filter(|v| v.unsigned_abs() <= 1 << 20)
                    .ok_or(ElabError {
                        kind: ElabErrorKind::CellOffBoard,
                        span: c.span,
                    })
            };
            Ok([coordinate(0)?, coordinate(1)?, coordinate(2)?])
        })
        .collect()
}

/// The cells of a picture on a plane lattice, each with the span of its
/// character.
///
/// The last row is y = 0; on the square and triangle lattices the character
/// in column x is the cell (x, y); on the hexagon lattice row y is shifted y
/// half cells to the right, so the character in column c is the hexagon
/// q = (c - y) / 2 and the other columns must be blank. Indentation common to
/// all rows is layout; the rest counts.
fn picture_cells(
    lattice: Lattice,
    rows: &[Spanned<String>],
) -> Result<(Vec<animals::lattice::Cell>, Vec<Span>), ElabError> {
    let marked = picture_marks(lattice, rows, &['#'])?;
    Ok((
        marked.iter().map(|(c, _, _)| *c).collect(),
        marked.iter().map(|(_, _, s)| *s).collect(),
    ))
}

/// The cells of a picture marked with one of `marks`, each with its mark
/// and the span of its character (conventions of [`picture_cells`]).
pub fn picture_marks(
    lattice: Lattice,
    rows: &[Spanned<String>],
    marks: &[char],
) -> Result<Vec<(animals::lattice::Cell, char, Span)>, ElabError> {
    let common = rows
        .iter()
        .map(|row| row.node.chars().take_while(|&c| c == ' ').count())
        .min()
        .unwrap_or(0);
    let mut cells = Vec::new();
    let height = rows.len() as i32;
    for (r, row) in rows.iter().enumerate() {
        let y = height - 1 - r as i32;
        for (column, (offset, ch)) in row.node.char_indices().skip(common).enumerate() {
            // The row's text starts at its line's start (indentation kept).
            let start = row.span.start + offset;
            let span = Span::new(start, start + ch.len_utf8());
            let column = column as i32;
            let x = match lattice {
                Lattice::Hexagon if (column - y).rem_euclid(2) != 0 => {
                    if ch != ' ' {
                        return Err(ElabError {
                            kind: ElabErrorKind::HexagonColumn,
                            span,
                        });
                    }
                    continue;
                }
                Lattice::Hexagon => (column - y).div_euclid(2),
                _ => column,
            };
            match ch {
                '.' | ' ' => {}
                mark if marks.contains(&mark) => cells.push(([x, y, 0], mark, span)),
                other => {
                    return Err(ElabError {
                        kind: ElabErrorKind::AnimalPictureChar(other),
                        span,
                    });
                }
            }
        }
    }
    Ok(cells)
}

/// A claim made explicit for the kernel, or the error that prevents it.
#[derive(Clone, Debug)]
pub struct ElaboratedClaim {
    /// The claim's id.
    pub id: String,
    /// Its normalised statement.
    pub statement: String,
    /// Where the claim is written.
    pub span: Span,
    /// What the kernel checks, or why it cannot.
    pub explicit: Result<Explicit, ElabError>,
}

/// A claim for the kernel, its citations still the ids the author wrote
/// (with their spans); the driver resolves them to places in the run.
pub type Explicit = crate::kernel::claim::Claim<Spanned<String>>;

/// The longest one claim's elaboration may search (the run's time limit
/// bounds it too, when shorter): a `search` hint runs the producer, and a
/// board's automorphisms are listed for the congruences a certificate
/// leaves out.
pub const SEARCH_SECONDS: u64 = 120;

/// The longest search for a hint that only helps the kernel decide (the
/// number a `number` claim is compared with): without it the claim is
/// UNDECIDED, never wrong.
const HINT_SECONDS: u64 = 5;

/// The most steps (candidate images tried) listing a graph board's
/// automorphisms may take when it is declared: a count, not a time, so
/// that whether a board is accepted does not depend on the machine's load
/// (the run's own limits bound it too).
const GRAPH_GROUP_STEPS: u64 = 50_000_000;

/// A fresh budget of the run's per-claim `limits`, its time capped at
/// `seconds` and its memory at `entries`.
fn capped(limits: &Limits, seconds: u64, entries: usize) -> Budget {
    let cap = std::time::Duration::from_secs(seconds);
    let time = limits.time.map_or(cap, |t| t.min(cap));
    Budget::new(
        limits.max_nodes,
        Some(time),
        limits.max_entries.min(entries),
    )
}

/// The error of an elaborator's search that ran out of its budget at `span`.
pub(super) fn out_of_budget(e: Exhausted, span: Span) -> ElabError {
    ElabError {
        kind: ElabErrorKind::OutOfBudget(e),
        span,
    }
}

/// Elaborates the claims of one parsed file (searching within the default
/// limits).
pub fn claims(file: &ast::File) -> Vec<ElaboratedClaim> {
    let no_files = |path: &Spanned<String>, _: Option<&Spanned<String>>, _: u64| {
        Err(ElabError {
            kind: ElabErrorKind::IncludeUnreadable(load::ReadError::Io(
                "files are read only from certificate files on disk".into(),
            )),
            span: path.span,
        })
    };
    claims_reading(file, &no_files, &Limits::default())
}

/// Reads a file a claim names (a card file, an answer file), given its
/// path, pin and the most bytes it may have: its bytes.
pub type FileReader<'a> = dyn Fn(&Spanned<String>, Option<&Spanned<String>>, u64) -> Result<Vec<u8>, ElabError>
    + Sync
    + 'a;

/// Elaborates the claims of one parsed file, reading the files claims name
/// with `read`. Each claim's searches get a fresh budget of the run's
/// per-claim `limits` (its time capped at [`SEARCH_SECONDS`]).
pub fn claims_reading(
    file: &ast::File,
    read: &FileReader,
    limits: &Limits,
) -> Vec<ElaboratedClaim> {
    claims_reading_on(file, read, limits, 1)
}

/// [`claims_reading`] with the winner and loser claims (whose elaboration
/// may search for a proof sequence, and whose claims are independent of
/// each other) elaborated on up to `threads` threads; the result is the
/// same for any number of threads.
pub fn claims_reading_on(
    file: &ast::File,
    read: &FileReader,
    limits: &Limits,
    threads: usize,
) -> Vec<ElaboratedClaim> {
    let boards = boards(file, limits);
    let games: Vec<&ast::Claim> = file
        .items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Claim(claim)
                if matches!(
                    claim.statement.node,
                    ast::Statement::Winner { .. } | ast::Statement::Loser { .. }
                ) =>
            {
                Some(&**claim)
            }
            _ => None,
        })
        .collect();
    let mut declared = (!games.is_empty()).then(|| declarations_within(file, limits));
    let mut games = match &declared {
        Some(declared) => crate::parallel::map(&games, threads, |claim| {
            let mut budget = capped(limits, SEARCH_SECONDS, usize::MAX);
            maker::claim(claim, &boards, declared, read, &mut budget)
        }),
        None => Vec::new(),
    }
    .into_iter();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    // One count of copied partizan nodes for the whole file.
    let mut terms = partizan::Terms::new();
    let mut out = Vec::new();
    for item in &file.items {
        let ast::Item::Claim(claim) = item else {
            continue;
        };
        let mut explicit = match &claim.statement.node {
            ast::Statement::CountAnimals { .. } => animals_claim(claim, &boards),
            ast::Statement::Winner { .. } | ast::Statement::Loser { .. } => {
                games.next().flatten().unwrap_or_else(|| {
                    Err(ElabError {
                        kind: ElabErrorKind::SearchFailed(
                            "the elaboration stopped on an internal error".to_string(),
                        ),
                        span: claim.span,
                    })
                })
            }
            ast::Statement::Threshold { .. } => {
                let declared = declared.get_or_insert_with(|| declarations_within(file, limits));
                breaker::threshold_claim(claim, &boards, declared)
            }
            ast::Statement::Classify { .. } => breaker::classify_claim(claim, &boards),
            ast::Statement::Bound { .. } => breaker::bound_claim(claim, &boards),
            _ => terms.transaction(|terms| explicit_claim(claim, terms, limits, read)),
        };
        if seen.insert(&claim.id.node, claim.id.span).is_some() {
            let kind = ElabErrorKind::DuplicateId(claim.id.node.clone());
            explicit = Err(ElabError {
                kind,
                span: claim.id.span,
            });
        }
        out.push(ElaboratedClaim {
            id: claim.id.node.clone(),
            statement: crate::syntax::printer::statement(&claim.statement.node),
            span: claim.span,
            explicit,
        });
    }
    out
}

/// The board declarations of a file: name to lattice, or the error a use of
/// the name reports.
fn boards(file: &ast::File, limits: &Limits) -> HashMap<String, Result<Board, ElabError>> {
    let mut out = HashMap::new();
    for item in &file.items {
        let ast::Item::Board(decl) = item else {
            continue;
        };
        let board = match &decl.body {
            None => board_kind(&decl.kind.node, &decl.args.node).ok_or_else(|| ElabError {
                kind: match decl.kind.node.as_str() {
                    "mosaic" => ElabErrorKind::MosaicParameters,
                    kind => board_kind_not_supported(kind),
                },
                span: Span::new(decl.kind.span.start, decl.span.end),
            }),
            Some(ast::BoardBody::Picture(rows)) => picture_board(decl, rows),
            Some(ast::BoardBody::Graph(edges)) => graph_board(decl, edges, limits),
            Some(ast::BoardBody::Tiling(lines)) => tilings::declared(decl, lines),
        };
        // A built-in name keeps its meaning: `board square = square` says
        // nothing new, any other board under a built-in name is refused.
        let builtin = is_reserved_board_name(&decl.name.node);
        let same_as_builtin =
            decl.body.is_none() && decl.args.node.is_empty() && decl.kind.node == decl.name.node;
        let board = if out.contains_key(&decl.name.node) {
            Err(ElabError {
                kind: ElabErrorKind::DuplicateBoard(decl.name.node.clone()),
                span: decl.name.span,
            })
        } else if builtin && !same_as_builtin {
            Err(ElabError {
                kind: ElabErrorKind::ReservedBoardName(decl.name.node.clone()),
                span: decl.name.span,
            })
        } else {
            board
        };
        out.insert(decl.name.node.clone(), board);
    }
    // A board declaration stopped by a syntax error is not in the items;
    // it is recorded so that a claim on it is told about the error, not
    // that the name is unknown.
    for failed in &file.failed_declarations {
        if failed.kind == ast::DeclarationKind::Board {
            let error = ElabError {
                kind: failed_declaration(failed.kind, &failed.name.node, failed.error),
                span: failed.error,
            };
            out.entry(failed.name.node.clone()).or_insert(Err(error));
        }
    }
    out
}

/// The error of a claim naming `name`, whose declaration has an error at
/// `declared_at`.
fn failed_declaration(kind: ast::DeclarationKind, name: &str, declared_at: Span) -> ElabErrorKind {
    ElabErrorKind::FailedDeclaration {
        kind,
        name: name.to_string(),
        declared_at,
    }
}

/// The board a name stands for: a declared board, or a kind without
/// arguments (`square`, `cube`, ...).
fn resolve_board(
    name: &Spanned<String>,
    boards: &HashMap<String, Result<Board, ElabError>>,
) -> Result<Board, ElabError> {
    match boards.get(&name.node) {
        Some(Ok(board)) => Ok(board.clone()),
        // The declaration's own error is reported with the declaration.
        Some(Err(e)) => Err(ElabError {
            kind: failed_declaration(ast::DeclarationKind::Board, &name.node, e.span),
            span: name.span,
        }),
        None => board_kind(&name.node, "").ok_or_else(|| {
            // Declared names in a fixed order, so that a tie between two
            // equally close names is broken the same way on every run.
            let mut declared: Vec<&str> = boards.keys().map(String::as_str).collect();
            declared.sort_unstable();
            let candidates = BUILTIN_BOARDS.into_iter().chain(declared);
            ElabError {
                kind: ElabErrorKind::UnknownBoard {
                    name: name.node.clone(),
                    suggestion: suggest::closest(&name.node, candidates).map(str::to_string),
                },
                span: name.span,
            }
        }),
    }
}

/// The most cells of a finite region of a plane lattice.
pub const MAX_REGION_CELLS: usize = 4096;

/// The largest automorphism group a graph board may have: claims on the
/// board search the group, so a huge one (a complete graph) is refused.
pub const MAX_GRAPH_GROUP: usize = 20_000;

/// `board NAME = LATTICE picture { ... }`: the region of the picture's cells.
fn picture_board(decl: &ast::BoardDecl, rows: &[Spanned<String>]) -> Result<Board, ElabError> {
    let lattice = match decl.kind.node.as_str() {
        "square" => Lattice::Square,
        "triangle" => Lattice::Triangle,
        "hexagon" => Lattice::Hexagon,
        _ => {
            return Err(ElabError {
                kind: ElabErrorKind::PictureNotSupported,
                span: decl.kind.span,
            });
        }
    };
    let (cells, _) = picture_cells(lattice, rows)?;
    if cells.is_empty() {
        return Err(ElabError {
            kind: ElabErrorKind::EmptyBoard,
            span: decl.span,
        });
    }
    if cells.len() > MAX_REGION_CELLS {
        return Err(ElabError {
            kind: ElabErrorKind::BoardTooLarge {
                cells: cells.len() as u64,
                max: MAX_REGION_CELLS,
            },
            span: decl.span,
        });
    }
    Ok(Board::Region(Arc::new(Region::of_cells(lattice, cells))))
}

/// `board NAME = graph { a-b ... }`: vertices 0..n-1, every one on an edge,
/// connected, with at most [`MAX_GRAPH_GROUP`] automorphisms (listed here,
/// within `limits` and [`GRAPH_GROUP_STEPS`], once for every claim).
fn graph_board(
    decl: &ast::BoardDecl,
    edges: &[Spanned<(u64, u64)>],
    limits: &Limits,
) -> Result<Board, ElabError> {
    let bad = |reason: String, span: Span| ElabError {
        kind: ElabErrorKind::BadGraph(reason),
        span,
    };
    let too_many = || format!("the graph has more than {MAX_GRAPH_GROUP} automorphisms");
    if decl.kind.node != "graph" {
        return Err(ElabError {
            kind: board_kind_not_supported(&decl.kind.node),
            span: decl.kind.span,
        });
    }
    let max = animals::solid::MAX_FACES;
    let mut pairs = Vec::new();
    for edge in edges {
        let (a, b) = edge.node;
        if a.max(b) >= max as u64 {
            return Err(ElabError {
                kind: ElabErrorKind::BoardTooLarge {
                    cells: a.max(b) + 1,
                    max,
                },
                span: edge.span,
            });
        }
        if a == b {
            return Err(bad(
                "an edge must join two different vertices".into(),
                edge.span,
            ));
        }
        pairs.push((a as usize, b as usize));
    }
    let n = pairs.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
    let graph = FaceGraph::from_edges(n, pairs.iter().copied())
        .ok_or_else(|| bad("a graph board needs at least one edge".into(), decl.span))?;
    if let Some(v) = (0..n).find(|&v| graph.adjacent[v] == 0) {
        let reason = format!(
            "vertex {v} is on no edge (vertices are numbered 0 to {})",
            n - 1
        );
        return Err(bad(reason, decl.span));
    }
    if !graph.connected(graph.all()) {
        return Err(bad("the graph is not connected".into(), decl.span));
    }
    // The listing stops at the first automorphism past the limit.
    let mut budget = Budget::new(
        limits.max_nodes,
        limits.time,
        limits.max_entries.min(MAX_GRAPH_GROUP + 1),
    )
    .with_step_limit(GRAPH_GROUP_STEPS);
    match graph.group(&mut budget) {
        Ok(group) if group.len() <= MAX_GRAPH_GROUP => Ok(Board::Graph(Arc::new(graph))),
        Ok(_) => Err(bad(too_many(), decl.span)),
        Err(Exhausted::Memory(n)) if n > MAX_GRAPH_GROUP => Err(bad(too_many(), decl.span)),
        Err(e) => Err(out_of_budget(e, decl.span)),
    }
}

/// Whether `name` is a built-in board name of SPEC 4 (a lattice, a solid,
/// or a board kind that takes arguments), which declarations may not reuse.
pub fn is_reserved_board_name(name: &str) -> bool {
    matches!(name, "prism" | "antiprism" | "graph" | "tiling" | "mosaic")
        || board_kind(name, "").is_some()
}

/// The board names a claim may use without declaring them: the lattices,
/// then the solids (what [`board_kind`] builds without arguments).
pub const BUILTIN_BOARDS: [&str; 22] = [
    "square",
    "triangle",
    "hexagon",
    "cubic",
    "tetrahedron",
    "cube",
    "octahedron",
    "dodecahedron",
    "icosahedron",
    "truncated-tetrahedron",
    "cuboctahedron",
    "truncated-cube",
    "truncated-octahedron",
    "rhombicuboctahedron",
    "truncated-cuboctahedron",
    "snub-cube",
    "icosidodecahedron",
    "truncated-dodecahedron",
    "truncated-icosahedron",
    "rhombicosidodecahedron",
    "truncated-icosidodecahedron",
    "snub-dodecahedron",
];

/// The board a built-in name stands for (one of [`BUILTIN_BOARDS`]).
pub fn builtin_board(name: &str) -> Option<Board> {
    board_kind(name, "")
}

/// The error of a board declaration whose kind is not one this version
/// builds, with the closest kind that it does.
fn board_kind_not_supported(kind: &str) -> ElabErrorKind {
    let kinds =
        BUILTIN_BOARDS
            .into_iter()
            .chain(["prism", "antiprism", "graph", "tiling", "mosaic"]);
    ElabErrorKind::BoardKindNotSupported {
        kind: kind.to_string(),
        suggestion: suggest::closest(kind, kinds),
    }
}

/// The board a kind and its arguments stand for, if this version builds it.
fn board_kind(kind: &str, args: &str) -> Option<Board> {
    let sides = || args.parse::<usize>().ok().filter(|n| (3..=63).contains(n));
    Some(match (kind, args.is_empty()) {
        ("square", true) => Board::Lattice(Lattice::Square),
        ("triangle", true) => Board::Lattice(Lattice::Triangle),
        ("hexagon", true) => Board::Lattice(Lattice::Hexagon),
        ("cubic", true) => Board::Lattice(Lattice::Cubic),
        ("tetrahedron", true) => Board::Solid(Solid::Tetrahedron),
        ("cube", true) => Board::Solid(Solid::Cube),
        ("octahedron", true) => Board::Solid(Solid::Octahedron),
        ("dodecahedron", true) => Board::Solid(Solid::Dodecahedron),
        ("icosahedron", true) => Board::Solid(Solid::Icosahedron),
        ("square" | "triangle" | "hexagon", false) => {
            let (rows, cols) = args.split_once('x')?;
            let (rows, cols) = (
                rows.trim().parse::<u16>().ok()?,
                cols.trim().parse::<u16>().ok()?,
            );
            if rows == 0 || cols == 0 || u32::from(rows) * u32::from(cols) > 4096 {
                return None;
            }
            let lattice = match kind {
                "square" => Lattice::Square,
                "triangle" => Lattice::Triangle,
                _ => Lattice::Hexagon,
            };
            Board::Region(Arc::new(Region::rectangle(lattice, rows, cols)))
        }
        ("tiling", false) => {
            let tiling = Tiling::new(tilings::builtin(args)?).ok()?;
            Board::Tiling(Arc::new(tiling))
        }
        ("mosaic", false) => Board::Mosaic(mosaic(args)?),
        ("prism", false) => Board::Solid(Solid::Prism(sides()?)),
        ("antiprism", false) => Board::Solid(Solid::Antiprism(sides()?)),
        (name, true) => Board::Solid(archimedean(name)?),
        _ => return None,
    })
}

/// The (3,q) mosaic of `(3,q)` (spaces allowed), if q is one the kernel
/// builds.
fn mosaic(args: &str) -> Option<Mosaic> {
    let compact: String = args.chars().filter(|c| !c.is_whitespace()).collect();
    let q = compact.strip_prefix("(3,")?.strip_suffix(')')?;
    Mosaic::new(q.parse().ok()?)
}

/// The archimedean solid a board name stands for, as an operator applied to
/// a platonic solid.
fn archimedean(name: &str) -> Option<Solid> {
    use crate::kernel::animals::solid::{Operator::*, Platonic::*};
    let (op, base) = match name {
        "truncated-tetrahedron" => (Truncate, Tetrahedron),
        "cuboctahedron" => (Ambo, Cube),
        "truncated-cube" => (Truncate, Cube),
        "truncated-octahedron" => (Truncate, Octahedron),
        "rhombicuboctahedron" => (Expand, Cube),
        "truncated-cuboctahedron" => (Bevel, Cube),
        "snub-cube" => (Snub, Cube),
        "icosidodecahedron" => (Ambo, Dodecahedron),
        "truncated-dodecahedron" => (Truncate, Dodecahedron),
        "truncated-icosahedron" => (Truncate, Icosahedron),
        "rhombicosidodecahedron" => (Expand, Dodecahedron),
        "truncated-icosidodecahedron" => (Bevel, Dodecahedron),
        "snub-dodecahedron" => (Snub, Dodecahedron),
        _ => return None,
    };
    Some(Solid::Archimedean(op, base))
}

/// The most cells a declared animal may have (validation is quadratic in
/// the cells; animals of the games in the references have at most a few
/// dozen).
pub const MAX_ANIMAL_CELLS: usize = 1024;

/// The largest animal size a counting claim may ask for (the counts grow
/// about fourfold per cell; beyond this only the budget would stop it).
pub const MAX_ANIMAL_SIZE: u64 = 30;

fn animals_claim(
    claim: &ast::Claim,
    boards: &HashMap<String, Result<Board, ElabError>>,
) -> Result<Explicit, ElabError> {
    let ast::Statement::CountAnimals {
        kind,
        board,
        size,
        count,
    } = &claim.statement.node
    else {
        unreachable!("called for counting claims only")
    };
    if !matches!(&claim.method.node, Method::Enumeration(c) if c.is_empty()) {
        return Err(not_applicable(claim));
    }
    let board = resolve_board(board, boards)?;
    let max_size = match board {
        Board::Mosaic(_) => mosaic::MAX_SIZE as u64,
        _ => MAX_ANIMAL_SIZE,
    };
    if size.node > max_size {
        return Err(ElabError {
            kind: ElabErrorKind::SizeTooLarge { max: max_size },
            span: size.span,
        });
    }
    if let (Board::Mosaic(_), ast::AnimalCount::Fixed) = (&board, kind) {
        return Err(ElabError {
            kind: ElabErrorKind::FixedOnMosaic,
            span: claim.statement.span,
        });
    }
    Ok(Explicit::Animals(animals::CountClaim {
        board,
        kind: match kind {
            ast::AnimalCount::Polyominoes => Kind::FreeSimplyConnected,
            ast::AnimalCount::All => Kind::Free,
            ast::AnimalCount::Fixed => Kind::Fixed,
        },
        size: size.node as usize,
        count: count.node,
    }))
}

fn play(p: PlayAst) -> Play {
    match p {
        PlayAst::Normal => Play::Normal,
        PlayAst::Misere => Play::Misere,
    }
}

fn value(v: &ast::Spanned<u64>) -> Result<u32, ElabError> {
    u32::try_from(v.node).map_err(|_| ElabError {
        kind: ElabErrorKind::ValueTooLarge,
        span: v.span,
    })
}

/// The error for a method that does not fit the claim's statement.
pub(super) fn not_applicable(claim: &ast::Claim) -> ElabError {
    ElabError {
        kind: ElabErrorKind::MethodNotApplicable {
            method: claim.method.node.name().to_string(),
            statement: claim.statement.node.kind(),
        },
        span: claim.method.span,
    }
}

/// Whether a claim goes to the partizan kernel: its method is one of the
/// partizan methods, or its game uses the partizan notation.
fn is_partizan(claim: &ast::Claim) -> bool {
    if matches!(
        claim.method.node,
        Method::Definition | Method::Derivation(_)
    ) {
        return true;
    }
    match &claim.statement.node {
        ast::Statement::Grundy { game, .. } | ast::Statement::Outcome { game, .. } => {
            partizan::uses_partizan_notation(&game.node)
        }
        ast::Statement::CountPositions { .. } | ast::Statement::Period { .. } => false,
        _ => true,
    }
}

fn explicit_claim(
    claim: &ast::Claim,
    terms: &mut partizan::Terms,
    limits: &Limits,
    read: &FileReader,
) -> Result<Explicit, ElabError> {
    if is_partizan(claim) {
        return partizan_claim(claim, terms, limits, read);
    }
    let statement = match &claim.statement.node {
        ast::Statement::Grundy {
            play: p,
            game,
            value: v,
        } => Statement::Grundy {
            play: play(*p),
            game: games::game(game)?,
            value: value(v)?,
        },
        ast::Statement::Outcome {
            play: p,
            game,
            outcome,
        } => Statement::Outcome {
            play: play(*p),
            game: games::game(game)?,
            outcome: match outcome.node {
                ast::OutcomeAst::P => Outcome::P,
                ast::OutcomeAst::N => Outcome::N,
                ast::OutcomeAst::L | ast::OutcomeAst::R => {
                    return Err(ElabError {
                        kind: ElabErrorKind::OutcomeNotImpartial,
                        span: outcome.span,
                    });
                }
            },
        },
        ast::Statement::CountPositions {
            up_to_symmetry,
            game,
            count,
        } => Statement::CountPositions {
            game: games::game(game)?,
            up_to_symmetry: *up_to_symmetry,
            count: count.node,
        },
        ast::Statement::Period {
            code,
            preperiod,
            period,
            values,
        } => Statement::Period(games::period_claim(
            code,
            preperiod,
            period,
            values.as_ref(),
        )?),
        ast::Statement::Value { .. }
        | ast::Statement::Compare { .. }
        | ast::Statement::Number { .. } => unreachable!("partizan statements are routed above"),
        ast::Statement::CountAnimals { .. }
        | ast::Statement::Winner { .. }
        | ast::Statement::Loser { .. }
        | ast::Statement::Threshold { .. }
        | ast::Statement::Classify { .. }
        | ast::Statement::Bound { .. } => {
            unreachable!("counting and maker claims are routed above")
        }
    };
    let evidence = match &claim.method.node {
        Method::Search => Evidence::Search,
        Method::Table(_)
            if matches!(
                statement,
                Statement::CountPositions { .. } | Statement::Period(_)
            ) =>
        {
            return Err(not_applicable(claim));
        }
        Method::Table(rows) => Evidence::Table(
            rows.iter()
                .map(|row| {
                    Ok(TableEntry {
                        game: games::game(&row.game)?,
                        value: value(&row.value)?,
                    })
                })
                .collect::<Result<_, ElabError>>()?,
        ),
        Method::Answers { .. }
            if matches!(
                statement,
                Statement::CountPositions { .. } | Statement::Period(_)
            ) =>
        {
            return Err(not_applicable(claim));
        }
        Method::Answers { path, sha256 } => Evidence::Answers(answer_file(path, sha256, read)?),
        Method::Other(_) => return Err(not_applicable(claim)),
        Method::Definition | Method::Derivation(_) => {
            unreachable!("partizan methods are routed above")
        }
        Method::Enumeration(_)
        | Method::Citation(_)
        | Method::Pairing(_)
        | Method::Priority(_)
        | Method::LabelPairing(_)
        | Method::ProofSequence(_)
        | Method::Cards { .. }
        | Method::Derived { .. } => {
            return Err(not_applicable(claim));
        }
    };
    Ok(Explicit::Impartial(statement, evidence))
}

/// The bytes of an answer file a claim names; its pin is required.
fn answer_file(
    path: &Spanned<String>,
    sha256: &Option<Spanned<String>>,
    read: &FileReader,
) -> Result<FileBytes, ElabError> {
    let Some(pin) = sha256 else {
        return Err(ElabError {
            kind: ElabErrorKind::AnswersUnpinned,
            span: path.span,
        });
    };
    Ok(FileBytes {
        bytes: read(path, Some(pin), load::MAX_ANSWER_FILE_BYTES)?.into(),
        sha256: pin.node.clone(),
    })
}

/// A partizan claim: the statement's games as kernel terms, and the evidence.
fn partizan_claim(
    claim: &ast::Claim,
    terms: &mut partizan::Terms,
    limits: &Limits,
    read: &FileReader,
) -> Result<Explicit, ElabError> {
    let statement = match &claim.statement.node {
        ast::Statement::Value { game, value } => pcheck::Statement::Value {
            game: terms.term(game)?,
            value: terms.term(value)?,
        },
        ast::Statement::Compare {
            left,
            relation,
            right,
        } => pcheck::Statement::Compare {
            left: terms.term(left)?,
            relation: match relation.node {
                ast::RelationAst::Equal => Relation::Equal,
                ast::RelationAst::LessOrEqual => Relation::LessOrEqual,
                ast::RelationAst::GreaterOrEqual => Relation::GreaterOrEqual,
                ast::RelationAst::Less => Relation::Less,
                ast::RelationAst::Greater => Relation::Greater,
                ast::RelationAst::Confused => Relation::Confused,
            },
            right: terms.term(right)?,
        },
        ast::Statement::Number { game } => {
            let term = terms.term(game)?;
            // The candidate is a hint; a search that runs out of the
            // claim's budget proposes nothing and the claim is UNDECIDED.
            let candidate = canonical::number_candidate(
                &term,
                capped(limits, HINT_SECONDS, limits.max_entries),
            );
            pcheck::Statement::Number {
                game: term,
                candidate,
            }
        }
        ast::Statement::Outcome {
            play: PlayAst::Normal,
            game,
            outcome,
        } => pcheck::Statement::Outcome {
            game: terms.term(game)?,
            outcome: match outcome.node {
                ast::OutcomeAst::L => PartizanOutcome::L,
                ast::OutcomeAst::R => PartizanOutcome::R,
                ast::OutcomeAst::P => PartizanOutcome::P,
                ast::OutcomeAst::N => PartizanOutcome::N,
            },
        },
        ast::Statement::Grundy {
            play: PlayAst::Normal,
            game,
            value: v,
        } => {
            if !partizan::impartial(&game.node) {
                return Err(ElabError {
                    kind: ElabErrorKind::NotImpartial,
                    span: game.span,
                });
            }
            pcheck::Statement::Grundy {
                game: terms.term(game)?,
                value: value(v)?,
            }
        }
        // Misère play and position counts are defined for the impartial
        // rulesets only.
        ast::Statement::CountAnimals { .. }
        | ast::Statement::Winner { .. }
        | ast::Statement::Loser { .. }
        | ast::Statement::Threshold { .. }
        | ast::Statement::Classify { .. }
        | ast::Statement::Bound { .. } => {
            unreachable!("counting and maker claims are routed above")
        }
        ast::Statement::Outcome { game, .. }
        | ast::Statement::Grundy { game, .. }
        | ast::Statement::CountPositions { game, .. } => {
            return Err(ElabError {
                kind: ElabErrorKind::NotImpartial,
                span: game.span,
            });
        }
        ast::Statement::Period { .. } => return Err(not_applicable(claim)),
    };
    let evidence = match &claim.method.node {
        Method::Definition => pcheck::Evidence::Definition,
        // A Grundy value or outcome of an impartial game written in the
        // partizan notation is searched by the same definition.
        Method::Search
            if matches!(
                statement,
                pcheck::Statement::Grundy { .. } | pcheck::Statement::Outcome { .. }
            ) =>
        {
            pcheck::Evidence::Definition
        }
        Method::Derivation(steps) => pcheck::Evidence::Derivation(
            steps
                .iter()
                .map(|step| {
                    let rule = match step.rule.node {
                        ast::StepRuleName::Definition => pcheck::StepRule::Definition,
                        ast::StepRuleName::Options => pcheck::StepRule::Options,
                        ast::StepRuleName::Dominated => pcheck::StepRule::Dominated,
                        ast::StepRuleName::Reversible => pcheck::StepRule::Reversible,
                        ast::StepRuleName::SimplestNumber => pcheck::StepRule::SimplestNumber,
                    };
                    Ok(pcheck::Step {
                        term: terms.term(&step.game)?,
                        rule,
                    })
                })
                .collect::<Result<_, ElabError>>()?,
        ),
        Method::Search => return Err(not_applicable(claim)),
        Method::Table(_) => return Err(not_applicable(claim)),
        Method::Enumeration(_)
        | Method::Citation(_)
        | Method::Pairing(_)
        | Method::Priority(_)
        | Method::LabelPairing(_)
        | Method::ProofSequence(_)
        | Method::Cards { .. }
        | Method::Derived { .. } => {
            return Err(not_applicable(claim));
        }
        Method::Answers { path, sha256 } => {
            if !matches!(statement, pcheck::Statement::Outcome { .. }) {
                return Err(not_applicable(claim));
            }
            pcheck::Evidence::Answers(answer_file(path, sha256, read)?)
        }
        Method::Other(_) => return Err(not_applicable(claim)),
    };
    if matches!(evidence, pcheck::Evidence::Derivation(_))
        && !matches!(statement, pcheck::Statement::Value { .. })
    {
        return Err(not_applicable(claim));
    }
    Ok(Explicit::Partizan(statement, evidence))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names suggested for a misspelled board are exactly the names a
    /// claim may use undeclared.
    #[test]
    fn every_builtin_board_name_is_built() {
        for name in BUILTIN_BOARDS {
            assert!(board_kind(name, "").is_some(), "{name}");
            assert!(is_reserved_board_name(name), "{name}");
        }
    }
}
