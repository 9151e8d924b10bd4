//! Producers: searches that write certificates (untrusted; whatever they
//! write, the kernel checks like a hand-written certificate).

pub mod answers;
pub mod bound;
pub mod breaker;
pub mod certificate;
pub mod classify;
pub mod domineering;
pub mod maker;
pub mod misere;
pub mod periodic;
pub mod placer;
pub mod priority;
pub mod pruned;
pub mod symmetric;
