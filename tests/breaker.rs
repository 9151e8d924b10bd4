//! Breaker certificates against independent oracles: the shipped pairings
//! and strategy trees against exhaustive maker play (the solver's, and the
//! strategy itself played against every maker sequence), periodic pavings
//! against a naive check on a window of the plane, and mutated threshold
//! sequences, which must be refuted.

mod common;

use gamecert::driver::check_files;
use gamecert::elaborate::Explicit;
use gamecert::elaborate::load::load;
use gamecert::kernel::animals::Board;
use gamecert::kernel::animals::lattice::{Cell, Lattice};
use gamecert::kernel::breaker::{Answer, Paving, Strategy, check};
use gamecert::kernel::budget::Budget;
use gamecert::kernel::game::{GameClaim, Side};
use gamecert::kernel::maker::WinnerClaim;
use gamecert::kernel::verdict::Verdict;
use gamecert::produce::maker::{Search, prove};
use gamecert::report::VerdictName;

fn verified(v: &Verdict) -> bool {
    matches!(v, Verdict::Verified { .. })
}

/// Whether the exhaustive solver finds a maker win of the (1,b) game
/// (`None`: not decided within its budget, as on the icosahedron).
fn maker_wins(game: &GameClaim) -> Option<bool> {
    let claim = WinnerClaim {
        board: game.board.clone(),
        goal: game.goal.clone(),
        a: game.a,
        finish: None,
        b: game.b,
    };
    let mut budget = Budget::new(None, Some(std::time::Duration::from_secs(10)), 20_000_000);
    match prove(&claim, None, &mut budget) {
        Ok(Search::Won(_)) => Some(true),
        Ok(Search::Lost) => Some(false),
        Ok(Search::TooLarge) | Err(_) => None,
    }
}

/// Every loser of the platonic classification file is a loser by
/// exhaustive play; and each strategy, tried on every goal one cell
/// smaller (connected), verifies only goals the solver says the breaker
/// wins. The solver decides every board but the icosahedron, whose
/// losers of five faces are beyond it; there only the kernel's verdicts
/// are checked.
#[test]
fn shipped_finite_board_strategies_agree_with_exhaustive_play() {
    let claims = common::shipped_claims("certificates/bode-2000/platonic-classification.cert");
    let mut losers = 0;
    let mut smaller_checked = 0;
    let mut smaller_refuted = 0;
    for claim in claims {
        let Ok(Explicit::Breaker(game, strategy)) = claim.explicit else {
            continue;
        };
        assert!(
            verified(&check(&game, &strategy, Budget::unlimited())),
            "{}",
            claim.id
        );
        let icosahedron = claim.id.starts_with("ico-");
        if !icosahedron {
            assert_eq!(
                maker_wins(&game),
                Some(false),
                "{}: the solver finds a maker win",
                claim.id
            );
        }
        losers += 1;
        for drop in 0..game.goal.len() {
            let mut goal = game.goal.clone();
            goal.remove(drop);
            if gamecert::kernel::animals::shape::validate(&game.board, &goal).is_err() {
                continue;
            }
            let smaller = GameClaim {
                goal,
                ..game.clone()
            };
            smaller_checked += 1;
            if verified(&check(&smaller, &strategy, Budget::unlimited())) {
                if !icosahedron {
                    assert_eq!(
                        maker_wins(&smaller),
                        Some(false),
                        "{}: a false claim verified",
                        claim.id
                    );
                }
            } else {
                smaller_refuted += 1;
            }
        }
    }
    assert_eq!(losers, 16, "elementary losers of the six solids");
    assert!(smaller_checked >= 30 && smaller_refuted > 0);
}

/// The square lattice's eight symmetries, written out here.
fn square_symmetries(c: Cell) -> [Cell; 8] {
    let [x, y, _] = c;
    [
        [x, y, 0],
        [-x, y, 0],
        [x, -y, 0],
        [-x, -y, 0],
        [y, x, 0],
        [-y, x, 0],
        [y, -x, 0],
        [-y, -x, 0],
    ]
}

/// The naive check of a periodic paving: repeat the pairs over a window,
/// count partners of the cells near the origin, and look for a related
/// pair in every placement near the origin.
fn naive_paving_holds(goal: &[Cell], b: usize, paving: &Paving) -> bool {
    use std::collections::{BTreeMap, BTreeSet};
    let (u, v) = (paving.period[0], paving.period[1]);
    let mut partners: BTreeMap<Cell, BTreeSet<Cell>> = BTreeMap::new();
    for i in -30..=30 {
        for j in -30..=30 {
            let shift = [i * u[0] + j * v[0], i * u[1] + j * v[1], 0];
            if shift[0].abs() > 20 || shift[1].abs() > 20 {
                continue;
            }
            for &(p, q) in &paving.pairs {
                let p = [p[0] + shift[0], p[1] + shift[1], 0];
                let q = [q[0] + shift[0], q[1] + shift[1], 0];
                partners.entry(p).or_default().insert(q);
                partners.entry(q).or_default().insert(p);
            }
        }
    }
    let near = |c: &Cell| c[0].abs() <= 8 && c[1].abs() <= 8;
    if partners.iter().any(|(c, p)| near(c) && p.len() > b) {
        return false;
    }
    for g in 0..8 {
        let image: Vec<Cell> = goal.iter().map(|&c| square_symmetries(c)[g]).collect();
        for dx in -4..=4 {
            for dy in -4..=4 {
                let placed: Vec<Cell> = image.iter().map(|c| [c[0] + dx, c[1] + dy, 0]).collect();
                let paired = placed.iter().any(|a| {
                    partners
                        .get(a)
                        .is_some_and(|p| placed.iter().any(|w| p.contains(w)))
                });
                if !paired {
                    return false;
                }
            }
        }
    }
    true
}

/// Random small pavings of the square lattice: the kernel and the naive
/// window check agree on every one, and both outcomes occur.
#[test]
fn periodic_pavings_agree_with_a_naive_window_check() {
    let goals: [&[Cell]; 4] = [
        &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
    ];
    let periods: [[Cell; 2]; 5] = [
        [[2, 0, 0], [1, 1, 0]],
        [[1, 1, 0], [0, 2, 0]],
        [[2, 0, 0], [0, 2, 0]],
        [[1, 0, 0], [0, 1, 0]],
        [[3, 1, 0], [0, 2, 0]],
    ];
    let steps: [Cell; 4] = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, -1, 0]];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let (mut held, mut failed) = (0, 0);
    for _ in 0..400 {
        let goal = goals[random(goals.len())];
        let b = 1 + random(2);
        let pairs = (0..1 + random(3))
            .map(|_| {
                let p = [random(3) as i32, random(3) as i32, 0];
                let s = steps[random(steps.len())];
                (p, [p[0] + s[0], p[1] + s[1], 0])
            })
            .collect();
        let paving = Paving {
            pairs,
            period: periods[random(periods.len())].to_vec(),
        };
        let game = GameClaim {
            side: Side::Loser,
            board: Board::Lattice(Lattice::Square),
            goal: goal.to_vec(),
            a: 1,
            finish: None,
            b,
        };
        let kernel = verified(&check(
            &game,
            &Strategy::Paving(paving.clone()),
            Budget::unlimited(),
        ));
        assert_eq!(
            kernel,
            naive_paving_holds(goal, b, &paving),
            "{paving:?} for {goal:?}, b = {b}"
        );
        if kernel { held += 1 } else { failed += 1 }
    }
    assert!(held >= 10 && failed >= 10, "{held} held, {failed} failed");
}

/// Every threshold sequence shipped, with one entry moved up or down, `inf`
/// moved one place earlier or later, must fail: REFUTED where the kernel
/// shows the sequence false (inf too early), REJECTED where its citations
/// do not establish it, never VERIFIED.
#[test]
fn every_mutated_threshold_fails() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("crate root");
    let files = load(&["certificates/norris-sieben-2014".into()]).expect("shipped");
    let mut mutated = 0;
    for file in &files {
        for (i, claim) in file.claims.iter().enumerate() {
            let Ok(Explicit::Threshold(threshold, cites)) = &claim.explicit else {
                continue;
            };
            let s = &threshold.sequence;
            let mut variants: Vec<Vec<Option<u64>>> = Vec::new();
            for (k, entry) in s.iter().enumerate() {
                if let Some(b) = entry {
                    for changed in [b + 1, b.wrapping_sub(1)] {
                        if changed != u64::MAX {
                            let mut m = s.clone();
                            m[k] = Some(changed);
                            variants.push(m);
                        }
                    }
                }
            }
            // inf one place earlier, missing, and one place later.
            if s.len() > 1 {
                let mut earlier = s[..s.len() - 2].to_vec();
                earlier.push(None);
                variants.push(earlier);
                variants.push(s[..s.len() - 1].to_vec());
            }
            let mut later = s[..s.len() - 1].to_vec();
            later.push(Some(99));
            later.push(None);
            variants.push(later);
            for sequence in variants {
                let mut broken = file.clone();
                let mut t = threshold.clone();
                t.sequence = sequence.clone();
                broken.claims[i].explicit = Ok(Explicit::Threshold(t, cites.clone()));
                let mut options = common::options();
                options.only = Some(claim.id.clone());
                let outcome = check_files(&[broken], &options);
                let verdict = outcome.report.files[0].claims[0].verdict;
                // A sequence without its final inf is not a threshold
                // sequence at all: malformed, an ERROR.
                let expected: &[VerdictName] = if sequence.last() == Some(&None) {
                    &[VerdictName::Refuted, VerdictName::Rejected]
                } else {
                    &[VerdictName::Error]
                };
                assert!(
                    expected.contains(&verdict),
                    "{} as {sequence:?}: {verdict:?}",
                    claim.id
                );
                mutated += 1;
            }
        }
    }
    assert!(mutated >= 30, "only {mutated} mutants");
}

/// A finite-board breaker strategy played by the letter: a pairing answers
/// a mark by its partner, a tree node by its reply (a `like` move by the
/// answered move's reply and subtree moved by the congruence); when the
/// answer is taken, the first free cell. `sigma` maps the written tree's
/// cells onto the board's.
struct TreePlay {
    faces: usize,
    placements: Vec<u32>,
    memo: std::collections::HashMap<(u32, u32, usize, Vec<u16>), bool>,
    /// The strategies of the tree's named situations.
    named: std::collections::HashMap<String, std::rc::Rc<Strategy>>,
}

impl TreePlay {
    fn permutation(map: &gamecert::kernel::maker::congruence::Congruence) -> Vec<u16> {
        match map {
            gamecert::kernel::maker::congruence::Congruence::Permutation(p) => p.clone(),
            other => panic!("solid boards map by permutations: {other:?}"),
        }
    }

    /// The named situations of a tree, by name.
    fn name_situations(&mut self, node: &Strategy) {
        match node {
            Strategy::Named { name, then } => {
                self.named
                    .insert(name.clone(), std::rc::Rc::new((**then).clone()));
                self.name_situations(then);
            }
            Strategy::Moves(moves) => {
                for m in moves {
                    if let Answer::Reply { then, .. } = &m.answer {
                        self.name_situations(then);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether the maker, to move, completes a placement against the
    /// strategy at `node` (read through `sigma`).
    fn maker_wins(&mut self, maker: u32, breaker: u32, node: &Strategy, sigma: &[u16]) -> bool {
        // A named situation is played as its strategy; a recurring one as
        // the named one's strategy moved by the congruence.
        match node {
            Strategy::Named { then, .. } => return self.maker_wins(maker, breaker, then, sigma),
            Strategy::Same { name, map } => {
                let perm = Self::permutation(map);
                let composed: Vec<u16> = (0..self.faces)
                    .map(|c| sigma[usize::from(perm[c])])
                    .collect();
                let named = std::rc::Rc::clone(self.named.get(name).expect("named earlier"));
                return self.maker_wins(maker, breaker, &named, &composed);
            }
            _ => {}
        }
        let key = (
            maker,
            breaker,
            node as *const Strategy as usize,
            sigma.to_vec(),
        );
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let all = (1u32 << self.faces) - 1;
        let free = all & !maker & !breaker;
        let mut wins = false;
        for x in (0..self.faces).filter(|&f| free >> f & 1 == 1) {
            let m = maker | 1 << x;
            if self.placements.iter().any(|&p| p & !m == 0) {
                wins = true;
                break;
            }
            let inverse = |c: usize| {
                sigma
                    .iter()
                    .position(|&s| usize::from(s) == c)
                    .expect("bijection")
            };
            let (reply, next, next_sigma): (Option<usize>, &Strategy, Vec<u16>) = match node {
                Strategy::Paving(p) => {
                    let written = inverse(x) as i32;
                    let partner = p.pairs.iter().find_map(|&(u, v)| {
                        (u[0] == written)
                            .then_some(v[0])
                            .or((v[0] == written).then_some(u[0]))
                    });
                    (
                        partner.map(|c| usize::from(sigma[c as usize])),
                        node,
                        sigma.to_vec(),
                    )
                }
                Strategy::Named { .. } | Strategy::Same { .. } => unreachable!("resolved above"),
                Strategy::Moves(moves) => {
                    let written = inverse(x) as i32;
                    let mv = moves
                        .iter()
                        .find(|m| m.mark[0] == written)
                        .expect("every free cell answered");
                    match &mv.answer {
                        Answer::Reply { reply, then } => (
                            reply.first().map(|c| usize::from(sigma[c[0] as usize])),
                            then,
                            sigma.to_vec(),
                        ),
                        Answer::Like { like, map } => {
                            let perm = Self::permutation(map);
                            let answered = moves
                                .iter()
                                .find(|m| m.mark == *like)
                                .expect("like an answered move");
                            let Answer::Reply { reply, then } = &answered.answer else {
                                panic!("like a reply")
                            };
                            // Written cell c of the answered branch is perm(c) here.
                            let composed: Vec<u16> = (0..self.faces)
                                .map(|c| sigma[usize::from(perm[c])])
                                .collect();
                            (
                                reply.first().map(|c| usize::from(composed[c[0] as usize])),
                                then,
                                composed,
                            )
                        }
                    }
                }
            };
            let taken = |c: usize| (m | breaker) >> c & 1 == 1;
            let mark = match reply {
                Some(c) if !taken(c) => Some(c),
                _ => (0..self.faces).find(|&c| !taken(c)),
            };
            let b = mark.map_or(breaker, |c| breaker | 1 << c);
            if self.maker_wins(m, b, next, &next_sigma) {
                wins = true;
                break;
            }
        }
        self.memo.insert(key, wins);
        wins
    }
}

/// Every elementary loser of the platonic classification file, the
/// icosahedron's (beyond the solver) included, against every sequence of
/// maker marks, with its certified strategy played by the letter.
#[test]
fn shipped_finite_board_strategies_beat_every_maker_sequence() {
    let claims = [
        "certificates/bode-2000/platonic-classification.cert",
        "certificates/bode-2000/archimedean-classification.cert",
    ]
    .into_iter()
    .flat_map(common::shipped_claims);
    let (mut played, mut careless_beaten) = (0, 0);
    for claim in claims {
        let Ok(Explicit::Breaker(game, strategy)) = claim.explicit else {
            continue;
        };
        let faces = game.board.face_graph().expect("a solid").faces();
        let unlimited = &mut Budget::unlimited();
        let placements =
            gamecert::kernel::animals::shape::placements(&game.board, &game.goal, unlimited)
                .expect("unlimited")
                .iter()
                .map(|p| p.iter().fold(0u32, |m, c| m | 1 << c[0]))
                .collect();
        let mut play = TreePlay {
            faces,
            placements,
            memo: std::collections::HashMap::new(),
            named: std::collections::HashMap::new(),
        };
        play.name_situations(&strategy);
        let identity: Vec<u16> = (0..faces as u16).collect();
        assert!(
            !play.maker_wins(0, 0, &strategy, &identity),
            "{}: the maker beats the certified strategy",
            claim.id
        );
        // The player finds wins: against a breaker who ignores the maker
        // (first free cell), he wins.
        let careless = Strategy::Paving(Paving {
            pairs: Vec::new(),
            period: Vec::new(),
        });
        play.memo.clear();
        careless_beaten += usize::from(play.maker_wins(0, 0, &careless, &identity));
        played += 1;
    }
    assert_eq!(played, 16 + 58);
    eprintln!("careless breaker beaten on {careless_beaten} of {played}");
    assert!(careless_beaten >= 8, "{careless_beaten}");
}

/// A mosaic board has no cells a goal could use (animals on it are refused
/// by the elaborator, and the kernel's own check agrees): a pairing with
/// no placement to meet, which would hold vacuously, is not verified.
#[test]
fn no_game_on_a_mosaic_verifies() {
    use gamecert::kernel::animals::mosaic::Mosaic;
    let board = Board::Mosaic(Mosaic::new(7).expect("q = 7"));
    let game = GameClaim {
        side: Side::Loser,
        board,
        goal: vec![[0, 0, 0], [1, 0, 0]],
        a: 1,
        finish: None,
        b: 1,
    };
    let strategy = Strategy::Paving(Paving {
        pairs: vec![([0, 0, 0], [1, 0, 0])],
        period: Vec::new(),
    });
    let verdict = check(&game, &strategy, Budget::unlimited());
    assert!(!verified(&verdict), "{verdict:?}");
}
