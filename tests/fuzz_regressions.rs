//! Replays every input the fuzzers found (`fuzz/regressions/<target>/`)
//! through the code path of its target (`fuzz_paths`, shared with the fuzz
//! targets), so a fixed crash or hang stays fixed without libFuzzer.
//!
//! Key decision: each file runs in a child process (this test binary again,
//! told which file by environment variables). A panic is caught there like
//! any other, but a stack overflow, an abort on allocation failure or a hang
//! cannot be caught inside a process; from outside they are an exit status
//! or a deadline. Files of `parse` and `elaborate` are raw bytes; files of
//! `check_claim` are the certificate text the generator rendered (its
//! structured input needs the fuzz crate, its text does not).

mod fuzz_paths;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The targets and their regression folders, relative to the crate root.
const TARGETS: [&str; 3] = ["parse", "elaborate", "check_claim"];

/// The fuzzer's own `-timeout=10`. It is generous: under the target's
/// budget a file needs well under a second, and this release build runs
/// faster than the instrumented one the fuzzer timed.
const DEADLINE: Duration = Duration::from_secs(10);

const TARGET_VAR: &str = "GAMECERT_FUZZ_REPLAY_TARGET";
const FILE_VAR: &str = "GAMECERT_FUZZ_REPLAY_FILE";

fn regression_files(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_file())
        // Notes beside the inputs (what a finding was) are not inputs.
        .filter(|p| p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.sort();
    files
}

/// Runs one input in this process: the child's side of the replay.
fn replay(target: &str, path: &Path) {
    let bytes = std::fs::read(path).expect("readable regression file");
    match target {
        "parse" => fuzz_paths::parse(&bytes),
        "elaborate" => fuzz_paths::elaborate(&bytes),
        "check_claim" => {
            // Includes resolve against the working directory; the generator
            // writes none, so any directory inside the crate will do.
            std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("crate root");
            fuzz_paths::check(&String::from_utf8_lossy(&bytes))
        }
        other => panic!("unknown fuzz target {other}"),
    }
}

/// The child process: does nothing unless the parent named a file.
#[test]
fn replay_one_file() {
    let (Ok(target), Ok(file)) = (std::env::var(TARGET_VAR), std::env::var(FILE_VAR)) else {
        return;
    };
    replay(&target, Path::new(&file));
}

/// What went wrong with one file, or `None`.
fn run_child(target: &str, path: &Path) -> Option<String> {
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "replay_one_file",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(TARGET_VAR, target)
        .env(FILE_VAR, path)
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("test binary runs");
    // The child's standard error is read on a thread so that a child writing
    // a long backtrace never blocks on a full pipe while we wait.
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("child status") {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = reader.join().unwrap_or_default();
    match status {
        None => Some(format!("still running after {DEADLINE:?}")),
        Some(s) if s.success() => None,
        Some(s) => Some(format!("{s}\n{stderr}")),
    }
}

#[test]
fn every_regression_file_replays_without_panic_or_hang() {
    let mut failures = Vec::new();
    let mut replayed = 0;
    for target in TARGETS {
        for path in regression_files(target) {
            replayed += 1;
            let started = Instant::now();
            let failure = run_child(target, &path);
            println!(
                "{target}: {} in {:.2?}{}",
                path.display(),
                started.elapsed(),
                if failure.is_some() { ": FAILED" } else { "" }
            );
            if let Some(why) = failure {
                // The note beside the file says what the finding was.
                let note = path.with_extension("md");
                let see = if note.is_file() {
                    format!(" (see {})", note.display())
                } else {
                    String::new()
                };
                failures.push(format!("{target}: {}{see}: {why}", path.display()));
            }
        }
    }
    println!("{replayed} regression files replayed");
    assert!(
        failures.is_empty(),
        "{} of {replayed} regression files fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
