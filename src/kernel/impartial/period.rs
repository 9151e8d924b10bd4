//! Ultimately periodic nim sequences of octal games (rule I6 of
//! docs/soundness.md): `period octal CODE = (n0, p)`.
//!
//! Key decision: the periodicity theorem makes the infinite claim finite.
//! If `G(n + p) = G(n)` for `n0 <= n < 2 n0 + p + t` (t the most tokens a
//! move removes), it holds for every `n >= n0`. The kernel computes the
//! values of heaps `0 .. 2 n0 + 2 p + t` by the mex rule itself (with the
//! rare/common split that takes 0.56's 653,570 values in a fraction of a
//! second), and decides the claim from them: the period
//! holds, `p` is the least period and `n0` the least preperiod, and the
//! values written out (if any) are these.

// Arithmetic here is unchecked on purpose (see kernel/mod.rs): heap sizes
// are below MAX_PERIOD_HEAPS, and values are XORs of values below it.
#![allow(clippy::arithmetic_side_effects)]

use crate::kernel::budget::{Budget, Exhausted};

/// The most heap values one claim may need (`2 n0 + 2 p + t`): about 4 MB
/// of values; the time (quadratic at worst) is bounded by the budget.
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
///
/// The rare/common split makes it fast without changing any value: a value
/// v is rare when `v & mask` has an even number of bits. A common value is
/// never the XOR of two common ones, so every two-heap option of common
/// value has a rare heap, and the few rare heaps list them all. The rare
/// values of two common heaps are found by scanning the splits only as far
/// as the mex needs. Any mask gives the same values (mask 0, every value
/// rare, is the plain computation); the kernel picks the mask that makes
/// the fewest of the last values rare, every time the heap doubles.
fn values(digits: &[u8], count: usize, budget: &mut Budget) -> Result<Vec<u32>, Exhausted> {
    budget.hold(count)?;
    let mut g: Vec<u32> = Vec::with_capacity(count);
    // seen[v] == n + 1: some option of heap n has value v.
    let mut seen: Vec<usize> = vec![0; 64];
    let (mut mask, mut rare_heaps) = (0u32, Vec::new());
    let rare = |v: u32, mask: u32| (v & mask).count_ones().is_multiple_of(2);
    let split_digits: Vec<usize> = (0..digits.len()).filter(|&k| digits[k] & 4 != 0).collect();
    for n in 0..count {
        if n >= 1024 && n.is_power_of_two() {
            mask = least_rare_mask(&g[n - 1024..]);
            rare_heaps = (1..n).filter(|&a| rare(g[a], mask)).collect();
        }
        let mark = n + 1;
        let see = |seen: &mut Vec<usize>, v: u32| {
            let v = v as usize;
            if v >= seen.len() {
                seen.resize((v + 1).next_power_of_two(), 0);
            }
            seen[v] = mark;
        };
        for (k, &d) in digits.iter().enumerate() {
            let Some(rest) = n.checked_sub(k) else {
                break;
            };
            if d & 1 != 0 && rest == 0 {
                see(&mut seen, 0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                see(&mut seen, g[rest]);
            }
            if d & 4 != 0 {
                // Every split with a rare heap.
                budget.charge(rare_heaps.len())?;
                for &a in rare_heaps.iter().take_while(|&&a| a < rest) {
                    see(&mut seen, g[a] ^ g[rest - a]);
                }
            }
        }
        // The mex: a common value not seen is not an option; a rare one
        // may be the XOR of two common heaps, so the splits are scanned
        // (from where the last scan stopped) until it is seen or every
        // split has been.
        let (mut v, mut scanned) = (0usize, 0usize);
        let widest = n.saturating_sub(split_digits.first().copied().unwrap_or(n)) / 2;
        loop {
            if seen.get(v).is_some_and(|&s| s == mark) {
                v += 1;
                continue;
            }
            if !rare(v as u32, mask) || scanned >= widest {
                break;
            }
            scanned += 1;
            for &k in &split_digits {
                let rest = n - k.min(n);
                if scanned <= rest / 2 {
                    see(&mut seen, g[scanned] ^ g[rest - scanned]);
                }
            }
            budget.tick()?;
        }
        g.push(v as u32);
        if n > 0 && rare(v as u32, mask) {
            rare_heaps.push(n);
        }
    }
    Ok(g)
}

/// The mask under which the fewest of `recent` are rare (an even number of
/// bits of `value & mask`), among masks below twice the largest value.
fn least_rare_mask(recent: &[u32]) -> u32 {
    let top = recent.iter().copied().max().unwrap_or(0).max(1);
    let limit = top
        .checked_next_power_of_two()
        .unwrap_or(1 << 16)
        .min(1 << 12);
    (1..limit.max(2))
        .min_by_key(|&m| {
            recent
                .iter()
                .filter(|&&v| (v & m).count_ones().is_multiple_of(2))
                .count()
        })
        .unwrap_or(0)
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

#[cfg(test)]
#[allow(clippy::expect_used, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// The values by the plain mex rule, every split listed.
    fn plain(digits: &[u8], count: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for n in 0..count {
            let mut options = std::collections::BTreeSet::new();
            for (k, &d) in digits.iter().enumerate().take(n + 1) {
                let rest = n - k;
                if d & 1 != 0 && rest == 0 {
                    options.insert(0);
                }
                if d & 2 != 0 && rest > 0 && k > 0 {
                    options.insert(g[rest]);
                }
                if d & 4 != 0 {
                    options.extend((1..rest).map(|a| g[a] ^ g[rest - a]));
                }
            }
            g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
        }
        g
    }

    /// The rare/common computation gives the plain values, past several
    /// changes of the mask, on games with and without rare values.
    #[test]
    fn rare_common_values_are_the_plain_ones() {
        let games: [&[u8]; 8] = [
            &[0, 1, 5, 6],
            &[0, 5, 6],
            &[0, 1, 2, 7],
            &[0, 7, 7],
            &[0, 0, 7],
            &[4, 3],
            &[0, 3, 5, 6],
            &[0, 6, 4, 4],
        ];
        for digits in games {
            let budget = &mut Budget::new(None, Some(std::time::Duration::from_secs(60)), 1 << 20);
            let fast = values(digits, 5000, budget).expect("within a minute");
            assert_eq!(fast, plain(digits, 5000), "{digits:?}");
        }
    }
}
