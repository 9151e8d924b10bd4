//! Finding certificate files and following their includes.
//!
//! Key decision: nothing is read outside the checked tree. Every argument of
//! `check` has a *root*: the canonical directory given, or the canonical
//! directory of a file given (a bare file name's is the working directory).
//! Includes and card files are resolved relative to the including file,
//! canonicalised (symbolic links followed) and must lie inside that root
//! before they are opened; directory walks do not follow links out of it and
//! visit each canonical directory once. Only regular files are read, through
//! a bound on the bytes actually read. Every file is identified by its
//! canonical path, so a file reached twice (named on the command line and
//! included, or included by two files) is parsed and checked once. Includes
//! may be pinned by SHA-256 and must not form a cycle.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{ElabError, ElabErrorKind, ElaboratedClaim};
use crate::kernel::budget::Limits;
use crate::syntax::ast::{File, Item, Span};
use crate::syntax::parse_file;

/// One loaded certificate file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as shown in reports (relative to the working directory when possible).
    pub display: String,
    /// The file's text.
    pub source: String,
    /// SHA-256 of the text, lowercase hex (empty for a file that was not read).
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
    /// The file's canonical path (the key includes name it by).
    pub key: PathBuf,
    /// The canonical paths of the files it includes (those read, and not
    /// closing a cycle), in the order written.
    pub includes: Vec<PathBuf>,
}

/// Why a file was not read (worded in `report::diagnostics`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The path names something other than a regular file (a directory, a
    /// FIFO, a device); reading it could block or never end.
    NotRegular,
    /// A command-line path that is neither a regular file nor a directory.
    NotFileOrDirectory,
    /// The file has more than `max` bytes.
    TooLarge { max: u64 },
    /// The file is not UTF-8 text; `offset` is its first byte that is not.
    NotUtf8 { offset: usize },
    /// The operating system's message.
    Io(String),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e.to_string())
    }
}

/// A command-line path that could not be used.
#[derive(Debug)]
pub struct UsageError {
    /// The path.
    pub path: PathBuf,
    /// Why.
    pub reason: ReadError,
}

impl UsageError {
    /// The error `reason` about `path`.
    fn at(path: &Path, reason: impl Into<ReadError>) -> UsageError {
        UsageError {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

/// The largest text file read: a certificate, an include or a card file.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The largest answer file read (binary, pinned; Cram 7x7's value takes
/// 69 MB).
pub const MAX_ANSWER_FILE_BYTES: u64 = 256 << 20;

/// The text of the regular file at `path`, of at most `max` bytes.
///
/// The bound is on the bytes actually read, never on the length the file
/// system reports (devices and files in `/proc` report 0). A path that is
/// not a regular file is refused before it is opened (opening a FIFO
/// blocks), and the open file is asked again, since the path may have
/// changed in between. A file that is not UTF-8 is refused without quoting
/// its bytes.
pub fn read_text(path: &Path, max: u64) -> Result<String, ReadError> {
    let bytes = read_bytes(path, max)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// The bytes of the regular file at `path`, of at most `max` bytes (read
/// as [`read_text`] reads, without asking for UTF-8).
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { max });
    }
    Ok(bytes)
}

/// The directory every file a certificate reads must lie in (canonical), or
/// why there is none (text given directly, when the working directory
/// cannot be resolved: then nothing is read).
type Root = Result<PathBuf, ReadError>;

/// All files reached from the given paths, sorted by display path
/// (elaborated within the default limits).
pub fn load(paths: &[PathBuf]) -> Result<Vec<SourceFile>, UsageError> {
    load_within(paths, &Limits::default(), crate::parallel::cores())
}

/// All files reached from the given paths, sorted by display path; each
/// claim's elaboration searches within a fresh budget of `limits`, the
/// run's per-claim limits, a file's searches on up to `threads` threads.
pub fn load_within(
    paths: &[PathBuf],
    limits: &Limits,
    threads: usize,
) -> Result<Vec<SourceFile>, UsageError> {
    let mut loader = Loader::new(limits, threads);
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| UsageError::at(path, e))?;
        if meta.is_dir() {
            let root = path.canonicalize().map_err(|e| UsageError::at(path, e))?;
            let mut walk = Walk {
                root: &root,
                visited: HashSet::new(),
                found: Vec::new(),
            };
            walk.directory(path).map_err(|e| UsageError::at(path, e))?;
            let mut batch = Vec::new();
            for entry in walk.found {
                match entry {
                    Found::Certificate(canonical) => match read_text(&canonical, MAX_FILE_BYTES) {
                        Ok(text) => batch.push((canonical, text, Ok(root.clone()))),
                        Err(e) => loader.refuse(&canonical, ElabErrorKind::FileUnreadable(e)),
                    },
                    Found::Refused(entry, kind) => loader.refuse(&entry, kind),
                }
            }
            loader.add_all(batch);
        } else if meta.is_file() {
            // `Path::parent` of a bare file name is the empty path, which
            // every path starts with: it stands for the working directory.
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let root = parent.canonicalize().map_err(|e| UsageError::at(path, e))?;
            let canonical = path.canonicalize().map_err(|e| UsageError::at(path, e))?;
            let text =
                read_text(&canonical, MAX_FILE_BYTES).map_err(|e| UsageError::at(path, e))?;
            loader.add(canonical, text, &Ok(root));
        } else {
            return Err(UsageError::at(path, ReadError::NotFileOrDirectory));
        }
    }
    loader.find_cycles();
    let mut files: Vec<SourceFile> = loader.files.into_values().collect();
    files.sort_by(|a, b| a.display.cmp(&b.display));
    Ok(files)
}

/// What a directory walk finds.
enum Found {
    /// A certificate file to read, by canonical path (inside the root).
    Certificate(PathBuf),
    /// An entry that is reported rather than read (as walked), and why: a
    /// certificate skipped in silence would hide a claim the user expected
    /// to be checked.
    Refused(PathBuf, ElabErrorKind),
}

/// A walk of one directory argument below its root.
struct Walk<'a> {
    root: &'a Path,
    /// Canonical directories entered so far: links cannot make it loop or
    /// walk a directory twice.
    visited: HashSet<PathBuf>,
    found: Vec<Found>,
}

impl Walk<'_> {
    /// Every `*.cert` below `dir`, entries in sorted order.
    fn directory(&mut self, dir: &Path) -> std::io::Result<()> {
        if !self.visited.insert(dir.canonicalize()?) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            self.entry(entry)?;
        }
        Ok(())
    }

    /// One directory entry: a directory to walk, a certificate to read, an
    /// entry to report, or nothing (other files).
    fn entry(&mut self, entry: PathBuf) -> std::io::Result<()> {
        let certificate = entry.extension().is_some_and(|e| e == "cert");
        let target = match entry.canonicalize() {
            Ok(t) => t,
            Err(e) => {
                // A dangling link, or an entry removed meanwhile.
                if certificate {
                    let kind = ElabErrorKind::FileUnreadable(e.into());
                    self.found.push(Found::Refused(entry, kind));
                }
                return Ok(());
            }
        };
        let meta = std::fs::metadata(&target)?;
        if !target.starts_with(self.root) {
            // Only a link leads out of the tree; one to a directory or
            // named as a certificate stands for something to check.
            if certificate || meta.is_dir() {
                self.found
                    .push(Found::Refused(entry, ElabErrorKind::LinkEscapes));
            }
        } else if meta.is_dir() {
            self.directory(&entry)?;
        } else if certificate && meta.is_file() {
            self.found.push(Found::Certificate(target));
        } else if certificate {
            let kind = ElabErrorKind::FileUnreadable(ReadError::NotRegular);
            self.found.push(Found::Refused(entry, kind));
        }
        Ok(())
    }
}

/// A file given as text rather than read from disk; its includes resolve
/// against the working directory, which is then also its root
/// (elaborated within the default limits).
pub fn from_source(display: &str, text: &str) -> SourceFile {
    from_source_within(display, text, &Limits::default())
}

/// [`from_source`], each claim's elaboration searching within a fresh
/// budget of `limits`.
pub fn from_source_within(display: &str, text: &str, limits: &Limits) -> SourceFile {
    let mut loader = Loader::new(limits, 1);
    let root: Root = Path::new(".").canonicalize().map_err(ReadError::from);
    let key = match &root {
        Ok(root) => root.join(display),
        Err(_) => PathBuf::from(display),
    };
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

/// A file parsed and elaborated, and the files its includes reach: the
/// include item's index, the canonical path and the text.
struct ReadFile {
    file: SourceFile,
    reached: Vec<(usize, PathBuf, String)>,
}

struct Loader {
    /// The canonical working directory, against which display paths are
    /// made relative (read once, not per file).
    cwd: Option<PathBuf>,
    /// The run's per-claim limits, which bound elaboration too.
    limits: Limits,
    /// Threads for the searches of one file's claims.
    threads: usize,
    files: BTreeMap<PathBuf, SourceFile>,
    /// Resolved includes: (includer, index of the include item, included file).
    edges: Vec<(PathBuf, usize, PathBuf)>,
}

impl Loader {
    fn new(limits: &Limits, threads: usize) -> Loader {
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|cwd| cwd.canonicalize().ok());
        Loader {
            cwd,
            limits: limits.clone(),
            threads,
            files: BTreeMap::new(),
            edges: Vec::new(),
        }
    }

    /// Reports `path` (found by a walk) as a file that was not read.
    fn refuse(&mut self, path: &Path, kind: ElabErrorKind) {
        // Keyed by the path as walked: a link or a file that is not read
        // has no canonical path among the files that are.
        let display = display_path(path, self.cwd.as_deref());
        self.files
            .entry(path.to_path_buf())
            .or_insert_with(|| SourceFile {
                display,
                source: String::new(),
                sha256: String::new(),
                ast: File::default(),
                file_errors: vec![ElabError {
                    kind,
                    span: Span::default(),
                }],
                boards: Vec::new(),
                animals: Vec::new(),
                claims: Vec::new(),
                key: path.to_path_buf(),
                includes: Vec::new(),
            });
    }

    fn add(&mut self, canonical: PathBuf, text: String, root: &Root) {
        if self.files.contains_key(&canonical) {
            return;
        }
        let read = self.read(canonical, text, root);
        self.insert(read, root);
    }

    /// Adds the files of `batch` (canonical path, text, root), parsed and
    /// elaborated side by side on the loader's threads; the files they
    /// include follow one by one.
    fn add_all(&mut self, batch: Vec<(PathBuf, String, Root)>) {
        let mut fresh: Vec<(PathBuf, String, Root)> = Vec::new();
        for item in batch {
            if !self.files.contains_key(&item.0) && !fresh.iter().any(|f| f.0 == item.0) {
                fresh.push(item);
            }
        }
        let this = &*self;
        let read = crate::parallel::map(&fresh, self.threads, |(canonical, text, root)| {
            this.read(canonical.clone(), text.clone(), root)
        });
        for ((canonical, _, root), read) in fresh.into_iter().zip(read) {
            match read {
                Some(read) => self.insert(read, &root),
                None => self.refuse(
                    &canonical,
                    ElabErrorKind::Internal("reading this file stopped on a bug".to_string()),
                ),
            }
        }
    }

    /// The file at `canonical` parsed and elaborated, with the files its
    /// includes reach (their texts read, unless reading failed: then the
    /// error is the file's).
    fn read(&self, canonical: PathBuf, text: String, root: &Root) -> ReadFile {
        let ast = parse_file(&text);
        let claims = {
            // Files a claim names (card files, answer files) are read like
            // includes: relative to this file, inside the tree, checked
            // against their pins, each within the bound its caller gives.
            let read = |path: &crate::syntax::ast::Spanned<String>,
                        pin: Option<&crate::syntax::ast::Spanned<String>>,
                        max: u64|
             -> Result<Vec<u8>, ElabError> {
                let resolved =
                    resolve(&canonical, Path::new(&path.node), root).map_err(|kind| ElabError {
                        kind,
                        span: path.span,
                    })?;
                read_pinned_bytes(&resolved, pin, path.span, max)
            };
            super::claims_reading_on(&ast, &read, &self.limits, self.threads)
        };
        let declared = super::declarations_within(&ast, &self.limits);
        let mut file = SourceFile {
            display: display_path(&canonical, self.cwd.as_deref()),
            sha256: sha256_hex(text.as_bytes()),
            source: text,
            ast,
            file_errors: declared.errors,
            boards: declared.boards,
            animals: declared.animals,
            claims,
            key: canonical.clone(),
            includes: Vec::new(),
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
            match read_pinned(&resolved, include.sha256.as_ref(), include.span) {
                Ok(text) => reached.push((index, resolved, text)),
                Err(e) => file.file_errors.push(e),
            }
        }
        ReadFile { file, reached }
    }

    /// Records a file read by [`Loader::read`] and adds the files it
    /// includes.
    fn insert(&mut self, read: ReadFile, root: &Root) {
        let canonical = read.file.key.clone();
        self.files.insert(canonical.clone(), read.file);
        for (index, path, text) in read.reached {
            self.edges.push((canonical.clone(), index, path.clone()));
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
        // The includes that hold: every resolved one but those closing a
        // cycle, so that the files' include order has no cycle.
        for (from, index, to) in &self.edges {
            if closing.contains(&(from.clone(), *index)) {
                continue;
            }
            if let Some(file) = self.files.get_mut(from) {
                file.includes.push(to.clone());
            }
        }
        for (from, index) in closing {
            if let Some(file) = self.files.get_mut(&from)
                && let Some(Item::Include(include)) = file.ast.items.get(index)
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

/// The text of a file an item names (an include or a card file, already
/// resolved inside the tree), checked against its pin; errors point at
/// `span` (or at the pin).
fn read_pinned(
    path: &Path,
    pin: Option<&crate::syntax::ast::Spanned<String>>,
    span: Span,
) -> Result<String, ElabError> {
    let bytes = read_pinned_bytes(path, pin, span, MAX_FILE_BYTES)?;
    String::from_utf8(bytes).map_err(|e| ElabError {
        kind: ElabErrorKind::IncludeUnreadable(ReadError::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        }),
        span,
    })
}

/// As [`read_pinned`], for a file of any bytes (an answer file) of at
/// most `max` bytes.
fn read_pinned_bytes(
    path: &Path,
    pin: Option<&crate::syntax::ast::Spanned<String>>,
    span: Span,
    max: u64,
) -> Result<Vec<u8>, ElabError> {
    let text = read_bytes(path, max).map_err(|e| ElabError {
        kind: ElabErrorKind::IncludeUnreadable(e),
        span,
    })?;
    if let Some(pin) = pin {
        let actual = sha256_hex(&text);
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

/// The canonical path of a file an item names (`relative` to the file
/// `includer`), checked to lie inside `root` before anything opens it.
fn resolve(includer: &Path, relative: &Path, root: &Root) -> Result<PathBuf, ElabErrorKind> {
    if relative.is_absolute() {
        return Err(ElabErrorKind::IncludeAbsolute);
    }
    let root = root
        .as_ref()
        .map_err(|e| ElabErrorKind::IncludeUnreadable(e.clone()))?;
    let dir = includer.parent().unwrap_or(root);
    let canonical = dir
        .join(relative)
        .canonicalize()
        .map_err(|e| ElabErrorKind::IncludeUnreadable(e.into()))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch file in a directory of its own under the temporary
    /// directory, unique to this test.
    fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gamecert-load-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(name);
        let _ = std::fs::write(&path, bytes);
        path
    }

    #[test]
    fn reads_are_bounded_by_the_bytes_read() {
        let path = scratch("eleven", b"gamecert 1\n");
        assert_eq!(read_text(&path, 11).as_deref(), Ok("gamecert 1\n"));
        assert_eq!(read_text(&path, 10), Err(ReadError::TooLarge { max: 10 }));
        let _ = path.parent().map(std::fs::remove_dir_all);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_utf8_files_are_read() {
        assert_eq!(
            read_text(Path::new("/dev/zero"), MAX_FILE_BYTES),
            Err(ReadError::NotRegular)
        );
        assert_eq!(
            read_text(&std::env::temp_dir(), MAX_FILE_BYTES),
            Err(ReadError::NotRegular)
        );
        let path = scratch("latin1", b"gamecert 1\n# caf\xe9\n");
        assert_eq!(
            read_text(&path, MAX_FILE_BYTES),
            Err(ReadError::NotUtf8 { offset: 16 })
        );
        let _ = path.parent().map(std::fs::remove_dir_all);
    }
}
