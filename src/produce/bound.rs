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

use std::collections::HashMap;

use super::breaker::{self, PlaneProperty, TREE_DEPTH, Tree};
use super::classify::{loser_free_of_size, unbiased};
use super::symmetric::{Property, Searcher};
use crate::kernel::animals::Board;
use crate::kernel::animals::enumerate::Geometry;
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::levels;
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

/// A loser found on a plane board: the polyomino (a canonical form), its
/// periodic pairing and the property it was found with.
pub type PlaneLoser = (Vec<Cell>, breaker::Found, PlaneProperty);

/// What a plane survey found.
#[derive(Clone, Debug, Default)]
pub struct PlaneSurvey {
    /// Per size from 1: how many polyominoes hold no smaller loser, and how
    /// many of those no pairing spoils.
    pub sizes: Vec<(usize, usize)>,
    pub losers: Vec<PlaneLoser>,
    /// The polyominoes no pairing spoils (possible winners).
    pub open: Vec<Vec<Cell>>,
    /// Whether a size was reached where every polyomino holds a loser.
    pub complete: bool,
}

/// The most backtracking steps one pairing search may take (per
/// polyomino and property): a polyomino that defeats it is left open.
pub const PAIRING_STEPS: u64 = 200_000;

/// Bode's survey of a plane lattice or tiling (Sec. 6.3.1, 7.1): size by
/// size, every polyomino holding no loser found so far gets a search for a
/// periodic pairing of each property in turn; `None` for other boards.
/// The enumeration is the kernel's level enumeration, asked with the
/// pairing search in place of the cited losers, so the certificate's bound
/// counts what this survey counts.
pub fn survey_plane(
    board: &Board,
    max_size: usize,
    properties: &[PlaneProperty],
    budget: &(dyn Fn() -> Budget + Sync),
) -> Result<Option<PlaneSurvey>, Exhausted> {
    match board {
        Board::Lattice(l) if *l != Lattice::Cubic => {
            survey_geometry(l, board, max_size, properties, budget).map(Some)
        }
        Board::Tiling(t) => survey_geometry(&**t, board, max_size, properties, budget).map(Some),
        _ => Ok(None),
    }
}

/// A polyomino's pairing search result: the pairing and its property, or
/// `None` when every property's search failed.
type Answer = Option<(breaker::Found, PlaneProperty)>;

/// The survey runs the level enumeration once per size: each run answers
/// the sizes below from the answers kept and collects the new size's
/// polyominoes, whose searches then run on every core. A last run with all
/// answers known writes the tables, in the enumeration's order.
fn survey_geometry(
    geometry: &impl Geometry,
    board: &Board,
    max_size: usize,
    properties: &[PlaneProperty],
    budget: &(dyn Fn() -> Budget + Sync),
) -> Result<PlaneSurvey, Exhausted> {
    let mut answers: HashMap<Vec<Cell>, Answer> = HashMap::new();
    for last in 1..=max_size {
        let mut asked: Vec<Vec<Cell>> = Vec::new();
        let mut complete = false;
        levels::loser_free(
            geometry,
            last,
            &mut |set, polyomino| {
                if !polyomino {
                    return Ok(false);
                }
                match answers.get(set) {
                    Some(answer) => Ok(answer.is_some()),
                    None => {
                        asked.push(set.to_vec());
                        Ok(false)
                    }
                }
            },
            &mut |_, level| complete = level.polyominoes == 0,
            &mut budget(),
        )?;
        let found = search_all(board, &asked, properties, budget);
        answers.extend(asked.into_iter().zip(found));
        if complete {
            break;
        }
    }
    let mut out = PlaneSurvey::default();
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut visited = 0;
    levels::loser_free(
        geometry,
        max_size,
        &mut |set, polyomino| {
            if !polyomino {
                return Ok(false);
            }
            if sizes.len() < set.len() {
                sizes.resize(set.len(), (0, 0));
            }
            let entry = &mut sizes[set.len() - 1];
            entry.0 += 1;
            match answers.get(set) {
                Some(Some((found, property))) => {
                    out.losers.push((set.to_vec(), found.clone(), *property));
                    Ok(true)
                }
                _ => {
                    entry.1 += 1;
                    out.open.push(set.to_vec());
                    Ok(false)
                }
            }
        },
        &mut |size, level| {
            visited = size;
            out.complete = level.polyominoes == 0;
        },
        &mut budget(),
    )?;
    // A level none of whose polyominoes was asked about has a row too.
    sizes.resize(visited.max(sizes.len()), (0, 0));
    out.sizes = sizes;
    Ok(out)
}

/// The pairing searches for `sets`, on every core, each property in turn
/// with its own step limit; the answers in the order of `sets`.
fn search_all(
    board: &Board,
    sets: &[Vec<Cell>],
    properties: &[PlaneProperty],
    budget: &(dyn Fn() -> Budget + Sync),
) -> Vec<Answer> {
    let search = |set: &[Cell]| {
        properties.iter().find_map(|&property| {
            let mut steps = budget().with_step_limit(PAIRING_STEPS);
            match breaker::paving_with(board, set, 1, property, &mut steps) {
                Ok(Some(found)) => Some((found, property)),
                _ => None,
            }
        })
    };
    // A search whose worker panicked leaves its set open.
    crate::parallel::map(sets, crate::parallel::cores(), |set| search(set))
        .into_iter()
        .map(Option::flatten)
        .collect()
}
