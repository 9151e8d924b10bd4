//! Maker certificates: the body of `by proof-sequence { ... }` (situations,
//! options, replies, the start, `search` hints) and congruences `at ...`.

use super::*;

impl Parser<'_> {
    /// The body of `by proof-sequence { ... }`, after the `{`.
    pub(super) fn proof_sequence<'a>(&self, input: &'a str) -> PResult<'a, Method> {
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
                let search_at = rest;
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
                    span: Span::new(start, self.end_of(search_at, r)),
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
    pub(super) fn attach(
        &self,
        body: &mut ProofBody,
        option: OptionAst,
        at: &str,
    ) -> Result<(), SyntaxError> {
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

    /// `[CELLS] -> TARGET [at MAP]`, the part of an option after its answer.
    pub(super) fn option_tail<'a>(&self, input: &'a str, answer: Answer) -> PResult<'a, OptionAst> {
        let (rest, mark) = self.cell_list(input)?;
        let (rest, _) = self.symbol(rest, "->")?;
        let (rest, target) = self.name(rest, "a situation name or `goal`")?;
        let (rest, map) = self.map(rest)?;
        let span = Span::new(self.offset(input), self.end_of(input, rest));
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

    /// `at G (dx,dy)` or `at [i0 i1 ...]`, if present.
    pub(super) fn map<'a>(&self, rest: &'a str) -> PResult<'a, Option<Spanned<MapAst>>> {
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
}
