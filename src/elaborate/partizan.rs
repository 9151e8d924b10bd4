//! Partizan game expressions to kernel terms: numbers checked to be dyadic,
//! Hackenbush strings and graphs read into edge lists, boards expanded.

use std::sync::Arc;

use num_bigint::BigInt;

use super::games::grid;
use super::{ElabError, ElabErrorKind};
use crate::kernel::partizan::dyadic::Dyadic;
use crate::kernel::partizan::game::{Colour, Hackenbush, MAX_EDGES, Term};
use crate::syntax::ast::{GameExpr, Span, Spanned};

/// The largest `n` of `*n` and of `^n` (larger ones would only exhaust the
/// budget: `*n` has n options, `^n` is a sum of n games).
pub const MAX_MULTIPLE: u64 = 4096;

/// The most digits a number may have.
pub const MAX_DIGITS: usize = 10_000;

fn error(kind: ElabErrorKind, span: Span) -> ElabError {
    ElabError { kind, span }
}

/// The most nodes the partizan terms of one file (or one `eval`) may copy
/// beyond what is written: `+-G` copies G, so each level of nesting
/// doubles the term, and `^n` repeats `^` n times. What is written is
/// bounded by the file's size; copies are bounded here.
pub const MAX_COPIED_NODES: usize = 1 << 20;

/// The kernel term for a partizan game expression on its own.
pub fn term(expr: &Spanned<GameExpr>) -> Result<Term, ElabError> {
    Terms::new().term(expr)
}

/// Builds the kernel terms of one file, counting the nodes it copies
/// against [`MAX_COPIED_NODES`] before making the copies.
#[derive(Debug, Default)]
pub struct Terms {
    /// Nodes built so far, written or copied (measures what a copy costs).
    nodes: usize,
    /// Nodes copied so far.
    copied: usize,
}

impl Terms {
    /// A builder that has copied nothing yet.
    pub fn new() -> Terms {
        Terms::default()
    }

    /// `build(self)`, forgetting what it copied when it fails: its terms
    /// are dropped, so they must not count against the terms built later.
    pub fn transaction<T>(
        &mut self,
        build: impl FnOnce(&mut Terms) -> Result<T, ElabError>,
    ) -> Result<T, ElabError> {
        let (nodes, copied) = (self.nodes, self.copied);
        let built = build(self);
        if built.is_err() {
            (self.nodes, self.copied) = (nodes, copied);
        }
        built
    }

    /// Charges `nodes` copied nodes for the expression at `span`.
    fn copy(&mut self, nodes: usize, span: Span) -> Result<(), ElabError> {
        self.copied = self.copied.saturating_add(nodes);
        self.nodes = self.nodes.saturating_add(nodes);
        if self.copied > MAX_COPIED_NODES {
            let kind = ElabErrorKind::TermTooLarge {
                max: MAX_COPIED_NODES,
            };
            return Err(error(kind, span));
        }
        Ok(())
    }

    /// The kernel term for a partizan game expression.
    pub fn term(&mut self, expr: &Spanned<GameExpr>) -> Result<Term, ElabError> {
        self.nodes += 1;
        Ok(match &expr.node {
            GameExpr::Options { left, right } => Term::Options(
                left.iter()
                    .map(|t| self.term(t))
                    .collect::<Result<_, _>>()?,
                right
                    .iter()
                    .map(|t| self.term(t))
                    .collect::<Result<_, _>>()?,
            ),
            GameExpr::Number {
                numerator,
                denominator,
            } => Term::Number(dyadic(numerator, denominator.as_deref(), expr.span)?),
            GameExpr::Star(n) => Term::Nimber(multiple(*n, expr.span)? as u32),
            GameExpr::Up(n) => {
                let count = multiple(n.unsigned_abs(), expr.span)?;
                // ^ = {0 | *}, four nodes with its negation, repeated.
                self.copy(4 * count as usize, expr.span)?;
                let up = Term::Options(vec![Term::Number(Dyadic::zero())], vec![Term::Nimber(1)]);
                let one = if *n < 0 { Term::Neg(Box::new(up)) } else { up };
                Term::Sum(vec![one; count as usize])
            }
            GameExpr::PlusMinus(inner) => {
                let before = self.nodes;
                let g = self.term(inner)?;
                // Charged before the copy is made.
                self.copy(self.nodes - before + 1, expr.span)?;
                Term::Options(vec![g.clone()], vec![Term::Neg(Box::new(g))])
            }
            GameExpr::Neg(inner) => Term::Neg(Box::new(self.term(inner)?)),
            GameExpr::Sum(parts) => Term::Sum(
                parts
                    .iter()
                    .map(|t| self.term(t))
                    .collect::<Result<_, _>>()?,
            ),
            GameExpr::Nim(heaps) => Term::Sum(
                heaps
                    .iter()
                    .map(|h| Ok(Term::Nimber(multiple(h.node, h.span)? as u32)))
                    .collect::<Result<_, ElabError>>()?,
            ),
            GameExpr::Hackenbush {
                green_only,
                picture,
            } => Term::Hackenbush(Arc::new(hackenbush(picture, *green_only)?)),
            GameExpr::Domineering(board) => Term::Domineering(grid(board)?),
            GameExpr::Grid { .. }
            | GameExpr::Octal { .. }
            | GameExpr::Kayles(_)
            | GameExpr::Dawson(_) => {
                return Err(error(ElabErrorKind::NotPartizan, expr.span));
            }
        })
    }
}

/// Whether every part of `expr` is impartial (Left and Right have the same
/// options everywhere), so that `grundy` applies to it.
pub fn impartial(expr: &GameExpr) -> bool {
    match expr {
        GameExpr::Star(_) | GameExpr::Nim(_) => true,
        GameExpr::Number {
            numerator,
            denominator,
        } => numerator.chars().all(|c| c == '0') && denominator.is_none(),
        GameExpr::Hackenbush { green_only, .. } => *green_only,
        GameExpr::Sum(parts) => parts.iter().all(|p| impartial(&p.node)),
        GameExpr::Neg(inner) => impartial(&inner.node),
        _ => false,
    }
}

/// Whether `expr` uses the partizan notation anywhere (so that its claims go
/// to the partizan kernel).
pub fn uses_partizan_notation(expr: &GameExpr) -> bool {
    match expr {
        GameExpr::Nim(_)
        | GameExpr::Grid { .. }
        | GameExpr::Octal { .. }
        | GameExpr::Kayles(_)
        | GameExpr::Dawson(_) => false,
        GameExpr::Sum(parts) => parts.iter().any(|p| uses_partizan_notation(&p.node)),
        _ => true,
    }
}

fn multiple(n: u64, span: Span) -> Result<u64, ElabError> {
    if n > MAX_MULTIPLE {
        return Err(error(
            ElabErrorKind::MultipleTooLarge { max: MAX_MULTIPLE },
            span,
        ));
    }
    Ok(n)
}

fn dyadic(numerator: &str, denominator: Option<&str>, span: Span) -> Result<Dyadic, ElabError> {
    let too_long = numerator.len().max(denominator.map_or(0, str::len)) > MAX_DIGITS;
    if too_long {
        return Err(error(ElabErrorKind::ValueTooLarge, span));
    }
    let parse = |s: &str| {
        s.parse::<BigInt>()
            .map_err(|_| error(ElabErrorKind::ValueTooLarge, span))
    };
    let num = parse(numerator)?;
    let Some(den) = denominator else {
        return Ok(Dyadic::integer(num));
    };
    let den = parse(den)?;
    let zeros = den.trailing_zeros().unwrap_or(0);
    if den == BigInt::from(0) || den != BigInt::from(1) << zeros || zeros > u64::from(u32::MAX) {
        return Err(error(ElabErrorKind::NotDyadic, span));
    }
    Ok(Dyadic::new(num, zeros as u32))
}

/// Reads a Hackenbush picture: a graph `"0-1 l, 1-2 r"` (vertex 0 is the
/// ground) or stalks and trees `"lr(l;e)"`: letters are edges going up from
/// the ground, `(a;b)` branches at the top of the edges before it (and
/// nothing but `;` or `)` follows its `)`), and `;` at the outer level
/// starts another stalk on the ground.
fn hackenbush(picture: &Spanned<String>, green_only: bool) -> Result<Hackenbush, ElabError> {
    let text = &picture.node;
    // +1 skips the opening quote.
    let at = |i: usize, len: usize| {
        Span::new(
            picture.span.start + 1 + i,
            picture.span.start + 1 + i + len.max(1),
        )
    };
    let mut edges = Vec::new();
    // Where the edge past the limit is written: the error points there,
    // not at the whole picture (a picture of megabytes would be printed).
    let mut extra = picture.span;
    let colour = |c: char, i: usize| -> Result<Colour, ElabError> {
        let colour = match c {
            'l' => Colour::Blue,
            'r' => Colour::Red,
            'e' => Colour::Green,
            other => {
                return Err(error(
                    ElabErrorKind::HackenbushChar(other),
                    at(i, other.len_utf8()),
                ));
            }
        };
        if green_only && colour != Colour::Green {
            return Err(error(ElabErrorKind::HackenbushChar(c), at(i, 1)));
        }
        Ok(colour)
    };
    if text.contains('-') {
        // Graph form: "u-v c" items separated by commas.
        let mut offset = 0;
        let mut names: Vec<u64> = vec![0];
        for item in text.split(',') {
            let start = offset + (item.len() - item.trim_start().len());
            offset += item.len() + 1;
            let bad = || error(ElabErrorKind::HackenbushEdge, at(start, item.trim().len()));
            let (ends, c) = item.trim().split_once(' ').ok_or_else(bad)?;
            let (u, v) = ends.split_once('-').ok_or_else(bad)?;
            let mut vertex = |s: &str| -> Result<u32, ElabError> {
                let n: u64 = s.trim().parse().map_err(|_| bad())?;
                let index = match names.iter().position(|&m| m == n) {
                    Some(i) => i,
                    None => {
                        names.push(n);
                        names.len() - 1
                    }
                };
                Ok(index as u32)
            };
            let (u, v) = (vertex(u)?, vertex(v)?);
            let mut chars = c.trim().chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            edges.push((u, v, colour(ch, start + ends.len() + 1)?));
            // Refused below; reading on would look up every vertex name
            // among all before it (a 5 MB picture took 100 s).
            if edges.len() > MAX_EDGES {
                extra = at(start, item.trim().len());
                break;
            }
        }
    } else {
        // Stalks and trees.
        let mut stack: Vec<u32> = Vec::new(); // vertex where each open branch group hangs
        let mut current = 0u32; // the vertex the next edge grows from
        let mut group_base = 0u32; // the vertex the current branch started at
        let mut vertices = 1u32;
        // Right after a `)`: an edge would grow from the branch vertex
        // among the bracketed branches, which reads as if it went on top.
        let mut closed = false;
        for (i, c) in text.char_indices() {
            if closed && !matches!(c, ';' | ')' | ' ') {
                return Err(error(ElabErrorKind::HackenbushAfterBranches, at(i, 1)));
            }
            closed = c == ')' || (closed && c == ' ');
            match c {
                '(' => {
                    stack.push(group_base);
                    group_base = current;
                }
                ';' => current = group_base,
                ')' => {
                    let Some(base) = stack.pop() else {
                        return Err(error(ElabErrorKind::HackenbushUnbalanced, at(i, 1)));
                    };
                    current = group_base;
                    group_base = base;
                }
                ' ' => {}
                other => {
                    let colour = colour(other, i)?;
                    edges.push((current, vertices, colour));
                    current = vertices;
                    vertices += 1;
                }
            }
            if edges.len() > MAX_EDGES {
                extra = at(i, 1);
                break;
            }
        }
        // A picture cut short at the limit may leave a branch open.
        if !stack.is_empty() && edges.len() <= MAX_EDGES {
            return Err(error(
                ElabErrorKind::HackenbushUnbalanced,
                at(text.len(), 1),
            ));
        }
    }
    if edges.len() > MAX_EDGES {
        let kind = ElabErrorKind::TooManyEdges { max: MAX_EDGES };
        return Err(error(kind, extra));
    }
    Ok(Hackenbush { edges })
}
