//! Heap games: Nim heaps and octal games.
//!
//! An octal code `d0.d1d2d3...` allows, for each k with digit d_k, removing k
//! tokens from one heap and leaving no heap (d_k has bit 1, only when the heap
//! had exactly k tokens), one nonempty heap (bit 2) or two nonempty heaps
//! (bit 4). Kayles is 0.77 and Dawson's Kayles 0.07. A Nim heap may be reduced
//! to any smaller size.
//!
//! Key decision: the normal-play values of one ruleset's heaps are computed
//! bottom-up in a table (size 0, 1, 2, ...), so a large heap never causes deep
//! recursion; only the sizes actually needed are computed.

use crate::kernel::budget::{Budget, Exhausted};

/// The largest heap size the kernel accepts (values take quadratic time in it).
pub const MAX_HEAP: u32 = 4096;

/// How a heap may be changed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapRules {
    /// Nim: any smaller size.
    Nim,
    /// An octal game; `digits[k]` is the digit for removing k tokens.
    Octal(Vec<u8>),
}

impl HeapRules {
    /// An octal code from its digits, or `None` when a digit exceeds 7 or d0
    /// allows a move that removes nothing and leaves the heap as it was
    /// (d0 may only be 0 or 4: splitting without removing).
    pub fn octal(digits: Vec<u8>) -> Option<HeapRules> {
        let d0 = digits.first().copied().unwrap_or(0);
        let valid = digits.iter().all(|&d| d <= 7) && (d0 == 0 || d0 == 4);
        valid.then_some(HeapRules::Octal(digits))
    }

    /// Calls `f(a, b)` for each option of a heap of size `n`: the heaps left
    /// (0 = none). Options that differ only in order are listed once.
    pub fn for_each_option<E>(
        &self,
        n: u32,
        f: &mut impl FnMut(u32, u32) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            HeapRules::Nim => {
                for m in 0..n {
                    f(m, 0)?;
                }
            }
            HeapRules::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate() {
                    let k = k as u32;
                    let Some(rest) = n.checked_sub(k) else {
                        break;
                    };
                    if d & 1 != 0 && rest == 0 {
                        f(0, 0)?;
                    }
                    if d & 2 != 0 && rest > 0 && k > 0 {
                        f(rest, 0)?;
                    }
                    if d & 4 != 0 {
                        // a <= rest / 2, so rest - a does not wrap.
                        for a in 1..=rest / 2 {
                            f(a, rest.saturating_sub(a))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Normal-play values of one heap ruleset, filled in bottom-up.
#[derive(Debug, Default)]
pub struct HeapValues {
    values: Vec<u32>,
}

impl HeapValues {
    /// The normal-play Grundy value of a heap of size `n` (mex of its options,
    /// each option's value the XOR of the heaps it leaves).
    pub fn value(
        &mut self,
        rules: &HeapRules,
        n: u32,
        budget: &mut Budget,
    ) -> Result<u32, Exhausted> {
        while self.values.len() <= n as usize {
            let size = self.values.len() as u32;
            budget.expand(0)?;
            let mut seen = Vec::new();
            let values = &self.values;
            rules.for_each_option(size, &mut |a, b| {
                seen.push(values[a as usize] ^ values[b as usize]);
                budget.tick()
            })?;
            self.values.push(super::mex(&seen));
        }
        Ok(self.values[n as usize])
    }
}
