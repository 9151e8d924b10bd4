//! Finding certificate files and following their includes.
//!
//! Key decision: every file is identified by its canonical path, so a file
//! reached twice (named on the command line and included, or included by two
//! files) is parsed and checked once. Includes are relative to the including
//! file, must stay inside the *root* of the argument they were reached from (the
//! directory given to `check`, or the directory of a file given to it), may be
//! pinned by SHA-256, and must not form a cycle.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{ElabError, ElabErrorKind, ElaboratedClaim};
use crate::syntax::ast::{File, Item};
use crate::syntax::parse_file;

/// One loaded certificate file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as shown in reports (relative to the working directory when possible).
    pub display: String,
    /// The file's text.
    pub source: String,
    /// SHA-256 of the text, lowercase hex.
    pub sha256: String,
    /// The syntax tree (with its syntax errors).
    pub ast: File,
    /// Include errors and declaration errors found in this file.
    pub file_errors: Vec<ElabError>,
    /// The boards the file declares (valid ones only), by name.
    pub boards: Vec<(String, crate::kernel::animals::Board)>,
    /// The animals the file declares (valid ones only).
    pub animals: Vec<super::DeclaredAnimal>,
    /// The elaborated claims.
    pub claims: Vec<ElaboratedClaim>,
}

/// A command-line path that could not be used.
#[derive(Debug)]
pub struct UsageError {
    /// The path.
    pub path: PathBuf,
    /// The operating system's message.
    pub message: String,
}

impl UsageError {
    /// A converter from an I/O error about `path`.
    fn at(path: &Path) -> impl Fn(std::io::Error) -> UsageError + '_ {
        move |e| UsageError {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// All files reached from the given paths, sorted by display path.
pub fn load(paths: &[PathBuf]) -> Result<Vec<SourceFile>, UsageError> {
    let mut loader = Loader::new();
    for path in paths {
        let usage = UsageError::at(path);
        let meta = std::fs::metadata(path).map_err(&usage)?;
        let root = if meta.is_dir() {
            path.clone()
        } else {
            path.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        let root = canonical_or_self(&root);
        let mut files = Vec::new();
        if meta.is_dir() {
            collect_certs(path, &mut files).map_err(usage)?;
        } else {
            files.push(path.clone());
        }
        for file in files {
            let canonical = file.canonicalize().map_err(UsageError::at(&file))?;
            let text = std::fs::read_to_string(&file).map_err(UsageError::at(&file))?;
            loader.add(canonical, text, &root);
        }
    }
    loader.find_cycles();
    let mut files: Vec<SourceFile> = loader.files.into_values().collect();
    files.sort_by(|a, b| a.display.cmp(&b.display));
    Ok(files)
}

fn canonical_or_self(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Every `*.cert` below `dir`, in sorted order.
fn collect_certs(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect_certs(&entry, out)?;
        } else if entry.extension().is_some_and(|e| e == "cert") {
            out.push(entry);
        }
    }
    Ok(())
}

/// A file given as text rather than read from disk; its includes resolve
/// against the working directory, which is then also its root.
pub fn from_source(display: &str, text: &str) -> SourceFile {
    let mut loader = Loader::new();
    let root = canonical_or_self(Path::new("."));
    let key = root.join(display);
    loader.add(key.clone(), text.to_string(), &root);
    loader.find_cycles();
    let mut file = loader
        .files
        .remove(&key)
        .unwrap_or_else(|| unreachable!("just added"));
    file.display = display.to_string();
    file
}

/// SHA-256 of `text` as lowercase hex.
pub fn sha256_hex(text: &[u8]) -> String {
    Sha256::digest(text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

struct Loader {
    /// The canonical working directory, against which display paths are
    /// made relative (read once, not per file).
    cwd: Option<PathBuf>,
    files: BTreeMap<PathBuf, SourceFile>,
    /// Resolved includes: (includer, index of the include item, included file).
    edges: Vec<(PathBuf, usize, PathBuf)>,
}

impl Loader {
    fn new() -> Loader {
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|cwd| cwd.canonicalize().ok());
        Loader {
            cwd,
            files: BTreeMap::new(),
            edges: Vec::new(),
        }
    }

    fn add(&mut self, canonical: PathBuf, text: String, root: &Path) {
        if self.files.contains_key(&canonical) {
            return;
        }
        let ast = parse_file(&text);
        let claims = {
            // Card files a claim names are read like includes: relative to
            // this file, inside the tree, checked against their pins.
            let read = |path: &crate::syntax::ast::Spanned<String>,
                        pin: Option<&crate::syntax::ast::Spanned<String>>|
             -> Result<String, ElabError> {
                let resolved =
                    resolve(&canonical, Path::new(&path.node), root).map_err(|kind| ElabError {
                        kind,
                        span: path.span,
                    })?;
                read_pinned(&resolved, pin, path.span)
            };
            super::claims_reading(&ast, &read)
        };
        let declared = super::declarations(&ast);
        let mut file = SourceFile {
            display: display_path(&canonical, self.cwd.as_deref()),
            sha256: sha256_hex(text.as_bytes()),
            source: text,
            ast,
            file_errors: declared.errors,
            boards: declared.boards,
            animals: declared.animals,
            claims,
        };
        let mut reached = Vec::new();
        for (index, item) in file.ast.items.iter().enumerate() {
            let Item::Include(include) = item else {
                continue;
            };
            let fail = |kind| ElabError {
                kind,
                span: include.span,
            };
            let relative = Path::new(&include.path.node);
            let resolved = match resolve(&canonical, relative, root) {
                Ok(p) => p,
                Err(kind) => {
                    file.file_errors.push(fail(kind));
                    continue;
                }
            };
            let text = match read_pinned(&resolved, include.sha256.as_ref(), include.span) {
                Ok(t) => t,
                Err(e) => {
                    file.file_errors.push(e);
                    continue;
                }
            };
            self.edges
                .push((canonical.clone(), index, resolved.clone()));
            reached.push((resolved, text));
        }
        self.files.insert(canonical, file);
        for (path, text) in reached {
            self.add(path, text, root);
        }
    }

    /// Marks each include that closes a cycle.
    fn find_cycles(&mut self) {
        let mut graph: HashMap<&PathBuf, Vec<(&PathBuf, usize)>> = HashMap::new();
        for (from, index, to) in &self.edges {
            graph.entry(from).or_default().push((to, *index));
        }
        let mut closing = Vec::new();
        for (from, index, to) in &self.edges {
            if reaches(&graph, to, from) {
                closing.push((from.clone(), *index));
            }
        }
        for (from, index) in closing {
            if let Some(file) = self.files.get_mut(&from)
                && let Item::Include(include) = &file.ast.items[index]
            {
                let span = include.span;
                file.file_errors.push(ElabError {
                    kind: ElabErrorKind::IncludeCycle,
                    span,
                });
            }
        }
    }
}

/// The largest file an include or a card method reads.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of a file an item names (an include or a card file), checked
/// against its pin; errors point at `span` (or at the pin).
fn read_pinned(
    path: &Path,
    pin: Option<&crate::syntax::ast::Spanned<String>>,
    span: crate::syntax::ast::Span,
) -> Result<String, ElabError> {
    let unreadable = |message: String| ElabError {
        kind: ElabErrorKind::IncludeUnreadable(message),
        span,
    };
    if std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_FILE_BYTES) {
        return Err(unreadable(format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
    if let Some(pin) = pin {
        let actual = sha256_hex(text.as_bytes());
        let well_formed = pin.node.len() == 64 && pin.node.chars().all(|c| c.is_ascii_hexdigit());
        if !well_formed {
            return Err(ElabError {
                kind: ElabErrorKind::BadPin,
                span: pin.span,
            });
        }
        if !pin.node.eq_ignore_ascii_case(&actual) {
            return Err(ElabError {
                kind: ElabErrorKind::PinMismatch { actual },
                span: pin.span,
            });
        }
    }
    Ok(text)
}

/// Whether `target` is reachable from `start` along includes.
fn reaches(
    graph: &HashMap<&PathBuf, Vec<(&PathBuf, usize)>>,
    start: &PathBuf,
    target: &PathBuf,
) -> bool {
    let mut stack = vec![start];
    let mut seen = std::collections::HashSet::new();
    while let Some(node) = stack.pop() {
        if node == target {
            return true;
        }
        if seen.insert(node) {
            stack.extend(graph.get(node).into_iter().flatten().map(|(next, _)| *next));
        }
    }
    false
}

/// The canonical path of an include, checked to stay inside `root`.
fn resolve(includer: &Path, relative: &Path, root: &Path) -> Result<PathBuf, ElabErrorKind> {
    if relative.is_absolute() {
        return Err(ElabErrorKind::IncludeAbsolute);
    }
    let dir = includer.parent().unwrap_or(root);
    let joined = dir.join(relative);
    let canonical = joined
        .canonicalize()
        .map_err(|e| ElabErrorKind::IncludeUnreadable(e.to_string()))?;
    if !canonical.starts_with(root) {
        return Err(ElabErrorKind::IncludeEscapes);
    }
    Ok(canonical)
}

/// `path` relative to the working directory `cwd` when it lies below it.
fn display_path(path: &Path, cwd: Option<&Path>) -> String {
    let relative = cwd.and_then(|cwd| path.strip_prefix(cwd).ok());
    relative.unwrap_or(path).display().to_string()
}
