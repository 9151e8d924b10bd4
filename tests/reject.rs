//! The rejection corpus: every file in tests/reject/ carries one defect and
//! its first line says the verdict and exit code it must get
//! (`# expect: REFUTED exit 1` when the claim is false, `REJECTED exit 1`
//! when its certificate does not establish it, `ERROR exit 2` for malformed
//! input; optionally `errors N`, and `supporting ID,ID` naming correct
//! claims a defective derived claim cites, which are the only claims allowed
//! to verify; `budget B` checks the file with `--budget B`, `max-memory M`
//! with `--max-memory M`). A few files
//! record a defect of the checker itself, a crash on a correct certificate
//! or a search past its budget, and expect `VERIFIED exit 0`. The reports are snapshotted, so a
//! change of wording or witness shows up in review.

mod common;

use std::process::Command;

struct Expectation {
    verdict: String,
    exit: i32,
    errors: Option<usize>,
    supporting: Vec<String>,
    /// `budget B`: checked with `--budget B` (the files about budgets).
    budget: Option<String>,
    /// `max-memory M`: checked with `--max-memory M` (files about the cap).
    max_memory: Option<String>,
}

fn expectation(text: &str) -> Expectation {
    let first = text.lines().next().unwrap_or_default();
    let words: Vec<&str> = first.split_whitespace().collect();
    assert!(
        words.len() >= 5 && words[1] == "expect:",
        "first line must be `# expect: VERDICT exit N`: {first}"
    );
    Expectation {
        verdict: words[2].to_string(),
        exit: words[4].parse().expect("exit code"),
        errors: words
            .iter()
            .position(|w| *w == "errors")
            .map(|i| words[i + 1].parse().expect("error count")),
        supporting: words
            .iter()
            .position(|w| *w == "supporting")
            .map(|i| words[i + 1].split(',').map(str::to_string).collect())
            .unwrap_or_default(),
        budget: words
            .iter()
            .position(|w| *w == "budget")
            .map(|i| words[i + 1].to_string()),
        max_memory: words
            .iter()
            .position(|w| *w == "max-memory")
            .map(|i| words[i + 1].to_string()),
    }
}

#[test]
fn every_reject_file_gets_its_expected_verdict_and_exit_code() {
    let files = common::cert_files("tests/reject");
    assert!(files.len() >= 25, "the corpus shrank");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let expect = expectation(&text);
        let relative = file
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("inside the crate")
            .to_path_buf();
        let run = |format: &str| {
            Command::new(env!("CARGO_BIN_EXE_gamecert"))
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .args(["check", "--format", format])
                .args(
                    expect
                        .budget
                        .iter()
                        .flat_map(|b| ["--budget".to_string(), b.clone()]),
                )
                .args(
                    expect
                        .max_memory
                        .iter()
                        .flat_map(|m| ["--max-memory".to_string(), m.clone()]),
                )
                .arg(&relative)
                .output()
                .expect("binary runs")
        };
        let human = run("human");
        let json = run("json");
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("unnamed")
            .to_string();
        assert_eq!(
            human.status.code(),
            Some(expect.exit),
            "{name}: exit code\n{}",
            String::from_utf8_lossy(&human.stdout)
        );
        assert_eq!(
            json.status.code(),
            Some(expect.exit),
            "{name}: exit code (json)"
        );
        let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
        let verdicts: Vec<&str> = report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f["claims"].as_array().into_iter().flatten())
            .filter(|c| {
                let id = c["id"].as_str().unwrap_or_default();
                !expect.supporting.iter().any(|s| s == id)
            })
            .filter_map(|c| c["verdict"].as_str())
            .collect();
        let file_errors = report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| f["errors"].as_array().map_or(0, Vec::len))
            .sum::<usize>();
        match expect.verdict.as_str() {
            "ERROR" => assert!(
                file_errors > 0 || verdicts.contains(&"ERROR"),
                "{name}: expected an error"
            ),
            v => assert!(
                verdicts.contains(&v),
                "{name}: expected {v}, got {verdicts:?}"
            ),
        }
        // A file expecting VERIFIED records a defect of the checker (a crash
        // on a correct certificate), not of the file; an ERROR file may
        // hold claims that verify beside its file-level error.
        assert!(
            !verdicts.contains(&"VERIFIED")
                || matches!(expect.verdict.as_str(), "ERROR" | "VERIFIED"),
            "{name}: a defective claim was verified"
        );
        if let Some(n) = expect.errors {
            assert_eq!(
                report["summary"]["errors"].as_u64(),
                Some(n as u64),
                "{name}: error count"
            );
        }
        let stderr = String::from_utf8_lossy(&human.stderr);
        if expect.exit == 2 {
            assert!(
                stderr.contains("gamecert::"),
                "{name}: a diagnostic with a code is printed"
            );
        }
        insta::assert_snapshot!(
            format!("reject-{name}"),
            format!(
                "{}\n--- stderr ---\n{}",
                String::from_utf8_lossy(&human.stdout),
                stderr
            )
        );
    }
}

/// No prefix of any shipped or corpus file makes the parser or elaborator
/// panic, and every prefix that is not the whole file gets a verdict or error.
#[test]
fn truncated_files_never_panic() {
    let mut files = common::cert_files("tests/reject");
    for dir in [
        "certificates/cram",
        "certificates/schneider-2006",
        "certificates/thiemann-lanzerath-2022",
    ] {
        files.extend(common::cert_files(dir));
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        // The few large corpus files (limits tests) would make this
        // quadratic, and the files about budgets search for seconds per
        // prefix.
        let about_budgets = text.lines().next().is_some_and(|l| l.contains(" budget "));
        if text.len() > 16_000 || about_budgets {
            continue;
        }
        let mut cut = 0;
        while cut < text.len() {
            if text.is_char_boundary(cut) {
                let parsed = gamecert::syntax::parse_file(&text[..cut]);
                let _ = gamecert::elaborate::claims(&parsed);
            }
            cut += 7;
        }
        // Stray bytes in the middle of a line.
        for (i, _) in text.char_indices().step_by(11) {
            let mut broken = text.clone();
            broken.insert_str(i, "{#\"=(x");
            let parsed = gamecert::syntax::parse_file(&broken);
            let _ = gamecert::elaborate::claims(&parsed);
        }
    }
}
