//! `check --baseline OLD.json`: compares a run with the JSON report of an
//! earlier one, so that CI fails only on claims that got worse.
//!
//! Key decision: a claim is matched to the old report by its file and id,
//! or failing that by its fingerprint (a renamed or moved claim keeps its
//! meaning). It is *worse* when it was VERIFIED and is not any more, or when
//! it is new and not VERIFIED: a baseline excuses known failures, never new
//! ones. Claims the baseline had that are gone are listed as GONE, not
//! failed (removing a claim is a change `gamecert diff` reports), except a
//! VERIFIED one gone from a file that now has problems: a syntax error may
//! have swallowed it, so it counts as worse.

use std::collections::HashMap;

use serde_json::Value;

use crate::report::{Report, VerdictName};

/// One claim of the old report.
#[derive(Clone, Debug)]
struct Old {
    verdict: String,
    fingerprint: Option<String>,
}

/// The old report's claims and file problems.
#[derive(Debug, Default)]
pub struct Baseline {
    by_id: HashMap<(String, String), Old>,
    by_fingerprint: HashMap<String, String>,
    errors: HashMap<String, usize>,
}

/// A claim whose verdict got worse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worse {
    /// Its file as shown in reports.
    pub path: String,
    /// Its line.
    pub line: usize,
    /// Its id.
    pub id: String,
    /// Its statement.
    pub statement: String,
    /// The old verdict (`None`: the claim is new).
    pub old: Option<String>,
    /// The verdict now.
    pub new: VerdictName,
}

/// How a run compares with its baseline.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Claims that got worse, in report order.
    pub worse: Vec<Worse>,
    /// Claims of the baseline that are not in the run (by file and id, nor
    /// by fingerprint), with their old verdicts.
    pub gone: Vec<(String, String, String)>,
    /// Claims that were not VERIFIED and now are.
    pub better: usize,
    /// Files with more problems (syntax, includes) than in the baseline.
    pub new_file_errors: Vec<String>,
}

impl Baseline {
    /// Reads a JSON report written by `check --format json`.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("not a JSON report: {e}"))?;
        if value.get("gamecert").and_then(Value::as_str) != Some("1") {
            return Err("not a gamecert report (no \"gamecert\": \"1\")".to_string());
        }
        let files = value
            .get("files")
            .and_then(Value::as_array)
            .ok_or("the report has no \"files\" list")?;
        let mut baseline = Baseline::default();
        for file in files {
            let path = field(file, "path")?;
            let errors = file
                .get("errors")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            *baseline.errors.entry(path.clone()).or_default() += errors;
            let claims = file
                .get("claims")
                .and_then(Value::as_array)
                .ok_or("a file of the report has no \"claims\" list")?;
            for claim in claims {
                let old = Old {
                    verdict: field(claim, "verdict")?,
                    fingerprint: claim
                        .get("fingerprint")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                };
                if let Some(fp) = &old.fingerprint {
                    baseline
                        .by_fingerprint
                        .entry(fp.clone())
                        .or_insert_with(|| old.verdict.clone());
                }
                baseline
                    .by_id
                    .entry((path.clone(), field(claim, "id")?))
                    .or_insert(old);
            }
        }
        Ok(baseline)
    }

    /// Compares the run's report with the baseline.
    pub fn compare(&self, report: &Report) -> Comparison {
        let mut comparison = Comparison::default();
        let present: std::collections::HashSet<(String, String)> = report
            .files
            .iter()
            .flat_map(|f| f.claims.iter().map(|c| (f.path.clone(), c.id.clone())))
            .collect();
        let fingerprints: std::collections::HashSet<&str> = report
            .files
            .iter()
            .flat_map(|f| f.claims.iter().map(|c| c.fingerprint.as_str()))
            .collect();
        let with_errors: std::collections::HashSet<&str> = report
            .files
            .iter()
            .filter(|f| !f.errors.is_empty())
            .map(|f| f.path.as_str())
            .collect();
        let mut gone: Vec<(&(String, String), &Old)> = self
            .by_id
            .iter()
            .filter(|(key, old)| {
                !present.contains(*key)
                    && old
                        .fingerprint
                        .as_deref()
                        .is_none_or(|fp| !fingerprints.contains(fp))
            })
            .collect();
        gone.sort_by(|a, b| a.0.cmp(b.0));
        for ((path, id), old) in gone {
            // A verified claim that vanished from a file with problems was
            // most likely swallowed by a syntax error: that is worse. One
            // removed from a clean file is a change `diff` reports.
            if old.verdict == VerdictName::Verified.word() && with_errors.contains(path.as_str()) {
                comparison.worse.push(Worse {
                    path: path.clone(),
                    line: 0,
                    id: id.clone(),
                    statement: "(no longer read: the file has errors)".to_string(),
                    old: Some(old.verdict.clone()),
                    new: VerdictName::Error,
                });
            } else {
                comparison
                    .gone
                    .push((path.clone(), id.clone(), old.verdict.clone()));
            }
        }
        for file in &report.files {
            let before = self.errors.get(&file.path).copied().unwrap_or(0);
            if file.errors.len() > before {
                comparison.new_file_errors.push(file.path.clone());
            }
            for claim in &file.claims {
                let old = self
                    .by_id
                    .get(&(file.path.clone(), claim.id.clone()))
                    .map(|o| o.verdict.clone())
                    .or_else(|| self.by_fingerprint.get(&claim.fingerprint).cloned());
                let verified_now = claim.verdict == VerdictName::Verified;
                let verified_before = old.as_deref() == Some(VerdictName::Verified.word());
                if verified_now && old.is_some() && !verified_before {
                    comparison.better += 1;
                }
                if !verified_now && (verified_before || old.is_none()) {
                    comparison.worse.push(Worse {
                        path: file.path.clone(),
                        line: claim.line,
                        id: claim.id.clone(),
                        statement: claim.statement.clone(),
                        old,
                        new: claim.verdict,
                    });
                }
            }
        }
        comparison
    }
}

fn field(value: &Value, name: &str) -> Result<String, String> {
    value
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("an entry of the report has no \"{name}\" string"))
}

impl Comparison {
    /// The exit code of a run judged against its baseline: 1 when a claim
    /// got worse, 2 when a file has new problems or nothing was checked,
    /// otherwise 0, whatever failures the baseline already had.
    pub fn exit_code(&self, report: &Report) -> i32 {
        if !self.worse.is_empty() {
            1
        } else if !self.new_file_errors.is_empty() || report.summary.claims() == 0 {
            2
        } else {
            0
        }
    }

    /// The human lines: one per claim that got worse, then a summary.
    pub fn human(&self, baseline: &str) -> String {
        let mut out = String::new();
        for w in &self.worse {
            out.push_str(&format!(
                "WORSE     {}:{}  {}: {}  ({} -> {})\n",
                w.path,
                w.line,
                w.id,
                w.statement,
                w.old.as_deref().unwrap_or("new claim"),
                w.new.word()
            ));
        }
        for (path, id, verdict) in &self.gone {
            out.push_str(&format!(
                "GONE      {path}  {id}  (was {verdict}; removed or renamed)\n"
            ));
        }
        for path in &self.new_file_errors {
            out.push_str(&format!(
                "WORSE     {path}  more file problems than in the baseline\n"
            ));
        }
        out.push_str(&format!(
            "against {baseline}: {} claims worse, {} better\n",
            self.worse.len(),
            self.better
        ));
        out
    }
}
