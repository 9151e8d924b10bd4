//! Game expressions: the impartial rulesets, sums, and the partizan notation
//! (`{L|R}`, numbers, `*n`, `^`, `+-`, Hackenbush, Domineering).

use super::*;

impl Parser<'_> {
    /// `term (('+' | '-') term)*`; `G - H` is `G + (-H)`.
    pub(super) fn game<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        let (mut rest, first) = self.term(input)?;
        let mut terms = vec![first];
        loop {
            if let Ok((r, _)) = self.symbol(rest, "+") {
                let (r, term) = self.term(r)?;
                terms.push(term);
                rest = r;
            } else if let Ok((r, _)) = self.symbol(rest, "-") {
                // `{1 -1 | }` would be `{0 | }`, though it looks like two
                // options: a binary `-` is spaced on both sides or neither.
                let spaced_before = self.source[..self.offset(rest)].ends_with(char::is_whitespace);
                if spaced_before && !rest[1..].starts_with(char::is_whitespace) {
                    return Err(self.error_at(rest, SyntaxErrorKind::LopsidedMinus));
                }
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

    pub(super) fn term<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
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
                let (after_code, code) = self.octal_code(rest)?;
                let (r, heap) = self.number(after_code)?;
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
                let kind = SyntaxErrorKind::UnknownRuleset {
                    word: other.to_string(),
                    suggestion: suggest::closest(other, RULESET_NAMES),
                };
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
    pub(super) fn partizan_term<'a>(
        &self,
        input: &'a str,
    ) -> Option<PResult<'a, Spanned<GameExpr>>> {
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
    pub(super) fn options<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(self.error_at(input, SyntaxErrorKind::NestingTooDeep));
        }
        self.depth.set(self.depth.get() + 1);
        let result = self.options_inner(input);
        self.depth.set(self.depth.get() - 1);
        result
    }

    pub(super) fn options_inner<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
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
            // Options are separated by commas: `{1 2|}` is refused rather
            // than read as `{1, 2|}` (whitespace would separate some
            // options and not others: `1 - 1` is one option).
            rest = match self.symbol(r, ",") {
                Ok((r, _)) => r,
                Err(_) if r.starts_with(['|', '}']) => r,
                Err(_) => {
                    let expected = if side == 0 {
                        "`,`, `|` or `}`"
                    } else {
                        "`,` or `}`"
                    };
                    return Err(self.error_at(r, SyntaxErrorKind::Expected(expected)));
                }
            };
        }
    }

    /// A number, ups and a star written together: `3/4v3*` is 3/4 + v3 + *.
    pub(super) fn compact<'a>(&self, input: &'a str) -> PResult<'a, Spanned<GameExpr>> {
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

    pub(super) fn board<'a>(&self, input: &'a str) -> PResult<'a, Spanned<BoardExpr>> {
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

impl Parser<'_> {
    /// An octal code such as `0.07` or `.156` (digits and one point, as
    /// written; the elaborator checks the digits).
    pub(super) fn octal_code<'a>(&self, rest: &'a str) -> PResult<'a, Spanned<String>> {
        let code_end = take_while1::<_, _, ()>(|c: char| c.is_ascii_digit() || c == '.')(rest);
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
        Ok((self.ws(after_code), code))
    }

    /// What follows `period octal CODE =`: `(n0, p)`, or the values as
    /// `PREFIX(PERIOD)` (digits and capital letters).
    pub(super) fn period_rhs<'a>(
        &self,
        rest: &'a str,
        code: Spanned<String>,
    ) -> PResult<'a, Statement> {
        // `(n0, p)` has a comma after its first number; `(0011)`, values
        // with nothing before the period, has none.
        let numeric = rest.strip_prefix('(').is_some_and(|r| {
            let after_number = r
                .trim_start()
                .trim_start_matches(|c: char| c.is_ascii_digit());
            after_number.trim_start().starts_with(',')
        });
        if numeric {
            let (r, _) = self.symbol(rest, "(")?;
            let (r, preperiod) = self.number(r)?;
            let (r, _) = self.symbol(r, ",")?;
            let (r, period) = self.number(r)?;
            let (r, _) = self.symbol(r, ")")?;
            let values = None;
            return Ok((
                r,
                Statement::Period {
                    code,
                    preperiod,
                    period,
                    values,
                },
            ));
        }
        let symbol = |c: char| c.is_ascii_digit() || c.is_ascii_uppercase();
        let expected = || {
            self.error_at(
                rest,
                SyntaxErrorKind::Expected("`(n0, p)` or the values, such as 0(01)"),
            )
        };
        let prefix_len = rest.find(|c: char| !symbol(c)).unwrap_or(rest.len());
        let after_prefix = &rest[prefix_len..];
        let inner = after_prefix.strip_prefix('(').ok_or_else(expected)?;
        let inner_len = inner.find(|c: char| !symbol(c)).unwrap_or(inner.len());
        let after = inner[inner_len..].strip_prefix(')').ok_or_else(expected)?;
        if inner_len == 0 {
            return Err(expected());
        }
        let number = |node: usize, from: &'a str, to: &'a str| Spanned {
            node: node as u64,
            span: self.span(from, to),
        };
        let preperiod = number(prefix_len, rest, after_prefix);
        let period = number(inner_len, inner, &inner[inner_len..]);
        let values = Some(Spanned {
            node: rest[..rest.len() - after.len()].to_string(),
            span: self.span(rest, after),
        });
        Ok((
            self.ws(after),
            Statement::Period {
                code,
                preperiod,
                period,
                values,
            },
        ))
    }
}
