//! Classification producer (untrusted): every polyomino of a finite board
//! decided for the (1,1) game by the exhaustive solver, and reduced to what
//! a `classify` claim cites: the maximal winners and the elementary losers.
//!
//! Key decision: on a finite board a polyomino inside a winner is a winner
//! and one containing a loser is a loser, so the maximal winners (no larger
//! winner contains a copy) and the elementary losers (no smaller loser lies
//! inside) account for every polyomino. The polyominoes are Bode's, as the
//! kernel's rule B4 enumerates them: connected proper face sets with a
//! connected complement, one per orbit of the board's automorphisms. The
//! solver decides each exactly; nothing here is trusted, the kernel checks
//! the certificate written from it.

use super::breaker::{self, Tree};
use super::maker::{self, Game};
use crate::kernel::animals::Board;
use crate::kernel::animals::lattice::Cell;
use crate::kernel::animals::solid::{self, FaceGraph, Group};
use crate::kernel::breaker::classify::loser_free;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::{GameClaim, Side};
use crate::kernel::maker::{ProofSequence, WinnerClaim};

/// The (1,1) game decided on every polyomino of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// Every polyomino (a face set, the least of its orbit) and whether the
    /// maker wins it, by size.
    pub decided: Vec<(u128, bool)>,
    /// The winners no larger winner contains a copy of.
    pub maximal_winners: Vec<u128>,
    /// The losers that contain no copy of a smaller loser.
    pub elementary_losers: Vec<u128>,
    /// The board's automorphisms.
    group: Group,
}

impl Classification {
    /// Whether some automorphism maps the face set `small` into `large`.
    pub fn inside(&self, small: u128, large: u128) -> bool {
        inside(&self.group, small, large)
    }

    /// How many polyominoes the maker wins and loses.
    pub fn counts(&self) -> (u64, u64) {
        let winners = self.decided.iter().filter(|d| d.1).count() as u64;
        (winners, self.decided.len() as u64 - winners)
    }
}

/// Whether some automorphism in `group` maps the face set `small` into
/// `large`.
fn inside(group: &Group, small: u128, large: u128) -> bool {
    small.count_ones() <= large.count_ones()
        && group.iter().any(|p| solid::image(p, small) & !large == 0)
}

/// A face set's cells, as the kernel names faces.
pub fn faces(set: u128) -> Vec<Cell> {
    solid::members(set).map(|f| [f as i32, 0, 0]).collect()
}

/// The (1,1) game of the face set `set` on `board`, as a winner claim.
pub fn unbiased(board: &Board, set: u128) -> WinnerClaim {
    WinnerClaim {
        board: board.clone(),
        goal: faces(set),
        a: 1,
        finish: None,
        b: 1,
    }
}

/// The polyominoes of the board, by size, each the least of its orbit.
pub fn polyominoes(
    graph: &FaceGraph,
    group: &Group,
    budget: &mut Budget,
) -> Result<Vec<u128>, Exhausted> {
    let mut all = Vec::new();
    for size in 1..graph.faces() {
        all.extend(polyominoes_of_size(graph, group, size, budget)?);
    }
    Ok(all)
}

/// The polyominoes of `size` faces, each the least of its orbit.
fn polyominoes_of_size(
    graph: &FaceGraph,
    group: &Group,
    size: usize,
    budget: &mut Budget,
) -> Result<Vec<u128>, Exhausted> {
    let mut found = Vec::new();
    solid::for_each_connected(graph, size, budget, &mut |set| {
        if solid::least_image(group, set) && graph.connected(graph.all() & !set) {
            found.push(set);
        }
    })?;
    Ok(found)
}

/// The most faces of a board whose polyominoes [`classify`] decides one
/// by one: every polyomino of the board is enumerated, which is out of
/// reach well before the maker search's [`maker::MAX_CELLS`].
pub const MAX_FACES: usize = 64;

/// Decides every polyomino of `board` (a solid or graph board of at most
/// [`MAX_FACES`] faces; `None` for any other board).
pub fn classify(board: &Board, budget: &mut Budget) -> Result<Option<Classification>, Exhausted> {
    let Some(graph) = board.face_graph() else {
        return Ok(None);
    };
    if graph.faces() > MAX_FACES {
        return Ok(None);
    }
    let group = graph.group(budget)?;
    let cells: Vec<Cell> = (0..graph.faces() as i32).map(|f| [f, 0, 0]).collect();
    // By size, so that a polyomino containing an elementary loser found
    // earlier is known to be a loser without a search.
    let mut decided = Vec::new();
    let mut elementary_losers: Vec<u128> = Vec::new();
    for set in polyominoes(&graph, &group, budget)? {
        if elementary_losers.iter().any(|&l| inside(&group, l, set)) {
            decided.push((set, false));
            continue;
        }
        let Some(mut game) = Game::new(&unbiased(board, set), &cells, budget)? else {
            return Ok(None);
        };
        let wins = game.first_move(budget)?.is_some();
        if !wins {
            elementary_losers.push(set);
        }
        decided.push((set, wins));
    }
    let winners: Vec<u128> = decided.iter().filter(|d| d.1).map(|d| d.0).collect();
    let maximal_winners = winners
        .iter()
        .copied()
        .filter(|&w| !winners.iter().any(|&v| v != w && inside(&group, w, v)))
        .collect();
    Ok(Some(Classification {
        decided,
        maximal_winners,
        elementary_losers,
        group,
    }))
}

/// The polyominoes of exactly `size` faces that hold no image of a face
/// set of `losers`, one per class (as the kernel's rules count them).
pub fn loser_free_of_size(
    graph: &FaceGraph,
    group: &[Vec<u8>],
    losers: &[u128],
    size: usize,
    budget: &mut Budget,
) -> Result<Vec<u128>, Exhausted> {
    let mut of_size = Vec::new();
    loser_free(graph, group, losers, size, budget, &mut |set| {
        if set.count_ones() as usize == size {
            of_size.push(set);
        }
    })?;
    Ok(of_size)
}

/// What the producers found for one polyomino of a large board.
#[derive(Clone, Debug)]
pub enum Found {
    /// A maker win (on a ball of the board around the goal).
    Winner(ProofSequence),
    /// A pairing or strategy tree (an elementary loser).
    Loser(Tree),
    /// Neither within the budget: an open case.
    Open,
}

/// The polyominoes of up to `max_size` faces of a solid or graph board of
/// any size, each decided if the producers can: a pairing or strategy tree
/// of depth `depth` makes it an elementary loser, else a maker win found on
/// a ball of the board around it makes it a winner; a polyomino containing
/// an elementary loser found earlier is a loser without a search and is
/// not listed. Each search runs on a fresh budget from `budget`.
pub fn survey(
    board: &Board,
    max_size: usize,
    depth: usize,
    budget: &dyn Fn() -> Budget,
) -> Result<Option<Vec<(u128, Found)>>, Exhausted> {
    let Some(graph) = board.face_graph() else {
        return Ok(None);
    };
    let group = graph.group(&mut budget())?;
    let mut out: Vec<(u128, Found)> = Vec::new();
    for size in 1..graph.faces().min(max_size + 1) {
        // Polyominoes holding a loser found at a smaller size are losers
        // without a search, and are not even listed (on the larger solids
        // they are nearly all of them).
        let losers: Vec<u128> = out
            .iter()
            .filter(|(_, f)| matches!(f, Found::Loser(_)))
            .map(|(l, _)| *l)
            .collect();
        for set in loser_free_of_size(&graph, &group, &losers, size, &mut budget())? {
            let winner = unbiased(board, set);
            let loser = GameClaim::of(Side::Loser, winner.clone());
            let found = match breaker::prove(&loser, depth, &mut budget()) {
                Ok(Some(tree)) => Found::Loser(tree),
                Ok(None) | Err(_) => match maker::prove(&winner, None, &mut budget()) {
                    Ok(maker::Search::Won(proof)) => Found::Winner(proof),
                    _ => Found::Open,
                },
            };
            out.push((set, found));
        }
    }
    Ok(Some(out))
}
