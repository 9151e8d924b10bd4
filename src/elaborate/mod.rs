//! Elaboration (untrusted): from syntax trees to fully explicit kernel claims.
//!
//! Resolves files and includes, checks ids, resolves names, expands boards and
//! pictures, range-checks numbers and attaches each claim's evidence. Nothing
//! it produces is trusted: the kernel re-checks every claim it is handed.
//! Architecture invariant: errors here are values with spans
//! ([`ElabError`]); their wording lives in `report::diagnostics`.

pub mod games;
pub mod load;

use std::collections::HashMap;

use crate::kernel::impartial::check::{Evidence, Statement};
use crate::kernel::impartial::table::TableEntry;
use crate::kernel::impartial::{Outcome, Play};
use crate::syntax::ast::{self, Method, PlayAst, Span};

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
    /// A method of the language that does not apply to this statement.
    MethodNotApplicable { method: String },
    /// An include path that is absolute.
    IncludeAbsolute,
    /// An include that leads outside the tree being checked.
    IncludeEscapes,
    /// An include that cannot be read.
    IncludeUnreadable(String),
    /// An include that leads back to a file including it.
    IncludeCycle,
    /// An include whose content does not match its pin.
    PinMismatch { actual: String },
    /// A pin that is not 64 hexadecimal digits.
    BadPin,
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
    pub explicit: Result<(Statement, Evidence), ElabError>,
}

/// Elaborates the claims of one parsed file.
pub fn claims(file: &ast::File) -> Vec<ElaboratedClaim> {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    let mut out = Vec::new();
    for item in &file.items {
        let ast::Item::Claim(claim) = item else {
            continue;
        };
        let mut explicit = explicit_claim(claim);
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

fn explicit_claim(claim: &ast::Claim) -> Result<(Statement, Evidence), ElabError> {
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
            outcome: if outcome.node == 'P' {
                Outcome::P
            } else {
                Outcome::N
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
    };
    let not_applicable = |method: &str| ElabError {
        kind: ElabErrorKind::MethodNotApplicable {
            method: method.to_string(),
        },
        span: claim.method.span,
    };
    let evidence = match &claim.method.node {
        Method::Search => Evidence::Search,
        Method::Table(_) if matches!(statement, Statement::CountPositions { .. }) => {
            return Err(not_applicable("table"));
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
        Method::Other(name) => return Err(not_applicable(name)),
    };
    Ok((statement, evidence))
}
