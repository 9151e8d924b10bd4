//! Fuzz target `parse`: arbitrary bytes through `syntax::parse_file`.
//!
//! The parser's contract is that it never fails and never panics; this also
//! checks that every span it records (tree and errors) is a range of the
//! input on character boundaries, since the diagnostics slice the source
//! with them. The bytes are decoded lossily so that every input reaches the
//! parser. Run on stable: `cargo +stable fuzz run parse -s none`.
#![no_main]

#[path = "../../tests/fuzz_paths/mod.rs"]
mod fuzz_paths;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzz_paths::parse(data);
});
