//! Running independent pieces of untrusted work (elaborator and producer
//! searches) on a few threads, with answers in input order.
//!
//! Key decision: workers take the next item by an atomic counter, so a
//! long item never holds up the short ones behind it, and each answer goes
//! back to its item's slot: the result never depends on the scheduling. A
//! worker that panics leaves its items without an answer (`None`) instead
//! of ending the run.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The stack of a thread that searches: the searches recurse once per
/// move, and a large stack keeps the deepest boards (64 cells) far from
/// the limit.
pub const STACK_BYTES: usize = 256 << 20;

/// The number of threads to use when the caller gives none: one per core.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `work` applied to every item on at most `threads` threads, answers in
/// the order of `items` (`None` for an item whose worker panicked).
pub fn map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let mut answers: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let threads = threads.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let spawned: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = items.get(i) else {
                                return mine;
                            };
                            mine.push((i, work(item)));
                        }
                    })
            })
            .collect();
        for handle in spawned.into_iter().flatten() {
            for (i, answer) in handle.join().unwrap_or_default() {
                answers[i] = Some(answer);
            }
        }
    });
    // Items no worker reached (no thread could start) are done here.
    for (i, item) in items.iter().enumerate() {
        if answers[i].is_none() && next.load(Ordering::Relaxed) <= i {
            answers[i] = Some(work(item));
        }
    }
    answers
}
