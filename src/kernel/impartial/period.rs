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
/// The rare/common split makes it fast without changing any value. A heap
/// a has the *key* 2 G(a) + (a mod 2), and the two heaps a, c left by
/// removing k from n have keys whose XOR is 2 (G(a) XOR G(c)) + ((n - k)
/// mod 2): the key of the option for n, flipped in its last bit when k is
/// odd. The splits of each parity d of k keep a set of common keys in
/// which no XOR of two members, flipped by d, is a member, so a value
/// whose key for n is common is never reached by such a split into two
/// heaps with common keys: every such option has a heap with a rare key,
/// and the few rare heaps list them all. The values a common-common split
/// can reach are found by scanning the splits only as far as the mex
/// needs. Any such sets give the same values (the empty one, every key
/// rare, is the plain computation); the kernel builds them from the keys
/// of the heaps so far every time the heap doubles ([`CommonKeys::best`]).
fn values(digits: &[u8], count: usize, budget: &mut Budget) -> Result<Vec<u32>, Exhausted> {
    budget.hold(count)?;
    let mut g: Vec<u32> = Vec::with_capacity(count);
    // seen[v] == n + 1: some option of heap n has value v.
    let mut seen: Vec<usize> = vec![0; 64];
    let split_digits: Vec<usize> = (0..digits.len()).filter(|&k| digits[k] & 4 != 0).collect();
    let mut classes = [0, 1].map(|parity| SplitClass {
        parity,
        fewest: split_digits
            .iter()
            .copied()
            .find(|&k| k as u64 % 2 == parity),
        common: CommonKeys::default(),
        rare_heaps: Vec::new(),
    });
    for n in 0..count {
        if n >= 64 && n.is_power_of_two() {
            // A class without a split digit is never consulted.
            for class in classes.iter_mut().filter(|c| c.fewest.is_some()) {
                class.rebuild(&g);
            }
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
                let rare_heaps = &classes[k % 2].rare_heaps;
                budget.charge(rare_heaps.len())?;
                for &a in rare_heaps.iter().take_while(|&&a| a < rest) {
                    see(&mut seen, g[a] ^ g[rest - a]);
                }
            }
        }
        // The mex: a value not seen whose key is common for the class of
        // every split is not an option; otherwise a common-common split may
        // reach it, so the splits are scanned (from where the last scan
        // stopped) until it is seen or every split has been.
        let reachable = |v: u32| {
            classes
                .iter()
                // A split of k needs n >= k + 2.
                .any(|c| c.fewest.is_some_and(|k| k + 2 <= n) && !c.common.holds(key(n, v)))
        };
        let (mut v, mut scanned) = (0usize, 0usize);
        let widest = n.saturating_sub(split_digits.first().copied().unwrap_or(n)) / 2;
        loop {
            if seen.get(v).is_some_and(|&s| s == mark) {
                v += 1;
                continue;
            }
            if scanned >= widest || !reachable(v as u32) {
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
        let value = v as u32;
        g.push(value);
        for class in classes.iter_mut().filter(|c| c.fewest.is_some()) {
            if n > 0 && !class.common.holds(key(n, value)) {
                class.rare_heaps.push(n);
            }
        }
    }
    Ok(g)
}

/// The key of heap `a` of value `value`: 2 value + (a mod 2).
fn key(a: usize, value: u32) -> u64 {
    (u64::from(value) << 1) | (a as u64 & 1)
}

/// The splits that remove a number of tokens of one parity, with their
/// common keys and the heaps whose keys are rare for them.
struct SplitClass {
    /// The parity d of the tokens removed.
    parity: u64,
    /// The fewest tokens such a split removes, if any does.
    fewest: Option<usize>,
    common: CommonKeys,
    /// The heaps (from 1) whose keys are not common, in order.
    rare_heaps: Vec<usize>,
}

impl SplitClass {
    /// A new common set from the heaps of `g`, and their rare list.
    fn rebuild(&mut self, g: &[u32]) {
        self.common = CommonKeys::best(g, self.parity);
        self.rare_heaps = (1..g.len())
            .filter(|&a| !self.common.holds(key(a, g[a])))
            .collect();
    }
}

/// A set C of heap keys (2 G(a) + a mod 2) such that for members x, y
/// (the same one twice included), x XOR y XOR d is not a member, d the
/// parity of the class it serves: the common keys.
enum CommonKeys {
    /// The keys 2 v + p with an odd number of bits in v & mask (x XOR y
    /// XOR d has an even number, whatever d is).
    Mask(u32),
    /// The members, listed (their property checked when built).
    Listed(Vec<bool>),
}

impl Default for CommonKeys {
    /// No common key: every heap is rare.
    fn default() -> Self {
        CommonKeys::Mask(0)
    }
}

impl CommonKeys {
    /// Of the masks and a set taken greedily from the most frequent keys,
    /// the one that leaves the fewest heaps of `g` with rare keys, for the
    /// class of parity `parity`.
    fn best(g: &[u32], parity: u64) -> CommonKeys {
        let mut counts: Vec<usize> = Vec::new();
        for (a, &value) in g.iter().enumerate().skip(1) {
            let k = key(a, value) as usize;
            if k >= counts.len() {
                counts.resize(k + 1, 0);
            }
            counts[k] += 1;
        }
        let rare_count = |set: &CommonKeys| {
            (0..counts.len())
                .filter(|&k| !set.holds(k as u64))
                .map(|k| counts[k])
                .sum::<usize>()
        };
        let top = (counts.len() / 2).max(1);
        let limit = top.next_power_of_two().min(1 << 12) as u32;
        let masks = (1..limit.max(2)).map(CommonKeys::Mask);
        std::iter::once(CommonKeys::greedy(&counts, parity as usize))
            .chain(masks)
            .min_by_key(|set| rare_count(set))
            .unwrap_or_default()
    }

    /// The keys in order of `counts`, most frequent first, each taken when
    /// it keeps the property for parity `d`; the set is checked again at
    /// the end (none is common if it fails).
    fn greedy(counts: &[usize], d: usize) -> CommonKeys {
        let mut order: Vec<usize> = (0..counts.len()).filter(|&k| counts[k] > 0).collect();
        order.sort_by_key(|&k| (std::cmp::Reverse(counts[k]), k));
        // Key XORs (flipped by d <= 1) stay below `size`.
        let size = counts.len().next_power_of_two().max(2);
        let mut member = vec![false; size];
        // x XOR y XOR d for every two chosen keys x, y.
        let mut sums = vec![false; size];
        sums[d] = true;
        let mut chosen: Vec<usize> = Vec::new();
        for k in order {
            let keeps = !sums[k] && chosen.iter().all(|&c| !member[c ^ k ^ d]);
            if keeps {
                member[k] = true;
                for &c in &chosen {
                    sums[c ^ k ^ d] = true;
                }
                chosen.push(k);
            }
        }
        let closed = chosen
            .iter()
            .all(|&c| chosen.iter().all(|&e| !member[c ^ e ^ d]));
        if closed {
            CommonKeys::Listed(member)
        } else {
            CommonKeys::default()
        }
    }

    fn holds(&self, key: u64) -> bool {
        match self {
            CommonKeys::Mask(mask) => ((key >> 1) & u64::from(*mask)).count_ones() % 2 == 1,
            CommonKeys::Listed(member) => usize::try_from(key)
                .ok()
                .and_then(|k| member.get(k))
                .copied()
                .unwrap_or(false),
        }
    }
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
#[allow(clippy::expect_used, clippy::panic, clippy::arithmetic_side_effects)]
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

    /// A greedy common set never holds the XOR of two of its keys flipped
    /// by the class's parity, whatever the frequencies.
    #[test]
    fn greedy_common_keys_have_their_property() {
        let mut state = 12345u64;
        for round in 0..400 {
            let d = round % 2;
            let counts: Vec<usize> = (0..64)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 59) as usize
                })
                .collect();
            let CommonKeys::Listed(member) = CommonKeys::greedy(&counts, d) else {
                panic!("the greedy set failed its own check");
            };
            let keys: Vec<usize> = (0..member.len()).filter(|&k| member[k]).collect();
            assert!(!keys.is_empty());
            for &a in &keys {
                for &b in &keys {
                    assert!(!member[a ^ b ^ d], "{a} ^ {b} ^ {d} is common too");
                }
            }
        }
    }

    /// The rare/common computation gives the plain values, past several
    /// changes of the common set, on games with and without rare values.
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
