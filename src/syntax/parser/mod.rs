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

use crate::syntax::ast::*;
use crate::syntax::suggest;

mod breaker;
mod declarations;
mod games;
mod maker;
mod methods;
mod statements;

/// Parses a whole file.
pub fn parse_file(source: &str) -> File {
    let mut p = Parser {
        source,
        errors: Vec::new(),
        depth: Default::default(),
        comments: Default::default(),
    };
    let (header, items, failed_declarations) = p.file();
    let comments = p
        .comments
        .borrow()
        .iter()
        .map(|(&start, &end)| Comment {
            span: Span::new(start, end),
            text: source[start..end].trim_end().to_string(),
        })
        .collect();
    File {
        header,
        items,
        errors: p.errors,
        comments,
        failed_declarations,
    }
}

/// Parses a single game expression (the argument of `gamecert eval`).
pub fn parse_game(source: &str) -> Result<Spanned<GameExpr>, SyntaxError> {
    let p = Parser {
        source,
        errors: Vec::new(),
        depth: Default::default(),
        comments: Default::default(),
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
    /// The `#` comments skipped so far, by their first byte (a comment may
    /// be skipped more than once when the parser backtracks).
    comments: std::cell::RefCell<std::collections::BTreeMap<usize, usize>>,
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
    "answers",
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
    "ring-pairing",
    "fan-pairing",
    "label-pairing",
];

/// The game keywords of the rulesets, the impartial ones first (a
/// misspelling's suggestion goes to the first of equally close names).
const RULESET_NAMES: [&str; 10] = [
    "nim",
    "cram",
    "domino-juvavum",
    "juvavum",
    "octal",
    "kayles",
    "dawson",
    "hackenbush",
    "green-hackenbush",
    "domineering",
];

fn word(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        take_while1(|c: char| c.is_ascii_alphanumeric()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_'),
    ))(input)
}

impl<'s> Parser<'s> {
    pub(super) fn offset(&self, rest: &str) -> usize {
        rest.as_ptr() as usize - self.source.as_ptr() as usize
    }

    pub(super) fn span(&self, from: &str, to: &str) -> Span {
        Span::new(self.offset(from), self.offset(to))
    }

    pub(super) fn error_at(&self, rest: &str, kind: SyntaxErrorKind) -> SyntaxError {
        let start = self.offset(rest);
        let len = rest.chars().next().map_or(0, char::len_utf8);
        let len = word(rest).map_or(len, |(_, w)| w.len());
        SyntaxError {
            kind,
            span: Span::new(start, start + len),
        }
    }

    /// Skips spaces, newlines and `#` comments.
    pub(super) fn ws<'a>(&self, mut input: &'a str) -> &'a str {
        loop {
            let trimmed = input.trim_start();
            if let Some(comment) = trimmed.strip_prefix('#') {
                let end = comment.find('\n').unwrap_or(comment.len());
                let start = self.offset(trimmed);
                self.comments
                    .borrow_mut()
                    .insert(start, self.offset(&comment[end..]));
                input = &comment[end..];
            } else {
                return trimmed;
            }
        }
    }

    /// The end of the text from `from` to `rest`, without the whitespace
    /// and comments skipped just before `rest` (spans end at the last
    /// token, so that a comment after an item is not part of it).
    pub(super) fn end_of(&self, from: &str, rest: &str) -> usize {
        let start = self.offset(from);
        let mut end = self.offset(rest).max(start);
        let comments = self.comments.borrow();
        loop {
            end = start + self.source[start..end].trim_end().len();
            // A comment ending here (its recorded end may include trailing
            // spaces) is skipped trivia too.
            match comments.range(start..end).next_back() {
                Some((&c, &c_end)) if c_end >= end => end = c,
                _ => return end,
            }
        }
    }

    pub(super) fn keyword<'a>(&self, input: &'a str, kw: &'static str) -> PResult<'a, ()> {
        match word(input) {
            Ok((rest, w)) if w == kw => Ok((self.ws(rest), ())),
            _ => Err(self.error_at(input, SyntaxErrorKind::Expected(kw))),
        }
    }

    /// Matches `sym`; the value is the offset just after it.
    pub(super) fn symbol<'a>(&self, input: &'a str, sym: &'static str) -> PResult<'a, usize> {
        match tag::<_, _, ()>(sym)(input) {
            Ok((rest, _)) => Ok((self.ws(rest), self.offset(rest))),
            Err(_) => Err(self.error_at(input, SyntaxErrorKind::Expected(sym))),
        }
    }

    pub(super) fn number<'a>(&self, input: &'a str) -> PResult<'a, Spanned<u64>> {
        let (rest, digits) = digit1::<_, ()>(input)
            .map_err(|_| self.error_at(input, SyntaxErrorKind::Expected("a number")))?;
        let span = self.span(input, rest);
        let node = digits.parse::<u64>().map_err(|_| SyntaxError {
            kind: SyntaxErrorKind::NumberTooLarge,
            span,
        })?;
        Ok((self.ws(rest), Spanned { node, span }))
    }

    pub(super) fn string<'a>(&self, input: &'a str) -> PResult<'a, Spanned<String>> {
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

    /// The header, the items, and the declarations a syntax error stopped.
    pub(super) fn file(&mut self) -> (Span, Vec<Item>, Vec<FailedDeclaration>) {
        let mut rest = self.ws(self.source);
        let header_start = self.offset(rest);
        let mut header = Span::new(header_start, header_start);
        match self.header(rest) {
            Ok(r) => {
                header.end = self.offset(r);
                rest = r;
            }
            Err(e) => {
                self.errors.push(e);
                rest = self.skip_to_next_item(rest);
            }
        }
        let mut items = Vec::new();
        let mut failed = Vec::new();
        while !rest.is_empty() {
            match self.item(rest) {
                Ok((r, item)) => {
                    items.push(item);
                    rest = r;
                }
                Err(e) => {
                    failed.extend(self.failed_declaration(rest, e.span));
                    self.errors.push(e);
                    rest = self.skip_to_next_item(rest);
                }
            }
        }
        (header, items, failed)
    }

    /// The declaration starting at `input` whose syntax error is at
    /// `error`, if it is a declaration and its name could be read.
    fn failed_declaration(&self, input: &str, error: Span) -> Option<FailedDeclaration> {
        let (after, keyword) = word(input).ok()?;
        let kind = match keyword {
            "board" => DeclarationKind::Board,
            "animal" => DeclarationKind::Animal,
            _ => return None,
        };
        let (_, name) = self.name(self.ws(after), "a name").ok()?;
        // An error at the name itself leaves no name to refer to.
        (error.start >= name.span.end).then_some(FailedDeclaration { kind, name, error })
    }

    pub(super) fn header<'a>(&self, input: &'a str) -> Result<&'a str, SyntaxError> {
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
    pub(super) fn skip_to_next_item<'a>(&self, input: &'a str) -> &'a str {
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

    pub(super) fn item<'a>(&self, input: &'a str) -> PResult<'a, Item> {
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

    /// Coordinate tuples `(x,y) (x,y,z) (f) ...`, possibly none.
    pub(super) fn cell_list<'a>(&self, mut rest: &'a str) -> PResult<'a, CellList> {
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
    pub(super) fn integers<'a>(&self, mut r: &'a str) -> PResult<'a, Vec<i64>> {
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

    /// Exactly one coordinate tuple.
    pub(super) fn one_cell<'a>(&self, rest: &'a str) -> PResult<'a, Spanned<Vec<i64>>> {
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

    /// A name as a spanned string.
    pub(super) fn name<'a>(
        &self,
        rest: &'a str,
        what: &'static str,
    ) -> PResult<'a, Spanned<String>> {
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

    /// An error at the block's opening brace (offset `brace`) when the
    /// input ends, or the next claim or include begins, before its `}`.
    pub(super) fn block_continues(&self, rest: &str, brace: usize) -> Result<(), SyntaxError> {
        if rest.is_empty() || rest.starts_with("claim") || rest.starts_with("include") {
            return Err(SyntaxError {
                kind: SyntaxErrorKind::UnclosedBlock,
                span: Span::new(brace, brace + 1),
            });
        }
        Ok(())
    }
}
