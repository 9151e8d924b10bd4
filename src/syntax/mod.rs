//! Syntax: source text to a tree with spans, and back to normalised text.
//!
//! Architecture invariant: parsing never fails. [`parse_file`] returns a tree
//! and a list of errors, and knows nothing about games, boards or the kernel.

pub mod ast;
mod parser;
pub mod printer;

pub use parser::{parse_file, parse_game};
