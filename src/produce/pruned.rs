//! Exact Grundy values of grid components by a pruned search (untrusted):
//! the search the answer-file producer runs before it writes anything.
//!
//! The pruning is the candidate-set method of Beling and Rogalski ("On
//! pruning search trees of impartial games", 2020). A component with k
//! options has a value in {0, ..., k}. Options are valued one at a time and
//! each removes one candidate: its value when that is a candidate, else the
//! largest candidate. The invariant: while r options are left, the value is
//! among the r + 1 candidates (r options block at most r of them, and the
//! value is the least unblocked one). So an option need only be asked
//! whether its value is one of the candidates other than the largest; when
//! it is not, the largest goes. And a caller asking "is the value in R?" is
//! answered "no" as soon as no candidate is in R, without valuing the rest.
//!
//! The top level asks of each candidate v in turn whether some option has
//! value v (the aspiration loop); the first v no option has is the value.
//!
//! Key decision: of an option that splits into several components, all but
//! the hardest are valued exactly (their values are reused everywhere), and
//! only the hardest is asked the restricted question, its candidates XORed
//! with the others' values. Exact values go to the table all threads
//! share; "not in R" only to a bounded cache of each thread's own (below).
//!
//! A position asked a restricted question is not split in full before the
//! search starts: its moves are split in order and each option whose
//! components all have known values removes a candidate at once, so the
//! question is often answered after a few moves ([`Values::scan`]; on Cram
//! 4x9 this halved the moves split, and the search took 0.64 of its
//! time). What such an answer rules out is kept per position (a cache of
//! values it does not have), so the same question is not searched twice.
//!
//! Threads share the table of exact values and split the root's work. At
//! the root the question "is the value v?" is asked of every option in
//! turn ([`Values::value_shared`] for a value, [`Values::value_up_to_shared`]
//! for an outcome, one round for v = 0); these questions, one per option
//! and candidate, do not depend on each other, so each thread takes an
//! option not yet asked: the calling thread the easiest left (a hit ends
//! the round soonest), the helpers the hardest left (in the round without
//! a hit, the one that finds the value, no hard question is then left
//! running alone at the end: on Cram 5x8 the producer takes 0.88 of the
//! time it took when every thread took the next in order). Deeper down
//! each thread searches alone, and what one finds exactly the others read
//! from the table. Helpers that searched all the root's options in another
//! order, as before, gained less.

use crate::kernel::budget::{BYTES_PER_ENTRY, Budget, Exhausted};
use crate::kernel::hash::FastMap;
use crate::kernel::impartial::answers::mirrored_second_player_win;
use crate::kernel::impartial::grid::{Grid, GridRules, ShapeMaps};
use crate::kernel::impartial::memo::{GrowthCap, MemoHandle, Table};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The most options a component may have here (values are kept in `u8`).
pub const MAX_OPTIONS: usize = 255;

/// Moves split before their components are looked up (see [`Values::scan`]).
const CHUNK: usize = 8;

/// The most components one search keeps excluded values of (about 66
/// bytes each, counting the map's slots: 277 MB when full).
const MAX_EXCLUDED: usize = 1 << 22;

/// Why the search stopped.
#[derive(Debug)]
pub enum Stop {
    /// The budget ran out.
    Exhausted(Exhausted),
    /// A component has more options than [`MAX_OPTIONS`].
    TooManyOptions,
}

impl From<Exhausted> for Stop {
    fn from(e: Exhausted) -> Self {
        Stop::Exhausted(e)
    }
}

/// A set of values below 256.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueSet([u128; 2]);

impl ValueSet {
    /// {0, ..., n - 1}.
    fn below(n: usize) -> ValueSet {
        let word = |lo: usize| match n.saturating_sub(lo) {
            0 => 0,
            k if k >= 128 => u128::MAX,
            k => (1u128 << k) - 1,
        };
        ValueSet([word(0), word(128)])
    }

    /// {v}.
    pub fn one(v: u8) -> ValueSet {
        let mut set = ValueSet::default();
        set.insert(v);
        set
    }

    fn insert(&mut self, v: u8) {
        self.0[usize::from(v >> 7)] |= 1 << (v & 127);
    }

    fn remove(&mut self, v: u8) {
        self.0[usize::from(v >> 7)] &= !(1 << (v & 127));
    }

    fn contains(&self, v: u8) -> bool {
        self.0[usize::from(v >> 7)] >> (v & 127) & 1 == 1
    }

    fn is_empty(&self) -> bool {
        self.0 == [0, 0]
    }

    fn meets(&self, other: &ValueSet) -> bool {
        self.0[0] & other.0[0] != 0 || self.0[1] & other.0[1] != 0
    }

    fn and(&self, other: &ValueSet) -> ValueSet {
        ValueSet([self.0[0] & other.0[0], self.0[1] & other.0[1]])
    }

    fn largest(&self) -> Option<u8> {
        if self.0[1] != 0 {
            Some(255 - self.0[1].leading_zeros() as u8)
        } else if self.0[0] != 0 {
            Some(127 - self.0[0].leading_zeros() as u8)
        } else {
            None
        }
    }

    fn least(&self) -> Option<u8> {
        if self.0[0] != 0 {
            Some(self.0[0].trailing_zeros() as u8)
        } else if self.0[1] != 0 {
            Some(128 + self.0[1].trailing_zeros() as u8)
        } else {
            None
        }
    }

    fn without_largest(&self) -> ValueSet {
        let mut set = *self;
        if let Some(v) = set.largest() {
            set.remove(v);
        }
        set
    }

    /// The elements below 128 as a bit mask (bit v for value v).
    fn low_bits(&self) -> u128 {
        self.0[0]
    }

    /// The set without the values of the mask `bits` (bit v for value v < 128).
    fn without_low(&self, bits: u128) -> ValueSet {
        ValueSet([self.0[0] & !bits, self.0[1]])
    }

    /// {0, ..., largest}.
    fn up_to_largest(&self) -> ValueSet {
        self.largest()
            .map_or_else(ValueSet::default, |v| ValueSet::below(usize::from(v) + 1))
    }

    /// Every element XORed with `x`.
    fn xored(&self, x: u8) -> ValueSet {
        if x == 0 {
            return *self;
        }
        let mut out = ValueSet::default();
        for word in 0..2 {
            let mut bits = self.0[word];
            while bits != 0 {
                let v = (word as u32 * 128 + bits.trailing_zeros()) as u8;
                bits &= bits - 1;
                out.insert(v ^ x);
            }
        }
        out
    }
}

/// One option during an expansion: its components not yet valued (a range
/// of the expansion's parts, the hardest first) and the XOR of the values
/// of the others.
#[derive(Clone, Copy, Debug)]
struct Pending {
    start: usize,
    len: usize,
    value: u8,
    /// The move's number in the kernel's move order (below [`MAX_OPTIONS`]).
    index: u8,
    /// How far the move is from the centre (moves near it split the
    /// board, and are tried first among equally hard ones).
    off_centre: u32,
}

/// Up to four (value, option number) pairs in one word, 16 bits each:
/// (value << 8 | number) + 1, 0 for an empty slot (option numbers are
/// below [`MAX_OPTIONS`] = 255, so the sum never overflows 16 bits). Smaller
/// values are the ones proofs ask for most; a value that finds no slot is
/// searched for again if a proof needs it.
#[derive(Clone, Copy, Debug, Default)]
struct Witnesses(u64);

impl Witnesses {
    fn pairs(self) -> impl Iterator<Item = (u8, u8)> {
        (0..4)
            .map(move |slot| (self.0 >> (16 * slot)) as u16)
            .filter(|&bits| bits != 0)
            .map(|bits| (((bits - 1) >> 8) as u8, (bits - 1) as u8))
    }

    fn find(self, m: u8) -> Option<usize> {
        self.pairs()
            .find(|&(v, _)| v == m)
            .map(|(_, i)| usize::from(i))
    }

    fn add(&mut self, v: u8, i: u8) {
        if self.find(v).is_some() {
            return;
        }
        if let Some(slot) = (0..4).find(|slot| (self.0 >> (16 * slot)) as u16 == 0) {
            let bits = (u16::from(v) << 8 | u16::from(i)) + 1;
            self.0 |= u64::from(bits) << (16 * slot);
        }
    }
}

/// The options of one component, split and canonicalised.
#[derive(Clone, Default)]
struct Expansion {
    parts: Vec<Grid>,
    pending: Vec<Pending>,
    /// Values of the options whose every component was known, with the
    /// options' numbers.
    known: Vec<(u8, u8)>,
    /// Values of pending options found during the search, likewise.
    found: Vec<(u8, u8)>,
    /// Number of options.
    count: usize,
    /// Whether the scan stopped early, the value shown not to be wanted
    /// (then only `known`, and `pending` in part, are filled).
    settled: bool,
}

impl Expansion {
    /// The values of the options whose every component was known.
    fn known_values(&self) -> ValueSet {
        let mut values = ValueSet::default();
        for &(v, _) in &self.known {
            values.insert(v);
        }
        values
    }
}

/// Helper searches on one table, and the flag that stops them all (their
/// budgets fail once it is set).
#[derive(Default)]
pub struct Crew {
    searches: Vec<Values>,
    cancel: Arc<AtomicBool>,
}

/// The search: exact values found so far.
pub struct Values {
    rules: GridRules,
    /// Exact values, shared with the helper threads.
    table: MemoHandle,
    /// Per component expanded: up to four values of its options the
    /// search found, with an option of each (what a proof answers *m
    /// with), packed as [`Witnesses`]. Packed, not a vector per component:
    /// millions of small allocations made freeing them take seconds.
    witnesses: FastMap<Grid, Witnesses>,
    /// The witness maps of helper searches that ended, each kept whole
    /// with its part of the memory count. Not merged into `witnesses`:
    /// inserting one big map into another in the first one's order piles
    /// its entries into runs of neighbouring buckets (on Cram 5x10 the merge
    /// ran for over 7 minutes on one core, until stopped), and a merge would
    /// hold both maps at once.
    absorbed: Vec<(FastMap<Grid, Witnesses>, Share)>,
    /// Per component: values below 128 it was shown not to have (by a
    /// restricted question answered "no"), so that the question is not
    /// searched again. A cache: cleared when it holds [`MAX_EXCLUDED`].
    excluded: FastMap<Grid, u128>,
    shapes: ShapeMaps,
    pool: Vec<Expansion>,
    /// The moves of the position being expanded, reused.
    moves: Vec<u64>,
    /// Scratch lists of [`Values::expand`], reused.
    kept: Vec<(u32, Pending)>,
    distinct: Vec<(u32, Pending)>,
    budget: Budget,
    /// This search's witness and excluded maps, in the count the memory cap
    /// reads: they hold several times as many entries as the table (on Cram
    /// 4x11, 3.5 million witnesses for 0.5 million values), and a cap on
    /// the table alone let a search on Cram 5x10 grow past 24 GB.
    share: Share,
}

/// One holder's part of the producer's memory count, in memo entries of
/// [`BYTES_PER_ENTRY`] bytes: what it last published into a total shared
/// by every holder (each search thread's maps, the proof writer's maps and
/// records), which the memory cap reads beside the table of values.
pub struct Share {
    total: Arc<AtomicUsize>,
    published: usize,
}

impl Share {
    /// A holder with nothing published yet, on the total `total`.
    fn on(total: &Arc<AtomicUsize>) -> Share {
        Share {
            total: Arc::clone(total),
            published: 0,
        }
    }

    /// Another holder on the same total.
    pub fn another(&self) -> Share {
        Share::on(&self.total)
    }

    /// Sets this holder's part to `entries`.
    pub fn publish(&mut self, entries: usize) {
        if entries != self.published {
            // Wrapping, so that a smaller part subtracts.
            self.total
                .fetch_add(entries.wrapping_sub(self.published), Ordering::Relaxed);
            self.published = entries;
        }
    }

    /// Counts `entries` held by something on its way to another holder
    /// (which counts it off with [`Share::received`] once it takes it).
    pub fn sent(&self, entries: usize) {
        self.total.fetch_add(entries, Ordering::Relaxed);
    }

    /// Counts off `entries` that were [`Share::sent`].
    pub fn received(&self, entries: usize) {
        self.total.fetch_sub(entries, Ordering::Relaxed);
    }

    /// The total of every holder's part.
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }
}

/// A holder that ends no longer holds its part (a helper's maps when it
/// stops, its witness map when the search that absorbed it ends, the
/// writer's when it is done).
impl Drop for Share {
    fn drop(&mut self) {
        self.total.fetch_sub(self.published, Ordering::Relaxed);
    }
}

impl Values {
    /// An empty search for components of `rules`.
    pub fn new(rules: GridRules, budget: Budget) -> Values {
        let total = Arc::<AtomicUsize>::default();
        Values {
            rules,
            table: MemoHandle::capped(GrowthCap {
                max_entries: budget.max_entries(),
                others: Arc::clone(&total),
            }),
            witnesses: FastMap::default(),
            absorbed: Vec::new(),
            excluded: FastMap::default(),
            shapes: ShapeMaps::default(),
            pool: Vec::new(),
            moves: Vec::new(),
            kept: Vec::new(),
            distinct: Vec::new(),
            budget,
            share: Share::on(&total),
        }
    }

    /// `helpers` searches sharing this one's table of exact values, for
    /// [`Values::value_shared`] and [`Values::value_up_to_shared`].
    pub fn crew(&self, helpers: usize) -> Crew {
        let cancel = Arc::new(AtomicBool::new(false));
        let searches = (0..helpers)
            .map(|_| Values {
                rules: self.rules,
                table: self.table.share(),
                witnesses: FastMap::default(),
                absorbed: Vec::new(),
                excluded: FastMap::default(),
                shapes: ShapeMaps::default(),
                pool: Vec::new(),
                moves: Vec::new(),
                kept: Vec::new(),
                distinct: Vec::new(),
                budget: self.budget.helper(Arc::clone(&cancel)),
                share: self.share.another(),
            })
            .collect();
        Crew { searches, cancel }
    }

    /// Keeps the option values the searches of `crew` met; the rest of
    /// their maps is freed.
    pub fn absorb(&mut self, crew: Crew) {
        for other in crew.searches {
            let Values {
                witnesses,
                mut share,
                ..
            } = other;
            share.publish(slots_as_entries(&witnesses));
            self.absorbed.push((witnesses, share));
        }
    }

    /// The entries the searches sharing the table hold, as the memory cap
    /// counts them: the table's values and every holder's part (each
    /// search's witness and excluded maps, the proof writer's maps and
    /// records). This search's maps are published first, as they change.
    fn held(&mut self) -> usize {
        self.share
            .publish(slots_as_entries(&self.witnesses) + slots_as_entries(&self.excluded));
        self.table.charged().saturating_add(self.share.total())
    }

    /// A part of the memory count this search's cap reads, for what the
    /// proof writer holds.
    pub fn share(&self) -> Share {
        self.share.another()
    }

    /// Exact values found so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no value has been found yet.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// The value of a canonical component, if known without search.
    pub fn known(&mut self, grid: &Grid) -> Option<u8> {
        known_in(self.table.table(), self.rules, grid)
    }

    /// The number of an option of value `m` of `grid`, if the search met one.
    pub fn witness(&self, grid: &Grid, m: u8) -> Option<usize> {
        std::iter::once(&self.witnesses)
            .chain(self.absorbed.iter().map(|(map, _)| map))
            .find_map(|map| map.get(grid)?.find(m))
    }

    /// Keeps the option values the expansion `x` of `grid` found. When the
    /// expansion found the value v, every m < v is among them: m was
    /// removed from the candidates by an option of value m (one removed as
    /// the largest would have been above the value).
    fn remember(&mut self, grid: Grid, x: &Expansion) {
        if x.known.is_empty() && x.found.is_empty() {
            return;
        }
        let found = self.witnesses.entry(grid).or_default();
        for &(v, i) in x.known.iter().chain(&x.found) {
            found.add(v, i);
        }
    }

    /// The options of a canonical component in the kernel's move order,
    /// each as the canonical components it leaves, every one listed (the
    /// search's own expansion folds paths and tiny parts into a value, which
    /// the kernel's normal form does only for parts of at most 8 cells: a
    /// certificate must prove the rest).
    pub fn options(&mut self, grid: Grid) -> Result<Vec<Vec<Grid>>, Stop> {
        let mut out = Vec::new();
        let rules = self.rules;
        let held = self.held();
        let budget = &mut self.budget;
        budget.expand(held)?;
        grid.for_each_move(rules, &mut |placed| {
            if out.len() >= MAX_OPTIONS {
                return Err(Stop::TooManyOptions);
            }
            out.push(grid.with(grid.free & !placed).components(rules));
            budget.tick().map_err(Stop::Exhausted)
        })?;
        Ok(out)
    }

    /// The components option `index` of a canonical component leaves (as
    /// in [`Values::options`]), or none when there is no such option.
    pub fn option(&mut self, grid: Grid, index: usize) -> Result<Vec<Grid>, Stop> {
        let mut seen = 0;
        let mut parts = Vec::new();
        let rules = self.rules;
        grid.for_each_move(rules, &mut |placed| {
            if seen == index {
                parts = grid.with(grid.free & !placed).components(rules);
            }
            seen += 1;
            self.budget.tick()
        })?;
        Ok(parts)
    }

    /// Whether the sum of canonical components `parts` and a heap of
    /// `heap` has value `target`: all components but the hardest valued,
    /// the hardest asked whether it has the value that makes up `target`.
    pub fn sum_has_value(&mut self, parts: &[Grid], heap: u32, target: u8) -> Result<bool, Stop> {
        self.sum_has_value_shared(parts, heap, target, &mut Crew::default())
    }

    /// As [`Values::sum_has_value`], with the questions shared among this
    /// search and `crew` as in [`Values::value_shared`] and
    /// [`Values::value_up_to_shared`].
    pub fn sum_has_value_shared(
        &mut self,
        parts: &[Grid],
        heap: u32,
        target: u8,
        crew: &mut Crew,
    ) -> Result<bool, Stop> {
        if parts.is_empty() {
            return Ok(heap == u32::from(target));
        }
        let hardest = hardest(parts);
        let mut rest = heap ^ u32::from(target);
        for (i, &part) in parts.iter().enumerate() {
            if i != hardest {
                rest ^= u32::from(self.value_shared(part, crew)?);
            }
        }
        Ok(match u8::try_from(rest) {
            Ok(w) => self.value_up_to_shared(parts[hardest], w, crew)? == Some(w),
            Err(_) => false,
        })
    }

    /// The exact value of a canonical component.
    pub fn value(&mut self, grid: Grid) -> Result<u8, Stop> {
        if let Some(v) = self.known(&grid) {
            return Ok(v);
        }
        let mut x = self.expand(grid, None)?;
        let mut skip = x.known_values();
        let mut result = None;
        'candidates: for candidate in 0..=x.count {
            let candidate = candidate as u8;
            if skip.contains(candidate) {
                continue;
            }
            let mut i = 0;
            while i < x.pending.len() {
                match self.ask_option(&mut x, i, candidate, &mut skip)? {
                    Some(v) if v == candidate => continue 'candidates,
                    Some(_) => {}
                    None => i += 1,
                }
            }
            result = Some(candidate);
            break;
        }
        Ok(self.settle(grid, x, result))
    }

    /// The exact value of a canonical component, as [`Values::value`] finds
    /// it, with the questions about its options shared among this search and
    /// the searches of `crew` (made by [`Values::crew`]).
    ///
    /// For each candidate v in turn, every option still pending is asked
    /// "is your value v?" ([`Values::round`]). When an option has value v,
    /// v is not the value and the next candidate is taken; when none has,
    /// v is the value.
    pub fn value_shared(&mut self, grid: Grid, crew: &mut Crew) -> Result<u8, Stop> {
        if crew.searches.is_empty() {
            return self.value(grid);
        }
        if let Some(v) = self.known(&grid) {
            return Ok(v);
        }
        let mut x = self.expand(grid, None)?;
        let mut skip = x.known_values();
        let mut result = None;
        for candidate in 0..=x.count {
            let candidate = candidate as u8;
            if !skip.contains(candidate) && !self.round(&mut x, candidate, &mut skip, crew)? {
                result = Some(candidate);
                break;
            }
        }
        Ok(self.settle(grid, x, result))
    }

    /// Whether the value of a canonical component is `w`: its exact value
    /// when that is at most `w`, `None` when it is not `w` (it may still be
    /// smaller), with the questions shared as in [`Values::value_shared`].
    ///
    /// First every option is asked whether its value is `w` (one round, the
    /// whole outcome search when `w` is 0); when none is, the value is the
    /// least m <= `w` that no option has, and the rounds for m < `w` not
    /// settled by options met so far find it.
    pub fn value_up_to_shared(
        &mut self,
        grid: Grid,
        w: u8,
        crew: &mut Crew,
    ) -> Result<Option<u8>, Stop> {
        if crew.searches.is_empty() {
            return self.value_in(grid, ValueSet::one(w));
        }
        if let Some(v) = self.known(&grid) {
            return Ok(Some(v));
        }
        let mut x = self.expand(grid, None)?;
        let mut skip = x.known_values();
        if skip.contains(w) || self.round(&mut x, w, &mut skip, crew)? {
            self.remember(grid, &x);
            self.pool.push(x);
            return Ok(None);
        }
        let mut result = Some(w);
        for m in 0..w {
            if !skip.contains(m) && !self.round(&mut x, m, &mut skip, crew)? {
                result = Some(m);
                break;
            }
        }
        Ok(Some(self.settle(grid, x, result)))
    }

    /// Asks every option of `x` still pending whether its value is
    /// `candidate`, whichever thread is free taking the next option, and
    /// returns whether one has it. Options found to have an exact value
    /// leave the pending list, their values go to `skip` and `x.found`.
    /// After a hit the other threads are stopped (their open questions are
    /// lost, and asked again in a later round); without a hit, a question a
    /// stopped helper left open is asked here.
    fn round(
        &mut self,
        x: &mut Expansion,
        candidate: u8,
        skip: &mut ValueSet,
        crew: &mut Crew,
    ) -> Result<bool, Stop> {
        let answers = self.ask_shared(x, candidate, crew)?;
        let mut hit = false;
        let mut open = Vec::with_capacity(x.pending.len());
        for (p, answer) in x.pending.iter().zip(answers) {
            match answer {
                Some(Some(v)) => {
                    x.found.push((v, p.index));
                    hit |= v == candidate;
                    skip.insert(v);
                }
                // Not `candidate` (or, after a hit, not asked): still pending.
                _ => open.push((*p, answer.is_some())),
            }
        }
        x.pending = open.iter().map(|&(p, _)| p).collect();
        if hit {
            return Ok(true);
        }
        let mut i = 0;
        for &(_, answered) in &open {
            if answered {
                i += 1;
                continue;
            }
            match self.ask_option(x, i, candidate, skip)? {
                Some(v) if v == candidate => return Ok(true),
                Some(_) => {}
                None => i += 1,
            }
        }
        Ok(false)
    }

    /// Asks pending option `i` of `x` whether its value is `candidate`.
    /// When the search finds the option's value (`candidate` or another),
    /// the option leaves the pending list and its value, returned, goes to
    /// `x.found` and `skip`.
    fn ask_option(
        &mut self,
        x: &mut Expansion,
        i: usize,
        candidate: u8,
        skip: &mut ValueSet,
    ) -> Result<Option<u8>, Stop> {
        let answer = self.option_in(x, i, ValueSet::one(candidate))?;
        if let Some(v) = answer {
            let found = x.pending.remove(i);
            x.found.push((v, found.index));
            skip.insert(v);
        }
        Ok(answer)
    }

    /// Stores the value an aspiration loop over the expansion `x` of
    /// `grid` ended at, with the option values it met.
    fn settle(&mut self, grid: Grid, x: Expansion, result: Option<u8>) -> u8 {
        // The loop always ends at a candidate: count + 1 candidates, count options.
        let value = result.unwrap_or(0);
        self.table.insert(self.rules, &grid, u32::from(value));
        self.remember(grid, &x);
        self.pool.push(x);
        value
    }

    /// One round of [`Values::value_shared`]: per pending option of `x`,
    /// `Some(answer)` to "is your value `candidate`?" (`answer` is its value
    /// when found), or `None` when the question was not asked or not
    /// finished (after a hit, or by a stopped helper).
    fn ask_shared(
        &mut self,
        x: &Expansion,
        candidate: u8,
        crew: &mut Crew,
    ) -> Result<Vec<Option<Option<u8>>>, Stop> {
        let Crew { searches, cancel } = crew;
        // The options not yet taken, from the easiest (the calling thread
        // takes from this end, where a hit is found soonest) to the hardest
        // (the helpers take from this end, so that in a round without a
        // hit the hardest questions start early and none is left running
        // alone at the end).
        let untaken = Mutex::new(0..x.pending.len());
        let hit = AtomicBool::new(false);
        let answers = Mutex::new(vec![None; x.pending.len()]);
        let ask =
            |values: &mut Values, mut mine: Expansion, hardest_first: bool| -> Result<(), Stop> {
                while !hit.load(Ordering::Relaxed) {
                    // A poisoned lock only means another thread panicked.
                    let mut range = untaken.lock().unwrap_or_else(|e| e.into_inner());
                    let taken = if hardest_first {
                        range.next_back()
                    } else {
                        range.next()
                    };
                    drop(range);
                    let Some(i) = taken else {
                        break;
                    };
                    let answer = values.option_in(&mut mine, i, ValueSet::one(candidate))?;
                    if answer == Some(candidate) {
                        hit.store(true, Ordering::Relaxed);
                        cancel.store(true, Ordering::Relaxed);
                    }
                    // A poisoned lock only means another thread panicked.
                    answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(answer);
                }
                values.pool.push(mine);
                Ok(())
            };
        let mine = std::thread::scope(|scope| {
            for helper in searches.iter_mut() {
                let copy = x.clone();
                // A helper that cannot be started only costs speed.
                let _ = std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, || {
                        // A stopped helper's open question is asked again.
                        let _ = ask(helper, copy, true);
                    });
            }
            let mine = ask(self, x.clone(), false);
            if mine.is_err() {
                // Out of budget: the helpers stop too.
                cancel.store(true, Ordering::Relaxed);
            }
            mine
        });
        cancel.store(false, Ordering::Relaxed);
        mine?;
        Ok(answers.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// The value of a canonical component, or `None` when it is shown not
    /// to lie in `wanted` (a value outside `wanted` may still be returned:
    /// whatever is found exactly is worth having).
    pub fn value_in(&mut self, grid: Grid, wanted: ValueSet) -> Result<Option<u8>, Stop> {
        if let Some(v) = self.known(&grid) {
            return Ok(Some(v));
        }
        let excluded = self.excluded.get(&grid).copied().unwrap_or(0);
        let wanted = wanted.without_low(excluded);
        if wanted.is_empty() {
            return Ok(None);
        }
        let mut x = self.expand(grid, Some(wanted))?;
        if x.settled {
            self.pool.push(x);
            return Ok(None);
        }
        let mut candidates = ValueSet::below(x.count + 1);
        for &(v, _) in &x.known {
            remove_one(&mut candidates, v);
        }
        let ceiling = wanted.up_to_largest();
        let mut exact = true;
        let mut i = 0;
        let mut answer = None;
        while i < x.pending.len() {
            if !candidates.meets(&wanted) {
                break;
            }
            let below_largest = candidates.without_largest();
            match self.option_in(&mut x, i, below_largest.and(&ceiling))? {
                Some(v) => {
                    remove_one(&mut candidates, v);
                    x.found.push((v, x.pending[i].index));
                }
                None => {
                    candidates = below_largest;
                    exact = false;
                }
            }
            i += 1;
        }
        if i == x.pending.len() && (exact || candidates.meets(&ceiling)) {
            // One candidate is left, and it is the value (see the module doc).
            let value = candidates.least().unwrap_or(0);
            self.table.insert(self.rules, &grid, u32::from(value));
            answer = Some(value);
        } else {
            // The candidates up to the ceiling are still exact (options
            // not asked about them only removed larger ones): the value
            // is none of the others.
            self.exclude(grid, ceiling.low_bits() & !candidates.low_bits());
        }
        self.remember(grid, &x);
        self.pool.push(x);
        Ok(answer)
    }

    /// Notes that `grid`'s value is none of the values of the mask `bits`.
    fn exclude(&mut self, grid: Grid, bits: u128) {
        if self.excluded.len() >= MAX_EXCLUDED {
            self.excluded.clear();
        }
        *self.excluded.entry(grid).or_default() |= bits;
    }

    /// Whether option `i` of `x` has a value in `wanted`: its components
    /// but the first are valued exactly, the first is asked the question.
    fn option_in(
        &mut self,
        x: &mut Expansion,
        i: usize,
        wanted: ValueSet,
    ) -> Result<Option<u8>, Stop> {
        let Pending {
            start, len, value, ..
        } = x.pending[i];
        let mut value = value;
        for k in (start + 1..start + len).rev() {
            value ^= self.value(x.parts[k])?;
        }
        x.pending[i] = Pending {
            len: 1,
            value,
            ..x.pending[i]
        };
        let first = x.parts[start];
        Ok(self
            .value_in(first, wanted.xored(value))?
            .map(|v| v ^ value))
    }

    /// The options of `grid` with known components valued, the rest
    /// ordered easiest first, each option's components hardest first, and
    /// options that are the same sum listed once (a symmetric position has
    /// many moves to one position, and a question about one option asked
    /// twice would be searched twice). `count` becomes the number of
    /// distinct option values possible: known values plus pending options.
    ///
    /// Settled, and not ordered, when the options valued on the way
    /// already show that the value is not in `wanted` (see [`Values::scan`]).
    fn expand(&mut self, grid: Grid, wanted: Option<ValueSet>) -> Result<Expansion, Stop> {
        let mut x = self.scan(grid, wanted)?;
        if x.settled {
            return Ok(x);
        }
        // Buffers kept between expansions: this runs for every position.
        let mut kept = std::mem::take(&mut self.kept);
        let mut distinct = std::mem::take(&mut self.distinct);
        kept.clear();
        distinct.clear();
        for &p in &x.pending {
            let range = &mut x.parts[p.start..p.start + p.len];
            range.sort_unstable_by(|a, b| (b.free.count_ones(), b).cmp(&(a.free.count_ones(), a)));
            kept.push((effort(range), p));
        }
        let parts = &x.parts;
        let slice = |p: &Pending| &parts[p.start..p.start + p.len];
        // Among equals, the kernel's move order (`index`).
        kept.sort_unstable_by_key(|&(effort, p)| (effort, p.off_centre, p.index));
        // Moves to one position (images of each other, mostly) have the
        // same key; each is kept once.
        let mut run = 0;
        for &(effort, p) in &kept {
            if let Some(&(e, q)) = distinct.last()
                && (e, q.off_centre) != (effort, p.off_centre)
            {
                run = distinct.len();
            }
            let seen = distinct[run..]
                .iter()
                .any(|(_, q)| q.value == p.value && slice(q) == slice(&p));
            if !seen {
                distinct.push((effort, p));
            }
        }
        x.known.sort_unstable();
        x.known.dedup_by_key(|&mut (v, _)| v);
        x.count = x.known.len() + distinct.len();
        x.pending.clear();
        x.pending.extend(distinct.iter().map(|&(_, p)| p));
        self.kept = kept;
        self.distinct = distinct;
        Ok(x)
    }

    /// The options of `grid` in the kernel's move order, split, each
    /// component of known value folded into the option's value: options
    /// left with no component go to `known`, the others to `pending`.
    ///
    /// With a `wanted` set, stops early (`settled`) once the known options
    /// show that the value is not in it (by the candidate count of the
    /// module doc, with one candidate per move) and some option is
    /// pending: the question is answered without the rest of the moves.
    /// While every option met is known the scan goes on, since a component
    /// whose options are all known gets its exact value for free. The
    /// options met are remembered and the values ruled out are noted.
    fn scan(&mut self, grid: Grid, wanted: Option<ValueSet>) -> Result<Expansion, Stop> {
        let held = self.held();
        self.budget.expand(held)?;
        let mut x = self.pool.pop().unwrap_or_default();
        x.parts.clear();
        x.pending.clear();
        x.known.clear();
        x.found.clear();
        x.count = 0;
        x.settled = false;
        let rules = self.rules;
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let listed = grid.for_each_move(rules, &mut |placed| {
            if moves.len() >= MAX_OPTIONS {
                return Err(Stop::TooManyOptions);
            }
            moves.push(placed);
            Ok(())
        });
        if let Err(e) = listed {
            self.moves = moves;
            self.pool.push(x);
            return Err(e);
        }
        let images = self.shapes.images(&grid);
        let table = self.table.table();
        let mut candidates = ValueSet::below(moves.len() + 1);
        let mut settled = false;
        let mut ticked = Ok(());
        // Moves are split a few at a time and their components' table
        // slots fetched together: most lookups miss the cache, and waiting
        // for them one by one cost more than splitting a move too many.
        let mut ends = [0usize; CHUNK];
        let mut smalls = [0u8; CHUNK];
        'chunks: for (chunk, placed) in moves.chunks(CHUNK).enumerate() {
            let mut read = x.parts.len();
            for (k, &placed) in placed.iter().enumerate() {
                ticked = self.budget.tick();
                if ticked.is_err() {
                    break 'chunks;
                }
                smalls[k] = grid.parts_after(rules, placed, &images, &mut x.parts) as u8;
                ends[k] = x.parts.len();
            }
            for part in &x.parts[read..] {
                table.prefetch(rules, part);
            }
            for (k, &placed) in placed.iter().enumerate() {
                if settled && !x.pending.is_empty() {
                    break 'chunks;
                }
                // Pending options' components are moved down over those
                // of known values: `start` never passes `read`.
                let start = parts_end(&x.pending);
                let mut value = smalls[k];
                let mut len = 0;
                while read < ends[k] {
                    let part = x.parts[read];
                    read += 1;
                    match known_in(table, rules, &part) {
                        Some(v) => value ^= v,
                        None => {
                            x.parts[start + len] = part;
                            len += 1;
                        }
                    }
                }
                // Below MAX_OPTIONS (checked when listed), so it fits.
                let index = (chunk * CHUNK + k) as u8;
                if len == 0 {
                    x.known.push((value, index));
                    remove_one(&mut candidates, value);
                    settled |= wanted.is_some_and(|w| !candidates.meets(&w));
                } else {
                    x.pending.push(Pending {
                        start,
                        len,
                        value,
                        index,
                        off_centre: off_centre(&grid, placed),
                    });
                }
            }
            x.parts.truncate(parts_end(&x.pending));
        }
        x.parts.truncate(parts_end(&x.pending));
        self.moves = moves;
        if let Err(e) = ticked {
            self.pool.push(x);
            return Err(Stop::Exhausted(e));
        }
        if settled && !x.pending.is_empty() {
            // Every value outside the candidates is ruled out.
            self.exclude(grid, !candidates.low_bits());
            self.remember(grid, &x);
            x.settled = true;
        }
        Ok(x)
    }
}

/// Where the components of the last of `pending` end in the expansion's
/// list (0 when there is none): the components of pending options are
/// stored one option after another.
fn parts_end(pending: &[Pending]) -> usize {
    pending.last().map_or(0, |p| p.start + p.len)
}

/// The distance of the cells of `placed` from the centre of `grid`, in
/// half cells.
fn off_centre(grid: &Grid, placed: u64) -> u32 {
    let (h, w) = (i64::from(grid.rows), i64::from(grid.cols));
    let mut rest = placed;
    let mut distance = 0;
    while rest != 0 {
        let i = i64::from(rest.trailing_zeros());
        rest &= rest - 1;
        distance += (2 * (i / w) - (h - 1)).abs() + (2 * (i % w) - (w - 1)).abs();
    }
    distance as u32
}

/// The memory of a map in memo entries of [`BYTES_PER_ENTRY`] bytes: its
/// slots (capacity, not length: the memory is the slots, and the map
/// doubles them at once), each with its control byte and the eighth of
/// buckets a map keeps empty. A full map counts as its slots and the twice
/// as many its next insertion moves them into, which it holds at once.
pub fn slots_as_entries<K, V>(map: &FastMap<K, V>) -> usize {
    let bucket = std::mem::size_of::<(K, V)>() + 1;
    let slots = if map.len() == map.capacity() {
        3 * map.capacity()
    } else {
        map.capacity()
    };
    slots * bucket * 8 / 7 / BYTES_PER_ENTRY
}

/// The value of a canonical component of `rules` when `table` holds it or
/// the mirror rule gives it.
#[inline]
fn known_in(table: &Table, rules: GridRules, grid: &Grid) -> Option<u8> {
    if rules == GridRules::Cram && mirrored_second_player_win(*grid) {
        return Some(0);
    }
    // Values are below 256: they are stored from `u8`.
    table.get(rules, grid).map(|v| v as u8)
}

/// The index of the component with the most cells.
pub fn hardest(parts: &[Grid]) -> usize {
    (0..parts.len())
        .max_by_key(|&i| parts[i].free.count_ones())
        .unwrap_or(0)
}

/// Removes `v` from the candidates when it is one, else the largest.
fn remove_one(candidates: &mut ValueSet, v: u8) {
    if candidates.contains(v) {
        candidates.remove(v);
    } else if let Some(largest) = candidates.largest() {
        candidates.remove(largest);
    }
}

/// How hard an option is, roughly: the sum of the squares of its
/// components' cells (igsolve's Cram order: small pieces first).
fn effort(parts: &[Grid]) -> u32 {
    parts.iter().map(|g| g.free.count_ones().pow(2)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn witnesses_keep_four_pairs_at_the_extremes() {
        let mut w = Witnesses::default();
        w.add(0, 0);
        w.add(255, 254);
        w.add(0, 7); // a second option of value 0 is not kept
        w.add(3, 1);
        w.add(9, 2);
        w.add(10, 3); // no slot left
        assert_eq!(w.find(0), Some(0));
        assert_eq!(w.find(255), Some(254));
        assert_eq!(w.find(3), Some(1));
        assert_eq!(w.find(9), Some(2));
        assert_eq!(w.find(10), None);
        assert_eq!(w.pairs().count(), 4);
    }

    /// A helper that stops (here: at its first expansion) leaves its
    /// questions open; the main search asks them itself and still finds
    /// the value a search alone finds.
    #[test]
    fn questions_a_stopped_helper_left_open_are_asked_by_the_main_search() {
        use crate::kernel::budget::DEFAULT_MAX_ENTRIES;
        for (rows, cols) in [(3, 7), (4, 5), (3, 8), (4, 7), (5, 5)] {
            let grid = Grid::empty_board(rows, cols).expect("fits").canonical();
            let mut alone = Values::new(GridRules::Cram, Budget::unlimited());
            let truth = alone.value(grid).expect("decided");
            // Helpers started before the main search's own questions claim
            // some options first (more helpers than cores, to be sure).
            let failing_crew = |main: &Values| {
                let mut crew = main.crew(4);
                for helper in &mut crew.searches {
                    helper.budget = Budget::new(Some(0), None, DEFAULT_MAX_ENTRIES);
                }
                crew
            };
            let mut main = Values::new(GridRules::Cram, Budget::unlimited());
            let shared = main.value_shared(grid, &mut failing_crew(&main));
            assert_eq!(shared.expect("decided"), truth, "{rows}x{cols}");
            for w in 0..=truth + 1 {
                let mut main = Values::new(GridRules::Cram, Budget::unlimited());
                let found = main.value_up_to_shared(grid, w, &mut failing_crew(&main));
                let found = found.expect("decided");
                // The exact value when it is found; found when it is w.
                assert!(found.is_none_or(|v| v == truth), "{rows}x{cols} {w}");
                assert_eq!(found == Some(w), truth == w, "{rows}x{cols} {w}");
            }
        }
    }

    #[test]
    fn value_sets_keep_the_extremes() {
        let all = ValueSet::below(256);
        assert_eq!(all.largest(), Some(255));
        assert_eq!(all.without_largest().largest(), Some(254));
        assert_eq!(ValueSet::one(130).xored(3), ValueSet::one(129));
        assert_eq!(ValueSet::one(127).up_to_largest(), ValueSet::below(128));
        assert!(!ValueSet::one(5).meets(&ValueSet::below(5)));
    }

    #[test]
    fn holders_add_up_and_leave_nothing_behind() {
        let total = Arc::<AtomicUsize>::default();
        let mut search = Share::on(&total);
        let mut writer = search.another();
        search.publish(10);
        writer.publish(5);
        writer.sent(3);
        assert_eq!(search.total(), 18);
        search.publish(4);
        writer.received(3);
        assert_eq!(search.total(), 9);
        drop(writer);
        assert_eq!(search.total(), 4);
        drop(search);
        assert_eq!(total.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_full_map_counts_the_slots_its_next_insertion_holds() {
        let mut map = FastMap::<u64, u64>::default();
        map.reserve(1000);
        let capacity = map.capacity();
        let bytes = capacity * (size_of::<(u64, u64)>() + 1) * 8 / 7;
        while map.len() < capacity - 1 {
            map.insert(map.len() as u64, 0);
        }
        assert_eq!(slots_as_entries(&map), bytes / BYTES_PER_ENTRY);
        map.insert(u64::MAX, 0);
        assert_eq!(map.capacity(), capacity);
        assert_eq!(slots_as_entries(&map), 3 * bytes / BYTES_PER_ENTRY);
    }
}
