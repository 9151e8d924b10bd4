//! The verdict cache of `check --cache DIR`: the fingerprints of claims a
//! kernel of exactly this build verified before.
//!
//! Key decision: an entry is a file named by the claim's fingerprint under a
//! directory named by the kernel key, the SHA-256 of the kernel's source
//! files and of `Cargo.lock` taken at build time. The fingerprint covers the
//! claim as the kernel receives it (every declaration resolved, searched
//! sequences included) and, through the fingerprints of the cited claims,
//! everything the kernel reads from its ledger; the kernel key covers the
//! code that decides. A hit therefore stands for a verdict this kernel gave
//! to this very input (docs/soundness.md, "The verdict cache"). Only
//! VERIFIED verdicts are stored: they hold under any budget. A damaged or
//! unreadable entry is a miss, never an error.

use std::path::{Path, PathBuf};

/// SHA-256 of the kernel's sources and of `Cargo.lock`, from `build.rs`.
pub const KERNEL_KEY: &str = env!("GAMECERT_KERNEL_KEY");

/// The longest rule code an entry may hold.
const MAX_ENTRY_BYTES: u64 = 256;

/// A cache directory, for the kernel of this build.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache in `root` (created if missing). Entries of other kernel
    /// builds stay beside this one's, untouched.
    pub fn open(root: &Path) -> std::io::Result<Cache> {
        let dir = root.join(format!(
            "kernel-{}",
            &KERNEL_KEY[..16.min(KERNEL_KEY.len())]
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(Cache { dir })
    }

    fn entry(&self, fingerprint: &str) -> Option<PathBuf> {
        // Fingerprints are lowercase hex; anything else never names a file.
        let hex = fingerprint.len() == 64
            && fingerprint
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        hex.then(|| self.dir.join(&fingerprint[..2]).join(fingerprint))
    }

    /// The rule that verified the claim with this fingerprint, if this
    /// kernel verified it before.
    pub fn lookup(&self, fingerprint: &str) -> Option<String> {
        let path = self.entry(fingerprint)?;
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > MAX_ENTRY_BYTES {
            return None;
        }
        let rule = std::fs::read_to_string(&path).ok()?;
        let rule = rule.trim();
        let plausible = !rule.is_empty()
            && rule
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        plausible.then(|| rule.to_string())
    }

    /// Records that the claim with this fingerprint was verified by `rule`
    /// (written to a temporary file and renamed, so a reader never sees half
    /// an entry). A failure only costs a future re-check.
    pub fn store(&self, fingerprint: &str, rule: &str) {
        let Some(path) = self.entry(fingerprint) else {
            return;
        };
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let temporary = parent.join(format!(".{fingerprint}.{}", std::process::id()));
        if std::fs::write(&temporary, rule).is_ok() && std::fs::rename(&temporary, &path).is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cache;

    #[test]
    fn stores_and_finds_only_well_formed_fingerprints() {
        let root = std::env::temp_dir().join(format!("gamecert-cache-{}", std::process::id()));
        let cache = Cache::open(&root).expect("a temporary directory");
        let fingerprint = "ab".repeat(32);
        assert_eq!(cache.lookup(&fingerprint), None);
        cache.store(&fingerprint, "proof-sequence");
        assert_eq!(
            cache.lookup(&fingerprint).as_deref(),
            Some("proof-sequence")
        );
        assert_eq!(cache.lookup("../../etc/passwd"), None);
        cache.store("../escape", "x");
        assert!(!root.join("escape").exists());
        let _ = std::fs::remove_dir_all(&root);
    }
}
