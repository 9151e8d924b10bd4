//! Dyadic rationals m / 2^k of any size: the numbers of short games.
//!
//! Key decision: a dyadic is kept reduced (m odd, or k = 0), so that equal
//! numbers have equal representations and can be hashed and interned. The
//! integer part is a `num_bigint::BigInt`, so no claim is limited by a machine
//! word; the exponent is a `u32` (a denominator of 2^(2^32) is far beyond any
//! game the kernel could expand anyway).

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): Numerators are
// big integers (no overflow); the remaining arithmetic is on exponents,
// capped by MAX_EXPONENT.
#![allow(clippy::arithmetic_side_effects)]

use num_bigint::BigInt;
use std::cmp::Ordering;

/// A dyadic rational `num / 2^exp`, reduced.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: BigInt,
    exp: u32,
}

impl Dyadic {
    /// `num / 2^exp`, reduced.
    pub fn new(num: BigInt, exp: u32) -> Dyadic {
        match num.trailing_zeros() {
            None => Dyadic::zero(),
            Some(zeros) => {
                let shift = zeros.min(u64::from(exp)) as u32;
                Dyadic {
                    num: num >> shift,
                    exp: exp - shift,
                }
            }
        }
    }

    /// The integer `n`.
    pub fn integer(n: impl Into<BigInt>) -> Dyadic {
        Dyadic {
            num: n.into(),
            exp: 0,
        }
    }

    /// Zero.
    pub fn zero() -> Dyadic {
        Dyadic::integer(0)
    }

    /// The numerator (odd unless the number is an integer).
    pub fn numerator(&self) -> &BigInt {
        &self.num
    }

    /// The exponent of the denominator.
    pub fn exponent(&self) -> u32 {
        self.exp
    }

    /// Whether this is an integer.
    pub fn is_integer(&self) -> bool {
        self.exp == 0
    }

    /// The sign: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self.num.sign() {
            num_bigint::Sign::Minus => -1,
            num_bigint::Sign::NoSign => 0,
            num_bigint::Sign::Plus => 1,
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Dyadic {
        Dyadic {
            num: -self.num.clone(),
            exp: self.exp,
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Dyadic) -> Dyadic {
        let exp = self.exp.max(other.exp);
        let a = &self.num << (exp - self.exp);
        let b = &other.num << (exp - other.exp);
        Dyadic::new(a + b, exp)
    }

    /// `self + k / 2^exp` for a small integer `k` (the options of a number).
    pub fn step(&self, k: i64) -> Dyadic {
        Dyadic::new(&self.num + BigInt::from(k), self.exp)
    }

    /// The options of this number in its standard form: an integer n > 0 is
    /// {n-1 | }, n < 0 is { | n+1}, 0 is { | }; m/2^k (m odd, k > 0) is
    /// {(m-1)/2^k | (m+1)/2^k}.
    pub fn options(&self) -> (Option<Dyadic>, Option<Dyadic>) {
        if self.exp > 0 {
            return (Some(self.step(-1)), Some(self.step(1)));
        }
        match self.signum() {
            1 => (Some(self.step(-1)), None),
            -1 => (None, Some(self.step(1))),
            _ => (None, None),
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let exp = self.exp.max(other.exp);
        let a = &self.num << (exp - self.exp);
        let b = &other.num << (exp - other.exp);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Dyadic {
    /// `n` or `m/2^k` written out (`3/4`, `-5/8`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, BigInt::from(1) << self.exp)
        }
    }
}

/// The simplest number strictly between `low` and `high` (either bound may be
/// missing): the integer of least absolute value if there is one, otherwise
/// the dyadic with the smallest denominator. `None` when `low >= high`.
pub fn simplest_between(low: Option<&Dyadic>, high: Option<&Dyadic>) -> Option<Dyadic> {
    if let (Some(l), Some(h)) = (low, high)
        && l >= h
    {
        return None;
    }
    let above = |x: &Dyadic| low.is_none_or(|l| x > l);
    let below = |x: &Dyadic| high.is_none_or(|h| x < h);
    let zero = Dyadic::zero();
    if above(&zero) && below(&zero) {
        return Some(zero);
    }
    // The interval lies on one side of zero: its integer nearest to zero, if any.
    let positive = low.is_some_and(|l| l.signum() >= 0);
    let nearest = if positive {
        // Least integer > low.
        let l = low.map_or_else(Dyadic::zero, Clone::clone);
        Dyadic::integer(floor(&l) + BigInt::from(1))
    } else {
        let h = high.map_or_else(Dyadic::zero, Clone::clone);
        Dyadic::integer(-(floor(&h.neg()) + BigInt::from(1)))
    };
    if above(&nearest) && below(&nearest) {
        return Some(nearest);
    }
    // Both bounds are finite and between two consecutive integers: the
    // dyadic with the least denominator, found by refining the grid.
    let (l, _) = (low?, high?);
    let mut exp = 1u32;
    loop {
        // Least multiple of 2^-exp strictly above l.
        let scaled = l.numerator().clone() << (exp.saturating_sub(l.exponent()));
        let scaled = if l.exponent() > exp {
            scaled >> (l.exponent() - exp)
        } else {
            scaled
        };
        let candidate = Dyadic::new(scaled + 1, exp);
        if above(&candidate) && below(&candidate) {
            return Some(candidate);
        }
        exp = exp.checked_add(1)?;
    }
}

/// The greatest integer at most `x`.
fn floor(x: &Dyadic) -> BigInt {
    // Arithmetic shift right rounds towards minus infinity.
    x.numerator() >> x.exponent()
}
