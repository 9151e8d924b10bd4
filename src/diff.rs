//! `gamecert diff`: what changed between two versions of a certificate
//! tree, claim by claim: claims added, removed, renamed, with their
//! statement changed or their evidence changed (situations, options, pairs,
//! rules, table entries, steps added or removed, not a text diff), and,
//! with `--check`, their verdict changed.
//!
//! Key decision: claims are matched by file and id, and a claim that
//! disappears under one id and appears under another with the same
//! statement and evidence is a rename. Evidence is compared as a set of
//! *atoms*: the lines of the claim's canonical layout, each prefixed by the
//! lines that contain it (`situation s2 / option (1,0) -> s1 at 0 (0,0)`),
//! so layout and comments never show up as changes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::elaborate::load::{MAX_FILE_BYTES, read_text};
use crate::report::{Report, VerdictName};
use crate::syntax::ast::{Claim, Item};
use crate::syntax::format::claim_lines;
use crate::syntax::parse_file;
use crate::syntax::printer::statement;

/// One version of a tree: each certificate's text by its path relative to
/// the tree (a single file: its file name).
#[derive(Clone, Debug, Default)]
pub struct Version {
    pub files: BTreeMap<String, String>,
}

impl Version {
    /// The certificates of a file or below a directory on disk (links are
    /// not followed).
    pub fn from_path(path: &Path) -> Result<Version, String> {
        let mut files = BTreeMap::new();
        let meta =
            std::fs::symlink_metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if meta.is_file() {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().to_string(),
            );
            files.insert(name, read(path)?);
        } else if meta.is_dir() {
            walk(path, path, &mut files)?;
        } else {
            return Err(format!(
                "{}: not a regular file or directory",
                path.display()
            ));
        }
        Ok(Version { files })
    }

    /// The certificates at `path` in git revision `rev` (read with `git`).
    pub fn from_git(rev: &str, path: &Path) -> Result<Version, String> {
        let spec = path.to_string_lossy().to_string();
        let listed = git(&["ls-tree", "-r", "--name-only", rev, "--", &spec])?;
        let mut files = BTreeMap::new();
        let base = path.to_string_lossy().trim_end_matches('/').to_string();
        for name in listed.lines().filter(|n| n.ends_with(".cert")) {
            let text = git(&["show", &format!("{rev}:{name}")])?;
            // Relative to the path asked for, as for a directory on disk
            // (a single file: its file name).
            let relative = name
                .strip_prefix(&format!("{base}/"))
                .map(str::to_string)
                .unwrap_or_else(|| {
                    Path::new(name)
                        .file_name()
                        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().to_string())
                });
            files.insert(relative, text);
        }
        if files.is_empty() {
            return Err(format!("no certificate at {spec} in {rev}"));
        }
        Ok(Version { files })
    }
}

fn read(path: &Path) -> Result<String, String> {
    read_text(path, MAX_FILE_BYTES).map_err(|e| format!("{}: {e:?}", path.display()))
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            walk(root, &p, out)?;
        } else if meta.is_file() && p.extension().is_some_and(|e| e == "cert") {
            let relative = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .to_string();
            out.insert(relative, read(&p)?);
        }
    }
    Ok(())
}

fn git(args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "git printed text that is not UTF-8".to_string())
}

/// What happened to one claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A new id.
    Added,
    /// An id that is gone.
    Removed,
    /// The same statement and evidence under another id.
    Renamed,
    /// The statement changed.
    StatementChanged,
    /// The evidence changed.
    EvidenceChanged,
    /// The verdict changed (with `--check`).
    VerdictChanged,
}

/// A change to one claim.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    pub kind: Kind,
    /// The claim's id (the old one for a rename).
    pub id: String,
    /// The new id of a renamed claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_statement: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_statement: Option<String>,
    /// Evidence atoms only in the new version.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Evidence atoms only in the old version.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_verdict: Option<VerdictName>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_verdict: Option<VerdictName>,
}

impl Change {
    fn new(kind: Kind, id: &str) -> Change {
        Change {
            kind,
            id: id.to_string(),
            new_id: None,
            old_statement: None,
            new_statement: None,
            added: Vec::new(),
            removed: Vec::new(),
            old_verdict: None,
            new_verdict: None,
        }
    }
}

/// The changes of one file.
#[derive(Clone, Debug, Serialize)]
pub struct FileDiff {
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub status: &'static str,
    pub changes: Vec<Change>,
    /// Syntax errors that kept claims from being compared, by version.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    pub files: Vec<FileDiff>,
    /// Claims whose verdict was VERIFIED and no longer is (`--check`).
    pub worse: usize,
}

/// A claim as compared: its statement and its evidence atoms.
struct Compared {
    statement: String,
    atoms: BTreeSet<String>,
}

impl Compared {
    fn of(claim: &Claim) -> Compared {
        Compared {
            statement: statement(&claim.statement.node),
            atoms: atoms(claim),
        }
    }

    /// What identifies a claim under another id.
    fn key(&self) -> (String, &BTreeSet<String>) {
        (self.statement.clone(), &self.atoms)
    }
}

/// The evidence of a claim as atoms: its method after `by`, then every
/// further line of its canonical layout with the lines containing it.
fn atoms(claim: &Claim) -> BTreeSet<String> {
    let lines = claim_lines(claim);
    let mut out = BTreeSet::new();
    let mut context: Vec<String> = Vec::new();
    for (i, (indent, text)) in lines.iter().enumerate() {
        let text = if i == 0 {
            // `claim ID: STATEMENT by METHOD`: the method part.
            let head = format!(
                "claim {}: {} by ",
                claim.id.node,
                statement(&claim.statement.node)
            );
            format!("by {}", text.strip_prefix(&head).unwrap_or(text))
        } else {
            text.clone()
        };
        context.truncate(indent.saturating_sub(1));
        if text == "}" {
            continue;
        }
        let mut atom = context.join(" / ");
        if !atom.is_empty() {
            atom.push_str(" / ");
        }
        atom.push_str(text.trim_end_matches(" {"));
        out.insert(atom);
        // The head a nested line is named by: `situation s1`, `class (0,0)`,
        // `move (1,0) reply (2,0)` (the method itself names nothing: its
        // lines are the claim's).
        if i > 0 {
            let head = text
                .split(':')
                .next()
                .unwrap_or(&text)
                .trim_end_matches(" {");
            context.push(head.to_string());
        }
    }
    out
}

/// The claims of a file by id, or its syntax errors.
fn claims(text: &str) -> Result<Vec<(String, Compared)>, usize> {
    let file = parse_file(text);
    if !file.errors.is_empty() {
        return Err(file.errors.len());
    }
    Ok(file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Claim(c) => Some((c.id.node.clone(), Compared::of(c))),
            _ => None,
        })
        .collect())
}

/// The changes from `old` to `new`; with the check reports of both, the
/// verdict changes too.
pub fn diff(old: &Version, new: &Version, verdicts: Option<(&Report, &Report)>) -> Diff {
    let paths: BTreeSet<&String> = old.files.keys().chain(new.files.keys()).collect();
    let mut files = Vec::new();
    let mut worse = 0;
    for path in paths {
        let (before, after) = (old.files.get(path), new.files.get(path));
        let mut file = FileDiff {
            path: path.clone(),
            status: match (before, after) {
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            },
            changes: Vec::new(),
            unreadable: Vec::new(),
        };
        let mut read = |text: Option<&String>, which: &str| match text.map(|t| claims(t)) {
            None => Vec::new(),
            Some(Ok(c)) => c,
            Some(Err(n)) => {
                file.unreadable.push(format!("{which}: {n} syntax errors"));
                Vec::new()
            }
        };
        let (before, after) = (read(before, "old"), read(after, "new"));
        file.changes = claim_changes(&before, &after);
        if let Some((old_report, new_report)) = verdicts {
            let (old_v, new_v) = (verdicts_of(old_report, path), verdicts_of(new_report, path));
            for (id, new_id) in matched(&before, &after, &file.changes) {
                let (Some(&o), Some(&n)) = (old_v.get(&id), new_v.get(&new_id)) else {
                    continue;
                };
                if o != n {
                    worse += usize::from(o == VerdictName::Verified);
                    let mut c = Change::new(Kind::VerdictChanged, &new_id);
                    c.old_verdict = Some(o);
                    c.new_verdict = Some(n);
                    file.changes.push(c);
                }
            }
        }
        if !file.changes.is_empty() || !file.unreadable.is_empty() || file.status != "changed" {
            files.push(file);
        }
    }
    Diff { files, worse }
}

/// Added, removed, renamed, restated and re-evidenced claims.
fn claim_changes(before: &[(String, Compared)], after: &[(String, Compared)]) -> Vec<Change> {
    let old: BTreeMap<&str, &Compared> = before.iter().map(|(i, c)| (i.as_str(), c)).collect();
    let new: BTreeMap<&str, &Compared> = after.iter().map(|(i, c)| (i.as_str(), c)).collect();
    let mut changes = Vec::new();
    for (id, a) in after {
        if let Some(b) = old.get(id.as_str()) {
            if a.statement != b.statement {
                let mut c = Change::new(Kind::StatementChanged, id);
                c.old_statement = Some(b.statement.clone());
                c.new_statement = Some(a.statement.clone());
                changes.push(c);
            }
            if a.atoms != b.atoms {
                let mut c = Change::new(Kind::EvidenceChanged, id);
                c.added = a.atoms.difference(&b.atoms).cloned().collect();
                c.removed = b.atoms.difference(&a.atoms).cloned().collect();
                changes.push(c);
            }
        }
    }
    // Ids only on one side: renames when statement and evidence agree.
    let mut gone: Vec<&(String, Compared)> = before
        .iter()
        .filter(|(i, _)| !new.contains_key(i.as_str()))
        .collect();
    for (id, a) in after.iter().filter(|(i, _)| !old.contains_key(i.as_str())) {
        match gone.iter().position(|(_, b)| b.key() == a.key()) {
            Some(k) => {
                let (old_id, _) = gone.remove(k);
                let mut c = Change::new(Kind::Renamed, old_id);
                c.new_id = Some(id.clone());
                changes.push(c);
            }
            None => {
                let mut c = Change::new(Kind::Added, id);
                c.new_statement = Some(a.statement.clone());
                changes.push(c);
            }
        }
    }
    for (id, b) in gone {
        let mut c = Change::new(Kind::Removed, id);
        c.old_statement = Some(b.statement.clone());
        changes.push(c);
    }
    changes
}

/// The (old id, new id) of every claim in both versions (renames matched).
fn matched(
    before: &[(String, Compared)],
    after: &[(String, Compared)],
    changes: &[Change],
) -> Vec<(String, String)> {
    let new: BTreeSet<&str> = after.iter().map(|(i, _)| i.as_str()).collect();
    let mut out: Vec<(String, String)> = before
        .iter()
        .filter(|(i, _)| new.contains(i.as_str()))
        .map(|(i, _)| (i.clone(), i.clone()))
        .collect();
    out.extend(
        changes
            .iter()
            .filter(|c| c.kind == Kind::Renamed)
            .filter_map(|c| c.new_id.clone().map(|n| (c.id.clone(), n))),
    );
    out
}

/// The verdicts of a report's file whose path ends with `path`, by id.
fn verdicts_of(report: &Report, path: &str) -> BTreeMap<String, VerdictName> {
    report
        .files
        .iter()
        .filter(|f| Path::new(&f.path).ends_with(path))
        .flat_map(|f| f.claims.iter().map(|c| (c.id.clone(), c.verdict)))
        .collect()
}

/// Writes a version's files below `dir` (for checking a git revision).
pub fn materialize(version: &Version, dir: &Path) -> std::io::Result<()> {
    for (path, text) in &version.files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, text)?;
    }
    Ok(())
}

/// The human report: a block per file, a line per change.
pub fn human(diff: &Diff) -> String {
    let mut out = String::new();
    let mut count = 0;
    for file in &diff.files {
        out.push_str(&format!("{} ({})\n", file.path, file.status));
        for u in &file.unreadable {
            out.push_str(&format!("  ! cannot compare the claims: {u}\n"));
        }
        for c in &file.changes {
            count += 1;
            let line = match c.kind {
                Kind::Added => {
                    format!("  + {}: {}", c.id, c.new_statement.as_deref().unwrap_or(""))
                }
                Kind::Removed => {
                    format!("  - {}: {}", c.id, c.old_statement.as_deref().unwrap_or(""))
                }
                Kind::Renamed => {
                    format!(
                        "  ~ {} renamed to {}",
                        c.id,
                        c.new_id.as_deref().unwrap_or("")
                    )
                }
                Kind::StatementChanged => format!(
                    "  ~ {} statement: {} => {}",
                    c.id,
                    c.old_statement.as_deref().unwrap_or(""),
                    c.new_statement.as_deref().unwrap_or("")
                ),
                Kind::EvidenceChanged => {
                    let mut s = format!(
                        "  ~ {} evidence: {} added, {} removed",
                        c.id,
                        c.added.len(),
                        c.removed.len()
                    );
                    for a in &c.removed {
                        s.push_str(&format!("\n      - {a}"));
                    }
                    for a in &c.added {
                        s.push_str(&format!("\n      + {a}"));
                    }
                    s
                }
                Kind::VerdictChanged => format!(
                    "  ! {} verdict: {} -> {}",
                    c.id,
                    c.old_verdict.map_or("?", VerdictName::word),
                    c.new_verdict.map_or("?", VerdictName::word)
                ),
            };
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "{count} changes in {} files; {} verdicts got worse\n",
        diff.files.len(),
        diff.worse
    ));
    out
}
