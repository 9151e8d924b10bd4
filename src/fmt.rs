//! `gamecert fmt [--check] PATH...`: rewrites certificate files in their
//! canonical layout (`syntax::format`), or with `--check` only says which
//! ones are not in it (for CI).
//!
//! Key decision: a file with a syntax error is refused and left untouched,
//! since the parser skips what it cannot read and that text would be lost.
//! Directories are walked for `*.cert` files; symbolic links are not
//! followed (formatting writes files, and only files named or below a named
//! directory are written).

use std::path::{Path, PathBuf};

use gamecert::elaborate::load::{MAX_FILE_BYTES, read_text};
use gamecert::report::diagnostics::{LineIndex, render, syntax_problem};
use gamecert::report::output::{Out, error};
use gamecert::syntax::format::format_file;
use gamecert::syntax::parse_file;

/// Formats (or checks) every file; the exit code: 0 all formatted, 1 with
/// `--check` some file is not, 2 some file could not be read or parsed.
pub fn run(paths: &[PathBuf], check: bool, out: &mut Out) -> i32 {
    let mut files = Vec::new();
    for path in paths {
        if let Err(e) = collect(path, &mut files) {
            error(&format!("error: {}: {e}\n", path.display()));
            return 2;
        }
    }
    let mut code = 0;
    for file in &files {
        code = code.max(one(file, check, out));
    }
    code
}

/// The `*.cert` files below `path` (or `path` itself), in sorted order.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            let meta = std::fs::symlink_metadata(&entry)?;
            if meta.is_dir() || (meta.is_file() && entry.extension().is_some_and(|e| e == "cert")) {
                collect(&entry, out)?;
            }
        }
    } else if meta.is_file() {
        out.push(path.to_path_buf());
    } else {
        return Err(std::io::Error::other(
            "not a regular file or directory (links are not followed)",
        ));
    }
    Ok(())
}

/// Formats or checks one file; its exit code.
fn one(path: &Path, check: bool, out: &mut Out) -> i32 {
    let display = path.display().to_string();
    let text = match read_text(path, MAX_FILE_BYTES) {
        Ok(t) => t,
        Err(e) => {
            error(&format!("error: {display}: {e:?}\n"));
            return 2;
        }
    };
    let parsed = parse_file(&text);
    if !parsed.errors.is_empty() {
        let index = LineIndex::new(&text);
        for e in &parsed.errors {
            error(&render(&syntax_problem(e), &display, &index));
        }
        error(&format!(
            "error: {display} has syntax errors; it was not formatted\n"
        ));
        return 2;
    }
    let formatted = format_file(&parsed, &text);
    if formatted == text {
        return 0;
    }
    if check {
        out.write(&format!("would reformat {display}\n"));
        return 1;
    }
    match std::fs::write(path, &formatted) {
        Ok(()) => {
            out.write(&format!("formatted {display}\n"));
            0
        }
        Err(e) => {
            error(&format!("error: {display}: {e}\n"));
            2
        }
    }
}
