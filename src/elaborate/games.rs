//! Turning game expressions into the kernel's games: names resolved, boards
//! and pictures expanded, every number range-checked.

use super::{ElabError, ElabErrorKind};
use crate::kernel::impartial::Game;
use crate::kernel::impartial::grid::{Grid, GridRules, MAX_CELLS};
use crate::kernel::impartial::heap::{HeapRules, MAX_HEAP};
use crate::kernel::impartial::period::PeriodClaim;
use crate::syntax::ast::{BoardExpr, GameExpr, GridRuleset, Span, Spanned};

fn error(kind: ElabErrorKind, span: Span) -> ElabError {
    ElabError { kind, span }
}

/// The most summands (terms of a sum, heaps of a Nim position) a game may have.
pub const MAX_SUMMANDS: usize = 10_000;

/// The kernel game for `expr`.
pub fn game(expr: &Spanned<GameExpr>) -> Result<Game, ElabError> {
    let game = game_unchecked(expr)?;
    let summands = game.parts().len();
    if summands > MAX_SUMMANDS {
        let kind = ElabErrorKind::TooManySummands {
            summands,
            max: MAX_SUMMANDS,
        };
        return Err(error(kind, expr.span));
    }
    Ok(game)
}

fn game_unchecked(expr: &Spanned<GameExpr>) -> Result<Game, ElabError> {
    Ok(match &expr.node {
        GameExpr::Nim(heaps) => Game::Nim(heaps.iter().map(heap_size).collect::<Result<_, _>>()?),
        GameExpr::Grid { ruleset, board } => {
            let rules = match ruleset {
                GridRuleset::Cram => GridRules::Cram,
                GridRuleset::DominoJuvavum => GridRules::DominoJuvavum,
                GridRuleset::Juvavum => GridRules::Juvavum,
            };
            Game::Grid {
                rules,
                grid: grid(board)?,
            }
        }
        GameExpr::Octal { code, heap } => Game::Heap {
            rules: octal_code(code)?,
            size: heap_size(heap)?,
        },
        GameExpr::Kayles(n) => Game::Heap {
            rules: HeapRules::Octal(vec![0, 7, 7]),
            size: heap_size(n)?,
        },
        GameExpr::Dawson(n) => Game::Heap {
            rules: HeapRules::Octal(vec![0, 0, 7]),
            size: heap_size(n)?,
        },
        GameExpr::Sum(terms) => {
            Game::Sum(terms.iter().map(game_unchecked).collect::<Result<_, _>>()?)
        }
        GameExpr::Options { .. }
        | GameExpr::Number { .. }
        | GameExpr::Star(_)
        | GameExpr::Up(_)
        | GameExpr::PlusMinus(_)
        | GameExpr::Neg(_)
        | GameExpr::Hackenbush { .. }
        | GameExpr::Domineering(_) => {
            return Err(error(ElabErrorKind::NotImpartial, expr.span));
        }
    })
}

fn heap_size(n: &Spanned<u64>) -> Result<u32, ElabError> {
    if n.node > u64::from(MAX_HEAP) {
        return Err(error(ElabErrorKind::HeapTooLarge { max: MAX_HEAP }, n.span));
    }
    Ok(n.node as u32)
}

/// `period octal CODE = (n0, p)` or `= PREFIX(PERIOD)` as a kernel claim.
pub fn period_claim(
    code: &Spanned<String>,
    preperiod: &Spanned<u64>,
    period: &Spanned<u64>,
    values: Option<&Spanned<String>>,
) -> Result<PeriodClaim, ElabError> {
    let HeapRules::Octal(digits) = octal_code(code)? else {
        return Err(error(ElabErrorKind::BadOctalCode, code.span));
    };
    // Digits, then A = 10, B = 11, ...; the parentheses are dropped.
    let values = values.map(|v| {
        v.node
            .chars()
            .filter_map(|c| c.to_digit(36))
            .collect::<Vec<u32>>()
    });
    Ok(PeriodClaim {
        digits,
        preperiod: preperiod.node,
        period: period.node,
        values,
    })
}

fn octal_code(code: &Spanned<String>) -> Result<HeapRules, ElabError> {
    let bad = || error(ElabErrorKind::BadOctalCode, code.span);
    let (whole, fraction) = code.node.split_once('.').ok_or_else(bad)?;
    if whole.len() != 1 || fraction.is_empty() || fraction.len() > 64 {
        return Err(bad());
    }
    let digits = whole
        .chars()
        .chain(fraction.chars())
        .map(|c| c.to_digit(8).map(|d| d as u8))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)?;
    HeapRules::octal(digits).ok_or_else(bad)
}

/// The grid a board expression describes.
pub fn grid(board: &Spanned<BoardExpr>) -> Result<Grid, ElabError> {
    let too_large = |cells| {
        error(
            ElabErrorKind::BoardTooLarge {
                cells,
                max: MAX_CELLS,
            },
            board.span,
        )
    };
    match &board.node {
        BoardExpr::Dims { rows, cols } => {
            if *rows == 0 || *cols == 0 {
                return Err(error(ElabErrorKind::EmptyBoard, board.span));
            }
            let cells = rows.saturating_mul(*cols);
            if cells > MAX_CELLS as u64 {
                return Err(too_large(cells));
            }
            Grid::empty_board(*rows as usize, *cols as usize).ok_or_else(|| too_large(cells))
        }
        BoardExpr::Picture(picture) => {
            let rows: Vec<&str> = picture.split('|').collect();
            let cols = rows[0].chars().count();
            if cols == 0 {
                return Err(error(ElabErrorKind::EmptyBoard, board.span));
            }
            if rows.iter().any(|r| r.chars().count() != cols) {
                return Err(error(ElabErrorKind::RaggedPicture, board.span));
            }
            let cells = (rows.len() * cols) as u64;
            if cells > MAX_CELLS as u64 {
                return Err(too_large(cells));
            }
            let mut free = 0u64;
            for (r, row) in rows.iter().enumerate() {
                for (c, ch) in row.chars().enumerate() {
                    match ch {
                        '.' => free |= 1u64 << (r * cols + c),
                        '#' => {}
                        other => {
                            // +1 skips the opening quote of the picture string.
                            let offset = board.span.start + 1 + picture_offset(picture, r, c);
                            let span = Span::new(offset, offset + other.len_utf8());
                            return Err(error(ElabErrorKind::PictureChar(other), span));
                        }
                    }
                }
            }
            Grid::new(rows.len(), cols, free).ok_or_else(|| too_large(cells))
        }
    }
}

/// Byte offset of cell (r, c) inside the picture text.
fn picture_offset(picture: &str, r: usize, c: usize) -> usize {
    let row_start: usize = picture.split('|').take(r).map(|row| row.len() + 1).sum();
    let row = picture.split('|').nth(r).unwrap_or("");
    row_start + row.char_indices().nth(c).map_or(0, |(i, _)| i)
}
