//! The order of a run's claims and what each one cites: every claim of
//! every file gets a place (included files first), its citations resolved
//! to earlier places, and its fingerprint.
//!
//! Key decision: a claim may cite only claims defined before it, in its own
//! file or in files its file includes, so places order every citation
//! backwards and a cycle cannot be written.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::elaborate::load::SourceFile;
use crate::elaborate::{ElabError, ElabErrorKind};
use crate::kernel::claim::Claim;
use crate::kernel::ledger::Place;

/// Every claim of the run in order (files that are included before the
/// files including them, otherwise in the order given; each file's claims
/// in source order): its file, its index in the file, and the claim with
/// its citations resolved to places, or why it cannot be checked. A claim
/// cites claims of its file defined before it, or claims of the files its
/// file includes (directly or not), which all come earlier.
pub(super) struct Schedule {
    /// Each place's file and the claim's index in it.
    pub(super) jobs: Vec<(usize, usize)>,
    /// Each claim's fingerprint, by place (see `ClaimReport::fingerprint`).
    pub(super) fingerprints: Vec<String>,
    /// The place of each file's first claim, by the file's index.
    pub(super) first_place: Vec<usize>,
    /// Each place's claim with citations resolved, or why it cannot be checked.
    pub(super) claims: Vec<Result<Claim<Place>, ElabError>>,
}

impl Schedule {
    pub(super) fn of(files: &[SourceFile]) -> Schedule {
        let index: HashMap<&PathBuf, usize> = files
            .iter()
            .enumerate()
            .map(|(f, file)| (&file.key, f))
            .collect();
        let includes: Vec<Vec<usize>> = files
            .iter()
            .map(|file| {
                file.includes
                    .iter()
                    .filter_map(|k| index.get(k).copied())
                    .collect()
            })
            .collect();
        let mut jobs = Vec::new();
        let mut first_place = vec![0; files.len()];
        for f in included_first(&includes) {
            first_place[f] = jobs.len();
            jobs.extend((0..files[f].claims.len()).map(|c| (f, c)));
        }
        let claims: Vec<Result<Claim<Place>, ElabError>> = jobs
            .iter()
            .map(|&(f, c)| {
                let file = &files[f];
                let explicit = file.claims[c].explicit.as_ref().map_err(Clone::clone)?;
                explicit.resolve(|_, id| {
                    let error = |kind| ElabError {
                        kind,
                        span: id.span,
                    };
                    // Ids are unique per file (a repeated id is an error on
                    // the repeat), so the first claim with the id is the one.
                    let position = |g: usize| files[g].claims.iter().position(|k| k.id == id.node);
                    match position(f) {
                        Some(j) if j < c => return Ok(Place(first_place[f] + j)),
                        Some(_) => {
                            return Err(error(ElabErrorKind::CitationNotBefore(id.node.clone())));
                        }
                        None => {}
                    }
                    let found: Vec<Place> = reachable(&includes, f)
                        .into_iter()
                        .filter_map(|g| position(g).map(|j| Place(first_place[g] + j)))
                        .collect();
                    match found.as_slice() {
                        [one] => Ok(*one),
                        [] => Err(error(ElabErrorKind::UnknownCitation(id.node.clone()))),
                        _ => Err(error(ElabErrorKind::AmbiguousCitation(id.node.clone()))),
                    }
                })
            })
            .collect();
        let fingerprints = fingerprints(files, &jobs, &claims);
        Schedule {
            jobs,
            fingerprints,
            first_place,
            claims,
        }
    }

    /// The places to check: those selected, and every place they cite,
    /// directly or not (cited places come earlier, so one backward pass).
    pub(super) fn needed(&self, selected: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut needed: Vec<bool> = (0..self.jobs.len()).map(selected).collect();
        for place in (0..self.jobs.len()).rev() {
            if !needed[place] {
                continue;
            }
            if let Ok(claim) = &self.claims[place] {
                for cited in claim.citations().unwrap_or_default() {
                    if let Some(n) = needed.get_mut(cited.0) {
                        *n = true;
                    }
                }
            }
        }
        needed
    }
}

/// The fingerprint of every claim, in place order (a cited claim comes
/// before the claims citing it, so its fingerprint is known): SHA-256 of
/// the explicit claim with each citation replaced by the cited claim's
/// fingerprint, or of the statement and the error for a claim that could
/// not be elaborated.
fn fingerprints(
    files: &[SourceFile],
    jobs: &[(usize, usize)],
    claims: &[Result<Claim<Place>, ElabError>],
) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(jobs.len());
    for (place, &(f, c)) in jobs.iter().enumerate() {
        let meaning = match &claims[place] {
            Ok(claim) => {
                let cited = claim.resolve(|_, p: &Place| out.get(p.0).cloned().ok_or(()));
                format!("{cited:?}")
            }
            Err(e) => format!("error {} {:?}", files[f].claims[c].statement, e.kind),
        };
        out.push(crate::elaborate::load::sha256_hex(meaning.as_bytes()));
    }
    out
}

/// The files in an order where every file comes after the files it
/// includes (a depth-first order; includes have no cycle, those closing one
/// were dropped when loading), otherwise in their given order.
fn included_first(includes: &[Vec<usize>]) -> Vec<usize> {
    fn visit(f: usize, includes: &[Vec<usize>], done: &mut [bool], order: &mut Vec<usize>) {
        if std::mem::replace(&mut done[f], true) {
            return;
        }
        for &g in &includes[f] {
            visit(g, includes, done, order);
        }
        order.push(f);
    }
    let mut done = vec![false; includes.len()];
    let mut order = Vec::with_capacity(includes.len());
    for f in 0..includes.len() {
        visit(f, includes, &mut done, &mut order);
    }
    order
}

/// The files `f` includes, directly or not.
fn reachable(includes: &[Vec<usize>], f: usize) -> Vec<usize> {
    let mut seen = vec![false; includes.len()];
    let mut stack = includes[f].clone();
    let mut out = Vec::new();
    while let Some(g) = stack.pop() {
        if g != f && !std::mem::replace(&mut seen[g], true) {
            out.push(g);
            stack.extend(&includes[g]);
        }
    }
    out
}
