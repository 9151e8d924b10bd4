//! Claims and their statements (SPEC 4): the impartial, partizan, animal,
//! maker and breaker statement forms.

use super::*;

impl Parser<'_> {
    pub(super) fn claim<'a>(&self, input: &'a str) -> PResult<'a, Item> {
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
            Statement::Period {
                values: Some(values),
                ..
            } => values.span.end,
            Statement::Period { period, .. } => period.span.end,
            Statement::Value { value, .. } => value.span.end,
            Statement::Compare { right, .. } => right.span.end,
            Statement::Number { game } => game.span.end,
            Statement::CountAnimals { count, .. } => count.span.end,
            Statement::Winner { game, .. } | Statement::Loser { game, .. } => game.span.end,
            Statement::Threshold { sequence, .. } => sequence.span.end,
            Statement::Classify { losers, .. } => losers.span.end,
            Statement::Bound { at_most, .. } => at_most.span.end,
        };
        let statement = Spanned {
            node: statement,
            span: Span::new(self.offset(start), end),
        };
        let (rest, _) = self.keyword(rest, "by")?;
        let method_start = rest;
        let (rest, method) = self.method(rest, statement.node.kind())?;
        let method_end = self.end_of(method_start, rest);
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

    pub(super) fn play<'a>(&self, input: &'a str) -> (&'a str, PlayAst) {
        match self.keyword(input, "misere") {
            Ok((rest, _)) => (rest, PlayAst::Misere),
            Err(_) => (input, PlayAst::Normal),
        }
    }

    pub(super) fn statement<'a>(&self, input: &'a str) -> PResult<'a, Statement> {
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
            "period" => {
                let (rest, _) = self.keyword(rest, "octal")?;
                let (rest, code) = self.octal_code(rest)?;
                let (rest, _) = self.symbol(rest, "=")?;
                self.period_rhs(rest, code)
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
                let (rest, elementary) = match self.keyword(rest, "elementary") {
                    Ok((rest, _)) => (rest, true),
                    Err(_) => (rest, false),
                };
                let (rest, _) = self.keyword(rest, "winners")?;
                let (rest, _) = self.symbol(rest, ",")?;
                let (rest, losers) = self.number(rest)?;
                let rest = if elementary {
                    self.keyword(rest, "elementary")?.0
                } else {
                    rest
                };
                let (rest, _) = self.keyword(rest, "losers")?;
                let (rest, _) = self.symbol(rest, ")")?;
                Ok((
                    rest,
                    Statement::Classify {
                        board,
                        winners,
                        losers,
                        elementary,
                    },
                ))
            }
            "bound" => {
                let (rest, board) = self.name(rest, "a board")?;
                let (rest, size) = match self.keyword(rest, "size") {
                    Ok((rest, _)) => {
                        let (rest, size) = self.number(rest)?;
                        (rest, Some(size))
                    }
                    Err(_) => (rest, None),
                };
                let (rest, _) = self.keyword(rest, "winners")?;
                let (rest, _) = self.symbol(rest, "<=")?;
                let (rest, at_most) = self.number(rest)?;
                Ok((
                    rest,
                    Statement::Bound {
                        board,
                        size,
                        at_most,
                    },
                ))
            }
            other => {
                let keywords = StatementKind::ALL.map(StatementKind::keyword);
                let kind = SyntaxErrorKind::UnknownStatement {
                    word: other.to_string(),
                    suggestion: suggest::closest(other, keywords),
                };
                Err(SyntaxError {
                    kind,
                    span: self.span(input, after),
                })
            }
        }
    }

    /// `(a,b)` or `(a->c,b)`.
    pub(super) fn maker_game<'a>(&self, input: &'a str) -> PResult<'a, Spanned<MakerGame>> {
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

    pub(super) fn relation<'a>(&self, input: &'a str) -> PResult<'a, Spanned<RelationAst>> {
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
}
