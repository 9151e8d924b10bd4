//! A structured generator of small certificates for the `check_claim` fuzz
//! target.
//!
//! Random bytes rarely get past the parser, so the fuzzer would spend its
//! time where the `parse` target already looks. Here `arbitrary` turns the
//! bytes into a description of a certificate (boards, animals, claims of
//! every statement family with methods that fit them) and [`Certificate`]
//! renders it as text that is mostly well formed, so most inputs reach the
//! elaborator and the kernel. Names are numbered (`B0`, `A1`, `c2`, `s0`)
//! and references pick among the declared ones, with a spare index that
//! names nothing, so that the elaborator's "unknown name" paths are reached
//! too. Numbers are small most of the time and sometimes extreme (0, 1,
//! 2^31, 2^63, `u64::MAX`, and the language's limits 63, 64, 128, 4096).
//!
//! `Debug` of a [`Certificate`] is its text, so `cargo fuzz fmt check_claim
//! INPUT` prints the certificate an input stands for; that text is what a
//! regression file of this target holds.

use std::fmt::{self, Write};

use arbitrary::{Arbitrary, Result, Unstructured};

/// How many of each part a certificate keeps: enough for claims to cite
/// each other, few enough that a certificate checks in well under a second
/// under the target's budget.
const MAX_BOARDS: usize = 3;
const MAX_ANIMALS: usize = 4;
const MAX_CLAIMS: usize = 5;
/// Nesting of games, pairing trees and Hackenbush branches.
const MAX_DEPTH: usize = 4;
/// Cells of a list, rows of a picture, entries of any other list.
const MAX_LIST: usize = 10;

/// A number of the language: small most of the time, sometimes a limit of
/// the language or an extreme.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub u64);

impl<'a> Arbitrary<'a> for Num {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let pick: u8 = u.arbitrary()?;
        let n = match pick {
            0..=159 => u64::from(pick % 8),
            160..=199 => u64::from(u.arbitrary::<u8>()?),
            200..=209 => u64::from(u.arbitrary::<u16>()?),
            210..=241 => [
                0,
                1,
                2,
                1 << 31,
                (1 << 31) - 1,
                1 << 32,
                1 << 63,
                (1 << 63) - 1,
                u64::MAX,
                u64::MAX - 1,
                63,
                64,
                65,
                127,
                128,
                129,
                4095,
                4096,
                4097,
                20_000,
                20_001,
                u64::from(u32::MAX),
                1 << 62,
                10,
                12,
                18,
                24,
                48,
                100,
                255,
                256,
                1000,
            ][usize::from(pick - 210)],
            _ => u.arbitrary()?,
        };
        Ok(Num(n))
    }
}

/// A coordinate: near the origin most of the time, sometimes extreme.
#[derive(Clone, Copy, Debug)]
pub struct Coord(pub i64);

impl<'a> Arbitrary<'a> for Coord {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let pick: u8 = u.arbitrary()?;
        let c = match pick {
            0..=189 => i64::from(pick % 7) - 3,
            190..=219 => i64::from(u.arbitrary::<i8>()?),
            220..=235 => [
                i64::MIN,
                i64::MAX,
                i64::MIN + 1,
                1 << 31,
                -(1 << 31),
                1 << 32,
                1 << 62,
                -(1 << 62),
                63,
                64,
                -64,
                128,
                4096,
                i64::from(i32::MAX),
                i64::from(i32::MIN),
                1 << 40,
            ][usize::from(pick - 220)],
            _ => u.arbitrary()?,
        };
        Ok(Coord(c))
    }
}

/// A cell, written with the dimension of the board in use (a face number
/// on a finite board), now and then with another one.
#[derive(Clone, Debug, Arbitrary)]
pub struct CellGen {
    coords: [Coord; 3],
    face: u8,
    twist: u8,
}

/// A reference to a declared board or a built-in board name.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct BoardRef(u8);

/// A reference to a declared animal (or to none).
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct AnimalRef(u8);

/// A reference to a claim of the certificate (or to none, or to itself).
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct Cite(u8);

const LATTICES: [&str; 4] = ["square", "triangle", "hexagon", "cubic"];
const PLANE: [Lattice; 3] = [Lattice::Square, Lattice::Triangle, Lattice::Hexagon];

/// The solids and their face counts (the length of a permutation `at [..]`).
const SOLIDS: [(&str, usize); 18] = [
    ("tetrahedron", 4),
    ("cube", 6),
    ("octahedron", 8),
    ("dodecahedron", 12),
    ("icosahedron", 20),
    ("truncated-tetrahedron", 8),
    ("cuboctahedron", 14),
    ("truncated-cube", 14),
    ("truncated-octahedron", 14),
    ("rhombicuboctahedron", 26),
    ("truncated-cuboctahedron", 26),
    ("snub-cube", 38),
    ("icosidodecahedron", 32),
    ("truncated-dodecahedron", 32),
    ("truncated-icosahedron", 32),
    ("rhombicosidodecahedron", 62),
    ("truncated-icosidodecahedron", 62),
    ("snub-dodecahedron", 92),
];

/// A board declaration.
#[derive(Debug, Arbitrary)]
pub enum BoardGen {
    Lattice(u8),
    Solid(u8),
    Prism(Num),
    Antiprism(Num),
    Region { lattice: u8, rows: Num, cols: Num },
    Picture { lattice: u8, rows: Vec<Vec<bool>> },
    Graph(GraphGen),
}

/// The edges of a graph board.
#[derive(Debug, Arbitrary)]
pub enum GraphGen {
    Edges(Vec<(u8, u8)>),
    /// A cycle of n vertices (the limit of 128 vertices within reach).
    Cycle(u8),
    /// A complete graph: n! automorphisms.
    Complete(u8),
    /// A grid graph of r x c vertices.
    Grid(u8, u8),
    /// A star: n leaves, n! automorphisms.
    Star(u8),
}

/// An animal declaration.
#[derive(Debug, Arbitrary)]
pub struct AnimalGen {
    board: BoardRef,
    shape: ShapeGen,
}

/// An animal's cells.
#[derive(Debug, Arbitrary)]
pub enum ShapeGen {
    /// A walk from the origin, each step to a neighbour of an earlier cell:
    /// connected by construction on the lattices.
    Walk(Vec<(u8, u8)>),
    Cells(Vec<CellGen>),
    /// Rows of `#`, `.` and spaces.
    Picture(Vec<Vec<u8>>),
}

/// A game of the impartial rulesets.
#[derive(Debug, Arbitrary)]
pub enum Impartial {
    Nim(Vec<Num>),
    Grid { rules: u8, board: GridBoard },
    Octal { code: OctalCode, heap: Num },
    Kayles(Num),
    Dawson(Num),
    Sum(Box<Impartial>, Box<Impartial>),
    Paren(Box<Impartial>),
    GreenHackenbush(HackGen),
    Star(Num),
}

/// A board of a grid game: `RxC` or a picture string.
#[derive(Debug, Arbitrary)]
pub enum GridBoard {
    Dims(Num, Num),
    Picture(Vec<Vec<bool>>),
}

/// An octal code `d0.d1d2...`.
#[derive(Debug, Arbitrary)]
pub struct OctalCode {
    four: bool,
    digits: Vec<u8>,
}

/// A partizan game (impartial ones included).
#[derive(Debug, Arbitrary)]
pub enum Game {
    Number {
        numerator: Coord,
        exponent: Option<u8>,
    },
    Star(Option<Num>),
    Up {
        down: bool,
        count: Option<Num>,
    },
    Compact {
        numerator: Coord,
        exponent: Option<u8>,
        up: Option<(bool, Option<Num>)>,
        star: Option<Option<Num>>,
    },
    Options(Vec<Game>, Vec<Game>),
    Neg(Box<Game>),
    PlusMinus(Box<Game>),
    Sum(Box<Game>, bool, Box<Game>),
    Paren(Box<Game>),
    Hackenbush {
        green: bool,
        h: HackGen,
    },
    Domineering(GridBoard),
    Impartial(Box<Impartial>),
}

/// A Hackenbush picture: stalks and trees, a graph, or loose characters.
#[derive(Debug, Arbitrary)]
pub enum HackGen {
    Stalks(Vec<Vec<HackPiece>>),
    Graph(Vec<(u8, u8, u8)>),
    Raw(Vec<u8>),
}

/// An edge, or a branching `(a;b)` at the top of the edges before it.
#[derive(Debug, Arbitrary)]
pub enum HackPiece {
    Edge(u8),
    Branch(Vec<Vec<HackPiece>>),
}

/// `(a,b)` or `(a->c,b)`.
#[derive(Debug, Arbitrary)]
pub struct MakerGame {
    a: Num,
    finish: Option<Num>,
    b: Num,
}

/// A congruence `at ...`.
#[derive(Debug, Arbitrary)]
pub enum MapGen {
    Lattice {
        element: u8,
        shift: CellGen,
    },
    LatticeExtreme {
        element: Num,
        shift: CellGen,
    },
    /// `at [0 1 2 ...]`: the identity of the board in use, always an
    /// automorphism.
    Identity,
    /// The identity turned by k places: sometimes an automorphism.
    Rotation(u8),
    Permutation(Vec<u8>),
}

/// A claim: a statement with a method that fits it, or (`Mixed`) the
/// statement of one and the method of another.
#[derive(Debug, Arbitrary)]
pub enum ClaimGen {
    /// `period octal CODE = (n0, p)` or with the values written out.
    Period {
        splits: bool,
        digits: Vec<u8>,
        preperiod: Num,
        period: Num,
        values: Option<(Vec<u8>, Vec<u8>)>,
    },
    Impartial {
        kind: ImpartialKind,
        game: Impartial,
        method: ImpartialMethod,
    },
    Partizan {
        kind: PartizanKind,
        method: PartizanMethod,
    },
    CountAnimals {
        kind: u8,
        board: BoardRef,
        size: Num,
        count: Num,
    },
    Winner {
        animal: AnimalRef,
        board: BoardRef,
        game: MakerGame,
        method: WinnerMethod,
    },
    Loser {
        animal: AnimalRef,
        board: BoardRef,
        game: MakerGame,
        method: LoserMethod,
    },
    Threshold {
        animal: AnimalRef,
        board: BoardRef,
        entries: Vec<Option<Num>>,
        cites: Vec<Cite>,
    },
    Classify {
        board: BoardRef,
        winners: Num,
        losers: Num,
        cites: Vec<Cite>,
    },
    Bound {
        board: BoardRef,
        size: Option<Num>,
        at_most: Num,
        cites: Vec<Cite>,
    },
    Mixed(Box<ClaimGen>, Box<ClaimGen>),
}

#[derive(Debug, Arbitrary)]
pub enum ImpartialKind {
    Grundy { misere: bool, value: Num },
    Outcome { misere: bool, outcome: u8 },
    CountPositions { symmetry: bool, count: Num },
}

#[derive(Debug, Arbitrary)]
pub enum ImpartialMethod {
    Search,
    Table(Vec<(Impartial, Num)>),
    Definition,
}

#[derive(Debug, Arbitrary)]
pub enum PartizanKind {
    Value(Game, Game),
    Compare(Game, u8, Game),
    Outcome(Game, u8),
    Number(Game),
    Grundy(Game, Num),
}

#[derive(Debug, Arbitrary)]
pub enum PartizanMethod {
    Definition,
    Derivation(Vec<(Game, u8)>),
    Search,
}

#[derive(Debug, Arbitrary)]
pub enum WinnerMethod {
    Derived(Derived),
    ProofSequence(ProofGen),
    /// `search window RxC` or (None) `search board`.
    Search(Option<(u8, u8)>),
}

#[derive(Debug, Arbitrary)]
pub enum LoserMethod {
    Derived(Derived),
    Pairing(PairingGen),
    Paving(PairingGen),
    Priority(PriorityGen),
}

/// A derived rule with its placements and citations.
#[derive(Debug, Arbitrary)]
pub struct Derived {
    rule: u8,
    placements: Vec<Vec<CellGen>>,
    cites: Vec<Cite>,
}

const DERIVED_RULES: [&str; 8] = [
    "trivial",
    "proposition-2.1",
    "proposition-2.2",
    "corollary-3.3",
    "corollary-3.4",
    "theorem-3.1",
    "monotonicity",
    "sub-animal",
];

/// A written proof sequence.
#[derive(Debug, Arbitrary)]
pub struct ProofGen {
    situations: Vec<SituationGen>,
    start: Option<(u8, Option<MapGen>)>,
}

#[derive(Debug, Arbitrary)]
pub struct SituationGen {
    turns: Option<Num>,
    body: SituationBody,
    options: Vec<OptionGen>,
}

#[derive(Debug, Arbitrary)]
pub enum SituationBody {
    Cells {
        core: Vec<CellGen>,
        neighbourhood: Option<Vec<CellGen>>,
    },
    /// Rows of `#` (core), `+` (neighbourhood), `.` and spaces.
    Picture(Vec<Vec<u8>>),
}

#[derive(Debug, Arbitrary)]
pub struct OptionGen {
    answer: AnswerGen,
    marks: Vec<CellGen>,
    /// 0: `goal`; otherwise a situation (earlier, later, itself).
    target: u8,
    map: Option<MapGen>,
}

#[derive(Debug, Arbitrary)]
pub enum AnswerGen {
    Option,
    Reply(CellGen),
    Pass,
}

/// A paving (period and pairs) or a strategy tree (moves).
#[derive(Debug, Arbitrary)]
pub struct PairingGen {
    period: Vec<CellGen>,
    pairs: Vec<(CellGen, CellGen)>,
    moves: Vec<MoveGen>,
}

#[derive(Debug, Arbitrary)]
pub struct MoveGen {
    mark: CellGen,
    answer: MoveAnswer,
}

#[derive(Debug, Arbitrary)]
pub enum MoveAnswer {
    Reply(Vec<CellGen>, Option<u8>, Box<PairingGen>),
    Like(CellGen, Option<MapGen>),
    Same(Vec<CellGen>, u8, Option<MapGen>),
}

/// A priority strategy.
#[derive(Debug, Arbitrary)]
pub struct PriorityGen {
    period: Option<Vec<CellGen>>,
    order: Vec<(bool, u8)>,
    classes: Vec<(CellGen, Vec<RuleGen>)>,
}

#[derive(Debug, Arbitrary)]
pub struct RuleGen {
    guard: Vec<CellGen>,
    lists: Vec<Vec<CellGen>>,
}

/// A whole certificate.
#[derive(Arbitrary)]
pub struct Certificate {
    boards: Vec<BoardGen>,
    animals: Vec<AnimalGen>,
    claims: Vec<ClaimGen>,
}

impl fmt::Debug for Certificate {
    /// The certificate's text: what `cargo fuzz fmt` prints, and what a
    /// regression file of the target holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lattice {
    Square,
    Triangle,
    Hexagon,
}

/// What the renderer knows of a board: how its cells are written.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Plane(Lattice),
    Cubic,
    /// A finite board of faces or vertices, with their number when known.
    Faces(usize),
}

impl Shape {
    fn dimension(self) -> usize {
        match self {
            Shape::Plane(_) => 2,
            Shape::Cubic => 3,
            Shape::Faces(_) => 1,
        }
    }
}

/// The renderer: the output and what has been declared so far.
struct Out {
    text: String,
    boards: Vec<Shape>,
    /// The board shape of each declared animal.
    animals: Vec<Shape>,
    claims: usize,
}

fn take<T>(v: &[T], n: usize) -> &[T] {
    &v[..v.len().min(n)]
}

impl Certificate {
    /// The certificate as text.
    pub fn render(&self) -> String {
        let mut out = Out {
            text: String::from("gamecert 1\n"),
            boards: Vec::new(),
            animals: Vec::new(),
            claims: take(&self.claims, MAX_CLAIMS).len(),
        };
        for (i, b) in take(&self.boards, MAX_BOARDS).iter().enumerate() {
            let shape = out.board_decl(i, b);
            out.boards.push(shape);
        }
        for (i, a) in take(&self.animals, MAX_ANIMALS).iter().enumerate() {
            let shape = out.animal_decl(i, a);
            out.animals.push(shape);
        }
        for (i, c) in take(&self.claims, MAX_CLAIMS).iter().enumerate() {
            let (statement, method) = out.claim(c, 0);
            let _ = writeln!(out.text, "claim c{i}: {statement} by {method}");
        }
        out.text
    }
}

impl Out {
    fn board_decl(&mut self, i: usize, b: &BoardGen) -> Shape {
        let (text, shape) = match b {
            BoardGen::Lattice(l) => {
                let l = usize::from(*l) % 4;
                let shape = if l == 3 {
                    Shape::Cubic
                } else {
                    Shape::Plane(PLANE[l])
                };
                (LATTICES[l].to_string(), shape)
            }
            BoardGen::Solid(s) => {
                let (name, faces) = SOLIDS[usize::from(*s) % SOLIDS.len()];
                (name.to_string(), Shape::Faces(faces))
            }
            BoardGen::Prism(n) => (format!("prism {}", n.0), Shape::Faces(faces(n.0, 1))),
            BoardGen::Antiprism(n) => (format!("antiprism {}", n.0), Shape::Faces(faces(n.0, 2))),
            BoardGen::Region {
                lattice,
                rows,
                cols,
            } => {
                let l = usize::from(*lattice) % 3;
                (
                    format!("{} {}x{}", LATTICES[l], rows.0, cols.0),
                    Shape::Plane(PLANE[l]),
                )
            }
            BoardGen::Picture { lattice, rows } => {
                let l = usize::from(*lattice) % 3;
                let mut t = format!("{} picture {{\n", LATTICES[l]);
                for row in take(rows, MAX_LIST) {
                    t.push_str("  ");
                    t.extend(
                        take(row, MAX_LIST)
                            .iter()
                            .map(|&c| if c { '#' } else { '.' }),
                    );
                    t.push('\n');
                }
                // At least one cell, so that the board is usable.
                t.push_str("  #\n}");
                (t, Shape::Plane(PLANE[l]))
            }
            BoardGen::Graph(g) => {
                let (edges, n) = graph_edges(g);
                let body: Vec<String> = edges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
                (
                    format!("graph {{\n  {}\n}}", body.join(" ")),
                    Shape::Faces(n),
                )
            }
        };
        let _ = writeln!(self.text, "board B{i} = {text}");
        shape
    }

    fn animal_decl(&mut self, i: usize, a: &AnimalGen) -> Shape {
        let (name, shape) = self.board(a.board);
        let cells = match &a.shape {
            ShapeGen::Walk(steps) => walk(shape, take(steps, MAX_LIST))
                .iter()
                .map(|c| cell_text(c))
                .collect::<Vec<_>>()
                .join(" "),
            ShapeGen::Cells(cells) => self.cells(shape, cells),
            ShapeGen::Picture(rows) => picture(rows, b"#. "),
        };
        // An empty animal is a syntax error that would drop the rest of the
        // file; the `elaborate` target sees those, here the origin stands in.
        let cells = if cells.is_empty() || cells.ends_with("{\n  }") {
            cell_text(&walk(shape, &[])[0])
        } else {
            cells
        };
        let _ = writeln!(self.text, "animal A{i} on {name} = {cells}");
        shape
    }

    /// A board reference: a declared board, a lattice, a solid, or a name
    /// that is none of them.
    fn board(&self, r: BoardRef) -> (String, Shape) {
        let i = usize::from(r.0) % (self.boards.len() + 6);
        if i < self.boards.len() {
            return (format!("B{i}"), self.boards[i]);
        }
        match i - self.boards.len() {
            0 => ("square".into(), Shape::Plane(Lattice::Square)),
            1 => ("triangle".into(), Shape::Plane(Lattice::Triangle)),
            2 => ("hexagon".into(), Shape::Plane(Lattice::Hexagon)),
            3 => ("cubic".into(), Shape::Cubic),
            4 => {
                let (name, n) = SOLIDS[usize::from(r.0 / 8) % 5];
                (name.into(), Shape::Faces(n))
            }
            _ => ("nowhere".into(), Shape::Plane(Lattice::Square)),
        }
    }

    /// An animal reference, and the board the animal was declared on.
    fn animal(&self, r: AnimalRef) -> (String, Option<Shape>) {
        let i = usize::from(r.0) % (self.animals.len() + 1);
        match self.animals.get(i) {
            Some(&shape) => (format!("A{i}"), Some(shape)),
            None => ("Nobody".into(), None),
        }
    }

    fn cite(&self, c: Cite) -> String {
        format!("c{}", usize::from(c.0) % (self.claims + 1))
    }

    fn cites(&self, cites: &[Cite]) -> String {
        take(cites, 4)
            .iter()
            .map(|&c| self.cite(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn cell(&self, shape: Shape, c: &CellGen) -> String {
        let mut dimension = shape.dimension();
        if c.twist >= 240 {
            dimension = usize::from(c.twist % 4).max(1);
        }
        if let (Shape::Faces(n), 1, 0..=199) = (shape, dimension, c.twist) {
            // Mostly a face of the board, now and then the first one past it.
            return format!("({})", usize::from(c.face) % (n + 1));
        }
        let v: Vec<i64> = c.coords[..dimension].iter().map(|c| c.0).collect();
        cell_text(&v)
    }

    fn cells(&self, shape: Shape, cells: &[CellGen]) -> String {
        take(cells, MAX_LIST)
            .iter()
            .map(|c| self.cell(shape, c))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn map(&self, shape: Shape, m: &MapGen) -> String {
        let n = match shape {
            Shape::Faces(n) => n,
            _ => 0,
        };
        match m {
            MapGen::Lattice { element, shift } => {
                format!("at {} {}", element % 50, self.cell(shape, shift))
            }
            MapGen::LatticeExtreme { element, shift } => {
                format!("at {} {}", element.0, self.cell(shape, shift))
            }
            MapGen::Identity => permutation((0..n).collect()),
            MapGen::Rotation(k) => {
                let k = usize::from(*k);
                permutation((0..n).map(|i| (i + k) % n.max(1)).collect())
            }
            MapGen::Permutation(p) => {
                permutation(take(p, 100).iter().map(|&v| usize::from(v)).collect())
            }
        }
    }

    /// The statement and the method of a claim.
    fn claim(&self, c: &ClaimGen, depth: usize) -> (String, String) {
        match c {
            ClaimGen::Period {
                splits,
                digits,
                preperiod,
                period,
                values,
            } => {
                let d0 = if *splits { 4 } else { 0 };
                let rest: String = take(digits, 5)
                    .iter()
                    .map(|d| (b'0' + d % 8) as char)
                    .collect();
                let code = format!("{d0}.{}", if rest.is_empty() { "0".into() } else { rest });
                let value = |v: &u8| char::from_digit(u32::from(*v % 36), 36).unwrap_or('0');
                let rhs = match values {
                    Some((prefix, cycle)) => {
                        let prefix: String = take(prefix, 12).iter().map(value).collect();
                        let cycle: String = take(cycle, 12).iter().map(value).collect();
                        format!("{}({})", prefix.to_uppercase(), cycle.to_uppercase())
                    }
                    None => format!("({}, {})", preperiod.0, period.0),
                };
                (format!("period octal {code} = {rhs}"), "search".to_string())
            }
            ClaimGen::Impartial { kind, game, method } => {
                let g = impartial(game, 0);
                let statement = match kind {
                    ImpartialKind::Grundy { misere, value } => {
                        format!("grundy {}{g} = {}", misere_word(*misere), value.0)
                    }
                    ImpartialKind::Outcome { misere, outcome } => {
                        format!(
                            "outcome {}{g} = {}",
                            misere_word(*misere),
                            outcome_letter(*outcome)
                        )
                    }
                    ImpartialKind::CountPositions { symmetry, count } => {
                        let up = if *symmetry { "up to symmetry " } else { "" };
                        format!("count positions {up}{g} = {}", count.0)
                    }
                };
                let method = match method {
                    ImpartialMethod::Search => "search".to_string(),
                    ImpartialMethod::Definition => "definition".to_string(),
                    ImpartialMethod::Table(rows) => {
                        let mut t = String::from("table {\n");
                        for (g, v) in take(rows, MAX_LIST) {
                            let _ = writeln!(t, "  {} = {}", impartial(g, 0), v.0);
                        }
                        t.push('}');
                        t
                    }
                };
                (statement, method)
            }
            ClaimGen::Partizan { kind, method } => {
                let statement = match kind {
                    PartizanKind::Value(g, v) => format!("value {} = {}", game(g, 0), game(v, 0)),
                    PartizanKind::Compare(l, r, g) => {
                        const RELATIONS: [&str; 6] = ["=", "<=", ">=", "<", ">", "||"];
                        let rel = RELATIONS[usize::from(*r) % 6];
                        format!("compare {} {rel} {}", game(l, 0), game(g, 0))
                    }
                    PartizanKind::Outcome(g, o) => {
                        format!("outcome {} = {}", game(g, 0), outcome_letter(*o))
                    }
                    PartizanKind::Number(g) => format!("number {}", game(g, 0)),
                    PartizanKind::Grundy(g, v) => format!("grundy {} = {}", game(g, 0), v.0),
                };
                let method = match method {
                    PartizanMethod::Definition => "definition".to_string(),
                    PartizanMethod::Search => "search".to_string(),
                    PartizanMethod::Derivation(steps) => {
                        const RULES: [&str; 6] = [
                            "definition",
                            "options",
                            "dominated",
                            "reversible",
                            "simplest-number",
                            "magic",
                        ];
                        let mut t = String::from("derivation {\n");
                        for (g, r) in take(steps, MAX_LIST) {
                            let rule = RULES[usize::from(*r) % 6];
                            let _ = writeln!(t, "  = {} by {rule}", game(g, 0));
                        }
                        t.push('}');
                        t
                    }
                };
                (statement, method)
            }
            ClaimGen::CountAnimals {
                kind,
                board,
                size,
                count,
            } => {
                const KINDS: [&str; 3] = ["", "all ", "fixed "];
                let (board, _) = self.board(*board);
                let kind = KINDS[usize::from(*kind) % 3];
                (
                    format!(
                        "count {kind}animals on {board} size {} = {}",
                        size.0, count.0
                    ),
                    "enumeration".into(),
                )
            }
            ClaimGen::Winner {
                animal,
                board,
                game,
                method,
            } => {
                let (statement, shape) = self.maker_statement("winner", *animal, *board, game);
                let method = match method {
                    WinnerMethod::Derived(d) => self.derived(shape, d),
                    WinnerMethod::ProofSequence(p) => self.proof(shape, p),
                    WinnerMethod::Search(Some((r, c))) => {
                        format!("proof-sequence {{ search window {}x{} }}", r % 8, c % 8)
                    }
                    WinnerMethod::Search(None) => "proof-sequence { search board }".into(),
                };
                (statement, method)
            }
            ClaimGen::Loser {
                animal,
                board,
                game,
                method,
            } => {
                let (statement, shape) = self.maker_statement("loser", *animal, *board, game);
                let method = match method {
                    LoserMethod::Derived(d) => self.derived(shape, d),
                    LoserMethod::Pairing(p) => format!("pairing {}", self.pairing(shape, p, 0)),
                    LoserMethod::Paving(p) => format!("paving {}", self.pairing(shape, p, 0)),
                    LoserMethod::Priority(p) => format!("priority {}", self.priority(shape, p)),
                };
                (statement, method)
            }
            ClaimGen::Threshold {
                animal,
                board,
                entries,
                cites,
            } => {
                let (animal, _) = self.animal(*animal);
                let (board, _) = self.board(*board);
                let entries: Vec<String> = take(entries, 6)
                    .iter()
                    .map(|e| e.map_or("inf".to_string(), |n| n.0.to_string()))
                    .collect();
                (
                    format!("threshold {animal} on {board} = ({})", entries.join(", ")),
                    format!("citation from {}", self.cites(cites)),
                )
            }
            ClaimGen::Classify {
                board,
                winners,
                losers,
                cites,
            } => {
                let (board, _) = self.board(*board);
                (
                    format!(
                        "classify {board} = ({} winners, {} losers)",
                        winners.0, losers.0
                    ),
                    format!("enumeration from {}", self.cites(cites)),
                )
            }
            ClaimGen::Bound {
                board,
                size,
                at_most,
                cites,
            } => {
                let (board, _) = self.board(*board);
                let size = size.map_or(String::new(), |k| format!(" size {}", k.0));
                (
                    format!("bound {board}{size} winners <= {}", at_most.0),
                    format!("enumeration from {}", self.cites(cites)),
                )
            }
            ClaimGen::Mixed(a, b) => {
                if depth > 0 {
                    return ("grundy nim [1] = 1".into(), "search".into());
                }
                let (statement, _) = self.claim(a, depth + 1);
                let (_, method) = self.claim(b, depth + 1);
                (statement, method)
            }
        }
    }

    /// `winner A on B (a,b)`, and the shape the claim's cells are written
    /// in (the animal's board when the claim names another).
    fn maker_statement(
        &self,
        side: &str,
        animal: AnimalRef,
        board: BoardRef,
        g: &MakerGame,
    ) -> (String, Shape) {
        let (animal, animal_shape) = self.animal(animal);
        let (board, shape) = self.board(board);
        let finish = g.finish.map_or(String::new(), |c| format!("->{}", c.0));
        (
            format!("{side} {animal} on {board} ({}{finish},{})", g.a.0, g.b.0),
            animal_shape.unwrap_or(shape),
        )
    }

    fn derived(&self, shape: Shape, d: &Derived) -> String {
        let mut t = DERIVED_RULES[usize::from(d.rule) % DERIVED_RULES.len()].to_string();
        if !d.placements.is_empty() {
            t.push_str(" {\n");
            for p in take(&d.placements, 6) {
                let _ = writeln!(t, "  placement {}", self.cells(shape, p));
            }
            t.push('}');
        }
        if !d.cites.is_empty() {
            let _ = write!(t, " from {}", self.cites(&d.cites));
        }
        t
    }

    fn proof(&self, shape: Shape, p: &ProofGen) -> String {
        let situations = take(&p.situations, 6);
        let target = |t: u8| {
            if t == 0 || situations.is_empty() {
                "goal".to_string()
            } else {
                format!("s{}", (usize::from(t) - 1) % (situations.len() + 1))
            }
        };
        let mut t = String::from("proof-sequence {\n");
        for (i, s) in situations.iter().enumerate() {
            let turns = s.turns.map_or(String::new(), |n| format!(" turns {}", n.0));
            let _ = write!(t, "  situation s{i}{turns}: ");
            match &s.body {
                SituationBody::Cells {
                    core,
                    neighbourhood,
                } => {
                    let _ = write!(t, "core {}", self.cells(shape, core));
                    if let Some(n) = neighbourhood {
                        let _ = write!(t, " neighbourhood {}", self.cells(shape, n));
                    }
                    t.push('\n');
                }
                SituationBody::Picture(rows) => {
                    t.push_str(&picture(rows, b"#+. "));
                    t.push('\n');
                }
            }
            for o in take(&s.options, MAX_LIST) {
                let answer = match &o.answer {
                    AnswerGen::Option => "option".to_string(),
                    AnswerGen::Reply(c) => format!("reply {}:", self.cell(shape, c)),
                    AnswerGen::Pass => "pass:".to_string(),
                };
                let map = o
                    .map
                    .as_ref()
                    .map_or(String::new(), |m| format!(" {}", self.map(shape, m)));
                let _ = writeln!(
                    t,
                    "    {answer} {} -> {}{map}",
                    self.cells(shape, &o.marks),
                    target(o.target)
                );
            }
        }
        if let Some((s, map)) = &p.start {
            let map = map
                .as_ref()
                .map_or(String::new(), |m| format!(" {}", self.map(shape, m)));
            let _ = writeln!(t, "  start {}{map}", target(*s));
        }
        t.push('}');
        t
    }

    fn pairing(&self, shape: Shape, p: &PairingGen, depth: usize) -> String {
        let indent = "  ".repeat(depth + 1);
        let mut t = String::from("{\n");
        if !p.period.is_empty() {
            let _ = writeln!(
                t,
                "{indent}period {}",
                self.cells(shape, take(&p.period, 3))
            );
        }
        for (a, b) in take(&p.pairs, MAX_LIST) {
            let _ = writeln!(
                t,
                "{indent}pair {} {}",
                self.cell(shape, a),
                self.cell(shape, b)
            );
        }
        if depth < 2 {
            for m in take(&p.moves, 6) {
                let mark = self.cell(shape, &m.mark);
                match &m.answer {
                    MoveAnswer::Reply(cells, name, then) => {
                        let name = name.map_or(String::new(), |n| format!(" as s{}", n % 4));
                        let _ = writeln!(
                            t,
                            "{indent}move {mark} reply {}{name} {}",
                            self.cells(shape, take(cells, 3)),
                            self.pairing(shape, then, depth + 1)
                        );
                    }
                    MoveAnswer::Same(cells, name, map) => {
                        let map = map
                            .as_ref()
                            .map_or(String::new(), |m| format!(" {}", self.map(shape, m)));
                        let _ = writeln!(
                            t,
                            "{indent}move {mark} reply {} same s{}{map}",
                            self.cells(shape, take(cells, 3)),
                            name % 4
                        );
                    }
                    MoveAnswer::Like(like, map) => {
                        let map = map
                            .as_ref()
                            .map_or(String::new(), |m| format!(" {}", self.map(shape, m)));
                        let _ = writeln!(
                            t,
                            "{indent}move {mark} like {}{map}",
                            self.cell(shape, like)
                        );
                    }
                }
            }
        }
        t.push_str(&"  ".repeat(depth));
        t.push('}');
        t
    }

    fn priority(&self, shape: Shape, p: &PriorityGen) -> String {
        let mut t = String::from("{\n");
        if let Some(period) = &p.period {
            let _ = writeln!(t, "  period {}", self.cells(shape, take(period, 3)));
        }
        if !p.order.is_empty() {
            let keys: Vec<String> = take(&p.order, 4)
                .iter()
                .map(|&(neg, axis)| {
                    let axis = ["x", "y", "z", "w"][usize::from(axis) % 4];
                    format!("{}{axis}", if neg { "-" } else { "" })
                })
                .collect();
            let _ = writeln!(t, "  order {}", keys.join(" "));
        }
        for (class, rules) in take(&p.classes, 4) {
            let _ = writeln!(t, "  class {} {{", self.cell(shape, class));
            for r in take(rules, 4) {
                let guard = if r.guard.is_empty() {
                    String::new()
                } else {
                    format!("if {} ", self.cells(shape, take(&r.guard, 4)))
                };
                let lists: Vec<String> = take(&r.lists, 6)
                    .iter()
                    .map(|l| self.cells(shape, take(l, 4)))
                    .collect();
                let _ = writeln!(t, "    rule {guard}{{ {} }}", lists.join(" ; "));
            }
            t.push_str("  }\n");
        }
        t.push('}');
        t
    }
}

/// Faces of a prism (`per_side` 1) or an antiprism (2) with n sides, when
/// n is in range (0 otherwise: the board is refused anyway).
fn faces(n: u64, per_side: usize) -> usize {
    if (3..=63).contains(&n) {
        per_side * n as usize + 2
    } else {
        0
    }
}

/// Stars and complete graphs have fewer than this many vertices. Their
/// groups are huge (up to 39!); listing one stops at the elaborator's limit
/// of 20,000 automorphisms since the fix of
/// `regressions/check_claim/graph-star-automorphisms.cert`.
const SYMMETRIC_GRAPHS: u8 = 40;

/// The edges of a graph board and its number of vertices.
fn graph_edges(g: &GraphGen) -> (Vec<(usize, usize)>, usize) {
    let edges: Vec<(usize, usize)> = match g {
        GraphGen::Edges(e) => take(e, 40)
            .iter()
            .map(|&(a, b)| (usize::from(a % 16), usize::from(b % 16)))
            .collect(),
        GraphGen::Cycle(n) => {
            let n = usize::from(*n).max(1);
            (0..n).map(|i| (i, (i + 1) % n)).collect()
        }
        GraphGen::Complete(n) => {
            let n = usize::from(*n % SYMMETRIC_GRAPHS);
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
        GraphGen::Grid(r, c) => {
            let (r, c) = (usize::from(*r % 12).max(1), usize::from(*c % 12).max(1));
            let mut e = Vec::new();
            for y in 0..r {
                for x in 0..c {
                    let v = y * c + x;
                    if x + 1 < c {
                        e.push((v, v + 1));
                    }
                    if y + 1 < r {
                        e.push((v, v + c));
                    }
                }
            }
            e
        }
        GraphGen::Star(n) => (1..=usize::from(*n % SYMMETRIC_GRAPHS))
            .map(|i| (0, i))
            .collect(),
    };
    let n = edges.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
    (edges, n)
}

/// The cells of a walk from the origin on a board of the given shape.
fn walk(shape: Shape, steps: &[(u8, u8)]) -> Vec<Vec<i64>> {
    let mut cells: Vec<Vec<i64>> = vec![match shape {
        Shape::Cubic => vec![0, 0, 0],
        Shape::Plane(_) => vec![0, 0],
        Shape::Faces(_) => vec![0],
    }];
    for &(from, dir) in steps {
        let base = cells[usize::from(from) % cells.len()].clone();
        let next = match shape {
            Shape::Plane(Lattice::Square) => {
                let [dx, dy] = [[1, 0], [-1, 0], [0, 1], [0, -1]][usize::from(dir) % 4];
                vec![base[0] + dx, base[1] + dy]
            }
            Shape::Plane(Lattice::Hexagon) => {
                let [dx, dy] =
                    [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]][usize::from(dir) % 6];
                vec![base[0] + dx, base[1] + dy]
            }
            Shape::Plane(Lattice::Triangle) => {
                // Up triangles (x + y even) meet the one below, down ones
                // the one above.
                let up = (base[0] + base[1]).rem_euclid(2) == 0;
                match dir % 3 {
                    0 => vec![base[0] + 1, base[1]],
                    1 => vec![base[0] - 1, base[1]],
                    _ => vec![base[0], base[1] + if up { -1 } else { 1 }],
                }
            }
            Shape::Cubic => {
                let mut c = base.clone();
                let axis = usize::from(dir) % 3;
                c[axis] += if dir % 6 < 3 { 1 } else { -1 };
                c
            }
            Shape::Faces(n) => vec![(base[0] + i64::from(dir % 3) + 1) % (n.max(1) as i64)],
        };
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    cells
}

fn cell_text(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("({})", parts.join(","))
}

fn permutation(p: Vec<usize>) -> String {
    let parts: Vec<String> = p.iter().map(usize::to_string).collect();
    format!("at [{}]", parts.join(" "))
}

/// A `picture { ... }` block whose characters come from `alphabet`.
fn picture(rows: &[Vec<u8>], alphabet: &[u8]) -> String {
    let mut t = String::from("picture {\n");
    for row in take(rows, MAX_LIST) {
        t.push_str("    ");
        t.extend(
            take(row, MAX_LIST)
                .iter()
                .map(|&c| char::from(alphabet[usize::from(c) % alphabet.len()])),
        );
        t.push('\n');
    }
    t.push_str("  }");
    t
}

fn misere_word(misere: bool) -> &'static str {
    if misere { "misere " } else { "" }
}

fn outcome_letter(o: u8) -> char {
    ['P', 'N', 'L', 'R'][usize::from(o) % 4]
}

fn grid_board(b: &GridBoard) -> String {
    match b {
        GridBoard::Dims(r, c) => format!("{}x{}", r.0, c.0),
        GridBoard::Picture(rows) => {
            let rows: Vec<String> = take(rows, 9)
                .iter()
                .map(|r| {
                    take(r, 9)
                        .iter()
                        .map(|&c| if c { '#' } else { '.' })
                        .collect()
                })
                .collect();
            format!("\"{}\"", rows.join("|"))
        }
    }
}

fn impartial(g: &Impartial, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return "nim [1]".into();
    }
    match g {
        Impartial::Nim(heaps) => {
            let heaps: Vec<String> = take(heaps, 6).iter().map(|h| h.0.to_string()).collect();
            format!("nim [{}]", heaps.join(","))
        }
        Impartial::Grid { rules, board } => {
            const RULES: [&str; 3] = ["cram", "domino-juvavum", "juvavum"];
            format!("{} {}", RULES[usize::from(*rules) % 3], grid_board(board))
        }
        Impartial::Octal { code, heap } => {
            let digits: String = take(&code.digits, 6)
                .iter()
                // Mostly octal digits; 8 and 9 now and then.
                .map(|&d| char::from(b'0' + if d >= 250 { d - 242 } else { d % 8 }))
                .collect();
            let digits = if digits.is_empty() {
                "7".into()
            } else {
                digits
            };
            format!(
                "octal {}.{digits} {}",
                if code.four { 4 } else { 0 },
                heap.0
            )
        }
        Impartial::Kayles(n) => format!("kayles {}", n.0),
        Impartial::Dawson(n) => format!("dawson {}", n.0),
        Impartial::Sum(a, b) => {
            format!("{} + {}", impartial(a, depth + 1), impartial(b, depth + 1))
        }
        Impartial::Paren(a) => format!("({})", impartial(a, depth + 1)),
        Impartial::GreenHackenbush(h) => format!("green-hackenbush \"{}\"", hackenbush(h)),
        Impartial::Star(n) => format!("*{}", n.0),
    }
}

/// A dyadic number: the numerator over 2^exponent (over 3 now and then,
/// which is no dyadic).
fn dyadic(numerator: Coord, exponent: Option<u8>) -> String {
    match exponent {
        None => numerator.0.to_string(),
        Some(250..) => format!("{}/3", numerator.0),
        Some(e) => {
            let e = u32::from(e % 80);
            let denominator = if e < 64 {
                (1u64 << e).to_string()
            } else {
                // Past u64: the language's dyadics have any size.
                format!("{}", 1u128 << e)
            };
            format!("{}/{denominator}", numerator.0)
        }
    }
}

fn count_suffix(n: &Option<Num>) -> String {
    n.map_or(String::new(), |n| n.0.to_string())
}

fn game(g: &Game, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return "0".into();
    }
    match g {
        Game::Number {
            numerator,
            exponent,
        } => dyadic(*numerator, *exponent),
        Game::Star(n) => format!("*{}", count_suffix(n)),
        Game::Up { down, count } => {
            format!("{}{}", if *down { 'v' } else { '^' }, count_suffix(count))
        }
        Game::Compact {
            numerator,
            exponent,
            up,
            star,
        } => {
            let mut t = dyadic(*numerator, *exponent);
            if let Some((down, n)) = up {
                t.push(if *down { 'v' } else { '^' });
                t.push_str(&count_suffix(n));
            }
            if let Some(n) = star {
                t.push('*');
                t.push_str(&count_suffix(n));
            }
            t
        }
        Game::Options(left, right) => {
            let side = |v: &[Game]| {
                take(v, 4)
                    .iter()
                    .map(|g| game(g, depth + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{{{} | {}}}", side(left), side(right))
        }
        Game::Neg(g) => format!("-{}", game(g, depth + 1)),
        Game::PlusMinus(g) => format!("+-{}", game(g, depth + 1)),
        Game::Sum(a, minus, b) => format!(
            "{} {} {}",
            game(a, depth + 1),
            if *minus { '-' } else { '+' },
            game(b, depth + 1)
        ),
        Game::Paren(g) => format!("({})", game(g, depth + 1)),
        Game::Hackenbush { green, h } => {
            let kind = if *green {
                "green-hackenbush"
            } else {
                "hackenbush"
            };
            format!("{kind} \"{}\"", hackenbush(h))
        }
        Game::Domineering(b) => format!("domineering {}", grid_board(b)),
        Game::Impartial(g) => impartial(g, depth + 1),
    }
}

fn hackenbush(h: &HackGen) -> String {
    match h {
        HackGen::Stalks(stalks) => {
            let mut letters = 0;
            take(stalks, 4)
                .iter()
                .map(|s| stalk(s, 0, &mut letters))
                .collect::<Vec<_>>()
                .join(";")
        }
        HackGen::Graph(edges) => take(edges, 70)
            .iter()
            .map(|&(a, b, c)| {
                let colour = ['l', 'r', 'e'][usize::from(c) % 3];
                format!("{}-{} {colour}", a % 12, b % 12)
            })
            .collect::<Vec<_>>()
            .join(", "),
        HackGen::Raw(chars) => take(chars, 70)
            .iter()
            .map(|&c| char::from(b"lre(;)0123-, "[usize::from(c) % 13]))
            .collect(),
    }
}

/// A stalk with its branches; `letters` caps the edges of the whole
/// picture a little above the language's limit of 64.
fn stalk(pieces: &[HackPiece], depth: usize, letters: &mut usize) -> String {
    let mut t = String::new();
    for p in pieces {
        match p {
            HackPiece::Edge(c) if *letters < 70 => {
                *letters += 1;
                t.push(['l', 'r', 'e'][usize::from(*c) % 3]);
            }
            HackPiece::Branch(arms) if depth < MAX_DEPTH && !arms.is_empty() => {
                let arms: Vec<String> = take(arms, 3)
                    .iter()
                    .map(|a| stalk(a, depth + 1, letters))
                    .collect();
                let _ = write!(t, "({})", arms.join(";"));
            }
            _ => {}
        }
    }
    t
}
