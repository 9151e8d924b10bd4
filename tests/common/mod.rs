//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod naive;
pub mod naive_cgt;
pub mod naive_game;
pub mod rng;

use gamecert::driver::{CheckOptions, Limits, Outcome, check_paths, check_source};
use gamecert::kernel::budget::DEFAULT_MAX_ENTRIES;
use std::path::PathBuf;

/// Options for tests: two workers, a generous budget.
pub fn options() -> CheckOptions {
    CheckOptions {
        jobs: 2,
        limits: Limits {
            max_nodes: None,
            time: Some(std::time::Duration::from_secs(600)),
            max_entries: DEFAULT_MAX_ENTRIES,
        },
        timings: false,
        only: None,
    }
}

/// Checks paths relative to the crate root.
pub fn check(paths: &[&str]) -> Outcome {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("crate root");
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    check_paths(&paths, &options()).expect("paths exist")
}

/// Checks one claim of a source text.
pub fn check_claim(display: &str, text: &str, id: &str) -> Outcome {
    let mut o = options();
    o.only = Some(id.to_string());
    check_source(display, text, &o)
}

/// Every `*.cert` file directly in `dir` (relative to the crate root), sorted.
pub fn cert_files(dir: &str) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("directory exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cert"))
        .collect();
    files.sort();
    files
}

/// The elaborated claims of a shipped certificate file (path relative to
/// the crate root).
pub fn shipped_claims(relative: &str) -> Vec<gamecert::elaborate::ElaboratedClaim> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let text = std::fs::read_to_string(&path).expect("shipped certificate");
    gamecert::elaborate::claims(&gamecert::syntax::parse_file(&text))
}

/// `work` on every item, one thread per core (the items must be
/// independent), its answers in the order of `items`. The test fails if
/// any item fails; each failure's panic message is printed as it happens.
pub fn on_every_core<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let done = gamecert::parallel::map(items, gamecert::parallel::cores(), work);
    let failed = done.iter().filter(|d| d.is_none()).count();
    assert_eq!(
        failed,
        0,
        "{failed} of {} items failed or were lost with a failing worker",
        items.len()
    );
    done.into_iter().flatten().collect()
}

/// A fresh empty directory under the temporary directory, named for the
/// test and the process; it is removed when the value is dropped, also
/// when the test fails.
pub fn scratch(test: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!(
        "gamecert-{test}-test-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    Scratch(dir)
}

/// A test's scratch directory, removed with everything in it on drop.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the `gamecert` binary in `dir`.
pub fn gamecert_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

/// A shipped file's text, by its path from the crate root.
pub fn shipped(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("shipped")
}

/// Every connected set of `size` cells holding one of `starts`, grown
/// cell by cell through `neighbours` (sorted sets, in order).
pub fn connected_sets<N>(
    starts: &[u32],
    size: usize,
    neighbours: impl Fn(u32) -> N,
) -> std::collections::BTreeSet<Vec<u32>>
where
    N: IntoIterator<Item = u32>,
{
    let mut level: std::collections::BTreeSet<Vec<u32>> = starts.iter().map(|&t| vec![t]).collect();
    for _ in 1..size {
        let mut next = std::collections::BTreeSet::new();
        for set in &level {
            for &t in set {
                for u in neighbours(t) {
                    if !set.contains(&u) {
                        let mut grown = set.clone();
                        grown.push(u);
                        grown.sort_unstable();
                        next.insert(grown);
                    }
                }
            }
        }
        level = next;
    }
    level
}
