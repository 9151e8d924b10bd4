//! Breaker certificates: pairing and paving blocks (pairs, periods, strategy
//! trees) and priority blocks (order keys, classes, guarded rules).

use super::*;

impl Parser<'_> {
    /// The body of a pairing block after its `{` (`open` is the input at
    /// the brace): `period`, `pair` and `move` items, then `}`.
    pub(super) fn pairing_body<'a>(
        &self,
        open: &'a str,
        input: &'a str,
    ) -> PResult<'a, PairingBody> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(self.error_at(open, SyntaxErrorKind::NestingTooDeep));
        }
        let mut body = PairingBody::default();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                body.span = Span::new(self.offset(open), self.end_of(open, r));
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
                    if let Ok((r, _)) = self.keyword(r, "same") {
                        let (r, name) = self.name(r, "the name of a situation")?;
                        let (r, map) = self.map(r)?;
                        (r, MoveAnswerAst::Same { reply, name, map })
                    } else {
                        let (r, name) = match self.keyword(r, "as") {
                            Ok((r, _)) => {
                                let (r, name) = self.name(r, "the name of a situation")?;
                                (r, Some(name))
                            }
                            Err(_) => (r, None),
                        };
                        let (r2, _) = self.symbol(r, "{")?;
                        self.depth.set(self.depth.get() + 1);
                        let then = self.pairing_body(r, r2);
                        self.depth.set(self.depth.get() - 1);
                        let (r, then) = then?;
                        (r, MoveAnswerAst::Reply { reply, name, then })
                    }
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
    pub(super) fn priority_body<'a>(
        &self,
        open: &'a str,
        input: &'a str,
    ) -> PResult<'a, PriorityBody> {
        let mut body = PriorityBody::default();
        let mut rest = input;
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                body.span = Span::new(self.offset(open), self.end_of(open, r));
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
    pub(super) fn class_rules<'a>(
        &self,
        open: &'a str,
        input: &'a str,
    ) -> PResult<'a, Vec<PriorityRuleAst>> {
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
}
