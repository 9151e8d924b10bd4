//! Ultimately periodic nim sequences of octal games (rule I6 of
//! docs/soundness.md): `period octal CODE = (n0, p)`.
//!
//! Key decision: the periodicity theorem makes the infinite claim finite.
//! If `G(n + p) = G(n)` for `n0 <= n < 2 n0 + p + t` (t the most tokens a
//! move removes), it holds for every `n >= n0`. The kernel computes the
//! values of heaps `0 .. 2 n0 + 2 p + t` by the mex rule itself, a tight
//! loop over the options, and decides the claim from them: the period
//! holds, `p` is the least period and `n0` the least preperiod, and the
//! values written out (if any) are these.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): heap sizes
// are below MAX_PERIOD_HEAPS, and values are XORs of values below it.
#![allow(clippy::arithmetic_side_effects)]

use crate::kernel::budget::{Budget, Exhausted};

/// The most heap values one claim may need (`2 n0 + 2 p + t`): about 4 MB
/// of values; the time is quadratic and bounded by the budget.
pub const MAX_PERIOD_HEAPS: u64 = 1 << 20;

/// `period octal CODE = (n0, p)`, optionally with the values of the heaps
/// below `n0 + p`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PeriodClaim {
    /// The octal code's digits, d0 first.
    pub digits: Vec<u8>,
    pub preperiod: u64,
    pub period: u64,
    /// `G(0) .. G(n0 + p - 1)`, when the claim writes them out.
    pub values: Option<Vec<u32>>,
}

/// Why a period claim is false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeriodFailure {
    /// A period of 0 repeats nothing.
    NoPeriod,
    /// `G(heap + p) != G(heap)` with `heap >= n0`.
    NotPeriodic { heap: u64, value: u32, later: u32 },
    /// A proper divisor of `p` is a period from `n0` on.
    SmallerPeriod { period: u64 },
    /// The period holds from `n0 - 1` on already.
    EarlierStart,
    /// The value of this heap is not the one written.
    Value {
        heap: u64,
        claimed: u32,
        actual: u32,
    },
}

/// What checking found: the claim holds (`Ok`), it is false, or the
/// values needed are beyond the kernel's limits (`None`).
pub fn check(
    claim: &PeriodClaim,
    budget: &mut Budget,
) -> Result<Option<Result<(), PeriodFailure>>, Exhausted> {
    let (n0, p) = (claim.preperiod, claim.period);
    if p == 0 {
        return Ok(Some(Err(PeriodFailure::NoPeriod)));
    }
    // The most tokens a move removes (0 for a game of splits only).
    let t = claim.digits.iter().rposition(|&d| d != 0).unwrap_or(0) as u64;
    let needed = n0
        .checked_mul(2)
        .and_then(|x| x.checked_add(p.checked_mul(2)?))
        .and_then(|x| x.checked_add(t))
        .filter(|&x| x <= MAX_PERIOD_HEAPS);
    let Some(needed) = needed else {
        return Ok(None);
    };
    let g = values(&claim.digits, needed as usize, budget)?;
    let at = |n: u64| g[n as usize];
    // The theorem's window.
    for n in n0..2 * n0 + p + t {
        if at(n + p) != at(n) {
            let (value, later) = (at(n), at(n + p));
            return Ok(Some(Err(PeriodFailure::NotPeriodic {
                heap: n,
                value,
                later,
            })));
        }
    }
    // Every period of the tail is a multiple of the least one, so p is the
    // least exactly when no p / q (q prime) is one; a period of the tail
    // holds from n0 on as soon as it holds over one period from n0.
    for q in prime_factors(p) {
        let smaller = p / q;
        if (n0..n0 + p).all(|n| at(n + smaller) == at(n)) {
            return Ok(Some(Err(PeriodFailure::SmallerPeriod { period: smaller })));
        }
    }
    if n0 > 0 && at(n0 - 1 + p) == at(n0 - 1) {
        return Ok(Some(Err(PeriodFailure::EarlierStart)));
    }
    let mut written = claim.values.iter().flatten().enumerate();
    if let Some((heap, &claimed)) = written.find(|&(n, &v)| g.get(n) != Some(&v)) {
        let actual = g.get(heap).copied().unwrap_or(0);
        let heap = heap as u64;
        return Ok(Some(Err(PeriodFailure::Value {
            heap,
            claimed,
            actual,
        })));
    }
    Ok(Some(Ok(())))
}

/// The nim values of heaps `0 .. count` by the mex rule: a heap of n may
/// lose k tokens (digit d_k) leaving nothing (bit 1, only if n = k), one
/// heap (bit 2, k > 0) or two nonempty heaps (bit 4), whose value is the
/// XOR of theirs.
fn values(digits: &[u8], count: usize, budget: &mut Budget) -> Result<Vec<u32>, Exhausted> {
    budget.hold(count)?;
    let mut g: Vec<u32> = Vec::with_capacity(count);
    // seen[v] == n + 1: some option of heap n has value v.
    let mut seen: Vec<usize> = vec![0; 64];
    for n in 0..count {
        let mark = n + 1;
        for (k, &d) in digits.iter().enumerate() {
            let Some(rest) = n.checked_sub(k) else {
                break;
            };
            let mut see = |v: u32| {
                let v = v as usize;
                if v >= seen.len() {
                    seen.resize((v + 1).next_power_of_two(), 0);
                }
                seen[v] = mark;
            };
            if d & 1 != 0 && rest == 0 {
                see(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                see(g[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                budget.charge(rest / 2)?;
                for a in 1..=rest / 2 {
                    see(g[a] ^ g[rest - a]);
                }
            }
        }
        budget.tick()?;
        let mex = (0..)
            .find(|&v| seen.get(v).is_none_or(|&s| s != mark))
            .unwrap_or(0);
        g.push(mex as u32);
    }
    Ok(g)
}

/// The distinct prime factors of `n`.
fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut q = 2;
    while q * q <= n {
        if n.is_multiple_of(q) {
            out.push(q);
            while n.is_multiple_of(q) {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}
