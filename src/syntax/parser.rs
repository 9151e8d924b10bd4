//! The nom parser: source text to [`File`], never failing and never panicking.
//!
//! Key decision: the parser works on `&str` slices of the original source and
//! recovers each span as the offset of a slice inside it, so spans are exact
//! byte offsets without a located-input crate. Errors are [`SyntaxError`]
//! values; after an error the parser skips to the next line that starts an
//! item (`claim` or `include`), so one file reports all its independent errors.

use nom::IResult;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::character::complete::{char, digit1};
use nom::combinator::{opt, recognize};
use nom::sequence::pair;

use super::ast::*;

/// Parses a whole file.
pub fn parse_file(source: &str) -> File {
    let mut p = Parser {
        source,
        errors: Vec::new(),
        depth: Default::default(),
    };
    let items = p.file();
    File {
        items,
        errors: p.errors,
    }
}

/// Parses a single game expression (the argument of `gamecert eval`).
pub fn parse_game(source: &str) -> Result<Spanned<GameExpr>, SyntaxError> {
    let p = Parser {
        source,
        errors: Vec::new(),
        depth: Default::default(),
    };
    let rest = p.ws(source);
    let (rest, game) = p.game(rest)?;
    let rest = p.ws(rest);
    if !rest.is_empty() {
        return Err(p.error_at(
            rest,
            SyntaxErrorKind::Expected("end of the game expression"),
        ));
    }
    Ok(game)
}

type PResult<'a, T> = Result<(&'a str, T), SyntaxError>;

struct Parser<'s> {
    source: &'s str,
    errors: Vec<SyntaxError>,
    /// Open parentheses around the term being parsed (bounded, so that an
    /// adversarial file cannot exhaust the stack).
    depth: std::cell::Cell<usize>,
}

/// The deepest nesting of parentheses in a game expression.
const MAX_DEPTH: usize = 64;

/// Whether `input` starts with the order key `key` as a whole word.
fn starts_key(input: &str, key: &str) -> bool {
    input.starts_with(key)
        && !input[key.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

const METHOD_NAMES: &[&str] = &[
    "search",
    "table",
    "enumeration",
    "definition",
    "proof-sequence",
    "cards",
    "pairing",
    "paving",
    "priority",
    "derivation",
    "proposition-2.1",
    "proposition-2.2",
    "corollary-3.3",
    "theorem-3.1",
    "monotonicity",
    "sub-animal",
];

fn word(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        take_while1(|c: char| c.is_ascii_alphanumeric()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_'),
    ))(input)
}

impl<'s> Parser<'s> {
    fn offset(&self, rest: &str) -> usize {
        rest.as_ptr() as usize - self.source.as_ptr() as usize
    }

    fn span(&self, from: &str, to: &str) -> Span {
        Span::new(self.offset(from), self.offset(to))
    }

    fn error_at(&self, rest: &str, kind: SyntaxErrorKind) -> SyntaxError {
        let start = self.offset(rest);
        let len = rest.chars().next().map_or(0, char::len_utf8);
        let len = word(rest).map_or(len, |(_, w)| w.len());
        SyntaxError {
            kind,
            span: Span::new(start, start + len),
        }
    }

    /// Skips spaces, newlines and `#` comments.
    fn ws<'a>(&self, mut input: &'a str) -> &'a str {
        loop {
            let trimmed = input.trim_start();
            if let Some(comment) = trimmed.strip_prefix('#') {
                input = &comment[comment.find('\n').unwrap_or(comment.len())..];
            } else {
                return trimmed;
            }
        }
    }

    fn keyword<'a>(&self, input: &'a str, kw: &'static str) -> PResult<'a, ()> {
        match word(input) {
            Ok((rest, w)) if w == kw => Ok((self.ws(rest), ())),
            _ => Err(self.error_at(input, SyntaxErrorKind::Expected(kw))),
        }
    }

    /// Matches `sym`; the value is the offset just after it.
    fn symbol<'a>(&self, input: &'a str, sym: &'static str) -> PResult<'a, usize> {
        match tag::<_, _, ()>(sym)(input) {
            Ok((rest, _)) => Ok((self.ws(rest), self.offset(rest))),
            Err(_) => Err(self.error_at(input, SyntaxErrorKind::Expected(sym))),
        }
    }

    fn number<'a>(&self, input: &'a str) -> PResult<'a, Spanned<u64>> {
        let (rest, digits) = digit1::<_, ()>(input)
            .map_err(|_| self.error_at(input, SyntaxErrorKind::Expected("a number")))?;
        let span = self.span(input, rest);
        let node = digits.parse::<u64>().map_err(|_| SyntaxError {
            kind: SyntaxErrorKind::NumberTooLarge,
            span,
        })?;
        Ok((self.ws(rest), Spanned { node, span }))
    }

    fn string<'a>(&self, input: &'a str) -> PResult<'a, Spanned<String>> {
        let Ok((body, _)) = char::<_, ()>('"')(input) else {
            return Err(self.error_at(
                input,
                SyntaxErrorKind::Expected("a string in double quotes"),
            ));
        };
        let (after, text) =
            take_till::<_, _, ()>(|c| c == '"' || c == '\n')(body).unwrap_or((body, ""));
        let Ok((rest, _)) = char::<_, ()>('"')(after) else {
            let span = Span::new(self.offset(input), self.offset(after));
            return Err(SyntaxError {
                kind: SyntaxErrorKind::UnclosedString,
                span,
            });
        };
        let span = self.span(input, rest);
        Ok((
            self.ws(rest),
            Spanned {
                node: text.to_string(),
                span,
            },
        ))
    }

    fn file(&mut self) -> Vec<Item> {
        let mut rest = self.ws(self.source);
        match self.header(rest) {
            Ok(r) => rest = r,
            Err(e) => {
                self.errors.push(e);
                rest = self.skip_to_next_item(rest);
            }
        }
        let mut items = Vec::new();
        while !rest.is_empty() {
            match self.item(rest) {
                Ok((r, item)) => {
                    items.push(item);
                    rest = r;
                }
                Err(e) => {
                    self.errors.push(e);
                    rest = self.skip_to_next_item(rest);
                }
            }
        }
        items
    }

    fn header<'a>(&self, input: &'a str) -> Result<&'a str, SyntaxError> {
        let (rest, _) = self.keyword(input, "gamecert").map_err(|e| SyntaxError {
            kind: SyntaxErrorKind::MissingHeader,
            ..e
        })?;
        let (after, version) = self.number(rest)?;
        if version.node != 1 {
            let kind = SyntaxErrorKind::UnsupportedVersion(version.node.to_string());
            return Err(SyntaxError {
                kind,
                span: version.span,
            });
        }
        Ok(after)
    }

    /// The rest of the input from the next line that starts with an item keyword.
    fn skip_to_next_item<'a>(&self, input: &'a str) -> &'a str {
        let mut rest = input;
        loop {
            rest = match rest.find('\n') {
                Some(i) => &rest[i + 1..],
                // The empty tail of the source, so that offsets stay valid.
                None => return &rest[rest.len()..],
            };
            let line = rest.trim_start_matches([' ', '\t']);
            if ["claim", "include", "board", "animal"]
                .iter()
                .any(|k| line.starts_with(k))
            {
                return self.ws(rest);
            }
        }
    }

    fn item<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        match word(input) {
            Ok((_, "include")) => self.include(input),
            Ok((_, "claim")) => self.claim(input),
            Ok((_, "board")) => self.board_decl(input),
            Ok((_, "animal")) => self.animal_decl(input),
            _ => Err(self.error_at(
                input,
                SyntaxErrorKind::Expected("`claim`, `board`, `animal` or `include`"),
            )),
        }
    }

    fn include<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        let (rest, _) = self.keyword(input, "include")?;
        let (mut rest, path) = self.string(rest)?;
        let mut sha256 = None;
        if let Ok((r, _)) = self.keyword(rest, "sha256") {
            let (r, digest) = self.string(r)?;
            sha256 = Some(digest);
            rest = r;
        }
        let span = Span::new(
            self.offset(input),
            path.span.end.max(sha256.as_ref().map_or(0, |s| s.span.end)),
        );
        Ok((rest, Item::Include(Include { path, sha256, span })))
    }

    /// `animal NAME on BOARD = (x,y) (x,y) ...` or `= picture { ROWS }`.
    fn animal_decl<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        let (rest, _) = self.keyword(input, "animal")?;
        let (after, name) = word(rest)
            .map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("an animal name")))?;
        let name = Spanned {
            node: name.to_string(),
            span: self.span(rest, after),
        };
        let (rest, _) = self.keyword(self.ws(after), "on")?;
        let (after, board) =
            word(rest).map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("a board")))?;
        let board = Spanned {
            node: board.to_string(),
            span: self.span(rest, after),
        };
        let (mut rest, _) = self.symbol(self.ws(after), "=")?;
        let cells = if let Ok((r, _)) = self.keyword(rest, "picture") {
            let (r, rows) = self.picture_block(input, r)?;
            rest = r;
            AnimalCells::Picture(rows)
        } else {
            let (r, cells) = self.cell_list(rest)?;
            rest = r;
            if cells.is_empty() {
                return Err(self.error_at(
                    rest,
                    SyntaxErrorKind::Expected("cells `(x,y)` or `picture { ... }`"),
                ));
            }
            AnimalCells::Coordinates(cells)
        };
        let span = Span::new(self.offset(input), self.offset(rest));
        Ok((
            rest,
            Item::Animal(AnimalDecl {
                name,
                board,
                cells,
                span,
            }),
        ))
    }

    /// Coordinate tuples `(x,y) (x,y,z) (f) ...`, possibly none.
    fn cell_list<'a>(&self, mut rest: &'a str) -> PResult<'a, CellList> {
        let mut cells = Vec::new();
        while let Ok((r, open)) = self.symbol(rest, "(") {
            let (r, coords) = self.integers(r)?;
            let (r, close) = self.symbol(r, ")")?;
            cells.push(Spanned {
                node: coords,
                span: Span::new(open - 1, close),
            });
            rest = r;
        }
        Ok((rest, cells))
    }

    /// `i, j, ...`: one or more integers separated by commas.
    fn integers<'a>(&self, mut r: &'a str) -> PResult<'a, Vec<i64>> {
        let mut values = Vec::new();
        loop {
            let negative = r.starts_with('-');
            let (r2, n) = self.number(if negative { &r[1..] } else { r })?;
            let v = i64::try_from(n.node).map_err(|_| SyntaxError {
                kind: SyntaxErrorKind::NumberTooLarge,
                span: n.span,
            })?;
            values.push(if negative { -v } else { v });
            match self.symbol(r2, ",") {
                Ok((r3, _)) => r = r3,
                Err(_) => return Ok((r2, values)),
            }
        }
    }

    /// A name as a spanned string.
    fn name<'a>(&self, rest: &'a str, what: &'static str) -> PResult<'a, Spanned<String>> {
        let (after, name) =
            word(rest).map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected(what)))?;
        Ok((
            self.ws(after),
            Spanned {
                node: name.to_string(),
                span: self.span(rest, after),
            },
        ))
    }

    /// `at G (dx,dy)` or `at [i0 i1 ...]`, if present.
    fn map<'a>(&self, rest: &'a str) -> PResult<'a, Option<Spanned<MapAst>>> {
        let Ok((r, _)) = self.keyword(rest, "at") else {
            return Ok((rest, None));
        };
        let start = self.offset(r);
        if let Ok((mut r, _)) = self.symbol(r, "[") {
            let mut image = Vec::new();
            loop {
                if let Ok((r2, close)) = self.symbol(r, "]") {
                    let node = MapAst::Permutation(image);
                    let span = Span::new(start, close);
                    return Ok((r2, Some(Spanned { node, span })));
                }
                let (r2, n) = self.number(r)?;
                image.push(n.node);
                r = self.symbol(r2, ",").map_or(r2, |(r3, _)| r3);
            }
        }
        let (r, element) = self.number(r)?;
        let (r, _) = self.symbol(r, "(")?;
        let (r, shift) = self.integers(r)?;
        let (r, close) = self.symbol(r, ")")?;
        let node = MapAst::Lattice {
            element: element.node,
            shift,
        };
        Ok((
            r,
            Some(Spanned {
                node,
                span: Span::new(start, close),
            }),
        ))
    }

    /// `[CELLS] -> TARGET [at MAP]`, the part of an option after its answer.
    fn option_tail<'a>(&self, input: &'a str, answer: Answer) -> PResult<'a, OptionAst> {
        let (rest, mark) = self.cell_list(input)?;
        let (rest, _) = self.symbol(rest, "->")?;
        let (rest, target) = self.name(rest, "a situation name or `goal`")?;
        let (rest, map) = self.map(rest)?;
        let span = Span::new(self.offset(input), self.offset(rest));
        Ok((
            rest,
            OptionAst {
                answer,
                mark,
                target,
                map,
                span,
            },
        ))
    }

    /// The body of `by proof-sequence { ... }`, after the `{`.
    fn proof_sequence<'a>(&self, input: &'a str) -> PResult<'a, Method> {
        let mut body = ProofBody::default();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                return Ok((r, Method::ProofSequence(body)));
            }
            if let Ok((r, _)) = self.keyword(rest, "situation") {
                let (r, name) = self.name(r, "a situation name")?;
                let (r, turns) = match self.keyword(r, "turns") {
                    Ok((r, _)) => {
                        let (r, n) = self.number(r)?;
                        (r, Some(n))
                    }
                    Err(_) => (r, None),
                };
                let (r, _) = self.symbol(r, ":")?;
                let (r, core, neighbourhood, picture) =
                    if let Ok((r, _)) = self.keyword(r, "picture") {
                        let (r, rows) = self.picture_block(rest, r)?;
                        (r, Vec::new(), Vec::new(), Some(rows))
                    } else {
                        let (r, _) = self.keyword(r, "core")?;
                        let (r, core) = self.cell_list(r)?;
                        let (r, neighbourhood) = match self.keyword(r, "neighbourhood") {
                            Ok((r, _)) => self.cell_list(r)?,
                            Err(_) => (r, Vec::new()),
                        };
                        (r, core, neighbourhood, None)
                    };
                body.situations.push(SituationAst {
                    name,
                    turns,
                    core,
                    neighbourhood,
                    picture,
                    options: Vec::new(),
                });
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "search") {
                let start = self.offset(rest);
                let (r, window) = if let Ok((r, _)) = self.keyword(r, "board") {
                    (r, None)
                } else {
                    let (r, _) = self.keyword(r, "window")?;
                    let (r, dims) = self.name(r, "a window `RxC`")?;
                    let window = dims
                        .node
                        .split_once('x')
                        .and_then(|(a, b)| Some((a.parse::<u16>().ok()?, b.parse::<u16>().ok()?)));
                    let Some(window) = window else {
                        return Err(SyntaxError {
                            kind: SyntaxErrorKind::Expected("a window `RxC`"),
                            span: dims.span,
                        });
                    };
                    (r, Some(window))
                };
                body.search = Some(Spanned {
                    node: window,
                    span: Span::new(start, self.offset(r)),
                });
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "start") {
                let (r, target) = self.name(r, "a situation name or `goal`")?;
                let (r, map) = self.map(r)?;
                body.start = Some(StartAst { target, map });
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "option") {
                let (r, option) = self.option_tail(r, Answer::Any)?;
                self.attach(&mut body, option, rest)?;
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "reply") {
                let (r, open) = self.symbol(r, "(")?;
                let (r, coords) = self.integers(r)?;
                let (r, close) = self.symbol(r, ")")?;
                let cell = Spanned {
                    node: coords,
                    span: Span::new(open - 1, close),
                };
                let (r, _) = self.symbol(r, ":")?;
                let (r, option) = self.option_tail(r, Answer::Reply(cell))?;
                self.attach(&mut body, option, rest)?;
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "pass") {
                let (r, _) = self.symbol(r, ":")?;
                let (r, option) = self.option_tail(r, Answer::Pass)?;
                self.attach(&mut body, option, rest)?;
                rest = r;
            } else if rest.is_empty() || rest.starts_with("claim") {
                let start = self.offset(input) - 1;
                return Err(SyntaxError {
                    kind: SyntaxErrorKind::UnclosedBlock,
                    span: Span::new(start, start + 1),
                });
            } else {
                return Err(self.error_at(
                    rest,
                    SyntaxErrorKind::Expected(
                        "`situation`, `option`, `reply`, `pass`, `start` or `}`",
                    ),
                ));
            }
        }
    }

    /// Adds an option to the last situation (an option before any situation
    /// is an error at `at`).
    fn attach(&self, body: &mut ProofBody, option: OptionAst, at: &str) -> Result<(), SyntaxError> {
        match body.situations.last_mut() {
            Some(s) => {
                s.options.push(option);
                Ok(())
            }
            None => Err(self.error_at(
                at,
                SyntaxErrorKind::Expected("`situation` before its options"),
            )),
        }
    }

    /// The rows of `{ ... }` after `picture` (`item`: where the item starts,
    /// for the error of an unclosed block).
    fn picture_block<'a>(&self, item: &'a str, r: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        // Inside a picture `#` is a cell, not a comment: only spaces and
        // newlines are skipped.
        let blank = |t: &'a str| t.trim_start_matches([' ', '\t', '\r', '\n']);
        let Some(r) = r.strip_prefix('{') else {
            return Err(self.error_at(r, SyntaxErrorKind::Expected("{")));
        };
        let mut rows = Vec::new();
        let mut r = blank(r);
        loop {
            if let Some(r2) = r.strip_prefix('}') {
                return Ok((self.ws(r2), rows));
            }
            let row_end = r.find(['\n', '}']).unwrap_or(r.len());
            let row = r[..row_end].trim_end();
            if row.is_empty() {
                let start = self.offset(item);
                return Err(SyntaxError {
                    kind: SyntaxErrorKind::UnclosedBlock,
                    span: Span::new(start, start + 6),
                });
            }
            // Keep the row's indentation (hexagon pictures shift rows by
            // half a cell); the span covers the row from its line's start.
            let at = self.offset(r);
            let line_start = self.source[..at].rfind('\n').map_or(0, |i| i + 1);
            let indent = self.source[line_start..at].chars().count();
            rows.push(Spanned {
                node: format!("{}{row}", " ".repeat(indent)),
                span: Span::new(line_start, at + row.len()),
            });
            r = blank(&r[row_end..]);
        }
    }

    /// The edges `a-b` of a `graph { ... }` board, after the `{`.
    fn graph_block<'a>(&self, item: &'a str, r: &'a str) -> PResult<'a, Vec<Spanned<(u64, u64)>>> {
        let mut edges = Vec::new();
        let mut r = self.ws(r);
        loop {
            if let Ok((r2, _)) = self.symbol(r, "}") {
                return Ok((r2, edges));
            }
            if r.is_empty() {
                let start = self.offset(item);
                return Err(SyntaxError {
                    kind: SyntaxErrorKind::UnclosedBlock,
                    span: Span::new(start, start + 5),
                });
            }
            let (r2, a) = self
                .number(r)
                .map_err(|_| self.error_at(r, SyntaxErrorKind::Expected("an edge `a-b` or `}`")))?;
            let (r2, _) = self.symbol(r2, "-")?;
            let (r2, b) = self.number(r2)?;
            edges.push(Spanned {
                node: (a.node, b.node),
                span: Span::new(a.span.start, b.span.end),
            });
            r = match self.symbol(r2, ",") {
                Ok((r3, _)) => r3,
                Err(_) => r2,
            };
        }
    }

    /// `board NAME = KIND ARGS` (ARGS: the rest of the line), `board NAME =
    /// LATTICE picture { ROWS }` or `board NAME = graph { EDGES }`.
    fn board_decl<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        let (rest, _) = self.keyword(input, "board")?;
        let (after, name) = word(rest)
            .map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("a board name")))?;
        let name = Spanned {
            node: name.to_string(),
            span: self.span(rest, after),
        };
        let (rest, _) = self.symbol(self.ws(after), "=")?;
        let (after, kind) = word(rest)
            .map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("a board kind")))?;
        let kind = Spanned {
            node: kind.to_string(),
            span: self.span(rest, after),
        };
        let empty_args = |at: &'a str| Spanned {
            node: String::new(),
            span: Span::new(self.offset(at), self.offset(at)),
        };
        let (rest, args, body) = if let Ok((r, _)) = self.keyword(self.ws(after), "picture") {
            let (r, rows) = self.picture_block(input, r)?;
            (r, empty_args(after), Some(BoardBody::Picture(rows)))
        } else if let Ok((r, _)) = self.symbol(self.ws(after), "{") {
            let (r, edges) = self.graph_block(input, r)?;
            (r, empty_args(after), Some(BoardBody::Graph(edges)))
        } else {
            let line_end = after.find(['\n', '#']).unwrap_or(after.len());
            let raw = &after[..line_end];
            let trimmed = raw.trim();
            let start = self.offset(after) + (raw.len() - raw.trim_start().len());
            let args = Spanned {
                node: trimmed.to_string(),
                span: Span::new(start, start + trimmed.len()),
            };
            (self.ws(&after[line_end..]), args, None)
        };
        let span = Span::new(self.offset(input), self.offset(rest).max(kind.span.end));
        Ok((
            rest,
            Item::Board(BoardDecl {
                name,
                kind,
                args,
                body,
                span,
            }),
        ))
    }

    fn claim<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        let (rest, _) = self.keyword(input, "claim")?;
        let (after_id, id) =
            word(rest).map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("a claim id")))?;
        let id = Spanned {
            node: id.to_string(),
            span: self.span(rest, after_id),
        };
        let (rest, _) = self.symbol(self.ws(after_id), ":")?;
        let start = rest;
        let (rest, statement) = self.statement(rest)?;
        let end = match &statement {
            Statement::Grundy { value, .. } => value.span.end,
            Statement::Outcome { outcome, .. } => outcome.span.end,
            Statement::CountPositions { count, .. } => count.span.end,
            Statement::Value { value, .. } => value.span.end,
            Statement::Compare { right, .. } => right.span.end,
            Statement::Number { game } => game.span.end,
            Statement::CountAnimals { count, .. } => count.span.end,
            Statement::Winner { game, .. } | Statement::Loser { game, .. } => game.span.end,
            Statement::Threshold { sequence, .. } => sequence.span.end,
            Statement::Classify { losers, .. } => losers.span.end,
        };
        let statement = Spanned {
            node: statement,
            span: Span::new(self.offset(start), end),
        };
        let (rest, _) = self.keyword(rest, "by")?;
        let method_start = rest;
        let (rest, method) = self.method(rest)?;
        let method_end = self.offset(method_start)
            + self.source[self.offset(method_start)..self.offset(rest)]
                .trim_end()
                .len();
        let method = Spanned {
            node: method,
            span: Span::new(self.offset(method_start), method_end),
        };
        let span = Span::new(self.offset(input), method.span.end);
        Ok((
            rest,
            Item::Claim(Box::new(Claim {
                id,
                statement,
                method,
                span,
            })),
        ))
    }

    fn play<'a>(&self, input: &'a str) -> (&'a str, PlayAst) {
        match self.keyword(input, "misere") {
            Ok((rest, _)) => (rest, PlayAst::Misere),
            Err(_) => (input, PlayAst::Normal),
        }
    }

    fn statement<'a>(&self, input: &'a str) -> PResult<'a, Statement> {
        let Ok((after, kw)) = word(input) else {
            return Err(self.error_at(input, SyntaxErrorKind::Expected("a statement")));
        };
        let rest = self.ws(after);
        match kw {
            "grundy" => {
                let (rest, play) = self.play(rest);
                let (rest, game) = self.game(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (rest, value) = self.number(rest)?;
                Ok((rest, Statement::Grundy { play, game, value }))
            }
            "outcome" => {
                let (rest, play) = self.play(rest);
                let (rest, game) = self.game(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                let outcome = alt((char::<_, ()>('P'), char('N'), char('L'), char('R')))(rest);
                let Ok((after, letter)) = outcome else {
                    return Err(self.error_at(rest, SyntaxErrorKind::Expected("L, R, P or N")));
                };
                let outcome = match letter {
                    'P' => OutcomeAst::P,
                    'N' => OutcomeAst::N,
                    'L' => OutcomeAst::L,
                    _ => OutcomeAst::R,
                };
                let outcome = Spanned {
                    node: outcome,
                    span: self.span(rest, after),
                };
                Ok((
                    self.ws(after),
                    Statement::Outcome {
                        play,
                        game,
                        outcome,
                    },
                ))
            }
            "count" if word(rest).is_ok_and(|(_, w)| matches!(w, "animals" | "all" | "fixed")) => {
                let (rest, kind) = match word(rest).map(|(_, w)| w) {
                    Ok("all") => (self.keyword(rest, "all")?.0, AnimalCount::All),
                    Ok("fixed") => (self.keyword(rest, "fixed")?.0, AnimalCount::Fixed),
                    _ => (rest, AnimalCount::Polyominoes),
                };
                let (rest, _) = self.keyword(rest, "animals")?;
                let (rest, _) = self.keyword(rest, "on")?;
                let (after, board) = word(rest)
                    .map_err(|_| self.error_at(rest, SyntaxErrorKind::Expected("a board")))?;
                let board = Spanned {
                    node: board.to_string(),
                    span: self.span(rest, after),
                };
                let (rest, _) = self.keyword(self.ws(after), "size")?;
                let (rest, size) = self.number(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (rest, count) = self.number(rest)?;
                Ok((
                    rest,
                    Statement::CountAnimals {
                        kind,
                        board,
                        size,
                        count,
                    },
                ))
            }
            "count" => {
                let (rest, _) = self.keyword(rest, "positions")?;
                let (rest, up_to_symmetry) = match self.keyword(rest, "up") {
                    Ok((r, _)) => {
                        let (r, _) = self.keyword(r, "to")?;
                        (self.keyword(r, "symmetry")?.0, true)
                    }
                    Err(_) => (rest, false),
                };
                let (rest, game) = self.game(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (rest, count) = self.number(rest)?;
                Ok((
                    rest,
                    Statement::CountPositions {
                        up_to_symmetry,
                        game,
                        count,
                    },
                ))
            }
            "value" => {
                let (rest, game) = self.game(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (rest, value) = self.game(rest)?;
                Ok((rest, Statement::Value { game, value }))
            }
            "compare" => {
                let (rest, left) = self.game(rest)?;
                let (rest, relation) = self.relation(rest)?;
                let (rest, right) = self.game(rest)?;
                Ok((
                    rest,
                    Statement::Compare {
                        left,
                        relation,
                        right,
                    },
                ))
            }
            "number" => {
                let (rest, game) = self.game(rest)?;
                Ok((rest, Statement::Number { game }))
            }
            "winner" | "loser" => {
                let (rest, animal) = self.name(rest, "an animal name")?;
                let (rest, _) = self.keyword(rest, "on")?;
                let (rest, board) = self.name(rest, "a board")?;
                let (rest, game) = self.maker_game(rest)?;
                let statement = if kw == "winner" {
                    Statement::Winner {
                        animal,
                        board,
                        game,
                    }
                } else {
                    Statement::Loser {
                        animal,
                        board,
                        game,
                    }
                };
                Ok((rest, statement))
            }
            "threshold" => {
                let (rest, animal) = self.name(rest, "an animal name")?;
                let (rest, _) = self.keyword(rest, "on")?;
                let (rest, board) = self.name(rest, "a board")?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (mut rest, open) = self.symbol(rest, "(")?;
                let mut entries = Vec::new();
                loop {
                    if let Ok((r, _)) = self.keyword(rest, "inf") {
                        entries.push(None);
                        rest = r;
                    } else {
                        let (r, b) = self.number(rest)?;
                        entries.push(Some(b.node));
                        rest = r;
                    }
                    match self.symbol(rest, ",") {
                        Ok((r, _)) => rest = r,
                        Err(_) => break,
                    }
                }
                let (rest, close) = self.symbol(rest, ")")?;
                let sequence = Spanned {
                    node: entries,
                    span: Span::new(open - 1, close),
                };
                Ok((
                    rest,
                    Statement::Threshold {
                        animal,
                        board,
                        sequence,
                    },
                ))
            }
            "classify" => {
                let (rest, board) = self.name(rest, "a board")?;
                let (rest, _) = self.symbol(rest, "=")?;
                let (rest, _) = self.symbol(rest, "(")?;
                let (rest, winners) = self.number(rest)?;
                let (rest, _) = self.keyword(rest, "winners")?;
                let (rest, _) = self.symbol(rest, ",")?;
                let (rest, losers) = self.number(rest)?;
                let (rest, _) = self.keyword(rest, "losers")?;
                let (rest, _) = self.symbol(rest, ")")?;
                Ok((
                    rest,
                    Statement::Classify {
                        board,
                        winners,
                        losers,
                    },
                ))
            }
            other => {
                let kind = SyntaxErrorKind::UnknownStatement(other.to_string());
                Err(SyntaxError {
                    kind,
                    span: self.span(input, after),
                })
            }
        }
    }

    /// `(a,b)` or `(a->c,b)`.
    fn maker_game<'a>(&self, input: &'a str) -> PResult<'a, Spanned<MakerGame>> {
        let (rest, open) = self.symbol(input, "(")?;
        let (rest, a) = self.number(rest)?;
        let (rest, finish) = match self.symbol(rest, "->") {
            Ok((r, _)) => {
                let (r, c) = self.number(r)?;
                (r, Some(c.node))
            }
            Err(_) => (rest, None),
        };
        let (rest, _) = self.symbol(rest, ",")?;
        let (rest, b) = self.number(rest)?;
        let (rest, close) = self.symbol(rest, ")")?;
        let node = MakerGame {
            a: a.node,
            finish,
            b: b.node,
        };
        Ok((
            rest,
            Spanned {
                node,
                span: Span::new(open - 1, close),
            },
        ))
    }

    fn relation<'a>(&self, input: &'a str) -> PResult<'a, Spanned<RelationAst>> {
        // Longest symbols first, so that `<=` is not read as `<`.
        let table = [
            ("<=", RelationAst::LessOrEqual),
            (">=", RelationAst::GreaterOrEqual),
            ("||", RelationAst::Confused),
            ("=", RelationAst::Equal),
            ("<", RelationAst::Less),
            (">", RelationAst::Greater),
        ];
        for (sym, relation) in table {
            if let Some(after) = input.strip_prefix(sym) {
                let span = self.span(input, after);
                return Ok((
                    self.ws(after),
                    Spanned {
                        node: relation,
                        span,
                    },
                ));
            }
        }
        Err(self.error_at(
            input,
            SyntaxErrorKind::Expected("a relation: = <= >= < > ||"),
        ))
    }

    /// `{ (= GAME by RULE)* }`.
    fn derivation<'a>(&self, input: &'a str) -> PResult<'a, Method> {
        let (mut rest, _) = self.symbol(input, "{")?;
        let mut steps = Vec::new();
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                return Ok((r, Method::Derivation(steps)));
            }
            self.block_continues(rest, self.offset(input))?;
            let (r, _) = self.symbol(rest, "=")?;
            let (r, game) = self.game(r)?;
            let (r, _) = self.keyword(r, "by")?;
            let (after, name) =
                word(r).map_err(|_| self.error_at(r, SyntaxErrorKind::Expected("a rule name")))?;
            let span = self.span(r, after);
            let Some(node) = StepRuleName::ALL.into_iter().find(|k| k.keyword() == name) else {
                let kind = SyntaxErrorKind::UnknownStepRule(name.to_string());
                return Err(SyntaxError { kind, span });
            };
            let rule = Spanned { node, span };
            steps.push(DerivationStep { game, rule });
            rest = self.ws(after);
        }
    }

    /// A derived rule (`by RULE [{ placement CELLS ... }] [from ID, ...]`),
    /// after its name (`input` at the name, `after` just past it).
    fn derived_method<'a>(
        &self,
        input: &'a str,
        after: &'a str,
        node: DerivedRuleName,
    ) -> PResult<'a, Method> {
        let rule = Spanned {
            node,
            span: self.span(input, after),
        };
        let mut placements = Vec::new();
        let mut rest = self.ws(after);
        if let Ok((mut r, _)) = self.symbol(rest, "{") {
            loop {
                if let Ok((r2, _)) = self.symbol(r, "}") {
                    rest = r2;
                    break;
                }
                let (r2, _) = self.keyword(r, "placement")?;
                let (r2, cells) = self.cell_list(r2)?;
                placements.push(cells);
                r = r2;
            }
        }
        let (rest, cites) = self.citations(rest)?;
        Ok((
            rest,
            Method::Derived {
                rule,
                cites,
                placements,
            },
        ))
    }

    fn method<'a>(&self, input: &'a str) -> PResult<'a, Method> {
        let Ok((after, name)) = word(input) else {
            return Err(self.error_at(input, SyntaxErrorKind::Expected("a method name")));
        };
        if let Some(rule) = DerivedRuleName::ALL
            .into_iter()
            .find(|k| k.keyword() == name)
        {
            return self.derived_method(input, after, rule);
        }
        let rest = self.ws(after);
        match name {
            "search" => Ok((rest, Method::Search)),
            "table" => self.table(rest),
            "definition" => Ok((rest, Method::Definition)),
            "enumeration" => {
                let (rest, cites) = self.citations(rest)?;
                Ok((rest, Method::Enumeration(cites)))
            }
            "citation" => {
                let (rest, _) = self.keyword(rest, "from")?;
                let (rest, cites) = self.id_list(rest)?;
                Ok((rest, Method::Citation(cites)))
            }
            "pairing" | "paving" => {
                let (r, _) = self.symbol(rest, "{")?;
                let (r, body) = self.pairing_body(rest, r)?;
                Ok((r, Method::Pairing(body)))
            }
            "priority" => {
                let (r, _) = self.symbol(rest, "{")?;
                let (r, body) = self.priority_body(rest, r)?;
                Ok((r, Method::Priority(body)))
            }
            "derivation" => self.derivation(rest),
            "proof-sequence" => {
                let (rest, _) = self.symbol(rest, "{")?;
                self.proof_sequence(rest)
            }
            "cards" => {
                let (rest, path) = self.string(rest)?;
                let (rest, sha256) = match self.keyword(rest, "sha256") {
                    Ok((r, _)) => {
                        let (r, pin) = self.string(r)?;
                        (r, Some(pin))
                    }
                    Err(_) => (rest, None),
                };
                Ok((rest, Method::Cards { path, sha256 }))
            }
            other if METHOD_NAMES.contains(&other) => {
                // The body (or `from ID`) of a method this version cannot
                // check is skipped, so that the claim is reported as such.
                Ok((
                    self.skip_method_body(rest),
                    Method::Other(other.to_string()),
                ))
            }
            other => {
                let kind = SyntaxErrorKind::UnknownMethod(other.to_string());
                Err(SyntaxError {
                    kind,
                    span: self.span(input, after),
                })
            }
        }
    }

    /// An error at the block's opening brace (offset `brace`) when the
    /// input ends, or the next claim or include begins, before its `}`.
    fn block_continues(&self, rest: &str, brace: usize) -> Result<(), SyntaxError> {
        if rest.is_empty() || rest.starts_with("claim") || rest.starts_with("include") {
            return Err(SyntaxError {
                kind: SyntaxErrorKind::UnclosedBlock,
                span: Span::new(brace, brace + 1),
            });
        }
        Ok(())
    }

    /// `from ID, ...` if present (else no citations).
    fn citations<'a>(&self, rest: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        match self.keyword(rest, "from") {
            Ok((r, _)) => self.id_list(r),
            Err(_) => Ok((rest, Vec::new())),
        }
    }

    /// `ID, ID, ...`: one or more claim ids.
    fn id_list<'a>(&self, mut r: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        let mut cites = Vec::new();
        loop {
            let (r2, id) = self.name(r, "a claim id")?;
            cites.push(id);
            match self.symbol(r2, ",") {
                Ok((r3, _)) => r = r3,
                Err(_) => return Ok((r2, cites)),
            }
        }
    }

    /// The body of a pairing block after its `{` (`open` is the input at
    /// the brace): `period`, `pair` and `move` items, then `}`.
    fn pairing_body<'a>(&self, open: &'a str, input: &'a str) -> PResult<'a, PairingBody> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(self.error_at(open, SyntaxErrorKind::NestingTooDeep));
        }
        let mut body = PairingBody::default();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                body.span = Span::new(self.offset(open), self.offset(r));
                return Ok((r, body));
            }
            if let Ok((r, _)) = self.keyword(rest, "period") {
                let (r, vectors) = self.cell_list(r)?;
                body.period.extend(vectors);
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "pair") {
                let (r, first) = self.one_cell(r)?;
                let (r, second) = self.one_cell(r)?;
                body.pairs.push((first, second));
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "move") {
                let (r, mark) = self.one_cell(r)?;
                let (r, answer) = if let Ok((r, _)) = self.keyword(r, "like") {
                    let (r, like) = self.one_cell(r)?;
                    let (r, map) = self.map(r)?;
                    (r, MoveAnswerAst::Like { like, map })
                } else {
                    let (r, _) = self.keyword(r, "reply")?;
                    let (r, reply) = self.cell_list(r)?;
                    let (r2, _) = self.symbol(r, "{")?;
                    self.depth.set(self.depth.get() + 1);
                    let then = self.pairing_body(r, r2);
                    self.depth.set(self.depth.get() - 1);
                    let (r, then) = then?;
                    (r, MoveAnswerAst::Reply { reply, then })
                };
                body.moves.push(MoveAst { mark, answer });
                rest = r;
            } else {
                self.block_continues(rest, self.offset(open))?;
                return Err(self.error_at(
                    rest,
                    SyntaxErrorKind::Expected("`period`, `pair`, `move` or `}`"),
                ));
            }
        }
    }

    /// The body of a priority block after its `{` (`open` is the input at
    /// the brace): `period`, `order` and `class` items, then `}`.
    fn priority_body<'a>(&self, open: &'a str, input: &'a str) -> PResult<'a, PriorityBody> {
        let mut body = PriorityBody::default();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                body.span = Span::new(self.offset(open), self.offset(r));
                return Ok((r, body));
            }
            if let Ok((r, _)) = self.keyword(rest, "period") {
                let (r, vectors) = self.cell_list(r)?;
                body.period.extend(vectors);
                rest = r;
            } else if let Ok((mut r, _)) = self.keyword(rest, "order") {
                while let Some(key) = OrderKeyAst::ALL
                    .into_iter()
                    .find(|k| starts_key(r, k.keyword()))
                {
                    let len = key.keyword().len();
                    body.order.push(Spanned {
                        node: key,
                        span: Span::new(self.offset(r), self.offset(r) + len),
                    });
                    r = self.ws(&r[len..]);
                }
                rest = r;
            } else if let Ok((r, _)) = self.keyword(rest, "class") {
                let (r, class) = self.one_cell(r)?;
                let (r2, _) = self.symbol(r, "{")?;
                let (r, rules) = self.class_rules(r, r2)?;
                body.classes.push(ClassAst { class, rules });
                rest = r;
            } else {
                self.block_continues(rest, self.offset(open))?;
                return Err(self.error_at(
                    rest,
                    SyntaxErrorKind::Expected("`period`, `order`, `class` or `}`"),
                ));
            }
        }
    }

    /// The rules of a class block after its `{`: `rule [if CELLS] { CELLS
    /// ; CELLS ... }` items, then `}`.
    fn class_rules<'a>(&self, open: &'a str, input: &'a str) -> PResult<'a, Vec<PriorityRuleAst>> {
        let mut rules = Vec::new();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                return Ok((r, rules));
            }
            self.block_continues(rest, self.offset(open))?;
            let (r, _) = self.keyword(rest, "rule")?;
            let (r, guard) = match self.keyword(r, "if") {
                Ok((r, _)) => self.cell_list(r)?,
                Err(_) => (r, Vec::new()),
            };
            let (r2, _) = self.symbol(r, "{")?;
            let mut lists = Vec::new();
            let mut r = r2;
            loop {
                let (r3, list) = self.cell_list(r)?;
                lists.push(list);
                if let Ok((r4, _)) = self.symbol(r3, ";") {
                    r = r4;
                    continue;
                }
                if let Ok((r4, _)) = self.symbol(r3, "}") {
                    r = r4;
                    break;
                }
                self.block_continues(r3, self.offset(r2) - 1)?;
                return Err(self.error_at(r3, SyntaxErrorKind::Expected("a cell, `;` or `}`")));
            }
            if lists.len() == 1 && lists[0].is_empty() {
                lists.clear();
            }
            rules.push(PriorityRuleAst { guard, lists });
            rest = r;
        }
    }

    /// Exactly one coordinate tuple.
    fn one_cell<'a>(&self, rest: &'a str) -> PResult<'a, Spanned<Vec<i64>>> {
        let Ok((r, open)) = self.symbol(rest, "(") else {
            return Err(self.error_at(rest, SyntaxErrorKind::Expected("a cell `(x,y)`")));
        };
        let (r, coords) = self.integers(r)?;
        let (r, close) = self.symbol(r, ")")?;
        Ok((
            r,
            Spanned {
                node: coords,
                span: Span::new(open - 1, close),
            },
        ))
    }

    fn skip_method_body<'a>(&self, input: &'a str) -> &'a str {
        self.skip_to_next_item(input)
    }

    fn table<'a>(&self, input: &'a str) -> PResult<'a, Method> {
        let (mut rest, _) = self.symbol(input, "{")?;
        let mut rows = Vec::new();
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                return Ok((r, Method::Table(rows)));
            }
            self.block_continues(rest, self.offset(input) - 1)?;
            let (r, game) = self.game(rest)?;
            let (r, _) = self.symbol(r, "=")?;
            let (r, value) = self.number(r)?;
            rows.push(TableRow { game, value });
            rest = r;
        }
    }

    /// `term (('+' | '-') term)*`; `G - H` is `G + (-H)`.
    fn game<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        let (mut rest, first) = self.term(input)?;
        let mut terms = vec![first];
        loop {
            if let Ok((r, _)) = self.symbol(rest, "+") {
                let (r, term) = self.term(r)?;
                terms.push(term);
                rest = r;
            } else if let Ok((r, _)) = self.symbol(rest, "-") {
                let (r, term) = self.term(r)?;
                let span = Span::new(self.offset(rest), term.span.end);
                terms.push(Spanned {
                    node: GameExpr::Neg(Box::new(term)),
                    span,
                });
                rest = r;
            } else {
                break;
            }
        }
        if terms.len() == 1 {
            return Ok((rest, terms.remove(0)));
        }
        let span = Span::new(terms[0].span.start, terms[terms.len() - 1].span.end);
        Ok((
            rest,
            Spanned {
                node: GameExpr::Sum(terms),
                span,
            },
        ))
    }

    fn term<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        if let Ok((r, _)) = self.symbol(input, "(") {
            if self.depth.get() >= MAX_DEPTH {
                return Err(self.error_at(input, SyntaxErrorKind::NestingTooDeep));
            }
            self.depth.set(self.depth.get() + 1);
            let inner = self.game(r);
            self.depth.set(self.depth.get() - 1);
            let (r, inner) = inner?;
            let (r, end) = self.symbol(r, ")")?;
            let span = Span::new(self.offset(input), end);
            return Ok((
                r,
                Spanned {
                    node: inner.node,
                    span,
                },
            ));
        }
        if let Some(result) = self.partizan_term(input) {
            return result;
        }
        let Ok((after, name)) = word(input) else {
            return Err(self.error_at(input, SyntaxErrorKind::Expected("a game")));
        };
        let rest = self.ws(after);
        let (rest, game, end) = match name {
            "hackenbush" | "green-hackenbush" => {
                let (r, picture) = self.string(rest)?;
                let end = picture.span.end;
                let game = GameExpr::Hackenbush {
                    green_only: name == "green-hackenbush",
                    picture,
                };
                (r, game, end)
            }
            "domineering" => {
                let (r, board) = self.board(rest)?;
                let end = board.span.end;
                (r, GameExpr::Domineering(board), end)
            }
            "nim" => {
                let (mut r, _) = self.symbol(rest, "[")?;
                let end;
                let mut heaps = Vec::new();
                if let Ok((r2, e)) = self.symbol(r, "]") {
                    (r, end) = (r2, e);
                } else {
                    loop {
                        let (r2, heap) = self.number(r)?;
                        heaps.push(heap);
                        if let Ok((r3, _)) = self.symbol(r2, ",") {
                            r = r3;
                            continue;
                        }
                        (r, end) = self.symbol(r2, "]")?;
                        break;
                    }
                }
                (r, GameExpr::Nim(heaps), end)
            }
            "cram" | "domino-juvavum" | "juvavum" => {
                let ruleset = match name {
                    "cram" => GridRuleset::Cram,
                    "domino-juvavum" => GridRuleset::DominoJuvavum,
                    _ => GridRuleset::Juvavum,
                };
                let (r, board) = self.board(rest)?;
                let end = board.span.end;
                (r, GameExpr::Grid { ruleset, board }, end)
            }
            "octal" => {
                let code_end =
                    take_while1::<_, _, ()>(|c: char| c.is_ascii_digit() || c == '.')(rest);
                let Ok((after_code, code)) = code_end else {
                    return Err(self.error_at(
                        rest,
                        SyntaxErrorKind::Expected("an octal code such as 0.07"),
                    ));
                };
                let code = Spanned {
                    node: code.to_string(),
                    span: self.span(rest, after_code),
                };
                let (r, heap) = self.number(self.ws(after_code))?;
                let end = heap.span.end;
                (r, GameExpr::Octal { code, heap }, end)
            }
            "kayles" | "dawson" => {
                let (r, n) = self.number(rest)?;
                let end = n.span.end;
                let game = if name == "kayles" {
                    GameExpr::Kayles(n)
                } else {
                    GameExpr::Dawson(n)
                };
                (r, game, end)
            }
            other => {
                let kind = SyntaxErrorKind::UnknownRuleset(other.to_string());
                return Err(SyntaxError {
                    kind,
                    span: self.span(input, after),
                });
            }
        };
        Ok((
            rest,
            Spanned {
                node: game,
                span: Span::new(self.offset(input), end),
            },
        ))
    }

    /// The terms of the partizan notation: `{L|R}`, `-G`, `+-G`, and the
    /// compact values `3/4`, `*`, `*n`, `^`, `^n`, `v`, `vn` and their
    /// juxtapositions (`1/2*`, `^*`, `3/4v3*`), which are sums. `None` when the
    /// input starts none of these.
    fn partizan_term<'a>(&self, input: &'a str) -> Option<PResult<'a, Spanned<GameExpr>>> {
        let nested = |p: &Self, r: &'a str| -> PResult<'a, Spanned<GameExpr>> {
            if p.depth.get() >= MAX_DEPTH {
                return Err(p.error_at(input, SyntaxErrorKind::NestingTooDeep));
            }
            p.depth.set(p.depth.get() + 1);
            let inner = p.term(r);
            p.depth.set(p.depth.get() - 1);
            inner
        };
        if let Some(r) = input.strip_prefix("+-") {
            return Some(nested(self, self.ws(r)).map(|(rest, inner)| {
                let span = Span::new(self.offset(input), inner.span.end);
                let node = GameExpr::PlusMinus(Box::new(inner));
                (rest, Spanned { node, span })
            }));
        }
        if input.starts_with('-') && input[1..].starts_with(|c: char| c.is_ascii_digit()) {
            // `-1/2v*` is (-1/2) + v + *: the sign belongs to the number.
            return Some(self.compact(input));
        }
        if let Some(r) = input.strip_prefix('-') {
            return Some(nested(self, self.ws(r)).map(|(rest, inner)| {
                let span = Span::new(self.offset(input), inner.span.end);
                let node = GameExpr::Neg(Box::new(inner));
                (rest, Spanned { node, span })
            }));
        }
        if input.starts_with('{') {
            return Some(self.options(input));
        }
        let starts_compact = input
            .starts_with(|c: char| c.is_ascii_digit() || c == '*' || c == '^')
            || (input.starts_with('v')
                && input[1..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_alphabetic() && c != '-' && c != '_'));
        if starts_compact {
            return Some(self.compact(input));
        }
        None
    }

    /// `{ GAME, ... | GAME, ... }` (either side may be empty).
    fn options<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(self.error_at(input, SyntaxErrorKind::NestingTooDeep));
        }
        self.depth.set(self.depth.get() + 1);
        let result = self.options_inner(input);
        self.depth.set(self.depth.get() - 1);
        result
    }

    fn options_inner<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        let (mut rest, _) = self.symbol(input, "{")?;
        let mut sides = [Vec::new(), Vec::new()];
        let mut side = 0;
        loop {
            if side == 0
                && let Ok((r, _)) = self.symbol(rest, "|")
            {
                side = 1;
                rest = r;
                continue;
            }
            if let Ok((r, end)) = self.symbol(rest, "}") {
                if side == 0 {
                    return Err(self.error_at(rest, SyntaxErrorKind::Expected("`|`")));
                }
                let [left, right] = sides;
                let span = Span::new(self.offset(input), end);
                return Ok((
                    r,
                    Spanned {
                        node: GameExpr::Options { left, right },
                        span,
                    },
                ));
            }
            let (r, option) = self.game(rest)?;
            sides[side].push(option);
            rest = match self.symbol(r, ",") {
                Ok((r, _)) => r,
                Err(_) => r,
            };
        }
    }

    /// A number, ups and a star written together: `3/4v3*` is 3/4 + v3 + *.
    fn compact<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        let digits = |i: &'a str| -> (&'a str, Option<&'a str>) {
            match digit1::<_, ()>(i) {
                Ok((r, d)) => (r, Some(d)),
                Err(_) => (i, None),
            }
        };
        let mut parts = Vec::new();
        let mut rest = input;
        let start = |r: &str| self.offset(r);
        let sign = if rest.starts_with('-') { "-" } else { "" };
        if let (r, Some(numerator)) = digits(&rest[sign.len()..]) {
            let from = start(rest);
            let numerator = format!("{sign}{numerator}");
            let (r, denominator) = match r.strip_prefix('/') {
                Some(after) => match digits(after) {
                    (r2, Some(d)) => (r2, Some(d.to_string())),
                    _ => {
                        return Err(
                            self.error_at(after, SyntaxErrorKind::Expected("a denominator"))
                        );
                    }
                },
                None => (r, None),
            };
            let node = GameExpr::Number {
                numerator,
                denominator,
            };
            parts.push(Spanned {
                node,
                span: Span::new(from, start(r)),
            });
            rest = r;
        }
        for (prefix, sign) in [("^", 1i64), ("v", -1i64)] {
            if let Some(r) = rest.strip_prefix(prefix) {
                let from = start(rest);
                let (r, count) = digits(r);
                let count = match count {
                    Some(c) => c.parse::<i64>().map_err(|_| SyntaxError {
                        kind: SyntaxErrorKind::NumberTooLarge,
                        span: Span::new(from, start(r)),
                    })?,
                    None => 1,
                };
                let node = GameExpr::Up(sign * count);
                parts.push(Spanned {
                    node,
                    span: Span::new(from, start(r)),
                });
                rest = r;
                break;
            }
        }
        if let Some(r) = rest.strip_prefix('*') {
            let from = start(rest);
            let (r, n) = digits(r);
            let n = match n {
                Some(n) => n.parse::<u64>().map_err(|_| SyntaxError {
                    kind: SyntaxErrorKind::NumberTooLarge,
                    span: Span::new(from, start(r)),
                })?,
                None => 1,
            };
            parts.push(Spanned {
                node: GameExpr::Star(n),
                span: Span::new(from, start(r)),
            });
            rest = r;
        }
        if parts.is_empty() {
            return Err(self.error_at(input, SyntaxErrorKind::Expected("a game")));
        }
        let span = Span::new(start(input), start(rest));
        let node = if parts.len() == 1 {
            parts.remove(0).node
        } else {
            GameExpr::Sum(parts)
        };
        Ok((self.ws(rest), Spanned { node, span }))
    }

    fn board<'a>(&self, input: &'a str) -> PResult<'a, Spanned<BoardExpr>> {
        if input.starts_with('"') {
            let (rest, picture) = self.string(input)?;
            return Ok((
                rest,
                Spanned {
                    node: BoardExpr::Picture(picture.node),
                    span: picture.span,
                },
            ));
        }
        let dims = |i| -> IResult<&str, (&str, Option<&str>)> {
            let (i, rows) = digit1(i)?;
            let (i, cols) = opt(nom::sequence::preceded(char('x'), digit1))(i)?;
            Ok((i, (rows, cols)))
        };
        match dims(input) {
            Ok((rest, (rows, Some(cols)))) => {
                let span = self.span(input, rest);
                let parse = |s: &str| {
                    s.parse::<u64>().map_err(|_| SyntaxError {
                        kind: SyntaxErrorKind::NumberTooLarge,
                        span,
                    })
                };
                let board = BoardExpr::Dims {
                    rows: parse(rows)?,
                    cols: parse(cols)?,
                };
                Ok((self.ws(rest), Spanned { node: board, span }))
            }
            _ => Err(self.error_at(
                input,
                SyntaxErrorKind::Expected("a board: RxC or a picture string"),
            )),
        }
    }
}
