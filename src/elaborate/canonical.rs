//! Canonical forms of partizan games (untrusted: for `eval`, for the number
//! a `number` claim is checked against, and for suggestions).
//!
//! Key decision: canonical forms live in the kernel's own arena of games and
//! are compared with the kernel's comparison, but nothing here is trusted: a
//! value printed by `eval` is only a suggestion until a claim states it and
//! the kernel checks the claim by definition. A canonical form is a number
//! node or an options node whose options are canonical, with no dominated and
//! no reversible option; numbers are found by the simplest-number rule, and
//! sums are formed from canonical summands (numbers added exactly, a number
//! translating the other summands' options).

use std::collections::HashMap;
use std::sync::Arc;

use crate::kernel::budget::{Budget, Exhausted};
use crate::kernel::partizan::check::NumberCandidate;
use crate::kernel::partizan::compare::Comparer;
use crate::kernel::partizan::dyadic::{Dyadic, simplest_between};
use crate::kernel::partizan::game::{Games, Id, Options, Term};

/// Canonical forms over one arena.
pub struct Canonical {
    /// The comparison (and arena) the forms are built in.
    pub cmp: Comparer,
    memo: HashMap<Id, Id>,
    stops: HashMap<(Id, bool), Dyadic>,
    /// The canonical forms of `^k + *n` (|k| <= 8, n < 16), built on first use.
    infinitesimals: Option<HashMap<Id, (i32, u32)>>,
    /// Canonical forms known to be nimbers, or not.
    nimbers: HashMap<Id, Option<u32>>,
}

impl Canonical {
    /// The options of `g`; only a sum's can run out of memory.
    fn options(&mut self, g: Id) -> Result<Arc<Options>, Exhausted> {
        self.cmp.games.options(g, &self.cmp.budget)
    }

    /// The options of a canonical form, which its own node holds: nothing
    /// is generated, so nothing can run out.
    fn held_options(&mut self, g: Id) -> Arc<Options> {
        self.options(g).unwrap_or_default()
    }

    /// A fresh arena with the given budget.
    pub fn new(budget: Budget) -> Canonical {
        Canonical {
            cmp: Comparer::new(Games::new(), budget),
            memo: HashMap::new(),
            stops: HashMap::new(),
            infinitesimals: None,
            nimbers: HashMap::new(),
        }
    }

    /// `n` when the canonical form `g` is `*n`: its left and right options
    /// are the same, and are `*0` to `*(n-1)` (the canonical forms of
    /// nimbers are exactly these).
    fn nimber_value(&mut self, g: Id) -> Option<u32> {
        if let Some(&known) = self.nimbers.get(&g) {
            return known;
        }
        let value = if self.cmp.games.as_number(g).is_some_and(|x| x.signum() == 0) {
            Some(0)
        } else if let Some(n) = self.cmp.games.as_nimber(g) {
            Some(n)
        } else {
            let options = self.options(g).ok()?;
            let mut values = Vec::with_capacity(options.0.len());
            if options.0 == options.1 {
                for &o in &options.0 {
                    values.push(self.nimber_value(o));
                }
            }
            let mut values: Option<Vec<u32>> = values.into_iter().collect();
            if let Some(v) = values.as_mut() {
                v.sort_unstable();
            }
            values
                .filter(|v| !v.is_empty() && v.iter().zip(0u32..).all(|(&a, b)| a == b))
                .and_then(|v| u32::try_from(v.len()).ok())
        };
        self.nimbers.insert(g, value);
        value
    }

    /// The canonical form of a term.
    pub fn of_term(&mut self, term: &Term) -> Result<Id, Exhausted> {
        let g = self.cmp.games.term(term);
        self.of(g)
    }

    /// The canonical form of `g`.
    pub fn of(&mut self, g: Id) -> Result<Id, Exhausted> {
        if let Some(&c) = self.memo.get(&g) {
            return Ok(c);
        }
        self.cmp.budget.expand(self.memo.len())?;
        let c = if self.cmp.games.as_number(g).is_some() {
            g
        } else if let Some(parts) = self.cmp.games.sum_parts(g) {
            self.sum(&parts)?
        } else {
            let options = self.options(g)?;
            let mut left = Vec::with_capacity(options.0.len());
            for &o in &options.0 {
                left.push(self.of(o)?);
            }
            let mut right = Vec::with_capacity(options.1.len());
            for &o in &options.1 {
                right.push(self.of(o)?);
            }
            self.simplify(left, right)?
        };
        self.memo.insert(g, c);
        Ok(c)
    }

    /// The canonical form of a sum, from canonical summands.
    fn sum(&mut self, parts: &[Id]) -> Result<Id, Exhausted> {
        let mut number = Dyadic::zero();
        let mut others = Vec::new();
        for &p in parts {
            let c = self.of(p)?;
            match self.cmp.games.as_number(c) {
                Some(x) => number = number.add(x),
                None => others.push(c),
            }
        }
        others.sort_unstable();
        let x = self.cmp.games.number(number.clone());
        match others.len() {
            0 => Ok(x),
            1 if number.signum() == 0 => Ok(others[0]),
            _ => {
                let mut all = others.clone();
                if number.signum() != 0 {
                    all.push(x);
                }
                let key = self.cmp.games.sum(all);
                if let Some(&c) = self.memo.get(&key) {
                    return Ok(c);
                }
                // Options: a move in one non-number summand (a number is never
                // worth moving in while another summand is not a number).
                let (mut left, mut right) = (Vec::new(), Vec::new());
                for i in 0..others.len() {
                    let options = self.options(others[i])?;
                    for (side, out) in [(&options.0, &mut left), (&options.1, &mut right)] {
                        for &o in side {
                            let mut next = others.clone();
                            next[i] = o;
                            if number.signum() != 0 {
                                next.push(x);
                            }
                            out.push(self.sum(&next)?);
                        }
                    }
                }
                let c = self.simplify(left, right)?;
                self.memo.insert(key, c);
                Ok(c)
            }
        }
    }

    /// `{left | right}` of canonical options, without dominated or
    /// reversible options, as a number when it is one.
    fn simplify(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Result<Id, Exhausted> {
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            self.remove_dominated(&mut left, true)?;
            self.remove_dominated(&mut right, false)?;
            let g = self.cmp.games.options_node(left.clone(), right.clone());
            if let Some(number) = self.number_form(&left, &right) {
                return Ok(self.cmp.games.number(number));
            }
            if !self.bypass_one(g, &mut left, &mut right)? {
                return Ok(g);
            }
        }
    }

    fn remove_dominated(&mut self, side: &mut Vec<Id>, left: bool) -> Result<(), Exhausted> {
        let mut i = 0;
        while i < side.len() {
            let x = side[i];
            let mut dominated = false;
            for &y in side.iter() {
                if y != x {
                    dominated = if left {
                        self.cmp.ge(y, x)?
                    } else {
                        self.cmp.ge(x, y)?
                    };
                    if dominated {
                        break;
                    }
                }
            }
            if dominated {
                side.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// Bypasses one reversible option of `g = {left | right}`; false if none.
    fn bypass_one(
        &mut self,
        g: Id,
        left: &mut Vec<Id>,
        right: &mut Vec<Id>,
    ) -> Result<bool, Exhausted> {
        for i in 0..left.len() {
            let x = left[i];
            let replies = self.options(x)?.1.clone();
            for reply in replies {
                if self.cmp.ge(g, reply)? {
                    left.remove(i);
                    left.extend_from_slice(&self.options(reply)?.0);
                    return Ok(true);
                }
            }
        }
        for i in 0..right.len() {
            let x = right[i];
            let replies = self.options(x)?.0.clone();
            for reply in replies {
                if self.cmp.ge(reply, g)? {
                    right.remove(i);
                    right.extend_from_slice(&self.options(reply)?.1);
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The number `{left | right}` is, when every option is a number and
    /// every left option is below every right option.
    fn number_form(&self, left: &[Id], right: &[Id]) -> Option<Dyadic> {
        let numbers = |ids: &[Id]| -> Option<Vec<Dyadic>> {
            ids.iter()
                .map(|&o| self.cmp.games.as_number(o).cloned())
                .collect()
        };
        let (l, r) = (numbers(left)?, numbers(right)?);
        simplest_between(l.iter().max(), r.iter().min())
    }

    /// A canonical form as a term (to hand it to the kernel as a claimed value).
    pub fn to_term(&mut self, g: Id) -> Term {
        if let Some(x) = self.cmp.games.as_number(g) {
            return Term::Number(x.clone());
        }
        let options = self.held_options(g);
        let (l, r) = (options.0.clone(), options.1.clone());
        Term::Options(
            l.iter().map(|&o| self.to_term(o)).collect(),
            r.iter().map(|&o| self.to_term(o)).collect(),
        )
    }

    /// The left and right stops of a canonical form.
    pub fn stops(&mut self, g: Id) -> (Dyadic, Dyadic) {
        (self.stop(g, true), self.stop(g, false))
    }

    fn stop(&mut self, g: Id, left: bool) -> Dyadic {
        if let Some(x) = self.cmp.games.as_number(g) {
            return x.clone();
        }
        if let Some(x) = self.stops.get(&(g, left)) {
            return x.clone();
        }
        let options = self.held_options(g);
        let side = if left { &options.0 } else { &options.1 };
        let stops: Vec<Dyadic> = side.iter().map(|&o| self.stop(o, !left)).collect();
        let best = if left {
            stops.into_iter().max()
        } else {
            stops.into_iter().min()
        };
        let stop = best.unwrap_or_else(Dyadic::zero);
        self.stops.insert((g, left), stop.clone());
        stop
    }

    /// `g` in compact notation: numbers, `*n`, `x^k*n` (as `3/4v3*`), `+-x`,
    /// otherwise `{...|...}`; a form longer than [`MAX_PRINTED`] characters
    /// (`*30` written out has about 2^30) is not printed.
    pub fn print(&mut self, g: Id) -> String {
        let mut room = MAX_PRINTED;
        self.print_within(g, &mut room)
            .unwrap_or_else(|| format!("(a form of more than {MAX_PRINTED} characters)"))
    }

    /// [`Canonical::print`] with at most `room` characters left; `None`
    /// when they run out (every call writes at least one character, so the
    /// room bounds the work too).
    fn print_within(&mut self, g: Id, room: &mut usize) -> Option<String> {
        let text = self.print_node(g, room)?;
        *room = room.checked_sub(text.len().max(1))?;
        Some(text)
    }

    fn print_node(&mut self, g: Id, room: &mut usize) -> Option<String> {
        if *room == 0 {
            return None;
        }
        if let Some(x) = self.cmp.games.as_number(g) {
            return Some(x.to_string());
        }
        if let Some(n) = self.nimber_value(g) {
            return Some(compact_text(&Dyadic::zero(), 0, n));
        }
        if let Some(text) = self.compact(g) {
            return Some(text);
        }
        let options = self.options(g).ok()?;
        let (l, r) = (options.0.clone(), options.1.clone());
        // A switch {x | -x} with x > 0 is +-x.
        if let ([a], [b]) = (l.as_slice(), r.as_slice())
            && self.cmp.games.neg(*a) == *b
            && self.cmp.games.as_number(*a).is_some_and(|x| x.signum() > 0)
        {
            return Some(format!("+-{}", self.print_within(*a, room)?));
        }
        let side = |me: &mut Self, ids: &[Id], room: &mut usize| {
            ids.iter()
                .map(|&o| me.print_within(o, room))
                .collect::<Option<Vec<_>>>()
                .map(|v| v.join(","))
        };
        let left = side(self, &l, room)?;
        let right = side(self, &r, room)?;
        Some(format!("{{{left}|{right}}}"))
    }

    /// `g` as number + ups + nimber when it is one (|ups| <= 8, nimber < 16).
    fn compact(&mut self, g: Id) -> Option<String> {
        let (ls, rs) = self.stops(g);
        if ls != rs {
            return None;
        }
        if self.infinitesimals.is_none() {
            self.infinitesimals = Some(self.infinitesimal_table()?);
        }
        let minus_x = self.cmp.games.number(ls.neg());
        let rest = self.cmp.games.sum(vec![g, minus_x]);
        let rest = self.of(rest).ok()?;
        let &(ups, star) = self.infinitesimals.as_ref()?.get(&rest)?;
        Some(compact_text(&ls, ups, star))
    }

    fn infinitesimal_table(&mut self) -> Option<HashMap<Id, (i32, u32)>> {
        let up = self.cmp.games.term(&Term::Options(
            vec![Term::Number(Dyadic::zero())],
            vec![Term::Nimber(1)],
        ));
        let mut table = HashMap::new();
        for ups in -8i32..=8 {
            for star in 0u32..16 {
                let mut parts = vec![self.cmp.games.nimber(star)];
                let unit = if ups < 0 { self.cmp.games.neg(up) } else { up };
                parts.extend(std::iter::repeat_n(unit, ups.unsigned_abs() as usize));
                let candidate = self.cmp.games.sum(parts);
                let c = self.of(candidate).ok()?;
                table.entry(c).or_insert((ups, star));
            }
        }
        Some(table)
    }
}

fn compact_text(x: &Dyadic, ups: i32, star: u32) -> String {
    let mut out = String::new();
    if x.signum() != 0 || (ups == 0 && star == 0) {
        out.push_str(&x.to_string());
    }
    match ups {
        0 => {}
        1 => out.push('^'),
        -1 => out.push('v'),
        n if n > 0 => out.push_str(&format!("^{n}")),
        n => out.push_str(&format!("v{}", n.unsigned_abs())),
    }
    match star {
        0 => {}
        1 => out.push('*'),
        n => out.push_str(&format!("*{n}")),
    }
    out
}

/// The longest canonical form [`Canonical::print`] writes out.
pub const MAX_PRINTED: usize = 100_000;

/// The number a `number` claim is checked against: the game's value when it
/// is a number, otherwise a number the game is confused with, if any
/// (searched within `budget`).
pub fn number_candidate(term: &Term, budget: Budget) -> Option<NumberCandidate> {
    let mut canon = Canonical::new(budget);
    let g = canon.of_term(term).ok()?;
    if let Some(x) = canon.cmp.games.as_number(g) {
        return Some(NumberCandidate::Equal(x.clone()));
    }
    let (ls, rs) = canon.stops(g);
    if ls > rs {
        return simplest_between(Some(&rs), Some(&ls)).map(NumberCandidate::Confused);
    }
    // Equal stops: G is confused with the stop, or infinitesimally above or
    // below it.
    let stop = canon.cmp.games.number(ls.clone());
    let above = canon.cmp.ge(g, stop).ok()?;
    let below = canon.cmp.ge(stop, g).ok()?;
    Some(match (above, below) {
        (true, false) => NumberCandidate::Infinitesimal {
            stop: ls,
            above: true,
        },
        (false, true) => NumberCandidate::Infinitesimal {
            stop: ls,
            above: false,
        },
        _ => NumberCandidate::Confused(ls),
    })
}
