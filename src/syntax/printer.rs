//! Normalised text of statements and games: single spaces, canonical keywords.
//!
//! The JSON report prints every statement in exactly this form (SPEC 5), so
//! the form is part of the contract: `grundy cram 3x5 = 1`,
//! `outcome misere nim [1,2,3] = P`, `count positions up to symmetry domino-juvavum 3x5 = 805`.

use super::ast::*;

/// A cell as certificates write it: `(f)`, `(x,y)` or `(x,y,z)` for
/// boards of `dimension` 1, 2 or 3.
pub fn cell(c: &[i32; 3], dimension: usize) -> String {
    match dimension {
        1 => format!("({})", c[0]),
        2 => format!("({},{})", c[0], c[1]),
        _ => format!("({},{},{})", c[0], c[1], c[2]),
    }
}

/// `(a,b)` or `(a->c,b)`.
pub fn maker_game(g: &MakerGame) -> String {
    match g.finish {
        Some(c) => format!("({}->{},{})", g.a, c, g.b),
        None => format!("({},{})", g.a, g.b),
    }
}

/// The normalised text of a statement.
pub fn statement(s: &Statement) -> String {
    let play = |p: &PlayAst| if *p == PlayAst::Misere { " misere" } else { "" };
    match s {
        Statement::Grundy {
            play: p,
            game: g,
            value,
        } => {
            format!("grundy{} {} = {}", play(p), game(&g.node), value.node)
        }
        Statement::Outcome {
            play: p,
            game: g,
            outcome,
        } => {
            format!(
                "outcome{} {} = {}",
                play(p),
                game(&g.node),
                outcome.node.letter()
            )
        }
        Statement::CountPositions {
            up_to_symmetry,
            game: g,
            count,
        } => {
            let sym = if *up_to_symmetry {
                " up to symmetry"
            } else {
                ""
            };
            format!("count positions{} {} = {}", sym, game(&g.node), count.node)
        }
        Statement::Period {
            code,
            preperiod,
            period,
            values,
        } => match values {
            Some(values) => format!("period octal {} = {}", code.node, values.node),
            None => format!(
                "period octal {} = ({}, {})",
                code.node, preperiod.node, period.node
            ),
        },
        Statement::Value { game: g, value } => {
            format!("value {} = {}", game(&g.node), game(&value.node))
        }
        Statement::Compare {
            left,
            relation,
            right,
        } => format!(
            "compare {} {} {}",
            game(&left.node),
            relation.node.symbol(),
            game(&right.node)
        ),
        Statement::Number { game: g } => format!("number {}", game(&g.node)),
        Statement::Winner {
            animal,
            board,
            game: g,
        } => format!(
            "winner {} on {} {}",
            animal.node,
            board.node,
            maker_game(&g.node)
        ),
        Statement::Loser {
            animal,
            board,
            game: g,
        } => format!(
            "loser {} on {} {}",
            animal.node,
            board.node,
            maker_game(&g.node)
        ),
        Statement::Threshold {
            animal,
            board,
            sequence,
        } => {
            let entries: Vec<String> = sequence
                .node
                .iter()
                .map(|b| b.map_or_else(|| "inf".to_string(), |b| b.to_string()))
                .collect();
            format!(
                "threshold {} on {} = ({})",
                animal.node,
                board.node,
                entries.join(", ")
            )
        }
        Statement::Classify {
            board,
            winners,
            losers,
            elementary,
        } => {
            let which = if *elementary { "elementary " } else { "" };
            format!(
                "classify {} = ({} {which}winners, {} {which}losers)",
                board.node, winners.node, losers.node
            )
        }
        Statement::Bound {
            board,
            size,
            at_most,
        } => match size {
            Some(size) => format!(
                "bound {} size {} winners <= {}",
                board.node, size.node, at_most.node
            ),
            None => format!("bound {} winners <= {}", board.node, at_most.node),
        },
        Statement::CountAnimals {
            kind,
            board,
            size,
            count,
        } => format!(
            "count {} on {} size {} = {}",
            kind.words(),
            board.node,
            size.node,
            count.node
        ),
    }
}

/// The normalised text of a game expression.
pub fn game(g: &GameExpr) -> String {
    match g {
        GameExpr::Nim(heaps) => {
            let heaps: Vec<String> = heaps.iter().map(|h| h.node.to_string()).collect();
            format!("nim [{}]", heaps.join(","))
        }
        GameExpr::Grid { ruleset, board } => match &board.node {
            BoardExpr::Dims { rows, cols } => format!("{} {}x{}", ruleset.keyword(), rows, cols),
            BoardExpr::Picture(p) => format!("{} \"{}\"", ruleset.keyword(), p),
        },
        GameExpr::Octal { code, heap } => format!("octal {} {}", code.node, heap.node),
        GameExpr::Kayles(n) => format!("kayles {}", n.node),
        GameExpr::Dawson(n) => format!("dawson {}", n.node),
        GameExpr::Sum(terms) => {
            let mut out = String::new();
            for (i, t) in terms.iter().enumerate() {
                let (sign, t) = match &t.node {
                    GameExpr::Neg(inner) if i > 0 => (" - ", &inner.node),
                    other => (if i > 0 { " + " } else { "" }, other),
                };
                out.push_str(sign);
                out.push_str(&operand(t));
            }
            out
        }
        GameExpr::Options { left, right } => {
            let side = |v: &[Spanned<GameExpr>]| {
                v.iter()
                    .map(|g| game(&g.node))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{{{} | {}}}", side(left), side(right))
                .replace("{ | ", "{| ")
                .replace(" | }", " |}")
        }
        GameExpr::Number {
            numerator,
            denominator,
        } => match denominator {
            Some(d) => format!("{numerator}/{d}"),
            None => numerator.clone(),
        },
        GameExpr::Star(1) => "*".to_string(),
        GameExpr::Star(n) => format!("*{n}"),
        GameExpr::Up(1) => "^".to_string(),
        GameExpr::Up(-1) => "v".to_string(),
        GameExpr::Up(n) if *n < 0 => format!("v{}", n.unsigned_abs()),
        GameExpr::Up(n) => format!("^{n}"),
        GameExpr::PlusMinus(inner) => format!("+-{}", operand(&inner.node)),
        GameExpr::Neg(inner) => format!("-{}", operand(&inner.node)),
        GameExpr::Hackenbush {
            green_only,
            picture,
        } => {
            let name = if *green_only {
                "green-hackenbush"
            } else {
                "hackenbush"
            };
            format!("{name} \"{}\"", picture.node)
        }
        GameExpr::Domineering(board) => match &board.node {
            BoardExpr::Dims { rows, cols } => format!("domineering {rows}x{cols}"),
            BoardExpr::Picture(p) => format!("domineering \"{p}\""),
        },
    }
}

/// A game as the operand of `+`, `-` or a prefix: sums in parentheses.
fn operand(g: &GameExpr) -> String {
    match g {
        GameExpr::Sum(_) => format!("({})", game(g)),
        other => game(other),
    }
}
