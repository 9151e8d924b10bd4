//! Declarations: `include`, `board` (kinds, pictures, graphs) and `animal`.

use super::*;

impl<'s> Parser<'s> {
    pub(super) fn include<'a>(&self, input: &'a str) -> PResult<'a, Item> {
        let (rest, _) = self.keyword(input, "include")?;
        let (rest, (path, sha256)) = self.pinned_path(rest)?;
        let span = Span::new(
            self.offset(input),
            path.span.end.max(sha256.as_ref().map_or(0, |s| s.span.end)),
        );
        Ok((rest, Item::Include(Include { path, sha256, span })))
    }

    /// `"PATH" [sha256 "HEX"]`: a file an item names, with its optional pin.
    pub(super) fn pinned_path<'a>(
        &self,
        input: &'a str,
    ) -> PResult<'a, (Spanned<String>, Option<Spanned<String>>)> {
        let (rest, path) = self.string(input)?;
        match self.keyword(rest, "sha256") {
            Ok((r, _)) => {
                let (r, pin) = self.string(r)?;
                Ok((r, (path, Some(pin))))
            }
            Err(_) => Ok((rest, (path, None))),
        }
    }

    /// `animal NAME on BOARD = (x,y) (x,y) ...` or `= picture { ROWS }`.
    pub(super) fn animal_decl<'a>(&self, input: &'a str) -> PResult<'a, Item> {
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
        let span = Span::new(self.offset(input), self.end_of(input, rest));
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

    /// The rows of `{ ... }` after `picture` (`item`: where the item starts,
    /// for the error of an unclosed block).
    pub(super) fn picture_block<'a>(
        &self,
        item: &'a str,
        r: &'a str,
    ) -> PResult<'a, Vec<Spanned<String>>> {
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
    pub(super) fn graph_block<'a>(
        &self,
        item: &'a str,
        r: &'a str,
    ) -> PResult<'a, Vec<Spanned<(u64, u64)>>> {
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

    /// The lines of a `tiling { ... }` board, after the `{`: a keyword, a
    /// word after `basis`, then coordinate tuples (checked by the
    /// elaborator, which knows what each entry needs).
    pub(super) fn tiling_block<'a>(
        &self,
        item: &'a str,
        r: &'a str,
    ) -> PResult<'a, Vec<TilingLine>> {
        let mut lines = Vec::new();
        let mut r = self.ws(r);
        loop {
            if let Ok((r2, _)) = self.symbol(r, "}") {
                return Ok((r2, lines));
            }
            if r.is_empty() {
                let start = self.offset(item);
                return Err(SyntaxError {
                    kind: SyntaxErrorKind::UnclosedBlock,
                    span: Span::new(start, start + 5),
                });
            }
            let (r2, key) = self.name(r, "`basis`, `periods`, `face`, `symmetry` or `}`")?;
            let (r2, word) = if key.node == "basis" {
                let (r3, w) = self.name(r2, "`square` or `hexagonal`")?;
                (r3, Some(w))
            } else {
                (r2, None)
            };
            let (r2, tuples) = self.cell_list(r2)?;
            let end = tuples
                .last()
                .map(|t| t.span.end)
                .or(word.as_ref().map(|w| w.span.end))
                .unwrap_or(key.span.end);
            lines.push(TilingLine {
                span: Span::new(key.span.start, end),
                key,
                word,
                tuples,
            });
            r = r2;
        }
    }

    /// `board NAME = KIND ARGS` (ARGS: the rest of the line), `board NAME =
    /// LATTICE picture { ROWS }` or `board NAME = graph { EDGES }`.
    pub(super) fn board_decl<'a>(&self, input: &'a str) -> PResult<'a, Item> {
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
        } else if let (Ok((r, _)), "tiling") =
            (self.symbol(self.ws(after), "{"), kind.node.as_str())
        {
            let (r, lines) = self.tiling_block(input, r)?;
            (r, empty_args(after), Some(BoardBody::Tiling(lines)))
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
        let span = Span::new(
            self.offset(input),
            self.end_of(input, rest).max(kind.span.end),
        );
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
}
