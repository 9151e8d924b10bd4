//! Methods after `by`: the table and derivation blocks, derived rules with
//! their placements and citations, card files, and the dispatch to the
//! maker and breaker bodies.

use super::*;

impl Parser<'_> {
    /// The method after `by`; `statement` is the kind of statement it is to
    /// check, which an unknown method's diagnostic lists the methods of.
    pub(super) fn method<'a>(
        &self,
        input: &'a str,
        statement: StatementKind,
    ) -> PResult<'a, Method> {
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
                let (r, mut body) = self.pairing_body(rest, r)?;
                body.paving = name == "paving";
                Ok((r, Method::Pairing(body)))
            }
            "priority" => {
                let (r, _) = self.symbol(rest, "{")?;
                let (r, body) = self.priority_body(rest, r)?;
                Ok((r, Method::Priority(body)))
            }
            "label-pairing" => self.label_pairing(rest),
            "derivation" => self.derivation(rest),
            "proof-sequence" => {
                let (rest, _) = self.symbol(rest, "{")?;
                self.proof_sequence(rest)
            }
            "cards" => {
                let (rest, (path, sha256)) = self.pinned_path(rest)?;
                Ok((rest, Method::Cards { path, sha256 }))
            }
            "answers" => {
                let (rest, (path, sha256)) = self.pinned_path(rest)?;
                Ok((rest, Method::Answers { path, sha256 }))
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
                let known = METHOD_NAMES
                    .iter()
                    .copied()
                    .chain(["citation"])
                    .chain(DerivedRuleName::ALL.map(DerivedRuleName::keyword));
                let kind = SyntaxErrorKind::UnknownMethod {
                    word: other.to_string(),
                    suggestion: suggest::closest(other, known),
                    statement,
                };
                Err(SyntaxError {
                    kind,
                    span: self.span(input, after),
                })
            }
        }
    }

    /// A derived rule (`by RULE [{ placement CELLS ... }] [from ID, ...]`),
    /// after its name (`input` at the name, `after` just past it).
    pub(super) fn derived_method<'a>(
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

    pub(super) fn table<'a>(&self, input: &'a str) -> PResult<'a, Method> {
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

    /// `{ labels N ... pairs N ... }` (either list may be repeated; its
    /// numbers are appended).
    pub(super) fn label_pairing<'a>(&self, input: &'a str) -> PResult<'a, Method> {
        let (mut rest, _) = self.symbol(input, "{")?;
        let mut body = LabelPairingBody::default();
        loop {
            if let Ok((r, _)) = self.symbol(rest, "}") {
                body.span = Span::new(self.offset(input), self.end_of(input, r));
                return Ok((r, Method::LabelPairing(body)));
            }
            self.block_continues(rest, self.offset(input))?;
            let (mut r, list) = if let Ok((r, _)) = self.keyword(rest, "labels") {
                (r, &mut body.labels)
            } else {
                let (r, _) = self.keyword(rest, "pairs")?;
                (r, &mut body.pairs)
            };
            // The list ends where no number follows; a number too large
            // is an error of its own, not the end of the list.
            loop {
                match self.number(r) {
                    Ok((r2, n)) => {
                        list.push(n);
                        r = r2;
                    }
                    Err(e) if matches!(e.kind, SyntaxErrorKind::NumberTooLarge) => return Err(e),
                    Err(_) => break,
                }
            }
            rest = r;
        }
    }

    /// `{ (= GAME by RULE)* }`.
    pub(super) fn derivation<'a>(&self, input: &'a str) -> PResult<'a, Method> {
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
                let kind = SyntaxErrorKind::UnknownStepRule {
                    word: name.to_string(),
                    suggestion: suggest::closest(
                        name,
                        StepRuleName::ALL.map(StepRuleName::keyword),
                    ),
                };
                return Err(SyntaxError { kind, span });
            };
            let rule = Spanned { node, span };
            steps.push(DerivationStep { game, rule });
            rest = self.ws(after);
        }
    }

    /// `from ID, ...` if present (else no citations).
    pub(super) fn citations<'a>(&self, rest: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        match self.keyword(rest, "from") {
            Ok((r, _)) => self.id_list(r),
            Err(_) => Ok((rest, Vec::new())),
        }
    }

    /// `ID, ID, ...`: one or more claim ids.
    pub(super) fn id_list<'a>(&self, mut r: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        let mut cites = Vec::new();
        loop {
            // A list cut short at the end of a line must not take the next
            // item's keyword for an id (and swallow that item).
            if let Ok((_, w)) = word(r)
                && ["claim", "board", "animal", "include"].contains(&w)
            {
                return Err(self.error_at(r, SyntaxErrorKind::Expected("a claim id")));
            }
            let (r2, id) = self.name(r, "a claim id")?;
            cites.push(id);
            match self.symbol(r2, ",") {
                Ok((r3, _)) => r = r3,
                Err(_) => return Ok((r2, cites)),
            }
        }
    }

    pub(super) fn skip_method_body<'a>(&self, input: &'a str) -> &'a str {
        self.skip_to_next_item(input)
    }
}
