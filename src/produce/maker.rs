//! An exhaustive maker-breaker solver for finite boards of at most 128
//! cells, and the proof sequences it writes (`gamecert prove winner`).
//!
//! Key decision: the question is "does the maker win within t turns", by
//! iterative deepening on t, and a position is reduced to what matters for
//! it. A placement of the goal is live when it holds no breaker mark and
//! the maker could complete it within t turns; the relevant cells are the
//! union R of the live placements, and a live placement is exactly a
//! placement inside R missing few enough maker cells. So the position, the
//! breaker to move, is determined by R and the maker's cells in R, which is
//! the memo key (with bounds on t). Marks outside R change nothing within t
//! turns, so neither player is given such moves (marking more never hurts
//! either side, so a player with fewer relevant cells than marks marks all
//! of them). The same reduction gives the situations of the proof
//! sequence: core = the maker's cells in R, neighbourhood = the rest of R;
//! a later situation's R lies inside the earlier one's. Two cuts keep the
//! depth-first search small: marks are tried most promising first (cells
//! of the placements closest to completion), and when the maker threatens
//! to complete a placement on his next turn the breaker is given only
//! marks that stop every such threat (any other loses at once); in the
//! game of one mark a turn, only marks that stop every win in two turns
//! ([`Game::defences`]). The solver is also
//! the tests' oracle for finite boards (without a bound on t it is exact).

use std::collections::HashMap;

use super::placer::{Placer, class_origin, onto, plane_order, search_frame};
use crate::kernel::animals::flags::{FLAGS, Flag, Frame, cell, triangle};
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::mosaic;
use crate::kernel::animals::solid::Group;
use crate::kernel::animals::{Board, shape};
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::maker::congruence::{Congruence, Space};
use crate::kernel::maker::{
    Justification, MakerOption, ProofSequence, Situation, Target, WinnerClaim,
};

/// A maker-breaker game on a finite board, ready to solve.
pub struct Game {
    board: Board,
    cells: Vec<Cell>,
    placements: Vec<Set>,
    goal: Vec<Cell>,
    /// The turns of the shortest win found by [`Game::first_move`].
    turns: u8,
    a: usize,
    finish: usize,
    b: usize,
    /// Positions, breaker to move, keyed by (R, maker cells in R): the
    /// fewest maker turns known to win from it, and the most turns known
    /// not to be enough.
    memo: HashMap<(Set, Set), Bounds>,
    /// Buffers for the live placements of the positions being searched.
    spare: Vec<Vec<Set>>,
    /// On a mosaic, the disc in which the writer composes and inverts the
    /// proof's congruences among the searched cells ([`search_frame`]:
    /// larger than the one rule M1 checks them in).
    frame: Option<Frame>,
}

/// What is known about a position: won within `win` turns (`u8::MAX`:
/// not known), not won within `loss` turns.
#[derive(Clone, Copy)]
struct Bounds {
    win: u8,
    loss: u8,
}

/// The most cells of a board the solver plays on.
pub const MAX_CELLS: usize = 128;

/// A set of a board's cells, one bit per cell.
pub type Set = u128;

impl Game {
    /// The game of `claim`, if its board is finite with at most
    /// [`MAX_CELLS`] cells (`board_cells`: the board's cells) and, on a
    /// mosaic, the discs its placements and its proof's congruences need
    /// are ones the kernel builds.
    pub fn new(
        claim: &WinnerClaim,
        board_cells: &[Cell],
        budget: &mut Budget,
    ) -> Result<Option<Game>, Exhausted> {
        if board_cells.len() > MAX_CELLS {
            return Ok(None);
        }
        let index = |c: &Cell| board_cells.iter().position(|d| d == c);
        let frame = match claim.board {
            // A proof on cells beyond the disc's reach could not name its
            // congruences (q = 18 on the default 64 triangles).
            Board::Mosaic(m) => {
                match search_frame(m, board_cells.iter().filter_map(|&c| triangle(c))) {
                    Some(frame) => Some(frame),
                    None => return Ok(None),
                }
            }
            _ => None,
        };
        let mut shapes = match claim.board {
            Board::Mosaic(m) => match mosaic_placements(m, &claim.goal, board_cells, budget)? {
                Some(shapes) => shapes,
                // Without the placements the search would find every
                // position a breaker win.
                None => return Ok(None),
            },
            _ => shape::placements(&claim.board, &claim.goal, budget)?,
        };
        if let Board::Tiling(_) = claim.board {
            // One placement per orientation up to translation: moved by
            // whole unit cells onto the window (`board_cells`).
            let spread = |i: usize| {
                let lo = board_cells.iter().map(|c| c[i]).min().unwrap_or(0);
                let hi = board_cells.iter().map(|c| c[i]).max().unwrap_or(0);
                (lo - hi)..=(hi - lo)
            };
            shapes = shapes
                .iter()
                .flat_map(|p| {
                    spread(0).flat_map(move |dx| {
                        spread(1)
                            .map(move |dy| p.iter().map(|c| [c[0] + dx, c[1] + dy, c[2]]).collect())
                    })
                })
                .collect();
        }
        let mut placements: Vec<Set> = shapes
            .iter()
            .filter_map(|p: &Vec<Cell>| {
                p.iter()
                    .map(|c| index(c).map(|i| (1 as Set) << i))
                    .sum::<Option<Set>>()
            })
            .collect();
        placements.sort_unstable();
        placements.dedup();
        Ok(Some(Game {
            board: claim.board.clone(),
            cells: board_cells.to_vec(),
            placements,
            goal: claim.goal.clone(),
            turns: 0,
            a: claim.a,
            finish: claim.finish.unwrap_or(claim.a).max(claim.a),
            b: claim.b,
            memo: HashMap::new(),
            spare: Vec::new(),
            frame,
        }))
    }

    /// The union of the placements that hold no breaker mark and that the
    /// maker could complete within `turns` turns (this one included): the
    /// only cells either player needs to consider for a win within `turns`
    /// (the union of [`Game::live`] of all placements).
    fn relevant(&self, maker: Set, breaker: Set, turns: u8) -> Set {
        let Some(reach) = self.reach(turns) else {
            return 0;
        };
        self.placements
            .iter()
            .filter(|&&p| alive(p, maker, breaker, reach))
            .fold(0, |r, &p| r | p)
    }

    /// The most cells the maker marks in `turns` turns, the last of them
    /// possibly a finishing one (none in no turns).
    fn reach(&self, turns: u8) -> Option<usize> {
        let before_last = usize::from(turns.checked_sub(1)?);
        Some(self.a * before_last + self.finish)
    }

    /// The placements among `candidates` that hold no breaker mark and that
    /// the maker could complete within `turns` turns. Deeper in the search
    /// only these can be live: breaker marks stay, and a placement missing
    /// more than the maker can mark in `turns` turns misses more than he
    /// can mark in the turns left after his next one. So each position
    /// filters its parent's live placements, not all of them.
    fn live(&mut self, candidates: &[Set], maker: Set, breaker: Set, turns: u8) -> Vec<Set> {
        // Buffers are reused: a search allocates one per depth, not one
        // per position.
        let mut live = self.spare.pop().unwrap_or_default();
        live.clear();
        if let Some(reach) = self.reach(turns) {
            live.extend(
                candidates
                    .iter()
                    .copied()
                    .filter(|&p| alive(p, maker, breaker, reach)),
            );
        }
        live
    }

    fn complete(&self, maker: Set) -> bool {
        self.placements.iter().any(|&p| p & !maker == 0)
    }

    /// The maker's first marks with which he wins as fast as he can, if he
    /// wins (iterative deepening on the number of maker turns, so that the
    /// strategy written is a shortest one).
    pub fn first_move(&mut self, budget: &mut Budget) -> Result<Option<Set>, Exhausted> {
        let most = self
            .cells
            .len()
            .div_ceil(self.a.max(1))
            .min(usize::from(u8::MAX - 1));
        for turns in 1..=most {
            self.turns = turns as u8;
            let all = self.placements.clone();
            if let Some(first) = self.reply(&all, 0, 0, turns as u8, budget)? {
                return Ok(Some(first));
            }
        }
        Ok(None)
    }

    /// A maker turn (marks `a`, or up to `finish` to complete the goal) that
    /// wins within `turns` turns (this one included) against breaker marks
    /// `breaker`, from maker cells `maker`.
    fn reply(
        &mut self,
        candidates: &[Set],
        maker: Set,
        breaker: Set,
        turns: u8,
        budget: &mut Budget,
    ) -> Result<Option<Set>, Exhausted> {
        if turns == 0 {
            return Ok(None);
        }
        self.with_live(candidates, maker, breaker, turns, |game, live| {
            let r = live.iter().fold(0, |r, &p| r | p);
            let free = r & !maker;
            // Completing the goal this turn, with up to `finish` marks.
            if let Some(missing) = game.completable(live, maker).next() {
                return Ok(Some(missing));
            }
            let k = game.a.min(free.count_ones() as usize);
            if k == 0 || turns == 1 {
                return Ok(None);
            }
            for marks in promising_first(free, k, live, maker) {
                if game.won(live, maker | marks, breaker, turns - 1, budget)? {
                    return Ok(Some(marks));
                }
            }
            Ok(None)
        })
    }

    /// `then` applied to the live placements among `candidates` (see
    /// [`Game::live`]), in a buffer handed back for reuse afterwards.
    fn with_live<R>(
        &mut self,
        candidates: &[Set],
        maker: Set,
        breaker: Set,
        turns: u8,
        then: impl FnOnce(&mut Game, &[Set]) -> R,
    ) -> R {
        let live = self.live(candidates, maker, breaker, turns);
        let out = then(self, &live);
        self.spare.push(live);
        out
    }

    /// Whether the maker wins within `turns` turns, the breaker to move
    /// (`candidates`: a set of placements holding every live one, see
    /// [`Game::live`]).
    fn won(
        &mut self,
        candidates: &[Set],
        maker: Set,
        breaker: Set,
        turns: u8,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        if candidates.iter().any(|&p| p & !maker == 0) {
            return Ok(true);
        }
        self.with_live(candidates, maker, breaker, turns, |game, live| {
            game.won_among(live, maker, breaker, turns, budget)
        })
    }

    /// [`Game::won`] once the live placements are known (and none is
    /// complete): the breaker's every choice of marks must leave a maker
    /// reply that wins.
    fn won_among(
        &mut self,
        live: &[Set],
        maker: Set,
        breaker: Set,
        turns: u8,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let r = live.iter().fold(0, |r, &p| r | p);
        if r == 0 {
            return Ok(false);
        }
        let key = (r, maker & r);
        let known = self.memo.get(&key).copied().unwrap_or(Bounds {
            win: u8::MAX,
            loss: 0,
        });
        if known.win <= turns {
            return Ok(true);
        }
        if known.loss >= turns {
            return Ok(false);
        }
        budget.expand(self.memo.len())?;
        let free = r & !maker;
        let k = self.b.min(free.count_ones() as usize);
        // The placements the maker completes on his next turn unless the
        // breaker marks a cell of each: marks that miss one lose at once,
        // so only marks hitting all of them are tried.
        let threats: Vec<Set> = self.completable(live, maker).collect();
        let defences = if threats.is_empty() && turns >= 2 {
            self.defences(live, maker)
        } else {
            Set::MAX
        };
        // (If no marks hit them all, the maker wins: `all` stays true.)
        let mut all = true;
        for marks in promising_first(free, k, live, maker) {
            if threats.iter().any(|&m| m & marks == 0) || marks & !defences != 0 {
                continue;
            }
            if self
                .reply(live, maker, breaker | marks, turns, budget)?
                .is_none()
            {
                all = false;
                break;
            }
        }
        let entry = self.memo.entry(key).or_insert(known);
        if all {
            entry.win = entry.win.min(turns);
        } else {
            entry.loss = entry.loss.max(turns);
        }
        Ok(all)
    }

    /// The missing cells of each live placement the maker completes in
    /// one turn (at most `finish` of them).
    fn completable<'a>(&self, live: &'a [Set], maker: Set) -> impl Iterator<Item = Set> + 'a {
        let finish = self.finish;
        live.iter()
            .map(move |&p| p & !maker)
            .filter(move |m| m.count_ones() as usize <= finish)
    }

    /// In the game of one mark a turn, the cells the breaker may mark
    /// without losing within two turns when the maker threatens nothing at
    /// once (every cell when the bias is another one). A maker mark x that
    /// leaves placements missing one cell each, with at least two
    /// different missing cells among them, wins on the turn after: the
    /// breaker blocks one. Those placements now miss exactly x and one
    /// cell z, so a breaker mark stops x only if it is x, or is one of the
    /// z when there are exactly two of them. Every such x must be stopped.
    fn defences(&self, live: &[Set], maker: Set) -> Set {
        if (self.a, self.b, self.finish) != (1, 1, 1) {
            return Set::MAX;
        }
        // For each cell x, the cells z that complete a placement with it.
        let mut partners = [0 as Set; MAX_CELLS];
        for &p in live {
            let missing = p & !maker;
            if missing.count_ones() == 2 {
                let x = missing.trailing_zeros() as usize;
                let z = (MAX_CELLS - 1) - missing.leading_zeros() as usize;
                partners[x] |= 1 << z;
                partners[z] |= 1 << x;
            }
        }
        let mut allowed = Set::MAX;
        for (x, &zs) in partners.iter().enumerate() {
            match zs.count_ones() {
                0 | 1 => {}
                2 => allowed &= 1 << x | zs,
                _ => allowed &= 1 << x,
            }
        }
        allowed
    }

    /// The proof sequence of a win that starts with `first` (from
    /// [`Game::first_move`]): a situation per position of the maker's
    /// strategy, options in the per-reply form when the breaker marks one
    /// cell.
    pub fn proof(&mut self, first: Set, budget: &mut Budget) -> Result<ProofSequence, Exhausted> {
        let mut writer = Writer {
            index: HashMap::new(),
            situations: Vec::new(),
            placer: Placer::new(&self.board, budget)?,
            symmetry: match &self.frame {
                Some(frame) => Symmetry::Mosaic(frame.clone()),
                None => Symmetry::of(&self.board, budget)?,
            },
            placements: self.placements.as_slice().into(),
            goal_maps: HashMap::new(),
        };
        let start = if self.complete(first) {
            (Target::Goal, writer.goal_map(self, first, budget)?)
        } else {
            let turns = self.turns - 1;
            let (i, map) = writer.situation(self, first, 0, turns, budget)?;
            (Target::Situation(i), map)
        };
        Ok(ProofSequence {
            situations: writer.situations,
            start,
        })
    }

    fn cells_of(&self, set: Set) -> Vec<Cell> {
        (0..self.cells.len())
            .filter(|&i| set >> i & 1 == 1)
            .map(|i| self.cells[i])
            .collect()
    }

    /// The congruence placing the goal on a completed placement in `maker`.
    fn goal_map(&self, placer: &Placer, maker: Set) -> Congruence {
        let owned = self.cells_of(maker);
        let s = Situation {
            name: String::new(),
            turns: None,
            core: owned,
            neighbourhood: Vec::new(),
        };
        placer
            .place(&s, &[], &self.goal, &[], 0)
            .map_or_else(|| Congruence::identity(&self.board), |(_, map)| map)
    }
}

/// Whether placement `p` is live: it holds no breaker mark and misses at
/// most `reach` cells of the maker's.
fn alive(p: Set, maker: Set, breaker: Set, reach: usize) -> bool {
    p & breaker == 0 && (p & !maker).count_ones() as usize <= reach
}

/// The placements of `goal` on a mosaic that lie among `cells`: a copy
/// of the goal drawn from the root's flag, taken by the congruence of
/// every flag of every cell. `None` when the disc this needs is larger
/// than the kernel builds (as on (3,12) for cells two rings out).
///
/// The copy and the parent chains of its triangles lie within |goal| - 1
/// rings of the root, so their images under the congruence of a flag in
/// ring r lie within r + |goal| - 1 rings (the ring is the distance from
/// the root in steps between triangles sharing a corner, which
/// congruences keep); the disc has a ring to spare.
fn mosaic_placements(
    m: mosaic::Mosaic,
    goal: &[Cell],
    cells: &[Cell],
    budget: &mut Budget,
) -> Result<Option<Vec<Vec<Cell>>>, Exhausted> {
    let inside: Vec<u32> = cells.iter().filter_map(|&c| triangle(c)).collect();
    let goal_triangles: Vec<u32> = goal.iter().filter_map(|&c| triangle(c)).collect();
    let all = inside.iter().chain(&goal_triangles).copied();
    let reach = goal.len();
    let Some(frame) = Frame::reaching(m, all, |r| r + reach, budget)? else {
        return Ok(None);
    };
    let code = mosaic::least_code(frame.disc(), &goal_triangles, budget)?;
    let Some(copy) = mosaic::draw_cells(frame.disc(), &code) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for &t in &inside {
        for index in 0..FLAGS {
            let to = Flag { triangle: t, index };
            let placed: Option<Vec<Cell>> = copy
                .iter()
                .map(|&c| {
                    let u = frame.image(to, c).filter(|u| inside.contains(u))?;
                    Some(cell(u))
                })
                .collect();
            out.extend(placed);
        }
    }
    Ok(Some(out))
}

/// Writes the situations of a strategy, each once up to congruence,
/// targets first.
struct Writer {
    index: HashMap<(Vec<Cell>, Vec<Cell>), usize>,
    situations: Vec<(Situation, Justification)>,
    placer: Placer,
    symmetry: Symmetry,
    /// Every placement of the goal: the maker's replies are searched
    /// among them.
    placements: std::rc::Rc<[Set]>,
    /// The congruence placing the goal on each placement placed so far: a
    /// proof completes the same few hundred placements in up to millions
    /// of its positions.
    goal_maps: HashMap<Set, Congruence>,
}

/// Units of work one placement of the goal is charged as in writing a proof
/// (the budget reads the clock every 4,096 units).
const GOAL_PLACEMENT_WORK: usize = 4096;

impl Writer {
    /// The congruence placing the goal on a placement the maker's cells
    /// `maker` complete.
    fn goal_map(
        &mut self,
        game: &Game,
        maker: Set,
        budget: &mut Budget,
    ) -> Result<Congruence, Exhausted> {
        let Some(&placement) = self.placements.iter().find(|&&p| p & !maker == 0) else {
            return Ok(game.goal_map(&self.placer, maker));
        };
        if let Some(map) = self.goal_maps.get(&placement) {
            return Ok(map.clone());
        }
        // Placing the goal costs far more than a tick: charged so that the
        // clock is read at each, and a time budget holds.
        budget.charge(GOAL_PLACEMENT_WORK)?;
        let map = game.goal_map(&self.placer, placement);
        self.goal_maps.insert(placement, map.clone());
        Ok(map)
    }

    /// The index of the situation of a won position (breaker to move), and
    /// the congruence placing it on the position.
    fn situation(
        &mut self,
        game: &mut Game,
        maker: Set,
        breaker: Set,
        turns: u8,
        budget: &mut Budget,
    ) -> Result<(usize, Congruence), Exhausted> {
        let r = game.relevant(maker, breaker, turns);
        let core = maker & r;
        let neighbourhood = r & !maker;
        let (canonical_core, canonical_rest, to_actual) = self
            .symmetry
            .canonical(&game.cells_of(core), &game.cells_of(neighbourhood));
        let key = (canonical_core, canonical_rest);
        if let Some(&i) = self.index.get(&key) {
            return Ok((i, to_actual));
        }
        let k = game.b.min(neighbourhood.count_ones() as usize);
        let placements = std::rc::Rc::clone(&self.placements);
        let mut answers: Vec<(Set, MakerOption)> = Vec::new();
        let mut failed = false;
        for_each_subset(neighbourhood, k, &mut |marks| {
            if failed {
                return Ok(());
            }
            let Some(reply) = game.reply(&placements, maker, breaker | marks, turns, budget)?
            else {
                failed = true;
                return Ok(());
            };
            let after = maker | reply;
            let option = if game.complete(after) {
                MakerOption {
                    mark: game.cells_of(reply & r),
                    target: Target::Goal,
                    map: self.goal_map(game, after & r, budget)?,
                }
            } else {
                let (j, map) = self.situation(game, after, breaker | marks, turns - 1, budget)?;
                MakerOption {
                    mark: game.cells_of(reply & r),
                    target: Target::Situation(j),
                    map,
                }
            };
            answers.push((marks, option));
            Ok(())
        })?;
        // The options as seen from the canonical situation.
        let from_actual = self.symmetry.inverse(&to_actual);
        let moved = |o: MakerOption| MakerOption {
            mark: o
                .mark
                .iter()
                .map(|&c| self.symmetry.apply(&from_actual, c))
                .collect(),
            target: o.target,
            map: self.symmetry.compose(&from_actual, &o.map),
        };
        let justification = if game.b == 1 && !answers.is_empty() {
            let pass = answers.first().map(|(_, o)| moved(o.clone()));
            let replies = answers
                .into_iter()
                .filter_map(|(marks, o)| {
                    let w = *game.cells_of(marks).first()?;
                    Some((self.symmetry.apply(&from_actual, w), moved(o)))
                })
                .collect();
            Justification::Replies { replies, pass }
        } else {
            let mut options: Vec<MakerOption> =
                answers.into_iter().map(|(_, o)| moved(o)).collect();
            options.dedup();
            Justification::Options(options)
        };
        let situation = Situation {
            name: format!("s{}", self.situations.len() + 1),
            turns: None,
            core: key.0.clone(),
            neighbourhood: key.1.clone(),
        };
        self.situations.push((situation, justification));
        let i = self.situations.len() - 1;
        self.index.insert(key, i);
        Ok((i, to_actual))
    }
}

/// The congruences of a board, as the writer composes them: a lattice's
/// or a tiling's symmetries with translations, a finite board's
/// automorphisms, or a mosaic's flags (within a disc).
enum Symmetry {
    /// A lattice or a tiling (the board, for its [`Space`]).
    Plane(Board),
    /// A finite board's automorphisms, each as the congruence it is, and
    /// the number of faces they permute.
    Graph(Vec<Congruence>, usize),
    Mosaic(Frame),
}

/// Cells that pin down a lattice congruence (an up and a down triangle,
/// and cells off every line through the origin).
const PROBES: [Cell; 6] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [2, 1, 0],
    [0, 0, 1],
];

/// The origin cell.
const ORIGIN: Cell = [0, 0, 0];

impl Symmetry {
    fn of(board: &Board, budget: &mut Budget) -> Result<Symmetry, Exhausted> {
        Ok(match (board, board.lattice()) {
            (Board::Tiling(_), _) => Symmetry::Plane(board.clone()),
            (_, Some(lattice)) => Symmetry::Plane(Board::Lattice(lattice)),
            (_, None) => Symmetry::graph(&board.group(budget)?.unwrap_or_default()),
        })
    }

    fn graph(group: &Group) -> Symmetry {
        let maps = group
            .iter()
            .map(|p| Congruence::Permutation(p.iter().map(|&v| u16::from(v)).collect()))
            .collect();
        Symmetry::Graph(maps, group.first().map_or(0, Vec::len))
    }

    fn space(&self) -> Space<'_> {
        match self {
            Symmetry::Plane(board) => Space::of(board),
            Symmetry::Graph(..) => Space::Graph,
            Symmetry::Mosaic(frame) => Space::Mosaic(frame),
        }
    }

    /// The image of a cell (the cell itself where the map does not act).
    fn apply(&self, map: &Congruence, c: Cell) -> Cell {
        map.image_in(self.space(), c).unwrap_or(c)
    }

    /// Cells that pin down a congruence of a lattice or tiling: on a tiling
    /// every face of the unit cell at the origin and a cell along each
    /// period.
    fn probes(&self) -> Vec<Cell> {
        match self.space() {
            Space::Tiling(t) => (0..t.faces() as i32)
                .map(|f| [0, 0, f])
                .chain([[1, 0, 0], [0, 1, 0]])
                .collect(),
            Space::Lattice(l) => PROBES
                .iter()
                .copied()
                .filter(|c| c[2] == 0 || l == Lattice::Cubic)
                .collect(),
            Space::Graph | Space::Mosaic(_) | Space::Unmapped => Vec::new(),
        }
    }

    /// The congruence of a lattice or tiling taking `from` to `to` for
    /// which `holds(map, probe)` is true on every probe (its first in the
    /// symmetries' order).
    fn pinned(
        &self,
        from: Cell,
        to: Cell,
        holds: impl Fn(&Congruence, Cell) -> bool,
    ) -> Option<Congruence> {
        let space = self.space();
        let probes = self.probes();
        (0..plane_order(space))
            .filter_map(|element| onto(space, element, from, to))
            .find(|map| probes.iter().all(|&c| holds(map, c)))
    }

    /// The congruence that acts on cells as `f` (a composition of
    /// congruences of this board).
    fn find(&self, f: impl Fn(Cell) -> Cell) -> Congruence {
        match self {
            Symmetry::Plane(_) => self
                .pinned(ORIGIN, f(ORIGIN), |map, c| self.apply(map, c) == f(c))
                .unwrap_or(Congruence::Lattice {
                    element: 0,
                    shift: ORIGIN,
                }),
            Symmetry::Graph(_, n) => {
                let n = *n;
                Congruence::Permutation((0..n).map(|v| f([v as i32, 0, 0])[0] as u16).collect())
            }
            // Mosaic congruences are composed and inverted by their flags;
            // only the identity is asked for by a function.
            Symmetry::Mosaic(_) => Congruence::Flag(Flag::ROOT),
        }
    }

    fn compose(&self, outer: &Congruence, inner: &Congruence) -> Congruence {
        if let (Symmetry::Mosaic(frame), Congruence::Flag(o), Congruence::Flag(i)) =
            (self, outer, inner)
        {
            return frame
                .image_of_flag(*o, *i)
                .map_or_else(|| inner.clone(), Congruence::Flag);
        }
        self.find(|c| self.apply(outer, self.apply(inner, c)))
    }

    fn inverse(&self, map: &Congruence) -> Congruence {
        match (self, map) {
            (Symmetry::Graph(..), Congruence::Permutation(p)) => {
                let mut inverse = vec![0u16; p.len()];
                for (v, &image) in p.iter().enumerate() {
                    if let Some(slot) = inverse.get_mut(usize::from(image)) {
                        *slot = v as u16;
                    }
                }
                Congruence::Permutation(inverse)
            }
            (Symmetry::Mosaic(frame), Congruence::Flag(to)) => frame
                .inverse(*to)
                .map_or_else(|| map.clone(), Congruence::Flag),
            // The congruence taking `map`'s image of the origin back, whose
            // composition with `map` fixes the probes.
            (Symmetry::Plane(_), _) => self
                .pinned(self.apply(map, ORIGIN), ORIGIN, |back, c| {
                    self.apply(back, self.apply(map, c)) == c
                })
                .unwrap_or_else(|| map.clone()),
            _ => map.clone(),
        }
    }

    /// The least image of a situation under the congruences (translated so
    /// that its least cell is its translation class's origin, on a lattice
    /// or tiling), and the congruence taking that image back onto the
    /// situation.
    fn canonical(&self, core: &[Cell], rest: &[Cell]) -> (Vec<Cell>, Vec<Cell>, Congruence) {
        let candidates: Vec<Congruence> = match self {
            // Each flag of each core cell (of each cell, without a core)
            // taken to the root's flag: a choice every congruent situation
            // makes alike.
            Symmetry::Mosaic(frame) => if core.is_empty() { rest } else { core }
                .iter()
                .filter_map(|&c| triangle(c))
                .flat_map(|t| (0..FLAGS).map(move |index| Flag { triangle: t, index }))
                .filter_map(|f| frame.inverse(f))
                .map(Congruence::Flag)
                .collect(),
            Symmetry::Plane(_) => {
                let space = self.space();
                (0..plane_order(space))
                    .map(|element| {
                        let turn = Congruence::Lattice {
                            element,
                            shift: ORIGIN,
                        };
                        let anchor = core
                            .iter()
                            .chain(rest)
                            .map(|&c| self.apply(&turn, c))
                            .min()
                            .unwrap_or(ORIGIN);
                        let target = class_origin(space, anchor);
                        Congruence::Lattice {
                            element,
                            shift: [
                                target[0] - anchor[0],
                                target[1] - anchor[1],
                                target[2] - anchor[2],
                            ],
                        }
                    })
                    .collect()
            }
            Symmetry::Graph(..) => Vec::new(),
        };
        let candidates = match self {
            Symmetry::Graph(maps, _) => maps,
            _ => &candidates,
        };
        // The least image so far, and the candidate image in buffers that
        // are swapped rather than reallocated.
        let mut best: Option<(Vec<Cell>, Vec<Cell>, usize)> = None;
        let (mut c, mut r) = (Vec::new(), Vec::new());
        for (i, map) in candidates.iter().enumerate() {
            let image = |cells: &[Cell], into: &mut Vec<Cell>| {
                into.clear();
                into.extend(cells.iter().map(|&x| self.apply(map, x)));
                into.sort_unstable();
            };
            image(core, &mut c);
            image(rest, &mut r);
            match &mut best {
                Some((bc, br, bi)) => {
                    if (&c, &r) < (&*bc, &*br) {
                        std::mem::swap(bc, &mut c);
                        std::mem::swap(br, &mut r);
                        *bi = i;
                    }
                }
                None => best = Some((std::mem::take(&mut c), std::mem::take(&mut r), i)),
            }
        }
        match best {
            Some((c, r, i)) => {
                let back = self.inverse(&candidates[i]);
                (c, r, back)
            }
            None => (core.to_vec(), rest.to_vec(), self.find(|c| c)),
        }
    }
}

/// The subsets of `free` with `k` elements, single cells (the usual turn
/// of one mark) in the order of how close to completion the live
/// placements through them are, so that a winning or refuting mark tends
/// to come first; larger subsets in the order of their bits.
fn promising_first(free: Set, k: usize, live: &[Set], maker: Set) -> Vec<Set> {
    let mut out = Vec::new();
    if k != 1 {
        // (The visitor never fails, so there is no error to pass on.)
        let _ = for_each_subset(free, k, &mut |marks| {
            out.push(marks);
            Ok(())
        });
        return out;
    }
    let mut score = [0u64; MAX_CELLS];
    for &p in live {
        let missing = p & !maker;
        // A placement missing m cells weighs 16^(16 - m): one closer to
        // completion outweighs many further off.
        let weight = 1u64
            << (4 * 16usize
                .saturating_sub(missing.count_ones() as usize)
                .min(15));
        let mut rest = missing & free;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            score[i] = score[i].saturating_add(weight);
            rest &= rest - 1;
        }
    }
    let mut rest = free;
    while rest != 0 {
        out.push(rest & rest.wrapping_neg());
        rest &= rest - 1;
    }
    out.sort_by_key(|&m| std::cmp::Reverse(score[m.trailing_zeros() as usize]));
    out
}

/// Calls `visit` with every subset of `set` with `k` elements.
fn for_each_subset(
    set: Set,
    k: usize,
    visit: &mut impl FnMut(Set) -> Result<(), Exhausted>,
) -> Result<(), Exhausted> {
    fn go(
        rest: Set,
        k: usize,
        chosen: Set,
        visit: &mut impl FnMut(Set) -> Result<(), Exhausted>,
    ) -> Result<(), Exhausted> {
        if k == 0 {
            return visit(chosen);
        }
        if (rest.count_ones() as usize) < k {
            return Ok(());
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, chosen | low, visit)?;
        go(rest & !low, k, chosen, visit)
    }
    go(set, k, 0, visit)
}

/// The result of a search for a maker win.
pub enum Search {
    /// The maker wins; the proof sequence shows how.
    Won(ProofSequence),
    /// The breaker wins on the board searched (on a window of a lattice,
    /// this says nothing about the lattice).
    Lost,
    /// The board is infinite and no window was given, or it is too large.
    TooLarge,
}

/// The most faces of a solid or graph board searched whole; on a larger
/// one the search plays on a ball of this many faces around the goal
/// (kept at 64 when the sets grew to 128 bits: the surveys of the large
/// solids were made that way, and the relevance reduction makes the
/// faces far from the goal cost little anyway).
pub const BALL_FACES: usize = 64;

/// On a solid or graph board of more than [`BALL_FACES`] faces, the faces
/// the search plays on: the goal's faces as written, then the faces
/// around them in breadth-first order, [`BALL_FACES`] in all. Placements
/// that leave the ball are ignored and the breaker's marks outside it are
/// wasted, so a win found inside the ball is a win on the whole board (the
/// kernel checks the proof sequence on the whole board); a loss inside it
/// says nothing.
fn ball(graph: &crate::kernel::animals::solid::FaceGraph, goal: &[Cell]) -> Vec<Cell> {
    let mut inside: Vec<usize> = goal
        .iter()
        .filter_map(|c| usize::try_from(c[0]).ok())
        .filter(|&f| f < graph.faces())
        .collect();
    inside.dedup();
    let mut next = 0;
    while inside.len() < BALL_FACES && next < inside.len() {
        let f = inside[next];
        next += 1;
        for g in crate::kernel::animals::solid::members(graph.adjacent[f]) {
            if inside.len() < BALL_FACES && !inside.contains(&g) {
                inside.push(g);
            }
        }
    }
    inside.sort_unstable();
    inside.into_iter().map(|f| [f as i32, 0, 0]).collect()
}

/// Searches for a maker win of `claim`: on its board when finite (on a
/// ball of [`BALL_FACES`] faces around the goal as written when larger), else on
/// `window` (a rectangle of the lattice, cells 0 <= x < cols, 0 <= y < rows),
/// whose proof sequence is one on the lattice too.
pub fn prove(
    claim: &WinnerClaim,
    window: Option<(u16, u16)>,
    budget: &mut Budget,
) -> Result<Search, Exhausted> {
    let board = match (&claim.board, window) {
        (Board::Lattice(lattice), Some((rows, cols))) => {
            let region = crate::kernel::animals::Region::rectangle(*lattice, rows, cols);
            Board::Region(std::sync::Arc::new(region))
        }
        (Board::Lattice(_), None) => return Ok(Search::TooLarge),
        // A tiling's window is searched on the tiling itself, with its
        // cells listed below and placements moved onto them.
        (Board::Tiling(_), None) => return Ok(Search::TooLarge),
        (board, _) => board.clone(),
    };
    let cells: Vec<Cell> = match (&board, window) {
        (Board::Tiling(t), Some((rows, cols))) => (0..i32::from(rows))
            .flat_map(|y| {
                (0..i32::from(cols))
                    .flat_map(move |x| (0..t.faces() as i32).map(move |f| [x, y, f]))
            })
            .collect(),
        (Board::Region(region), _) => region.cells().to_vec(),
        // A mosaic is searched on its first triangles in ring order (the
        // root and the rings around it): rows x cols of them, at most
        // MAX_CELLS, and 64 without a window.
        (Board::Mosaic(_), _) => {
            let n = window.map_or(64, |(r, c)| usize::from(r) * usize::from(c));
            (0..n.min(MAX_CELLS) as i32).map(|t| [t, 0, 0]).collect()
        }
        _ => match board.face_graph() {
            Some(g) if g.faces() <= BALL_FACES => {
                (0..g.faces() as i32).map(|f| [f, 0, 0]).collect()
            }
            Some(g) => ball(&g, &claim.goal),
            None => return Ok(Search::TooLarge),
        },
    };
    let on_board = WinnerClaim {
        board,
        ..claim.clone()
    };
    let Some(mut game) = Game::new(&on_board, &cells, budget)? else {
        return Ok(Search::TooLarge);
    };
    match game.first_move(budget)? {
        Some(first) => Ok(Search::Won(game.proof(first, budget)?)),
        None => Ok(Search::Lost),
    }
}

#[cfg(test)]
mod tests {
    use super::{BALL_FACES, ball};
    use crate::kernel::animals::solid::{FaceGraph, Operator, Platonic, Solid};

    #[test]
    fn a_ball_on_a_large_solid_holds_the_goal_and_64_connected_faces() {
        let graph = FaceGraph::of(Solid::Archimedean(Operator::Snub, Platonic::Dodecahedron))
            .expect("the snub dodecahedron");
        assert!(graph.faces() > BALL_FACES);
        let goal = [[40, 0, 0], [5, 0, 0]];
        let cells = ball(&graph, &goal);
        assert_eq!(cells.len(), BALL_FACES);
        assert!(goal.iter().all(|c| cells.contains(c)));
        // Grown breadth-first from the goal: every face is reached from a
        // goal face through faces of the ball.
        let set = cells.iter().fold(0u128, |m, c| m | 1u128 << c[0]);
        let mut reached = 1u128 << 40 | 1u128 << 5;
        loop {
            let next = crate::kernel::animals::solid::members(reached)
                .fold(reached, |r, f| r | (graph.adjacent[f] & set));
            if next == reached {
                break;
            }
            reached = next;
        }
        assert_eq!(reached, set);
    }
}
