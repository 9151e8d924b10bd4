//! Priority-strategy producer (untrusted): searches plain priority
//! strategies for (a,b) loser claims on a lattice, as Norris-Sieben draw
//! them: one rule per class whose b/a priority lists hold cells near the
//! maker's mark. Classes are the lattice's own (the triangle's two
//! orientations, the second rule the first turned by a congruence) or, on
//! the square lattice, the parity of x + y (the odd rule the even one
//! moved by a symmetry). Every candidate is tried by the kernel's rule B5,
//! and the one written is checked again by `check`.

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::breaker::priority::{self, ClassRules, Priority, PriorityRule};
use crate::kernel::breaker::sub;
use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::game::GameClaim;
use crate::kernel::verdict::Verdict;
use crate::syntax::printer;

/// Search nodes the kernel may spend on one candidate.
const NODES_PER_CANDIDATE: u64 = 200_000;

/// How far (in steps between neighbouring cells) a response cell may lie
/// from the maker's mark.
const RADIUS: usize = 2;

/// A priority strategy making `claim` a loser, if one of the searched
/// shapes works: lists of one cell first, then of up to `longest` cells.
pub fn prove(
    claim: &GameClaim,
    longest: usize,
    budget: &mut Budget,
) -> Result<Option<Priority>, Exhausted> {
    let Some(lattice) = claim.board.lattice() else {
        return Ok(None);
    };
    let lists = (claim.b / claim.a.max(1)).max(1);
    let near = nearby(lattice);
    for length in 1..=longest {
        let mut found = None;
        let mut candidates = Vec::new();
        rules(&near, lists, length, &mut Vec::new(), &mut candidates);
        for rule in &candidates {
            for strategy in layouts(lattice, rule) {
                budget.tick()?;
                let verdict = priority::check(
                    claim,
                    &strategy,
                    Budget::new(Some(NODES_PER_CANDIDATE), None, 1 << 16),
                );
                if matches!(verdict, Verdict::Verified { .. }) {
                    found = Some(strategy);
                    break;
                }
            }
            if found.is_some() {
                return Ok(found);
            }
        }
    }
    Ok(None)
}

/// The cells within [`RADIUS`] steps of the origin, the origin excluded.
fn nearby(lattice: Lattice) -> Vec<Cell> {
    let mut seen = vec![[0, 0, 0]];
    let mut frontier = vec![[0, 0, 0]];
    for _ in 0..RADIUS {
        let mut next = Vec::new();
        for c in frontier {
            for n in lattice.neighbours(c) {
                if !seen.contains(&n) {
                    seen.push(n);
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    seen.remove(0);
    seen
}

/// Every rule of `lists` disjoint priority lists over `near`, each of at
/// most `length` cells, at least one of exactly `length` (shorter shapes
/// were tried before).
fn rules(
    near: &[Cell],
    lists: usize,
    length: usize,
    partial: &mut Vec<Vec<Cell>>,
    out: &mut Vec<Vec<Vec<Cell>>>,
) {
    if partial.len() == lists {
        if partial.iter().any(|l| l.len() == length) {
            out.push(partial.clone());
        }
        return;
    }
    let used: Vec<Cell> = partial.iter().flatten().copied().collect();
    let mut list = Vec::new();
    sequences(near, &used, length, &mut list, &mut |l| {
        partial.push(l.to_vec());
        rules(near, lists, length, partial, out);
        partial.pop();
    });
}

/// Calls `f` on every non-empty sequence of distinct cells of `near`,
/// none in `used`, of at most `length` cells.
fn sequences(
    near: &[Cell],
    used: &[Cell],
    length: usize,
    list: &mut Vec<Cell>,
    f: &mut dyn FnMut(&[Cell]),
) {
    if !list.is_empty() {
        f(list);
    }
    if list.len() == length {
        return;
    }
    for &c in near {
        if used.contains(&c) || list.contains(&c) {
            continue;
        }
        list.push(c);
        sequences(near, used, length, list, f);
        list.pop();
    }
}

/// The strategies built from one rule: on the lattice's own classes (the
/// triangle's down cells answered by the rule turned by each congruence
/// that takes an up cell to a down one), and on the square lattice also by
/// the parity of x + y with the odd rule the even one moved by each
/// symmetry.
fn layouts(lattice: Lattice, rule: &[Vec<Cell>]) -> Vec<Priority> {
    let plain = |lists: Vec<Vec<Cell>>, class: Cell| ClassRules {
        class,
        rules: vec![PriorityRule {
            guard: Vec::new(),
            lists,
        }],
    };
    let moved = |g: usize, shift: Cell| -> Vec<Vec<Cell>> {
        rule.iter()
            .map(|l| {
                l.iter()
                    .map(|&d| sub(lattice.transform(g, d), shift))
                    .collect()
            })
            .collect()
    };
    let order = lattice.point_group_order();
    match lattice {
        Lattice::Triangle => (0..order)
            .filter_map(|g| {
                let image = lattice.transform(g, [0, 0, 0]);
                (!lattice.same_orientation([0, 0, 0], image)).then(|| Priority {
                    period: Vec::new(),
                    order: Vec::new(),
                    classes: vec![
                        plain(rule.to_vec(), [0, 0, 0]),
                        plain(moved(g, image), [1, 0, 0]),
                    ],
                })
            })
            .collect(),
        Lattice::Square => {
            let mut out = vec![Priority {
                period: Vec::new(),
                order: Vec::new(),
                classes: vec![plain(rule.to_vec(), [0, 0, 0])],
            }];
            out.extend((1..order).map(|g| Priority {
                period: vec![[1, 1, 0], [1, -1, 0]],
                order: Vec::new(),
                classes: vec![
                    plain(rule.to_vec(), [0, 0, 0]),
                    plain(moved(g, [0, 0, 0]), [1, 0, 0]),
                ],
            }));
            out
        }
        Lattice::Hexagon | Lattice::Cubic => vec![Priority {
            period: Vec::new(),
            order: Vec::new(),
            classes: vec![plain(rule.to_vec(), [0, 0, 0])],
        }],
    }
}

/// The body of a `by priority { ... }` block, indented by `indent` levels.
pub fn text(strategy: &Priority, dimension: usize, indent: usize) -> String {
    let pad = "  ".repeat(indent);
    let cells = |list: &[Cell]| {
        list.iter()
            .map(|c| printer::cell(c, dimension))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::new();
    if !strategy.period.is_empty() {
        out.push_str(&format!("{pad}period {}\n", cells(&strategy.period)));
    }
    if !strategy.order.is_empty() {
        let keys: Vec<String> = strategy
            .order
            .iter()
            .map(|k| {
                let axis = ["x", "y", "z"][k.axis];
                if k.descending {
                    format!("-{axis}")
                } else {
                    axis.to_string()
                }
            })
            .collect();
        out.push_str(&format!("{pad}order {}\n", keys.join(" ")));
    }
    for class in &strategy.classes {
        out.push_str(&format!(
            "{pad}class {} {{\n",
            printer::cell(&class.class, dimension)
        ));
        for rule in &class.rules {
            let guard = if rule.guard.is_empty() {
                String::new()
            } else {
                format!("if {} ", cells(&rule.guard))
            };
            let lists: Vec<String> = rule.lists.iter().map(|l| cells(l)).collect();
            out.push_str(&format!("{pad}  rule {guard}{{ {} }}\n", lists.join(" ; ")));
        }
        out.push_str(&format!("{pad}}}\n"));
    }
    out
}

/// A history-dependent priority strategy on the square lattice shaped as
/// Norris-Sieben's for P4_5: classes by the parity of x + y; an even mark
/// x answered by the first of four rules guarded by the maker owning both
/// horizontal neighbours of x, the left one, the right one, nothing (the
/// right-hand rule the left-hand one reflected); odd marks by the even
/// rules turned by 90 degrees. The lists are found by a seeded local
/// search that mutates one list at a time and keeps changes that leave no
/// more placements open (as the kernel's rule B5 counts them).
pub fn prove_history(
    claim: &GameClaim,
    rounds: usize,
    budget: &mut Budget,
) -> Result<Option<Priority>, Exhausted> {
    if claim.board.lattice() != Some(Lattice::Square) {
        return Ok(None);
    }
    let lists = (claim.b / claim.a.max(1)).max(1);
    let near = nearby(Lattice::Square);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let random_list = |rng: &mut Rng| -> Vec<Cell> {
        let len = 1 + rng.below(2);
        let mut l: Vec<Cell> = Vec::new();
        while l.len() < len {
            let c = near[rng.below(near.len())];
            if !l.contains(&c) {
                l.push(c);
            }
        }
        l
    };
    let score = |rules: &[Vec<Vec<Cell>>; 3], budget: &mut Budget| -> Option<usize> {
        let mut inner = Budget::new(Some(NODES_PER_CANDIDATE), None, 1 << 16);
        budget.tick().ok()?;
        priority::open_placements(claim, &history_layout(rules), &mut inner)
    };
    loop {
        // A fresh start: every rule's lists random.
        let mut rules: [Vec<Vec<Cell>>; 3] =
            std::array::from_fn(|_| (0..lists).map(|_| random_list(&mut rng)).collect());
        let Some(mut best) = score(&rules, budget) else {
            budget.tick()?;
            continue;
        };
        for _ in 0..rounds {
            budget.tick()?;
            if best == 0 {
                return Ok(Some(history_layout(&rules)));
            }
            let mut next = rules.clone();
            let list = &mut next[rng.below(3)][rng.below(lists)];
            match rng.below(4) {
                0 if list.len() < 3 => {
                    let c = near[rng.below(near.len())];
                    if !list.contains(&c) {
                        list.push(c);
                    }
                }
                1 if list.len() > 1 => {
                    list.remove(rng.below(list.len()));
                }
                2 if list.len() > 1 => {
                    let i = rng.below(list.len());
                    list.swap(i, 0);
                }
                _ => {
                    let c = near[rng.below(near.len())];
                    if !list.contains(&c) {
                        let i = rng.below(list.len());
                        list[i] = c;
                    }
                }
            }
            if let Some(s) = score(&next, budget)
                && s <= best
            {
                best = s;
                rules = next;
            }
        }
    }
}

/// The strategy of [`prove_history`] from the lists of its three written
/// rules (both neighbours, the left one, none).
fn history_layout(rules: &[Vec<Vec<Cell>>; 3]) -> Priority {
    const MIRROR: usize = 1;
    const TURN: usize = 5;
    let moved = |g: usize, lists: &[Vec<Cell>]| -> Vec<Vec<Cell>> {
        lists
            .iter()
            .map(|l| l.iter().map(|&d| Lattice::Square.transform(g, d)).collect())
            .collect()
    };
    let even = vec![
        PriorityRule {
            guard: vec![[-1, 0, 0], [1, 0, 0]],
            lists: rules[0].clone(),
        },
        PriorityRule {
            guard: vec![[-1, 0, 0]],
            lists: rules[1].clone(),
        },
        PriorityRule {
            guard: vec![[1, 0, 0]],
            lists: moved(MIRROR, &rules[1]),
        },
        PriorityRule {
            guard: Vec::new(),
            lists: rules[2].clone(),
        },
    ];
    let odd = even
        .iter()
        .map(|r| PriorityRule {
            guard: r
                .guard
                .iter()
                .map(|&d| Lattice::Square.transform(TURN, d))
                .collect(),
            lists: moved(TURN, &r.lists),
        })
        .collect();
    Priority {
        period: vec![[1, 1, 0], [1, -1, 0]],
        order: Vec::new(),
        classes: vec![
            ClassRules {
                class: [0, 0, 0],
                rules: even,
            },
            ClassRules {
                class: [1, 0, 0],
                rules: odd,
            },
        ],
    }
}

/// A small seeded generator (xorshift), so that searches repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}
