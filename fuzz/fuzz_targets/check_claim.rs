//! Fuzz target `check_claim`: a generated certificate (see `src/lib.rs`)
//! checked end to end by `driver::check_source` under a tiny budget
//! (20,000 nodes, 200 ms and 100,000 memo entries per claim, one job).
//!
//! Every search of the kernel stops at its budget, so a certificate of a
//! few claims should finish in well under a second: a panic, an input that
//! runs past libFuzzer's `-timeout=10` or a memory use past
//! `-rss_limit_mb=2048` is a bug in whatever part did not respect the
//! budget. Run on stable: `cargo +stable fuzz run check_claim -s none`;
//! `cargo +stable fuzz fmt check_claim -s none INPUT` prints the certificate
//! an input stands for.
#![no_main]

#[path = "../../tests/fuzz_paths/mod.rs"]
mod fuzz_paths;

use gamecert_fuzz::Certificate;

libfuzzer_sys::fuzz_target!(|certificate: Certificate| {
    fuzz_paths::check(&certificate.render());
});
