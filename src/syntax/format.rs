//! The canonical layout of a certificate file (`gamecert fmt`, and
//! `gamecert elaborate`): one layout per construct, every comment kept.
//!
//! Key decision: the printer writes each construct as lines, and each line
//! carries an *anchor*, the source offset of what it prints. Comments are
//! then woven in by position: a comment on a line of its own goes before
//! the first printed line whose anchor follows it (at that line's
//! indentation), a comment after code goes at the end of the printed line
//! for the last anchor before it on its source line. A blank source line
//! between two printed things becomes one blank line. Printing the printed
//! file again finds the same anchors in the same order, so the layout is
//! idempotent, and the syntax tree it parses to is the one printed (tested
//! on every shipped and rejection file).

use super::ast::*;
use super::printer::{game, statement};

/// One printed line: what it says, its indentation (in steps of two
/// spaces) and the source offset of what it prints.
#[derive(Clone, Debug)]
struct Line {
    anchor: usize,
    indent: usize,
    text: String,
}

/// The printed lines of a file, anchors kept nondecreasing (a construct
/// without an offset of its own borrows the last one).
#[derive(Default)]
struct Lines {
    lines: Vec<Line>,
}

impl Lines {
    fn push(&mut self, anchor: usize, indent: usize, text: String) {
        let floor = self.lines.last().map_or(0, |l| l.anchor);
        self.lines.push(Line {
            anchor: anchor.max(floor),
            indent,
            text,
        });
    }
}

/// The file in its canonical layout. The file must have no syntax errors
/// (the parser skips what it cannot read, and that text would be lost).
pub fn format_file(file: &File, source: &str) -> String {
    let mut out = Lines::default();
    out.push(file.header.start, 0, "gamecert 1".to_string());
    for item in &file.items {
        self::item(&mut out, item);
    }
    weave(&out.lines, &file.comments, source)
}

/// The lines inside the braces of a proof sequence (indented by two
/// spaces), for a certificate written by a producer.
pub fn proof_body_text(body: &ProofBody) -> String {
    let mut out = Lines::default();
    proof_body(&mut out, body, 0);
    weave(&out.lines, &[], "")
}

/// A claim in its canonical layout, without comments: the lines of
/// `claim ID: STATEMENT by METHOD`, each with its indentation in steps of
/// two spaces (for comparing claims structurally, `gamecert diff`).
pub fn claim_lines(claim: &Claim) -> Vec<(usize, String)> {
    let mut out = Lines::default();
    self::claim(&mut out, claim);
    out.lines.into_iter().map(|l| (l.indent, l.text)).collect()
}

fn item(out: &mut Lines, item: &Item) {
    match item {
        Item::Include(include) => {
            let pin = include
                .sha256
                .as_ref()
                .map(|p| format!(" sha256 \"{}\"", p.node))
                .unwrap_or_default();
            out.push(
                include.span.start,
                0,
                format!("include \"{}\"{pin}", include.path.node),
            );
        }
        Item::Board(decl) => board(out, decl),
        Item::Animal(decl) => {
            let head = format!("animal {} on {} =", decl.name.node, decl.board.node);
            match &decl.cells {
                AnimalCells::Coordinates(list) => {
                    out.push(decl.span.start, 0, format!("{head} {}", cells(list)));
                }
                AnimalCells::Picture(rows) => {
                    out.push(decl.span.start, 0, format!("{head} picture {{"));
                    picture(out, rows, 1);
                    out.push(decl.span.end.saturating_sub(1), 0, "}".to_string());
                }
            }
        }
        Item::Claim(claim) => self::claim(out, claim),
    }
}

fn board(out: &mut Lines, decl: &BoardDecl) {
    let head = format!("board {} = {}", decl.name.node, decl.kind.node);
    let close = decl.span.end.saturating_sub(1);
    match &decl.body {
        None if decl.args.node.is_empty() => out.push(decl.span.start, 0, head),
        None => out.push(decl.span.start, 0, format!("{head} {}", decl.args.node)),
        Some(BoardBody::Picture(rows)) => {
            out.push(decl.span.start, 0, format!("{head} picture {{"));
            picture(out, rows, 1);
            out.push(close, 0, "}".to_string());
        }
        Some(BoardBody::Graph(edges)) => {
            out.push(decl.span.start, 0, format!("{head} {{"));
            // Twelve edges a line.
            for chunk in edges.chunks(12) {
                let text: Vec<String> = chunk
                    .iter()
                    .map(|e| format!("{}-{}", e.node.0, e.node.1))
                    .collect();
                let anchor = chunk.first().map_or(close, |e| e.span.start);
                out.push(anchor, 1, text.join(" "));
            }
            out.push(close, 0, "}".to_string());
        }
        Some(BoardBody::Tiling(lines)) => {
            out.push(decl.span.start, 0, format!("{head} {{"));
            for line in lines {
                let mut text = line.key.node.clone();
                if let Some(word) = &line.word {
                    text = format!("{text} {}", word.node);
                }
                if !line.tuples.is_empty() {
                    text = format!("{text} {}", cells(&line.tuples));
                }
                out.push(line.span.start, 1, text);
            }
            out.push(close, 0, "}".to_string());
        }
    }
}

/// Picture rows at `indent`, their relative indentation kept (hexagon rows
/// are shifted by half cells), the common indentation dropped.
fn picture(out: &mut Lines, rows: &[Spanned<String>], indent: usize) {
    let common = rows
        .iter()
        .map(|r| r.node.chars().take_while(|&c| c == ' ').count())
        .min()
        .unwrap_or(0);
    for row in rows {
        let text: String = row.node.chars().skip(common).collect();
        out.push(row.span.start, indent, text);
    }
}

/// Written cells, separated by spaces: `(0,0) (1,0)`.
fn cells(list: &[Spanned<Vec<i64>>]) -> String {
    list.iter()
        .map(|c| cell(&c.node))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One written cell: `(x,y)`, as many coordinates as written.
fn cell(coords: &[i64]) -> String {
    let parts: Vec<String> = coords.iter().map(i64::to_string).collect();
    format!("({})", parts.join(","))
}

/// ` at G (dx,dy)` or ` at [i0 i1 ...]`, or nothing.
fn map(m: &Option<Spanned<MapAst>>) -> String {
    match m.as_ref().map(|m| &m.node) {
        None => String::new(),
        Some(MapAst::Lattice { element, shift }) => format!(" at {element} {}", cell(shift)),
        Some(MapAst::Permutation(image)) => {
            let image: Vec<String> = image.iter().map(u64::to_string).collect();
            format!(" at [{}]", image.join(" "))
        }
    }
}

/// `from a, b` (with a leading space), or nothing.
fn from(cites: &[Spanned<String>]) -> String {
    if cites.is_empty() {
        return String::new();
    }
    let ids: Vec<&str> = cites.iter().map(|c| c.node.as_str()).collect();
    format!(" from {}", ids.join(", "))
}

fn claim(out: &mut Lines, claim: &Claim) {
    let head = format!(
        "claim {}: {} by ",
        claim.id.node,
        statement(&claim.statement.node)
    );
    let start = claim.span.start;
    // The closing brace of a block method is the last byte of the method.
    let close = claim.method.span.end.saturating_sub(1);
    match &claim.method.node {
        Method::Search => out.push(start, 0, format!("{head}search")),
        Method::Definition => out.push(start, 0, format!("{head}definition")),
        Method::Enumeration(cites) => {
            out.push(start, 0, format!("{head}enumeration{}", from(cites)));
        }
        Method::Citation(cites) => out.push(start, 0, format!("{head}citation{}", from(cites))),
        Method::Cards { path, sha256 } | Method::Answers { path, sha256 } => {
            let pin = sha256
                .as_ref()
                .map(|p| format!(" sha256 \"{}\"", p.node))
                .unwrap_or_default();
            let name = claim.method.node.name();
            out.push(start, 0, format!("{head}{name} \"{}\"{pin}", path.node));
        }
        Method::Other(name) => out.push(start, 0, format!("{head}{name}")),
        Method::Derived {
            rule,
            cites,
            placements,
        } => {
            let name = rule.node.keyword();
            if placements.is_empty() {
                out.push(start, 0, format!("{head}{name}{}", from(cites)));
            } else {
                out.push(start, 0, format!("{head}{name} {{"));
                for p in placements {
                    let anchor = p.first().map_or(start, |c| c.span.start);
                    out.push(anchor, 1, format!("placement {}", cells(p)));
                }
                let closing = cites.first().map_or(close, |c| c.span.start);
                out.push(closing, 0, format!("}}{}", from(cites)));
            }
        }
        Method::Table(rows) => {
            out.push(start, 0, format!("{head}table {{"));
            for row in rows {
                let text = format!("{} = {}", game(&row.game.node), row.value.node);
                out.push(row.game.span.start, 1, text);
            }
            out.push(close, 0, "}".to_string());
        }
        Method::Derivation(steps) => {
            out.push(start, 0, format!("{head}derivation {{"));
            for step in steps {
                let text = format!(
                    "= {} by {}",
                    game(&step.game.node),
                    step.rule.node.keyword()
                );
                out.push(step.game.span.start, 1, text);
            }
            out.push(close, 0, "}".to_string());
        }
        Method::ProofSequence(body) => {
            out.push(start, 0, format!("{head}proof-sequence {{"));
            proof_body(out, body, start);
            out.push(close, 0, "}".to_string());
        }
        Method::Pairing(body) => {
            let word = if body.paving { "paving" } else { "pairing" };
            out.push(start, 0, format!("{head}{word} {{"));
            pairing_body(out, body, 1);
            out.push(body.span.end.saturating_sub(1), 0, "}".to_string());
        }
        Method::Priority(body) => {
            out.push(start, 0, format!("{head}priority {{"));
            priority_body(out, body);
            out.push(body.span.end.saturating_sub(1), 0, "}".to_string());
        }
        Method::LabelPairing(body) => {
            out.push(start, 0, format!("{head}label-pairing {{"));
            for (word, list) in [("labels", &body.labels), ("pairs", &body.pairs)] {
                let numbers: Vec<String> = list.iter().map(|n| n.node.to_string()).collect();
                let anchor = list.first().map_or(start, |n| n.span.start);
                out.push(anchor, 1, format!("{word} {}", numbers.join(" ")));
            }
            out.push(body.span.end.saturating_sub(1), 0, "}".to_string());
        }
    }
}

/// The body of a proof sequence: the search hint, the situations with
/// their options, the start.
fn proof_body(out: &mut Lines, body: &ProofBody, start: usize) {
    if let Some(search) = &body.search {
        let text = match search.node {
            None => "search board".to_string(),
            Some((rows, cols)) => format!("search window {rows}x{cols}"),
        };
        out.push(search.span.start, 1, text);
    }
    for s in &body.situations {
        let turns = s
            .turns
            .as_ref()
            .map(|t| format!(" turns {}", t.node))
            .unwrap_or_default();
        let head = format!("situation {}{turns}:", s.name.node);
        match &s.picture {
            Some(rows) => {
                out.push(s.name.span.start, 1, format!("{head} picture {{"));
                picture(out, rows, 2);
                let after = rows.last().map_or(s.name.span.end, |r| r.span.end);
                out.push(after, 1, "}".to_string());
            }
            None => {
                let mut text = format!("{head} core {}", cells(&s.core));
                if !s.neighbourhood.is_empty() {
                    text.push_str(&format!(" neighbourhood {}", cells(&s.neighbourhood)));
                }
                out.push(s.name.span.start, 1, text.trim_end().to_string());
            }
        }
        for o in &s.options {
            let answer = match &o.answer {
                Answer::Any => "option".to_string(),
                Answer::Reply(c) => format!("reply {}:", cell(&c.node)),
                Answer::Pass => "pass:".to_string(),
            };
            let marks = if o.mark.is_empty() {
                String::new()
            } else {
                format!(" {}", cells(&o.mark))
            };
            let text = format!("{answer}{marks} -> {}{}", o.target.node, map(&o.map));
            out.push(o.span.start, 2, text);
        }
    }
    if let Some(s) = &body.start {
        let text = format!("start {}{}", s.target.node, map(&s.map));
        out.push(s.target.span.start.max(start), 1, text);
    }
}

/// A pairing block's items at `indent`: the period, the pairs, the moves
/// (with their nested blocks).
fn pairing_body(out: &mut Lines, body: &PairingBody, indent: usize) {
    if let Some(first) = body.period.first() {
        out.push(
            first.span.start,
            indent,
            format!("period {}", cells(&body.period)),
        );
    }
    for (u, w) in &body.pairs {
        out.push(
            u.span.start,
            indent,
            format!("pair {} {}", cell(&u.node), cell(&w.node)),
        );
    }
    for m in &body.moves {
        let mark = cell(&m.mark.node);
        match &m.answer {
            MoveAnswerAst::Like { like, map: at } => {
                let text = format!("move {mark} like {}{}", cell(&like.node), map(at));
                out.push(m.mark.span.start, indent, text);
            }
            MoveAnswerAst::Same {
                reply,
                name,
                map: at,
            } => {
                let text = format!(
                    "move {mark} reply {} same {}{}",
                    cells(reply),
                    name.node,
                    map(at)
                )
                .replace("reply  same", "reply same");
                out.push(m.mark.span.start, indent, text);
            }
            MoveAnswerAst::Reply { reply, name, then } => {
                let named = name
                    .as_ref()
                    .map_or(String::new(), |n| format!(" as {}", n.node));
                let text = format!("move {mark} reply {}{named} {{", cells(reply))
                    .replace("reply  {", "reply {")
                    .replace("reply  as", "reply as");
                out.push(m.mark.span.start, indent, text);
                pairing_body(out, then, indent + 1);
                out.push(then.span.end.saturating_sub(1), indent, "}".to_string());
            }
        }
    }
}

/// A priority block's items: the period, the order, the classes with
/// their rules.
fn priority_body(out: &mut Lines, body: &PriorityBody) {
    if let Some(first) = body.period.first() {
        let text = format!("period {}", cells(&body.period));
        out.push(first.span.start, 1, text);
    }
    if let Some(first) = body.order.first() {
        let keys: Vec<&str> = body.order.iter().map(|k| k.node.keyword()).collect();
        out.push(first.span.start, 1, format!("order {}", keys.join(" ")));
    }
    for class in &body.classes {
        out.push(
            class.class.span.start,
            1,
            format!("class {} {{", cell(&class.class.node)),
        );
        let mut last = class.class.span.end;
        for rule in &class.rules {
            let guard = if rule.guard.is_empty() {
                String::new()
            } else {
                format!(" if {}", cells(&rule.guard))
            };
            let lists: Vec<String> = rule.lists.iter().map(|l| cells(l)).collect();
            let lists = if lists.is_empty() {
                " ".to_string()
            } else {
                format!(" {} ", lists.join(" ; "))
            };
            let anchor = rule
                .guard
                .first()
                .or_else(|| rule.lists.iter().flatten().next())
                .map_or(last, |c| c.span.start);
            last = rule
                .lists
                .iter()
                .flatten()
                .last()
                .map_or(anchor, |c| c.span.end);
            out.push(anchor, 2, format!("rule{guard} {{{lists}}}"));
        }
        out.push(last, 1, "}".to_string());
    }
}

/// The printed lines with the comments woven in and blank lines kept
/// (at most one in a row), as text.
fn weave(lines: &[Line], comments: &[Comment], source: &str) -> String {
    let starts = line_starts(source);
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let own_line = |c: &Comment| {
        let line_start = starts[line_of(c.span.start)];
        source[line_start..c.span.start].trim().is_empty()
    };
    // Trailing comments, by the printed line they end.
    let mut trailing: Vec<Vec<&Comment>> = vec![Vec::new(); lines.len()];
    let mut own: Vec<&Comment> = Vec::new();
    // Printed lines come in source order, so the host of a trailing
    // comment is the last line anchored before it (a binary search: files
    // of thousands of claims have thousands of comments), when that line
    // starts on the comment's source line.
    let in_order = lines.windows(2).all(|w| w[0].anchor <= w[1].anchor);
    for c in comments {
        let host = if in_order {
            let before = lines.partition_point(|l| l.anchor < c.span.start);
            before
                .checked_sub(1)
                .filter(|&i| line_of(lines[i].anchor) == line_of(c.span.start))
        } else {
            lines.iter().rposition(|l| {
                l.anchor < c.span.start && line_of(l.anchor) == line_of(c.span.start)
            })
        };
        match host {
            Some(i) if !own_line(c) => trailing[i].push(c),
            _ => own.push(c),
        }
    }
    let mut out = String::new();
    let mut previous_line: Option<usize> = None;
    let blank_before = |out: &mut String, at: usize, previous: &mut Option<usize>| {
        let line = line_of(at);
        if let Some(p) = *previous
            && line > p + 1
            && (p + 1..line).any(|l| blank(source, &starts, l))
            && !out.is_empty()
        {
            out.push('\n');
        }
        *previous = Some(line);
    };
    let mut pending = own.into_iter().peekable();
    for (i, l) in lines.iter().enumerate() {
        while let Some(c) = pending.next_if(|c| c.span.start < l.anchor) {
            blank_before(&mut out, c.span.start, &mut previous_line);
            push_line(&mut out, l.indent, &c.text);
        }
        blank_before(&mut out, l.anchor, &mut previous_line);
        let mut text = l.text.clone();
        for c in &trailing[i] {
            text.push_str("  ");
            text.push_str(&c.text);
        }
        push_line(&mut out, l.indent, &text);
    }
    for c in pending {
        blank_before(&mut out, c.span.start, &mut previous_line);
        push_line(&mut out, 0, &c.text);
    }
    out
}

fn push_line(out: &mut String, indent: usize, text: &str) {
    for _ in 0..indent {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

/// The byte offset of every line's start.
fn line_starts(source: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Whether source line `l` holds only whitespace.
fn blank(source: &str, starts: &[usize], l: usize) -> bool {
    let start = starts[l];
    let end = starts.get(l + 1).copied().unwrap_or(source.len());
    source[start..end].trim().is_empty()
}
