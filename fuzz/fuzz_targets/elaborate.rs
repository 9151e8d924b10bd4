//! Fuzz target `elaborate`: arbitrary text parsed and elaborated
//! (`elaborate::claims`, which reads no files).
//!
//! The elaborator is untrusted but must answer every input with claims or
//! errors: no panic, and no unbounded work before the kernel's budget
//! applies (libFuzzer's `-timeout` turns a slow input into a finding).
//! Run on stable: `cargo +stable fuzz run elaborate -s none`.
#![no_main]

#[path = "../../tests/fuzz_paths/mod.rs"]
mod fuzz_paths;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzz_paths::elaborate(data);
});
