//! Build script: computes the kernel key, the SHA-256 of every kernel
//! source file (by path, in sorted order) and of `Cargo.lock`, which names
//! the kernel a verdict cache entry was made by (src/driver/cache.rs).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src/kernel");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let mut files = Vec::new();
    sources(Path::new("src/kernel"), &mut files);
    files.sort();
    files.push(PathBuf::from("Cargo.lock"));
    let mut hasher = Sha256::new();
    for file in &files {
        hasher.update(file.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update(std::fs::read(file).unwrap_or_default());
        hasher.update([0]);
    }
    let key: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=GAMECERT_KERNEL_KEY={key}");
}
