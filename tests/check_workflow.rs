//! The CI side of `gamecert check`: the verdict cache (a changed claim is
//! never skipped, a cited claim is checked again for a claim that cites
//! it), the baseline (only claims that got worse fail), JUnit output
//! (validated against the rules of the JUnit schema CI tools read) and an
//! interrupted run (the decided claims and a summary are still printed).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde_json::Value;

mod common;

use common::{gamecert_in as gamecert, shipped};

fn scratch(name: &str) -> common::Scratch {
    common::scratch("workflow", name)
}

/// Each claim of a JSON report as (id, verdict, cached).
fn claims(output: &Output) -> Vec<(String, String, bool)> {
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["claims"].as_array().expect("claims").iter())
        .map(|c| {
            (
                c["id"].as_str().expect("id").to_string(),
                c["verdict"].as_str().expect("verdict").to_string(),
                c["cached"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

fn verdict_of<'a>(claims: &'a [(String, String, bool)], id: &str) -> &'a (String, String, bool) {
    claims
        .iter()
        .find(|c| c.0 == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

#[test]
fn the_cache_skips_only_what_was_verified_before() {
    let dir = scratch("cache");
    let triangle = shipped("certificates/norris-sieben-2014/triangle.cert");
    let values = shipped("certificates/cgt/values.cert");
    std::fs::write(dir.join("triangle.cert"), &triangle).expect("write");
    std::fs::write(dir.join("values.cert"), &values).expect("write");
    let run = || {
        gamecert(
            &dir,
            &["check", "--cache", "cache", "--format", "json", "."],
        )
    };

    let first = run();
    assert_eq!(first.status.code(), Some(0));
    let all = claims(&first);
    assert!(all.len() > 40);
    assert!(
        all.iter().all(|c| c.1 == "VERIFIED" && !c.2),
        "nothing cached yet"
    );

    let second = run();
    assert_eq!(second.status.code(), Some(0));
    assert!(claims(&second).iter().all(|c| c.1 == "VERIFIED" && c.2));

    // A claimed value made false: its fingerprint changes, so it is checked
    // and refuted; everything else still comes from the cache.
    let edited = values.replace("\"lrlrrllr\" = 77/128", "\"lrlrrllr\" = 3/4");
    assert_ne!(edited, values);
    std::fs::write(dir.join("values.cert"), &edited).expect("write");
    let third = run();
    assert_eq!(third.status.code(), Some(1));
    let now = claims(&third);
    let refuted: Vec<_> = now.iter().filter(|c| c.1 != "VERIFIED").collect();
    assert_eq!(refuted.len(), 1, "{refuted:?}");
    assert!(!refuted[0].2);
    assert_eq!(now.iter().filter(|c| !c.2).count(), 1);

    // A citing claim changed (a new derived claim): the claims it cites are
    // checked again so that the kernel's ledger holds them, not reported
    // from the cache.
    let citing = triangle.clone()
        + "claim t11-again: winner T1_1 on T (1,5) by monotonicity from t11-trivial\n";
    std::fs::write(dir.join("triangle.cert"), &citing).expect("write");
    let fourth = run();
    let now = claims(&fourth);
    let again = verdict_of(&now, "t11-again");
    assert_eq!((again.1.as_str(), again.2), ("VERIFIED", false));
    let cited = verdict_of(&now, "t11-trivial");
    assert_eq!((cited.1.as_str(), cited.2), ("VERIFIED", false));

    // A cited claim's evidence broken: it and every claim citing it are
    // checked again (their fingerprints include it), and none verifies.
    let broken = triangle.replacen(
        "    option (0,0) -> goal at 0 (0,0)\n  start s1",
        "  start s1",
        1,
    );
    assert_ne!(broken, triangle);
    std::fs::write(dir.join("triangle.cert"), &broken).expect("write");
    std::fs::write(dir.join("values.cert"), &values).expect("write");
    let fifth = run();
    assert_eq!(fifth.status.code(), Some(1));
    let now = claims(&fifth);
    let failed: Vec<_> = now.iter().filter(|c| c.1 != "VERIFIED").collect();
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|c| !c.2),
        "a changed claim came from the cache"
    );

    // A damaged cache entry is a miss, not a verdict.
    for entry in walk(&dir.join("cache")) {
        std::fs::write(&entry, "not a rule!\n").expect("damage");
    }
    let sixth = run();
    assert!(claims(&sixth).iter().all(|c| !c.2));
}

/// An answer file replaced under a new pin is checked again: the claim's
/// fingerprint names the file by its digest, not by its path.
#[test]
fn the_cache_tells_answer_files_apart_by_their_digest() {
    use gamecert::elaborate::load::sha256_hex;
    let dir = scratch("cache-answers");
    let good = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/cram/answers/cram-3x12.gcwa"),
    )
    .expect("read");
    let write = |bytes: &[u8]| {
        std::fs::write(dir.join("a.gcwa"), bytes).expect("write");
        let claim = format!(
            "gamecert 1\nclaim c: grundy cram 3x12 = 1 by answers \"a.gcwa\" sha256 \"{}\"\n",
            sha256_hex(bytes)
        );
        std::fs::write(dir.join("c.cert"), claim).expect("write");
    };
    let run = || {
        claims(&gamecert(
            &dir,
            &["check", "--cache", "cache", "--format", "json", "."],
        ))
    };
    write(&good);
    assert_eq!(
        run(),
        vec![("c".to_string(), "VERIFIED".to_string(), false)]
    );
    assert_eq!(run(), vec![("c".to_string(), "VERIFIED".to_string(), true)]);
    // The last record's last answer changed: same length, new digest.
    let mut bad = good.clone();
    if let Some(last) = bad.last_mut() {
        *last ^= 1;
    }
    write(&bad);
    let now = run();
    assert_eq!(now.len(), 1);
    assert_ne!(now[0].1, "VERIFIED", "{now:?}");
    assert!(!now[0].2, "the changed file's verdict came from the cache");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn reports_do_not_depend_on_the_number_of_workers() {
    let dir = scratch("workers");
    let triangle = shipped("certificates/norris-sieben-2014/triangle.cert");
    std::fs::write(dir.join("triangle.cert"), &triangle).expect("write");
    // Chains of citations, through a rejected claim too, beside
    // independent claims: each citing claim waits for its citations,
    // whatever the scheduling.
    std::fs::write(
        dir.join("chain.cert"),
        "gamecert 1\n\
         board T = triangle\n\
         animal A on T = (0,0) (1,0)\n\
         animal C on T = (0,0)\n\
         claim a: winner C on T (1,5) by trivial\n\
         claim b: winner A on T (1,1) by trivial\n\
         claim c: winner C on T (1,1) by sub-animal from b\n\
         claim d: winner C on T (1,2) by monotonicity from a\n\
         claim e: grundy cram 3x5 = 2 by search\n\
         claim f: winner C on T (1,1) by monotonicity from d\n\
         claim g: winner C on T (1,9) by monotonicity from a\n",
    )
    .expect("write");
    let run = |jobs: &str| {
        let out = gamecert(&dir, &["check", "--jobs", jobs, "--format", "json", "."]);
        (out.status.code(), claims(&out))
    };
    let one = run("1");
    assert_eq!(one.0, Some(1), "the chain file has failing claims");
    let chain: Vec<&str> = one
        .1
        .iter()
        .filter(|c| c.0.len() == 1)
        .map(|c| c.1.as_str())
        .collect();
    assert_eq!(
        chain,
        [
            "VERIFIED", "REJECTED", "REJECTED", "VERIFIED", "REFUTED", "VERIFIED", "REJECTED"
        ],
        "{:?}",
        one.1
    );
    for jobs in ["2", "3", "8"] {
        assert_eq!(run(jobs), one, "--jobs {jobs}");
    }
    let human = |jobs: &str| gamecert(&dir, &["check", "--jobs", jobs, "."]).stdout;
    assert_eq!(
        human("1"),
        human("8"),
        "the human report streams in one order"
    );
}

#[test]
fn a_baseline_fails_only_claims_that_got_worse() {
    let dir = scratch("baseline");
    let values = shipped("certificates/cgt/values.cert");
    std::fs::write(dir.join("values.cert"), &values).expect("write");
    let json = gamecert(&dir, &["check", "--format", "json", "values.cert"]);
    assert_eq!(json.status.code(), Some(0));
    std::fs::write(dir.join("old.json"), &json.stdout).expect("baseline");
    let against = |dir: &Path| gamecert(dir, &["check", "--baseline", "old.json", "values.cert"]);

    // Unchanged: passes.
    assert_eq!(against(&dir).status.code(), Some(0));

    // A verified claim made false: worse, exit 1, named.
    let broken = values.replace("\"lrlrrllr\" = 77/128", "\"lrlrrllr\" = 3/4");
    std::fs::write(dir.join("values.cert"), &broken).expect("write");
    let worse = against(&dir);
    assert_eq!(worse.status.code(), Some(1));
    let text = String::from_utf8_lossy(&worse.stdout);
    assert!(
        text.contains("WORSE") && text.contains("VERIFIED -> REFUTED"),
        "{text}"
    );

    // The failure recorded in a new baseline is known: the run passes,
    // although a plain check still fails.
    let json = gamecert(&dir, &["check", "--format", "json", "values.cert"]);
    assert_eq!(json.status.code(), Some(1));
    std::fs::write(dir.join("old.json"), &json.stdout).expect("baseline");
    assert_eq!(against(&dir).status.code(), Some(0));

    // A new claim must verify: a new false one fails, a new true one passes.
    std::fs::write(
        dir.join("values.cert"),
        broken.clone() + "claim new-false: grundy nim [1] = 0 by search\n",
    )
    .expect("write");
    let new_false = against(&dir);
    assert_eq!(new_false.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&new_false.stdout).contains("new claim -> REFUTED"));
    std::fs::write(
        dir.join("values.cert"),
        broken + "claim new-true: grundy nim [1] = 1 by search\n",
    )
    .expect("write");
    assert_eq!(against(&dir).status.code(), Some(0));

    // A verified claim swallowed by a syntax error, while an old syntax
    // error is fixed (the file's problem count stays the same): worse.
    let tet = "gamecert 1\nboard TET = tetrahedron\nanimal L on TET = (0) (1) (2)\n\
               claim l: loser L on TET (1,1) by pairing {\n  pair (0) (1)\n  pair (2) (3)\n}\n";
    std::fs::write(
        dir.join("values.cert"),
        format!("{tet}claim good: bound TET winners <= 2 by enumeration from l\nclaim bad: bound TET winners <= -1 by enumeration from l\n"),
    )
    .expect("write");
    let json = gamecert(&dir, &["check", "--format", "json", "values.cert"]);
    std::fs::write(dir.join("old.json"), &json.stdout).expect("baseline");
    std::fs::write(
        dir.join("values.cert"),
        format!("{tet}claim good: bound TET winners <= -2 by enumeration from l\nclaim bad: bound TET winners <= 5 by enumeration from l\n"),
    )
    .expect("write");
    let swallowed = against(&dir);
    assert_eq!(swallowed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&swallowed.stdout).contains("good: (no longer read"));

    // A baseline that is not a report is a usage error.
    std::fs::write(dir.join("old.json"), "[1, 2]").expect("write");
    assert_eq!(against(&dir).status.code(), Some(2));
}

/// The JUnit schema's rules that CI readers rely on (the Jenkins JUnit
/// schema, read by GitLab, GitHub test reporters and Azure): the element
/// tree, the attributes each element allows and requires, counts that are
/// non-negative integers and times that are non-negative decimals, and
/// suite counts that agree with their test cases.
struct JunitRules;

impl JunitRules {
    fn allowed(element: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
        // (allowed attributes, required attributes)
        match element {
            "testsuites" => Some((
                &[
                    "name", "tests", "failures", "errors", "skipped", "disabled", "time",
                ],
                &[],
            )),
            "testsuite" => Some((
                &[
                    "name",
                    "tests",
                    "failures",
                    "errors",
                    "skipped",
                    "disabled",
                    "time",
                    "id",
                    "package",
                    "hostname",
                    "timestamp",
                ],
                &["name", "tests"],
            )),
            "testcase" => Some((
                &["name", "classname", "time", "assertions", "status"],
                &["name"],
            )),
            "failure" | "error" => Some((&["message", "type"], &[])),
            "skipped" => Some((&["message"], &[])),
            _ => None,
        }
    }

    fn parent(element: &str) -> Option<&'static str> {
        match element {
            "testsuites" => None,
            "testsuite" => Some("testsuites"),
            "testcase" => Some("testsuite"),
            _ => Some("testcase"),
        }
    }

    fn check_attributes(start: &BytesStart<'_>) -> Vec<(String, String)> {
        let name = AsRef::<str>::as_ref(&start.name()).to_string();
        let (allowed, required) = JunitRules::allowed(&name)
            .unwrap_or_else(|| panic!("element <{name}> not in the schema"));
        let attributes: Vec<(String, String)> = start
            .attributes()
            .map(|a| {
                let a = a.expect("well-formed attribute");
                let key = AsRef::<str>::as_ref(&a.key).to_string();
                let value = a
                    .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .expect("escaped value")
                    .to_string();
                (key, value)
            })
            .collect();
        for (key, value) in &attributes {
            assert!(
                allowed.contains(&key.as_str()),
                "<{name} {key}> not in the schema"
            );
            match key.as_str() {
                "tests" | "failures" | "errors" | "skipped" | "disabled" | "id" => {
                    value
                        .parse::<u64>()
                        .unwrap_or_else(|_| panic!("{key}={value}"));
                }
                "time" => {
                    let t: f64 = value.parse().unwrap_or_else(|_| panic!("time={value}"));
                    assert!(t >= 0.0 && !value.starts_with('-'), "time={value}");
                }
                _ => {}
            }
        }
        for key in required {
            assert!(
                attributes.iter().any(|(k, _)| k == key),
                "<{name}> lacks {key}"
            );
        }
        attributes
    }
}

/// Validates a JUnit document; returns each test case's name and its
/// outcome element (`pass` for none).
fn validate_junit(xml: &str) -> Vec<(String, String)> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<String> = Vec::new();
    let mut cases: Vec<(String, String)> = Vec::new();
    // Per suite: (declared tests, failures, errors, skipped) and counted.
    let mut declared: Vec<[u64; 4]> = Vec::new();
    let mut counted: Vec<[u64; 4]> = Vec::new();
    let mut roots = 0;
    loop {
        let event = reader.read_event().expect("well-formed XML");
        let (start, empty) = match &event {
            Event::Start(s) => (Some(s.clone()), false),
            Event::Empty(s) => (Some(s.clone()), true),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => (None, false),
        };
        let Some(start) = start else { continue };
        let name = AsRef::<str>::as_ref(&start.name()).to_string();
        assert_eq!(
            JunitRules::parent(&name),
            stack.last().map(String::as_str),
            "<{name}> inside {stack:?}"
        );
        let attributes = JunitRules::check_attributes(&start);
        let get = |key: &str| {
            attributes
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        match name.as_str() {
            "testsuites" => roots += 1,
            "testsuite" => {
                let n = |k: &str| get(k).and_then(|v| v.parse().ok()).unwrap_or(0);
                declared.push([n("tests"), n("failures"), n("errors"), n("skipped")]);
                counted.push([0; 4]);
            }
            "testcase" => {
                if let Some(c) = counted.last_mut() {
                    c[0] += 1;
                }
                cases.push((get("name").unwrap_or_default(), "pass".to_string()));
            }
            outcome => {
                let slot = ["failure", "error", "skipped"]
                    .iter()
                    .position(|o| *o == outcome)
                    .expect("an outcome element");
                if let Some(c) = counted.last_mut() {
                    c[slot + 1] += 1;
                }
                if let Some(case) = cases.last_mut() {
                    assert_eq!(case.1, "pass", "two outcomes in one test case");
                    case.1 = outcome.to_string();
                }
            }
        }
        if !empty {
            stack.push(name);
        }
    }
    assert_eq!(roots, 1);
    assert!(stack.is_empty());
    assert_eq!(
        declared, counted,
        "suite counts disagree with their test cases"
    );
    cases
}

#[test]
fn junit_output_follows_the_schema() {
    let dir = scratch("junit");
    std::fs::write(
        dir.join("mixed.cert"),
        "gamecert 1\n\
         claim ok: grundy nim [1] = 1 by search\n\
         claim false: grundy nim [1] = 0 by search\n\
         claim slow: grundy cram 6x6 = 0 by search\n\
         claim quoted: outcome hackenbush \"re\" + 2 = L by definition\n\
         claim unknown: grundy nim [1] = 1 by nonsense\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("rejected.cert"),
        shipped("tests/reject/breaker-pairing-bad-symmetry.cert"),
    )
    .expect("write");
    let out = gamecert(
        &dir,
        &[
            "check", "--format", "junit", "--budget", "2000", "--jobs", "1", ".",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let xml = String::from_utf8(out.stdout).expect("UTF-8");
    let cases = validate_junit(&xml);
    let outcome = |prefix: &str| {
        cases
            .iter()
            .find(|(n, _)| n.starts_with(prefix))
            .map(|(_, o)| o.as_str())
            .unwrap_or_else(|| panic!("no case {prefix}: {cases:?}"))
    };
    assert_eq!(outcome("ok:"), "pass");
    assert_eq!(outcome("false:"), "failure");
    assert_eq!(outcome("slow:"), "skipped");
    assert_eq!(outcome("quoted: outcome hackenbush \"re\" + 2 = L"), "pass");
    assert_eq!(outcome("l:"), "failure");
    assert!(cases.iter().any(|(_, o)| o == "error"), "{cases:?}");
}

#[test]
fn an_interrupted_run_prints_what_was_decided() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for format in ["human", "json"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
            .current_dir(root)
            .args(["check", "--jobs", "1", "--format", format])
            // Quick claims first, then counts that take minutes (files
            // that are cheap to load: a search at load time would delay
            // every verdict).
            .args([
                "certificates/cgt",
                "slow-certificates/bode-2000/archimedean-tilings.cert",
                "slow-certificates/bode-2000/hexagon.cert",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("binary runs");
        if format == "human" {
            // Verdict lines stream: the first arrives long before the end.
            let stdout = child.stdout.take().expect("stdout");
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next().expect("a line").expect("text");
            assert!(first.starts_with("VERIFIED"), "{first}");
            interrupt(child.id());
            let rest: Vec<String> = lines.map_while(Result::ok).collect();
            let output = child.wait_with_output().expect("ends");
            assert_eq!(output.status.code(), Some(130));
            let err = String::from_utf8_lossy(&output.stderr);
            assert!(err.contains("interrupted: "), "{err}");
            assert!(err.contains(" verified, "), "{err}");
            assert!(rest.iter().all(|l| !l.contains(" verified, ")));
        } else {
            std::thread::sleep(std::time::Duration::from_secs(3));
            interrupt(child.id());
            let output = child.wait_with_output().expect("ends");
            assert_eq!(output.status.code(), Some(130));
            let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
            assert_eq!(report["interrupted"], Value::Bool(true));
            assert!(report["summary"]["verified"].as_u64().unwrap_or(0) > 0);
        }
    }
}

fn interrupt(pid: u32) {
    let status = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[test]
fn help_lists_the_exit_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [&["--help"][..], &["check", "--help"][..]] {
        let out = gamecert(root, args);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout);
        for code in ["0 ", "1 ", "2 ", "3 ", "130 "] {
            assert!(
                text.lines().any(|l| l.trim_start().starts_with(code)),
                "{args:?} lacks exit code {code}: {text}"
            );
        }
    }
}
