//! Bound producer (untrusted): Bode's upper bounds on the number of
//! winners of a solid (Sec. 5.1). Size by size, every polyomino that holds
//! no loser found so far gets a search for a symmetric pairing of the
//! properties asked for; what no pairing spoils is left as a possible
//! winner. Once every polyomino of a size holds a loser, so does every
//! larger one, and the bound is complete.
//!
//! Key decision: no maker search is run. A bound needs losers only, and on
//! the larger solids the maker searches were what made a classification
//! survey take hours; the polyominoes left are named as open cases.

use super::breaker::{self, TREE_DEPTH, Tree};
use super::classify::{loser_free_of_size, unbiased};
use super::symmetric::{Property, Searcher};
use crate::kernel::animals::Board;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};

/// A loser found: the polyomino (one of its orbit) and its strategy.
pub type Loser = (u128, Strategy);

/// How a loser was shown.
#[derive(Clone, Debug)]
pub enum Strategy {
    /// A symmetric pairing of this property, and its pairs.
    Pairing(Property, Vec<(usize, usize)>),
    /// A strategy tree (the breaker's answers to the maker's first marks,
    /// then pairings), searched where no symmetric pairing was found.
    Tree(Tree),
}

/// What the survey found.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Per size from 1: how many polyominoes hold no smaller loser, and how
    /// many of those no pairing spoils.
    pub sizes: Vec<(usize, usize)>,
    pub losers: Vec<Loser>,
    /// The polyominoes no pairing spoils (possible winners).
    pub open: Vec<u128>,
    /// Whether a size was reached where every polyomino holds a loser.
    pub complete: bool,
}

/// Surveys the polyominoes of up to `max_size` faces of a solid or graph
/// board (`None` for any other board), trying `properties` in turn, each
/// subgroup search on a fresh `budget()`, and then, if `trees`, a strategy
/// tree (beyond Bode's pairings).
pub fn survey(
    board: &Board,
    max_size: usize,
    properties: &[Property],
    trees: bool,
    budget: &dyn Fn() -> Budget,
) -> Result<Option<Survey>, Exhausted> {
    let Some(graph) = board.face_graph() else {
        return Ok(None);
    };
    let group = graph.group(&mut budget())?;
    let searcher = Searcher::new(&graph, &group);
    let mut out = Survey::default();
    for size in 1..graph.faces().min(max_size + 1) {
        let known: Vec<u128> = out.losers.iter().map(|l| l.0).collect();
        let of_size = loser_free_of_size(&graph, &group, &known, size, &mut budget())?;
        let mut left = 0;
        for &set in &of_size {
            let pairing = searcher
                .pairing(set, properties, budget)
                .map(|(property, pairs)| Strategy::Pairing(property, pairs));
            let strategy = pairing.or_else(|| {
                let loser = GameClaim::of(Side::Loser, unbiased(board, set));
                trees
                    .then(|| breaker::prove(&loser, TREE_DEPTH, &mut budget()))
                    .and_then(|found| found.ok().flatten())
                    .map(Strategy::Tree)
            });
            match strategy {
                Some(strategy) => out.losers.push((set, strategy)),
                None => {
                    left += 1;
                    out.open.push(set);
                }
            }
        }
        out.sizes.push((of_size.len(), left));
        if of_size.is_empty() {
            out.complete = true;
            break;
        }
    }
    Ok(Some(out))
}
