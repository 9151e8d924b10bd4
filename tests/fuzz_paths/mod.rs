//! The code paths the fuzz targets drive, shared with the regression test.
//!
//! `fuzz/fuzz_targets/*.rs` include this file by path and
//! `tests/fuzz_regressions.rs` includes it as a module, so a file saved in
//! `fuzz/regressions/<target>/` is replayed by `cargo test` through exactly
//! the code the fuzzer ran on it, without the test depending on the fuzz
//! crate or on libFuzzer. Everything here uses only the public library API.
#![allow(dead_code)]

use std::time::Duration;

use gamecert::driver::{CheckOptions, Limits, check_source};
use gamecert::syntax::ast::*;
use gamecert::syntax::parse_file;

/// The per-claim limits of the `check_claim` target: small enough that a
/// certificate of a few claims finishes in well under a second when every
/// search respects its budget, so anything slower is a search that does not.
pub fn tiny_options() -> CheckOptions {
    CheckOptions {
        jobs: 1,
        limits: Limits {
            max_nodes: Some(20_000),
            time: Some(Duration::from_millis(200)),
            max_entries: 100_000,
        },
        timings: false,
        only: None,
    }
}

/// The `parse` target: any bytes (decoded lossily, so every input reaches
/// the parser) parse without a panic, and every span of the tree and of the
/// errors lies inside the text, on character boundaries.
pub fn parse(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let file = parse_file(&text);
    Spans::new(&text).file(&file);
}

/// The `elaborate` target: parse, then elaborate without reading any file
/// (includes and card files are refused) within the tiny limits of
/// `check_claim`, and the elaborator's spans are
/// in bounds too (the diagnostics underline them).
pub fn elaborate(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let file = parse_file(&text);
    // Within the tiny limits: a `search board` hint under the default ones
    // may search for its full two minutes by design.
    let no_files = |path: &Spanned<String>, _: Option<&Spanned<String>>, _: u64| {
        Err(gamecert::elaborate::ElabError {
            kind: gamecert::elaborate::ElabErrorKind::Internal("no files".into()),
            span: path.span,
        })
    };
    let limits = tiny_options().limits;
    let claims = gamecert::elaborate::claims_reading(&file, &no_files, &limits);
    let spans = Spans::new(&text);
    for claim in &claims {
        spans.span(claim.span, "elaborated claim");
        if let Err(e) = &claim.explicit {
            spans.span(e.span, "elaboration error");
        }
    }
}

/// The `check_claim` target: a certificate checked end to end under
/// [`tiny_options`]; the report's error offsets must lie in the text.
pub fn check(text: &str) {
    let outcome = check_source("fuzz.cert", text, &tiny_options());
    let spans = Spans::new(text);
    for file in &outcome.report.files {
        for e in &file.errors {
            spans.span(Span::new(e.start, e.end), "reported error");
        }
    }
}

/// Asserts that spans are ranges of the text on character boundaries
/// (the diagnostics slice the source with them).
pub struct Spans<'a> {
    text: &'a str,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str) -> Self {
        Spans { text }
    }

    pub fn span(&self, span: Span, what: &str) {
        let (start, end, len) = (span.start, span.end, self.text.len());
        assert!(
            start <= end && end <= len,
            "{what}: span {start}..{end} outside the text of {len} bytes"
        );
        assert!(
            self.text.is_char_boundary(start) && self.text.is_char_boundary(end),
            "{what}: span {start}..{end} not on character boundaries"
        );
    }

    fn spanned<T>(&self, s: &Spanned<T>, what: &str) {
        self.span(s.span, what);
    }

    fn cells(&self, cells: &[Spanned<Vec<i64>>], what: &str) {
        for c in cells {
            self.spanned(c, what);
        }
    }

    fn rows(&self, rows: &[Spanned<String>], what: &str) {
        for r in rows {
            self.spanned(r, what);
        }
    }

    fn ids<T>(&self, ids: &[Spanned<T>], what: &str) {
        for id in ids {
            self.spanned(id, what);
        }
    }

    /// Every span of the tree. The matches are exhaustive on purpose: a new
    /// node kind fails to compile here until its spans are checked too.
    pub fn file(&self, file: &File) {
        for e in &file.errors {
            self.span(e.span, "syntax error");
        }
        for item in &file.items {
            match item {
                Item::Include(i) => {
                    self.span(i.span, "include");
                    self.spanned(&i.path, "include path");
                    if let Some(pin) = &i.sha256 {
                        self.spanned(pin, "include pin");
                    }
                }
                Item::Claim(c) => self.claim(c),
                Item::Board(b) => {
                    self.span(b.span, "board");
                    self.spanned(&b.name, "board name");
                    self.spanned(&b.kind, "board kind");
                    self.spanned(&b.args, "board arguments");
                    match &b.body {
                        None => {}
                        Some(BoardBody::Picture(rows)) => self.rows(rows, "board picture row"),
                        Some(BoardBody::Graph(edges)) => {
                            for e in edges {
                                self.spanned(e, "graph edge");
                            }
                        }
                        Some(BoardBody::Tiling(lines)) => {
                            for line in lines {
                                self.span(line.span, "tiling line");
                                self.spanned(&line.key, "tiling entry");
                                if let Some(word) = &line.word {
                                    self.spanned(word, "tiling basis");
                                }
                                self.cells(&line.tuples, "tiling point");
                            }
                        }
                    }
                }
                Item::Animal(a) => {
                    self.span(a.span, "animal");
                    self.spanned(&a.name, "animal name");
                    self.spanned(&a.board, "animal board");
                    match &a.cells {
                        AnimalCells::Coordinates(cells) => self.cells(cells, "animal cell"),
                        AnimalCells::Picture(rows) => self.rows(rows, "animal picture row"),
                    }
                }
            }
        }
    }

    fn claim(&self, c: &Claim) {
        self.span(c.span, "claim");
        self.spanned(&c.id, "claim id");
        self.spanned(&c.statement, "statement");
        self.spanned(&c.method, "method");
        match &c.statement.node {
            Statement::Grundy { game, value, .. } => {
                self.game(game);
                self.spanned(value, "grundy value");
            }
            Statement::Outcome { game, outcome, .. } => {
                self.game(game);
                self.spanned(outcome, "outcome");
            }
            Statement::Value { game, value } => {
                self.game(game);
                self.game(value);
            }
            Statement::Compare {
                left,
                relation,
                right,
            } => {
                self.game(left);
                self.spanned(relation, "relation");
                self.game(right);
            }
            Statement::Number { game } => self.game(game),
            Statement::Period {
                code,
                preperiod,
                period,
                values,
            } => {
                self.spanned(code, "octal code");
                self.spanned(preperiod, "preperiod");
                self.spanned(period, "period");
                if let Some(values) = values {
                    self.spanned(values, "values");
                }
            }
            Statement::CountAnimals {
                board, size, count, ..
            } => {
                self.spanned(board, "board name");
                self.spanned(size, "size");
                self.spanned(count, "count");
            }
            Statement::CountPositions { game, count, .. } => {
                self.game(game);
                self.spanned(count, "count");
            }
            Statement::Winner {
                animal,
                board,
                game,
            }
            | Statement::Loser {
                animal,
                board,
                game,
            } => {
                self.spanned(animal, "animal name");
                self.spanned(board, "board name");
                self.spanned(game, "maker game");
            }
            Statement::Threshold {
                animal,
                board,
                sequence,
            } => {
                self.spanned(animal, "animal name");
                self.spanned(board, "board name");
                self.spanned(sequence, "threshold sequence");
            }
            Statement::Bound {
                board,
                size,
                at_most,
            } => {
                self.spanned(board, "board name");
                if let Some(size) = size {
                    self.spanned(size, "size");
                }
                self.spanned(at_most, "bound");
            }
            Statement::Classify {
                board,
                winners,
                losers,
                ..
            } => {
                self.spanned(board, "board name");
                self.spanned(winners, "winners");
                self.spanned(losers, "losers");
            }
        }
        self.method(&c.method.node);
    }

    fn method(&self, m: &Method) {
        match m {
            Method::Search | Method::Definition | Method::Other(_) => {}
            Method::Table(rows) => {
                for row in rows {
                    self.game(&row.game);
                    self.spanned(&row.value, "table value");
                }
            }
            Method::Enumeration(ids) | Method::Citation(ids) => self.ids(ids, "citation"),
            Method::Pairing(body) => self.pairing(body),
            Method::Priority(body) => {
                self.span(body.span, "priority block");
                self.cells(&body.period, "period");
                self.ids(&body.order, "order key");
                for class in &body.classes {
                    self.spanned(&class.class, "class");
                    for rule in &class.rules {
                        self.cells(&rule.guard, "guard cell");
                        for list in &rule.lists {
                            self.cells(list, "priority list cell");
                        }
                    }
                }
            }
            Method::Derivation(steps) => {
                for step in steps {
                    self.game(&step.game);
                    self.spanned(&step.rule, "derivation rule");
                }
            }
            Method::ProofSequence(body) => self.proof(body),
            Method::LabelPairing(body) => {
                self.span(body.span, "label-pairing block");
                for n in body.labels.iter().chain(&body.pairs) {
                    self.spanned(n, "label");
                }
            }
            Method::Derived {
                rule,
                cites,
                placements,
            } => {
                self.spanned(rule, "derived rule");
                self.ids(cites, "citation");
                for p in placements {
                    self.cells(p, "placement cell");
                }
            }
            Method::Cards { path, sha256 } | Method::Answers { path, sha256 } => {
                self.spanned(path, "named file");
                if let Some(pin) = sha256 {
                    self.spanned(pin, "named file pin");
                }
            }
        }
    }

    fn map(&self, map: &Option<Spanned<MapAst>>) {
        if let Some(m) = map {
            self.spanned(m, "congruence");
        }
    }

    fn pairing(&self, body: &PairingBody) {
        self.span(body.span, "pairing block");
        self.cells(&body.period, "period");
        for (a, b) in &body.pairs {
            self.spanned(a, "pair cell");
            self.spanned(b, "pair cell");
        }
        for mv in &body.moves {
            self.spanned(&mv.mark, "move");
            match &mv.answer {
                MoveAnswerAst::Reply { reply, name, then } => {
                    self.cells(reply, "reply cell");
                    if let Some(name) = name {
                        self.spanned(name, "situation name");
                    }
                    self.pairing(then);
                }
                MoveAnswerAst::Same { reply, name, map } => {
                    self.cells(reply, "reply cell");
                    self.spanned(name, "situation name");
                    self.map(map);
                }
                MoveAnswerAst::Like { like, map } => {
                    self.spanned(like, "like cell");
                    self.map(map);
                }
            }
        }
    }

    fn proof(&self, body: &ProofBody) {
        for s in &body.situations {
            self.spanned(&s.name, "situation name");
            if let Some(t) = &s.turns {
                self.spanned(t, "turns");
            }
            self.cells(&s.core, "core cell");
            self.cells(&s.neighbourhood, "neighbourhood cell");
            if let Some(rows) = &s.picture {
                self.rows(rows, "situation picture row");
            }
            for o in &s.options {
                self.span(o.span, "option");
                if let Answer::Reply(cell) = &o.answer {
                    self.spanned(cell, "reply cell");
                }
                self.cells(&o.mark, "option cell");
                self.spanned(&o.target, "option target");
                self.map(&o.map);
            }
        }
        if let Some(start) = &body.start {
            self.spanned(&start.target, "start");
            self.map(&start.map);
        }
        if let Some(search) = &body.search {
            self.spanned(search, "search");
        }
    }

    fn game(&self, g: &Spanned<GameExpr>) {
        self.span(g.span, "game");
        match &g.node {
            GameExpr::Nim(heaps) => {
                for h in heaps {
                    self.spanned(h, "heap");
                }
            }
            GameExpr::Grid { board, .. } => self.spanned(board, "board"),
            GameExpr::Octal { code, heap } => {
                self.spanned(code, "octal code");
                self.spanned(heap, "heap");
            }
            GameExpr::Kayles(n) | GameExpr::Dawson(n) => self.spanned(n, "heap"),
            GameExpr::Sum(parts) => {
                for p in parts {
                    self.game(p);
                }
            }
            GameExpr::Options { left, right } => {
                for p in left.iter().chain(right) {
                    self.game(p);
                }
            }
            GameExpr::Number { .. } | GameExpr::Star(_) | GameExpr::Up(_) => {}
            GameExpr::PlusMinus(inner) | GameExpr::Neg(inner) => self.game(inner),
            GameExpr::Hackenbush { picture, .. } => self.spanned(picture, "hackenbush"),
            GameExpr::Domineering(board) => self.spanned(board, "board"),
        }
    }
}
