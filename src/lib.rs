//! gamecert: an independent checker for proof certificates about
//! combinatorial games.
//!
//! The pipeline runs one way: `syntax` parses text into a tree with spans,
//! `elaborate` turns the tree into fully explicit claims (untrusted), `kernel`
//! checks them (trusted, a leaf module), `report` words the verdicts, and
//! `driver` runs the whole for the command line.

pub mod baseline;
pub mod diff;
pub mod driver;
pub mod elaborate;
pub mod import;
pub mod kernel;
pub mod parallel;
pub mod produce;
pub mod render;
pub mod report;
pub mod syntax;
