//! Dependency digraphs of plain priority strategies (Norris-Sieben Def.
//! 4.5) in Graphviz DOT, one cluster per placement of the goal modulo the
//! strategy's classes: an arrow x -> y says the maker cannot mark y in a
//! later turn than x, because the breaker's answer to x marks y. It is
//! unconditional (solid) when y is the first cell of the list, conditional
//! (dashed, labelled with the goal cells that come first in the list and
//! must be marked by then) otherwise. Only certain steps count: those the
//! breaker takes even when the maker's other marks of the turn come first.
//!
//! Key decision: the digraph is an illustration, computed here and not by
//! the kernel; the kernel's rule B5 is what verifies the strategy.

use std::fmt::Write as _;

use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::{Board, shape};
use crate::kernel::breaker::add;
use crate::kernel::breaker::period::Period;
use crate::kernel::breaker::priority::Priority;
use crate::kernel::game::GameClaim;
use crate::syntax::printer;

/// The DOT text for a priority strategy without guards on a lattice, or
/// `None` (history-dependent strategies have no such digraph).
pub fn dependency_dot(id: &str, claim: &GameClaim, strategy: &Priority) -> Option<String> {
    let Board::Lattice(lattice) = claim.board else {
        return None;
    };
    let rules = strategy.classes.iter().flat_map(|c| &c.rules);
    if rules.clone().any(|r| !r.guard.is_empty()) {
        return None;
    }
    let most_lists = rules.map(|r| r.lists.len()).max().unwrap_or(0);
    let period = Period::new(&strategy.generators(lattice), claim.board.dimension()).ok()?;
    let lists_of = |c: Cell| {
        strategy
            .classes
            .iter()
            .find(|k| period.reduce(k.class) == period.reduce(c))
            .and_then(|k| k.rules.first())
            .map_or(&[][..], |r| &r.lists[..])
    };
    let shifts = period.translations(lattice);
    let mut placements: Vec<Vec<Cell>> = Vec::new();
    // A lattice or a region of one: its placements list no group, so the
    // budget is never charged.
    let unlimited = &mut crate::kernel::budget::Budget::unlimited();
    for placement in shape::placements(&claim.board, &claim.goal, unlimited).ok()? {
        for &t in &shifts {
            let mut placed: Vec<Cell> = placement.iter().map(|&c| add(c, t)).collect();
            placed.sort_unstable();
            if !placements.contains(&placed) {
                placements.push(placed);
            }
        }
    }
    let dimension = claim.board.dimension();
    let name = |i: usize| char::from(b'a' + (i % 26) as u8);
    let mut dot = format!("digraph \"{id}\" {{\n  node [shape=circle];\n");
    for (k, placement) in placements.iter().enumerate() {
        let cells = placement
            .iter()
            .map(|c| printer::cell(c, dimension))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            dot,
            "  subgraph cluster_{k} {{\n    label=\"{}\";",
            cells.replace('"', "")
        );
        for (i, c) in placement.iter().enumerate() {
            let _ = writeln!(
                dot,
                "    p{k}_{i} [label=\"{}\\n{}\"];",
                name(i),
                printer::cell(c, dimension)
            );
        }
        for (i, &x) in placement.iter().enumerate() {
            for (t, list) in lists_of(x).iter().enumerate() {
                // Certain even when the maker's other a - 1 marks come first.
                let before = t + (claim.a - 1) * (t + 1).min(most_lists);
                if before >= claim.b {
                    break;
                }
                for (j, condition) in arrows(placement, x, list) {
                    let label = condition
                        .iter()
                        .map(|&c| name(c).to_string())
                        .collect::<Vec<_>>();
                    let style = if label.is_empty() {
                        String::new()
                    } else {
                        format!(" [style=dashed, label=\"{}\"]", label.join(" & "))
                    };
                    let _ = writeln!(dot, "    p{k}_{i} -> p{k}_{j}{style};");
                }
            }
        }
        dot.push_str("  }\n");
    }
    dot.push_str("}\n");
    Some(dot)
}

/// The arrows one list of `x`'s answer gives: to each goal cell of the
/// list, conditioned on the goal cells before it, as long as only goal
/// cells come before it (a cell outside the placement may be unmarked and
/// take the breaker's mark).
fn arrows(placement: &[Cell], x: Cell, list: &[Cell]) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    let mut condition = Vec::new();
    for &d in list {
        let c = add(x, d);
        if c == x {
            continue;
        }
        let Some(i) = placement.iter().position(|&p| p == c) else {
            break;
        };
        out.push((i, condition.clone()));
        condition.push(i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::animals::lattice::Lattice;
    use crate::kernel::breaker::priority::{ClassRules, PriorityRule};
    use crate::kernel::game::Side;

    /// P4_4's parity strategy: in both placements modulo the parity the
    /// four cells form one cycle of unconditional arrows, so the maker must
    /// mark all four in one turn (Norris-Sieben, Prop. 7.7).
    #[test]
    fn the_square_tetromino_parity_strategy_is_one_cycle() {
        let claim = GameClaim {
            side: Side::Loser,
            board: Board::Lattice(Lattice::Square),
            goal: vec![[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
            a: 2,
            finish: None,
            b: 4,
        };
        let rule = |lists: Vec<Vec<Cell>>| PriorityRule {
            guard: Vec::new(),
            lists,
        };
        let strategy = Priority {
            period: vec![[1, 1, 0], [1, -1, 0]],
            order: Vec::new(),
            classes: vec![
                ClassRules {
                    class: [0, 0, 0],
                    rules: vec![rule(vec![vec![[1, 0, 0]], vec![[-1, 0, 0]]])],
                },
                ClassRules {
                    class: [1, 0, 0],
                    rules: vec![rule(vec![vec![[0, 1, 0]], vec![[0, -1, 0]]])],
                },
            ],
        };
        let dot = dependency_dot("o4", &claim, &strategy).expect("plain strategy");
        assert_eq!(dot.matches("subgraph").count(), 2, "{dot}");
        assert_eq!(dot.matches(" -> ").count(), 8, "{dot}");
        assert!(!dot.contains("dashed"), "{dot}");
    }
}
