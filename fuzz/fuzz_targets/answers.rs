//! Fuzz target `answers`: arbitrary bytes read as an answer file by the
//! kernel's rules I7 (Cram, the claim Cram 3x4 = 0) and P5 (Domineering
//! 3x3) under a small budget. A panic, a run past libFuzzer's timeout or a
//! memory use past its limit is a bug in the reader or the record checks;
//! a verdict that Cram 3x4 has value 0 (it has value 3) would be a false
//! VERIFIED. Run on stable: `cargo +stable fuzz run answers -s none`.
#![no_main]

use gamecert::kernel::budget::Budget;
use gamecert::kernel::impartial::Outcome;
use gamecert::kernel::impartial::answers::{self, Finding};
use gamecert::kernel::impartial::grid::{Grid, GridRules};
use gamecert::kernel::partizan::answers as domineering;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    let budget = || Budget::new(Some(20_000), None, 100_000);
    let Some(cram) = Grid::empty_board(3, 4) else {
        return;
    };
    let (finding, _) = answers::verify(GridRules::Cram, &[cram], 0, Outcome::P, bytes, budget());
    assert!(
        !matches!(finding, Ok(Finding::Holds { .. })),
        "Cram 3x4 has value 3, not 0"
    );
    if let Some(board) = Grid::empty_board(3, 3) {
        let _ = domineering::verify(&[board], bytes, budget());
    }
});
