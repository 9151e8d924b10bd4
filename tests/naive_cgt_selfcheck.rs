//! Self-checks for the naive partizan-game oracle in `tests/common/naive_cgt.rs`:
//! textbook values, and internal consistency on random games.

mod common;

use common::naive_cgt::*;

fn star() -> G {
    G::star(1)
}

#[track_caller]
fn assert_same(a: &G, b: &G) {
    assert!(same_value(a, b), "expected {a} = {b}");
}

// ----- textbook values --------------------------------------------------

#[test]
fn star_plus_star_is_zero() {
    assert_same(&star().add(&star()), &G::zero());
    assert_eq!(canonical(&star().add(&star())), G::zero());
}

#[test]
fn up_facts() {
    let up = G::up();
    assert!(gt(&up, &G::zero()));
    assert!(confused(&up, &star()));
    assert_eq!(outcome(&up), 'L');
    assert_same(&G::new(vec![G::zero()], vec![star()]), &up);
    assert_eq!(canonical(&up), up);
    assert_same(&G::down(), &up.neg());
    assert!(lt(&G::down(), &G::zero()));
    // ^ is infinitesimal: below every positive dyadic tried.
    for k in 0..6 {
        assert!(lt(&up, &G::dyadic(1, k)));
    }
}

#[test]
fn outcomes() {
    assert_eq!(outcome(&G::zero()), 'P');
    assert_eq!(outcome(&star()), 'N');
    assert_eq!(outcome(&G::integer(1)), 'L');
    assert_eq!(outcome(&G::integer(-1)), 'R');
    assert_eq!(outcome(&G::up().add(&star())), 'N');
    for g in [
        G::zero(),
        star(),
        G::up(),
        G::down(),
        G::integer(2),
        G::dyadic(-3, 2),
    ] {
        assert_eq!(outcome(&g), outcome_by_play(&g), "{g}");
    }
}

#[test]
fn halves_and_dyadics() {
    let half = G::dyadic(1, 1);
    assert_eq!(half, G::new(vec![G::zero()], vec![G::integer(1)]));
    assert_same(&half.add(&half), &G::integer(1));
    // Order and addition of dyadics with denominator 8.
    for a in -8i64..=8 {
        for b in -8i64..=8 {
            let (ga, gb) = (G::dyadic(a, 3), G::dyadic(b, 3));
            assert_eq!(ge(&ga, &gb), a >= b, "{a}/8 >= {b}/8");
            if (a + b).abs() <= 8 {
                assert_same(&ga.add(&gb), &G::dyadic(a + b, 3));
            }
        }
    }
    // dyadic() builds the canonical tree already.
    for a in -16i64..=16 {
        let g = G::dyadic(a, 4);
        assert_eq!(canonical(&g), g, "{a}/16");
    }
}

#[test]
fn integers_from_sums() {
    let one = G::integer(1);
    let three = one.add(&one).add(&one);
    assert_eq!(canonical(&three), G::integer(3));
    assert_same(&three.sub(&G::integer(5)), &G::integer(-2));
}

#[test]
fn nim_sums() {
    assert_same(&G::star(2).add(&G::star(3)), &G::star(1));
    for a in 0..4u32 {
        for b in 0..4u32 {
            let s = G::star(a).add(&G::star(b));
            assert_same(&s, &G::star(a ^ b));
            assert_eq!(canonical(&s), G::star(a ^ b));
        }
    }
}

#[test]
fn canonical_forms_by_hand() {
    let zero = G::zero();
    let up = G::up();
    // {0,* | 0,*} is *2 as it stands.
    let g = G::new(vec![zero.clone(), star()], vec![zero.clone(), star()]);
    assert_eq!(canonical(&g), G::star(2));
    // ^* = {0,* | 0}.
    let up_star = G::new(vec![zero.clone(), star()], vec![zero.clone()]);
    assert_eq!(canonical(&up.add(&star())), up_star);
    // double-up = {0 | ^*}, double-up-star = {0 | ^}.
    let double_up = up.add(&up);
    assert_eq!(
        canonical(&double_up),
        G::new(vec![zero.clone()], vec![up_star.clone()])
    );
    assert_eq!(
        canonical(&double_up.add(&star())),
        G::new(vec![zero.clone()], vec![up.clone()])
    );
    // {0, ^ | 0} = * (^ reverses through * <= G).
    assert_eq!(
        canonical(&G::new(vec![zero.clone(), up.clone()], vec![zero.clone()])),
        star()
    );
    // {-1 | 1} = 0, {0 | 2} = 1, {1 | 1} = 1* stays.
    assert_eq!(
        canonical(&G::new(vec![G::integer(-1)], vec![G::integer(1)])),
        zero
    );
    assert_eq!(
        canonical(&G::new(vec![zero.clone()], vec![G::integer(2)])),
        G::integer(1)
    );
    let one_star = G::new(vec![G::integer(1)], vec![G::integer(1)]);
    assert_eq!(canonical(&one_star), one_star);
    assert_same(&one_star, &G::integer(1).add(&star()));
    // Dominated options: {0, 1 | 3, 2} = {1 | 2} = 3/2.
    let g = G::new(
        vec![zero.clone(), G::integer(1)],
        vec![G::integer(3), G::integer(2)],
    );
    assert_eq!(canonical(&g), G::dyadic(3, 1));
}

#[test]
fn hackenbush_stalks() {
    assert_same(&hackenbush_stalk("lr"), &G::dyadic(1, 1));
    assert_same(&hackenbush_stalk("lrlrrllr"), &G::dyadic(77, 7));
    assert_eq!(canonical(&hackenbush_stalk("lrlrrllr")), G::dyadic(77, 7));
    assert_same(&hackenbush_stalk("eee"), &G::star(3));
    assert_same(&hackenbush_stalk("lll"), &G::integer(3));
    assert_same(&hackenbush_stalk("rr"), &G::integer(-2));
    assert_same(&hackenbush_stalk("rl"), &G::dyadic(-1, 1));
    assert_same(&hackenbush_stalk(""), &G::zero());
    // A green edge with a blue one on top: {0, * | 0} = ^*.
    assert_same(&hackenbush_stalk("el"), &G::up().add(&star()));
    // A blue edge with a green one on top: {0, 1 | 1} = 1*.
    assert_same(&hackenbush_stalk("le"), &G::integer(1).add(&star()));
}

#[test]
fn hackenbush_graphs() {
    // Two parallel blue edges from the ground to one vertex: 2.
    assert_same(&hackenbush(&[(0, 1, 'l'), (0, 1, 'l')]), &G::integer(2));
    // Green triangle on the ground: * (fusion principle: three loops).
    assert_same(
        &hackenbush(&[(0, 1, 'e'), (1, 2, 'e'), (2, 0, 'e')]),
        &star(),
    );
    // Green edge with two green leaves on top: * (colon principle).
    assert_same(
        &hackenbush(&[(0, 1, 'e'), (1, 2, 'e'), (1, 3, 'e')]),
        &star(),
    );
    // Edges not connected to the ground fall at once.
    assert_same(&hackenbush(&[(0, 1, 'l'), (2, 3, 'r')]), &G::integer(1));
    // Disjoint stalks add up.
    assert_same(
        &hackenbush(&[(0, 1, 'l'), (1, 2, 'r'), (0, 3, 'e')]),
        &G::dyadic(1, 1).add(&star()),
    );
}

#[test]
fn domineering_small_boards() {
    let pm1 = G::new(vec![G::integer(1)], vec![G::integer(-1)]);
    assert_same(&domineering(2, 1, full_board(2, 1)), &G::integer(1));
    assert_same(&domineering(1, 2, full_board(1, 2)), &G::integer(-1));
    assert_same(&domineering(1, 4, full_board(1, 4)), &G::integer(-2));
    assert_same(&domineering(2, 2, full_board(2, 2)), &pm1);
    assert_eq!(canonical(&domineering(2, 2, full_board(2, 2))), pm1);
    assert_same(&domineering(3, 3, full_board(3, 3)), &pm1);
    assert_eq!(canonical(&domineering(3, 3, full_board(3, 3))), pm1);
    // Empty and blocked boards.
    assert_same(&domineering(3, 3, 0), &G::zero());
    assert_same(&domineering(3, 3, 0b101_010_101), &G::zero());
}

// ----- internal consistency on random games -----------------------------

#[test]
fn random_outcome_agrees_with_play() {
    let mut seed = 1u64;
    for _ in 0..2000 {
        let g = random_game(&mut seed, 4);
        assert!(g.birthday() <= 4);
        assert_eq!(outcome(&g), outcome_by_play(&g), "{g}");
    }
}

#[test]
fn random_canonical_is_equal_and_idempotent() {
    let mut seed = 2u64;
    for _ in 0..2000 {
        let g = random_game(&mut seed, 4);
        let c = canonical(&g);
        assert!(eq(&g, &c), "{g} vs canonical {c}");
        assert_eq!(canonical(&c), c, "{g}");
        assert!(c.birthday() <= g.birthday(), "{g} -> {c}");
        // Canonical options are canonical, sorted and distinct.
        for side in [&c.left, &c.right] {
            assert!(side.windows(2).all(|w| w[0] < w[1]), "{c}");
            for o in side.iter() {
                assert_eq!(&canonical(o), o);
            }
        }
    }
}

#[test]
fn random_pairs_eq_agrees_with_canonical() {
    let mut seed = 3u64;
    let mut equal = 0;
    for _ in 0..3000 {
        let a = random_game(&mut seed, 3);
        let b = random_game(&mut seed, 3);
        // same_value panics if the two decisions disagree.
        if same_value(&a, &b) {
            equal += 1;
        }
        // a >= b iff a - b >= 0.
        let d = a.sub(&b);
        assert_eq!(ge(&a, &b), ge(&d, &G::zero()), "{a} vs {b}");
        assert_eq!(le(&a, &b), le(&d, &G::zero()), "{a} vs {b}");
    }
    assert!(
        equal > 50,
        "too few equal pairs ({equal}) to exercise both ways"
    );
}

#[test]
fn random_group_laws() {
    let mut seed = 4u64;
    for _ in 0..250 {
        let a = random_game(&mut seed, 3);
        let b = random_game(&mut seed, 3);
        assert_same(&a.sub(&a), &G::zero());
        assert_same(&a.add(&b), &b.add(&a));
        assert_same(&a.add(&G::zero()), &a);
        assert_same(&a.neg().neg(), &a);
        assert_eq!(canonical(&a.neg()), canonical(&a).neg_sorted());
    }
}

#[test]
fn random_order_is_a_partial_order() {
    let mut seed = 5u64;
    for _ in 0..1500 {
        let a = random_game(&mut seed, 3);
        let b = random_game(&mut seed, 3);
        let c = random_game(&mut seed, 3);
        let mut cmp = Cmp::new();
        assert!(cmp.ge(&a, &a));
        if cmp.ge(&a, &b) && cmp.ge(&b, &c) {
            assert!(cmp.ge(&a, &c), "{a} >= {b} >= {c}");
        }
        // Exactly one of =, >, <, || holds.
        let n = [
            cmp.eq(&a, &b),
            cmp.gt(&a, &b),
            cmp.lt(&a, &b),
            cmp.confused(&a, &b),
        ]
        .iter()
        .filter(|&&x| x)
        .count();
        assert_eq!(n, 1, "{a} vs {b}");
    }
}

trait NegSorted {
    fn neg_sorted(&self) -> G;
}

impl NegSorted for G {
    /// Negation followed by re-sorting the options at every level, so it
    /// can be compared with a canonical form.
    fn neg_sorted(&self) -> G {
        let mut left: Vec<G> = self.right.iter().map(|o| o.neg_sorted()).collect();
        let mut right: Vec<G> = self.left.iter().map(|o| o.neg_sorted()).collect();
        left.sort();
        right.sort();
        G::new(left, right)
    }
}
