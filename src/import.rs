//! `gamecert import snaky-cards FILE`: machine-made maker strategies in the
//! card format (`snaky-cards-txt-v1`, ../shared/data/README.md) translated
//! into a proof-sequence certificate.
//!
//! Key decision: the translation is untrusted and purely syntactic. A card
//! (A, S, p, h) becomes the situation with core A + p and neighbourhood
//! S - (A + p), to be won within h maker turns, justified in the per-reply
//! form: its pass hint and each reply hint become options that mark the
//! target card's p (placed by the hint's map) and reach the target card. A
//! card without hints must already hold the goal, which becomes an option
//! reaching the goal (the elaborator finds where). Situations are written in
//! increasing height, so every hint of a correct file targets an earlier
//! situation; the kernel then judges the file like any other.

use std::fmt::Write as _;

use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::{Board, Region};
use crate::kernel::maker::congruence::{Congruence, Space};
use crate::kernel::maker::{Justification, MakerOption, ProofSequence, Situation, Target};
use crate::produce::certificate::{cells_text, proof_text};
use crate::produce::placer::Placer;

/// A translation of a card orientation (0..7, the card format's list of
/// linear maps (x,y) -> (a x + b y, c x + d y) with (a,b,c,d) = (1,0,0,1),
/// (-1,0,0,1), (0,-1,1,0), (0,1,1,0), (-1,0,0,-1), (1,0,0,-1), (0,1,-1,0),
/// (0,-1,-1,0)) to the kernel's square point-group element (bit 4: swap x
/// and y, then bit 1: negate x, bit 2: negate y), through which hints are
/// applied.
const ORIENTATION_TO_ELEMENT: [u8; 8] = [0, 1, 5, 4, 3, 2, 6, 7];

/// Snaky, the goal of the published card file.
pub const SNAKY: [Cell; 6] = [
    [0, 0, 0],
    [1, 0, 0],
    [2, 0, 0],
    [3, 0, 0],
    [3, 1, 0],
    [4, 1, 0],
];

/// The domino, the goal of the two-card example.
pub const DOMINO: [Cell; 2] = [[0, 0, 0], [1, 0, 0]];

/// A hint: the card reached and the map placing it.
#[derive(Clone, Copy, Debug)]
struct Hint {
    card: usize,
    orientation: u8,
    shift: (i64, i64),
}

/// One card.
#[derive(Clone, Debug)]
struct Card {
    height: i64,
    p: (i64, i64),
    a: Vec<(i64, i64)>,
    s: Vec<(i64, i64)>,
    pass: Option<Hint>,
    replies: Vec<((i64, i64), Hint)>,
}

/// A parsed card file.
#[derive(Clone, Debug)]
pub struct CardFile {
    rows: i64,
    cols: i64,
    root: Hint,
    cards: Vec<Card>,
}

/// Why a card file cannot be read: the message and the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardError {
    /// What is wrong.
    pub message: String,
    /// Where (byte offset of the offending token, or the end).
    pub offset: usize,
}

/// The largest card file read (the published one has 3.3 MB).
pub const MAX_CARD_BYTES: usize = 64 << 20;

/// The largest coordinate or count accepted.
const MAX_NUMBER: i64 = 1 << 20;

/// Whitespace-separated integers with their offsets.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
    card: Option<usize>,
}

impl Tokens<'_> {
    /// The next token as its start and end offsets.
    fn next_token(&mut self) -> Option<(usize, usize)> {
        let rest = &self.text[self.at..];
        let skipped = rest.len() - rest.trim_start().len();
        let start = self.at + skipped;
        let len = self.text[start..]
            .find(char::is_whitespace)
            .unwrap_or(self.text.len() - start);
        self.at = start + len;
        (len > 0).then_some((start, start + len))
    }

    fn error(&self, offset: usize, what: &str) -> CardError {
        let message = match self.card {
            Some(c) => format!("card {c}: {what}"),
            None => format!("header: {what}"),
        };
        CardError { message, offset }
    }

    fn int(&mut self, what: &str) -> Result<i64, CardError> {
        let Some((offset, end)) = self.next_token() else {
            let end = self.text.len();
            return Err(self.error(end, &format!("the file ends where {what} should be")));
        };
        let token = &self.text[offset..end];
        token
            .parse::<i64>()
            .ok()
            .filter(|v| v.abs() <= MAX_NUMBER)
            .ok_or_else(|| self.error(offset, &format!("`{token}` is not {what}")))
    }

    fn count(&mut self, what: &str) -> Result<usize, CardError> {
        let at = self.at;
        let n = self.int(what)?;
        usize::try_from(n).map_err(|_| self.error(at, &format!("{what} is negative")))
    }

    fn cell(&mut self) -> Result<(i64, i64), CardError> {
        Ok((self.int("an x coordinate")?, self.int("a y coordinate")?))
    }

    fn hint(&mut self, card: usize) -> Result<Hint, CardError> {
        let at = self.at;
        let orientation = self.int("an orientation")?;
        let orientation = u8::try_from(orientation)
            .ok()
            .filter(|&k| k < 8)
            .ok_or_else(|| self.error(at, "an orientation is 0 to 7"))?;
        Ok(Hint {
            card,
            orientation,
            shift: self.cell()?,
        })
    }
}

impl CardFile {
    /// Reads a card file.
    pub fn parse(text: &str) -> Result<CardFile, CardError> {
        let mut t = Tokens {
            text,
            at: 0,
            card: None,
        };
        match t.next_token() {
            Some((start, end)) if &text[start..end] == "snaky-cards-txt-v1" => {}
            other => {
                let offset = other.map_or(0, |(o, _)| o);
                return Err(t.error(offset, "the file does not start with `snaky-cards-txt-v1`"));
            }
        }
        let rows = t.int("the number of rows")?;
        let cols = t.int("the number of columns")?;
        let root = t.count("the root card's index")?;
        let root = t.hint(root)?;
        let mut cards = Vec::new();
        while !t.text[t.at..].trim_start().is_empty() {
            t.card = Some(cards.len());
            let height = t.int("a height")?;
            let p = t.cell()?;
            let na = t.count("the number of maker cells")?;
            let a = (0..na).map(|_| t.cell()).collect::<Result<_, _>>()?;
            let ns = t.count("the number of region cells")?;
            let s = (0..ns).map(|_| t.cell()).collect::<Result<_, _>>()?;
            let j = t.int("the pass hint's card")?;
            let pass = match usize::try_from(j) {
                Ok(j) => Some(t.hint(j)?),
                Err(_) => None,
            };
            let nr = t.count("the number of replies")?;
            let mut replies = Vec::with_capacity(nr);
            for _ in 0..nr {
                let w = t.cell()?;
                let j = t.count("a reply's card")?;
                replies.push((w, t.hint(j)?));
            }
            cards.push(Card {
                height,
                p,
                a,
                s,
                pass,
                replies,
            });
        }
        let file = CardFile {
            rows,
            cols,
            root,
            cards,
        };
        // Hints must name cards of the file (the kernel cannot be handed a
        // target that does not exist).
        let n = file.cards.len();
        let bad = std::iter::once(&file.root)
            .chain(
                file.cards
                    .iter()
                    .flat_map(|c| c.pass.iter().chain(c.replies.iter().map(|(_, h)| h))),
            )
            .find(|h| h.card >= n);
        if let Some(h) = bad {
            return Err(CardError {
                message: format!("a hint names card {}, but the file has {n} cards", h.card),
                offset: text.len(),
            });
        }
        Ok(file)
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the file has no cards.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The proof sequence the cards stand for, for the goal `goal` on
    /// `board` (the square lattice or a region of it). Card N is situation
    /// `card-N`; situations come in increasing height.
    pub fn proof_sequence(&self, board: &Board, goal: &[Cell]) -> ProofSequence {
        let placer = Placer::plane(board);
        let mut order: Vec<usize> = (0..self.cards.len()).collect();
        order.sort_by_key(|&i| (self.cards[i].height, i));
        let mut position = vec![0; self.cards.len()];
        for (k, &i) in order.iter().enumerate() {
            position[i] = k;
        }
        let situations = order
            .iter()
            .map(|&i| self.situation(i, &position, &placer, goal))
            .collect();
        ProofSequence {
            situations,
            start: (
                Target::Situation(position[self.root.card]),
                congruence(&self.root),
            ),
        }
    }

    fn situation(
        &self,
        i: usize,
        position: &[usize],
        placer: &Placer,
        goal: &[Cell],
    ) -> (Situation, Justification) {
        let card = &self.cards[i];
        let cell = |(x, y): (i64, i64)| [x as i32, y as i32, 0];
        let mut core: Vec<Cell> = card.a.iter().map(|&c| cell(c)).collect();
        if !core.contains(&cell(card.p)) {
            core.push(cell(card.p));
        }
        let neighbourhood: Vec<Cell> = card
            .s
            .iter()
            .map(|&c| cell(c))
            .filter(|c| !core.contains(c))
            .collect();
        let situation = Situation {
            name: format!("card-{i}"),
            turns: usize::try_from(card.height).ok(),
            core,
            neighbourhood,
        };
        if card.pass.is_none() && card.replies.is_empty() {
            // The card must hold the goal already: an option reaching it,
            // placed where the search finds it (identity if nowhere).
            let (mark, map) = placer
                .place(&situation, &[], goal, &[], 1)
                .unwrap_or_else(|| {
                    (
                        Vec::new(),
                        Congruence::identity(&Board::Lattice(Lattice::Square)),
                    )
                });
            let option = MakerOption {
                mark,
                target: Target::Goal,
                map,
            };
            return (situation, Justification::Options(vec![option]));
        }
        // A hint places card j by its map; the maker marks the image of card
        // j's p (unless he owns it already) and reaches card j.
        let option = |h: &Hint| {
            let map = congruence(h);
            let target_p = cell(self.cards[h.card].p);
            let p = map
                .image_in(Space::Lattice(Lattice::Square), target_p)
                .unwrap_or(target_p);
            MakerOption {
                mark: if situation.core.contains(&p) {
                    Vec::new()
                } else {
                    vec![p]
                },
                target: Target::Situation(position[h.card]),
                map,
            }
        };
        let replies = card
            .replies
            .iter()
            .map(|(w, h)| (cell(*w), option(h)))
            .collect();
        let pass = card.pass.as_ref().map(option);
        (situation, Justification::Replies { replies, pass })
    }

    /// The board the cards are written for (`square ROWSxCOLS`), if its
    /// size is one gamecert represents.
    pub fn board(&self) -> Option<(u16, u16)> {
        let side = |n: i64| u16::try_from(n).ok().filter(|&n| n > 0);
        Some((side(self.rows)?, side(self.cols)?))
    }

    /// The certificate: the goal animal `goal_name` with cells `goal`, the
    /// board of the file's size, and the claim `claim_id` that the goal is a
    /// (1,1) winner on it, by the cards written out as a proof sequence.
    pub fn certificate(
        &self,
        source: &str,
        goal_name: &str,
        goal: &[Cell],
        claim_id: &str,
    ) -> String {
        let (rows, cols) = self.board().unwrap_or((1, 1));
        let board = Board::Region(std::sync::Arc::new(Region::rectangle(
            Lattice::Square,
            rows,
            cols,
        )));
        let proof = self.proof_sequence(&board, goal);
        let mut out = String::new();
        let _ = writeln!(out, "gamecert 1");
        let _ = writeln!(
            out,
            "# Translated by `gamecert import snaky-cards` from {source}"
        );
        let _ = writeln!(
            out,
            "# ({} cards); card N is situation card-N.",
            self.cards.len()
        );
        let _ = writeln!(out, "board {claim_id}-board = square {rows}x{cols}");
        let _ = writeln!(
            out,
            "animal {goal_name} on square = {}",
            cells_text(goal, 2)
        );
        let _ = writeln!(
            out,
            "claim {claim_id}: winner {goal_name} on {claim_id}-board (1,1) by proof-sequence {{"
        );
        out.push_str(&proof_text(&proof, 2));
        let _ = writeln!(out, "}}");
        out
    }
}

/// A hint's map as a kernel congruence.
fn congruence(h: &Hint) -> Congruence {
    Congruence::Lattice {
        element: usize::from(ORIENTATION_TO_ELEMENT[usize::from(h.orientation)]),
        shift: [h.shift.0 as i32, h.shift.1 as i32, 0],
    }
}

/// Parses `(x,y) (x,y) ...` (a goal given on the command line).
pub fn parse_cells(text: &str) -> Option<Vec<Cell>> {
    let mut cells = Vec::new();
    for part in text.split(')') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let inner = part.strip_prefix('(')?;
        let (x, y) = inner.split_once(',')?;
        cells.push([x.trim().parse().ok()?, y.trim().parse().ok()?, 0]);
    }
    (!cells.is_empty()).then_some(cells)
}
