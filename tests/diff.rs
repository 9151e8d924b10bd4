//! `gamecert diff` on a copy of a real certificate tree edited five ways:
//! a claimed value changed, a claim removed, a claim added, an option
//! removed, a claim renamed. The diff reports exactly those changes (and
//! nothing for layout and comments), in human and JSON form; with `--check`
//! it reports the verdicts that changed and exits 1; between two git
//! revisions it reports the same.

use std::path::Path;
use std::process::Command;

mod common;

use common::{gamecert_in as gamecert, shipped};

fn scratch(name: &str) -> common::Scratch {
    common::scratch("diff", name)
}

/// The two versions: `old/` as shipped, `new/` edited.
fn versions(dir: &Path) {
    let triangle = shipped("certificates/norris-sieben-2014/triangle.cert");
    let values = shipped("certificates/cgt/values.cert");
    for (sub, t, v) in [
        ("old", triangle.clone(), values.clone()),
        ("new", triangle, values),
    ] {
        std::fs::create_dir_all(dir.join(sub)).expect("version directory");
        let (t, v) = if sub == "new" {
            let t = t
                .replace("claim t11-trivial: winner T1_1 on T (1,5) by trivial\n", "")
                .replacen(
                    "    option (0,0) -> goal at 0 (0,0)\n  start s1",
                    "  start s1",
                    1,
                )
                // Layout and comments are not changes.
                .replace(
                    "claim t31-26: loser",
                    "# a new comment\nclaim   t31-26:  loser",
                );
            let v = v
                .replace("\"lrlrrllr\" = 77/128", "\"lrlrrllr\" = 3/4")
                .replace("claim tree-l-l-rl:", "claim tree-renamed:")
                + "claim new-one: grundy nim [1] = 1 by search\n";
            (t, v)
        } else {
            (t, v)
        };
        std::fs::write(dir.join(sub).join("triangle.cert"), t).expect("triangle");
        std::fs::write(dir.join(sub).join("values.cert"), v).expect("values");
    }
}

/// The changes of a JSON diff as `file kind id [new id]` lines, sorted.
fn changes(json: &[u8]) -> Vec<String> {
    let diff: serde_json::Value = serde_json::from_slice(json).expect("JSON diff");
    let mut out: Vec<String> = diff["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| {
            let path = f["path"].as_str().unwrap_or_default().to_string();
            f["changes"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |c| {
                    let mut line = format!(
                        "{path} {} {}",
                        c["kind"].as_str().unwrap_or(""),
                        c["id"].as_str().unwrap_or("")
                    );
                    if let Some(n) = c["new_id"].as_str() {
                        line.push_str(&format!(" {n}"));
                    }
                    if let Some(v) = c["new_verdict"].as_str() {
                        line.push_str(&format!(" {} {v}", c["old_verdict"].as_str().unwrap_or("")));
                    }
                    line
                })
        })
        .collect();
    out.sort();
    out
}

const EDITS: [&str; 5] = [
    "triangle.cert evidence_changed t21-12",
    "triangle.cert removed t11-trivial",
    "values.cert added new-one",
    "values.cert renamed tree-l-l-rl tree-renamed",
    "values.cert statement_changed stalk-lrlrrllr",
];

#[test]
fn diff_reports_exactly_the_edits() {
    let dir = scratch("edits");
    versions(&dir);
    let json = gamecert(&dir, &["diff", "--format", "json", "old", "new"]);
    assert_eq!(
        json.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    assert_eq!(changes(&json.stdout), EDITS);
    let human = gamecert(&dir, &["diff", "old", "new"]);
    let text = String::from_utf8_lossy(&human.stdout);
    for line in [
        "  ~ t21-12 evidence: 0 added, 1 removed",
        "      - situation s1 / option (0,0) -> goal at 0 (0,0)",
        "  - t11-trivial: winner T1_1 on T (1,5)",
        "  ~ tree-l-l-rl renamed to tree-renamed",
        "  + new-one: grundy nim [1] = 1",
        "5 changes in 2 files; 0 verdicts got worse",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // With --check: the verdicts that changed, and exit 1 because verified
    // claims no longer are (the value is false; the proof sequence lost an
    // option, and two claims rest on it; a threshold cites the removed
    // claim).
    let checked = gamecert(&dir, &["diff", "--check", "--format", "json", "old", "new"]);
    assert_eq!(checked.status.code(), Some(1));
    let mut expected: Vec<String> = EDITS.iter().map(|s| s.to_string()).collect();
    expected.extend([
        "triangle.cert verdict_changed t11-threshold VERIFIED ERROR".to_string(),
        "triangle.cert verdict_changed t21-11 VERIFIED REJECTED".to_string(),
        "triangle.cert verdict_changed t21-12 VERIFIED REJECTED".to_string(),
        "triangle.cert verdict_changed t21-threshold VERIFIED REJECTED".to_string(),
        "values.cert verdict_changed stalk-lrlrrllr VERIFIED REFUTED".to_string(),
    ]);
    expected.sort();
    assert_eq!(changes(&checked.stdout), expected);
}

#[test]
fn diff_compares_git_revisions() {
    let dir = scratch("git");
    versions(&dir);
    let run = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&dir)
            .args(["-c", "user.name=test", "-c", "user.email=test@example.org"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["init", "-q"]);
    std::fs::create_dir_all(dir.join("tree")).expect("tree");
    for name in ["triangle.cert", "values.cert"] {
        std::fs::copy(dir.join("old").join(name), dir.join("tree").join(name)).expect("copy");
    }
    run(&["add", "tree"]);
    run(&["commit", "-q", "-m", "old"]);
    for name in ["triangle.cert", "values.cert"] {
        std::fs::copy(dir.join("new").join(name), dir.join("tree").join(name)).expect("copy");
    }
    run(&["commit", "-q", "-a", "-m", "new"]);
    let json = gamecert(
        &dir,
        &["diff", "--format", "json", "--git", "HEAD~1..HEAD", "tree"],
    );
    assert_eq!(
        json.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    assert_eq!(changes(&json.stdout), EDITS);
}
