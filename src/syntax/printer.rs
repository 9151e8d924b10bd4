//! Normalised text of statements and games: single spaces, canonical keywords.
//!
//! The JSON report prints every statement in exactly this form (SPEC 5), so
//! the form is part of the contract: `grundy cram 3x5 = 1`,
//! `outcome misere nim [1,2,3] = P`, `count positions up to symmetry domino-juvavum 3x5 = 805`.

use super::ast::*;

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
            format!("outcome{} {} = {}", play(p), game(&g.node), outcome.node)
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
            let terms: Vec<String> = terms
                .iter()
                .map(|t| match &t.node {
                    GameExpr::Sum(_) => format!("({})", game(&t.node)),
                    other => game(other),
                })
                .collect();
            terms.join(" + ")
        }
    }
}
