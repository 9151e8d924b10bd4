//! `gamecert elaborate`: a loaded file as the kernel checks it, every maker
//! claim's proof sequence written out (the congruences and marks the
//! elaborator found, searched sequences, card files translated).
//!
//! Key decision: the explicit file is a syntax tree, the original with the
//! proof-sequence methods replaced, printed by `syntax::format`: so it keeps
//! the author's comments and layout rules, and printing it again changes
//! nothing.

use super::Explicit;
use super::load::SourceFile;
use crate::produce::certificate::proof_body;
use crate::syntax::ast::{File, Item, Method};

/// The syntax tree of `file` with every elaborated maker claim's proof
/// sequence explicit; other items as written.
pub fn explicit_tree(file: &SourceFile) -> File {
    let mut tree = file.ast.clone();
    let mut claims = file.claims.iter();
    for item in &mut tree.items {
        let Item::Claim(claim) = item else {
            continue;
        };
        if let Some(Ok(Explicit::Maker(winner, proof))) = claims.next().map(|e| &e.explicit) {
            claim.method.node = Method::ProofSequence(proof_body(proof, winner.board.dimension()));
        }
    }
    tree
}
