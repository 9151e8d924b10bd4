//! Syntax: source text to a tree with spans and comments, and back to text:
//! normalised statements (`printer`) and whole files in their canonical
//! layout (`format`).
//!
//! Architecture invariant: parsing never fails. [`parse_file`] returns a tree
//! and a list of errors, and knows nothing about games, boards or the kernel.

pub mod ast;
pub mod format;
mod parser;
pub mod printer;
pub mod suggest;

pub use parser::{parse_file, parse_game};
