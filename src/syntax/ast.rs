//! The syntax tree of a certificate file, with byte spans into the source.
//!
//! The tree records what the author wrote and nothing more: names are not
//! resolved, numbers are not range-checked and pictures are not validated
//! here. That is the elaborator's job, so that the parser can stay total.

/// A byte range `start..end` in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// A value with the span it was written at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

/// A parsed file: its items, its comments and the syntax errors met on the
/// way. With the comments and spans the file can be printed again without
/// losing what the author wrote (`syntax::format`).
#[derive(Clone, Debug, Default)]
pub struct File {
    /// Where `gamecert 1` is written (empty when it is missing).
    pub header: Span,
    /// Includes and claims in source order.
    pub items: Vec<Item>,
    /// Every syntax error (the parser resumes at the next item after each).
    pub errors: Vec<SyntaxError>,
    /// The `#` comments, in source order.
    pub comments: Vec<Comment>,
    /// The board and animal declarations that a syntax error stopped, by
    /// name: a claim naming one is told so, not that the name is unknown.
    pub failed_declarations: Vec<FailedDeclaration>,
}

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationKind {
    /// `board NAME = ...`.
    Board,
    /// `animal NAME on BOARD = ...`.
    Animal,
}

/// A declaration whose name was read but whose rest has a syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedDeclaration {
    /// Board or animal.
    pub kind: DeclarationKind,
    /// The declared name.
    pub name: Spanned<String>,
    /// Where its syntax error is.
    pub error: Span,
}

/// A `#` comment: from `#` to the end of its line (trailing spaces dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Its bytes, `#` included, the newline not.
    pub span: Span,
    /// Its text, `#` included.
    pub text: String,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// `include "path" [sha256 "hex"]`.
    Include(Include),
    /// `claim ID: STATEMENT by METHOD`.
    Claim(Box<Claim>),
    /// `board NAME = KIND ...`.
    Board(BoardDecl),
    /// `animal NAME on BOARD = cells | picture { ... }`.
    Animal(AnimalDecl),
}

/// `animal NAME on BOARD = (x,y) ... ` or `= picture { rows }`.
#[derive(Clone, Debug)]
pub struct AnimalDecl {
    /// The animal's name.
    pub name: Spanned<String>,
    /// The board it lives on.
    pub board: Spanned<String>,
    /// Its cells as written.
    pub cells: AnimalCells,
    /// The whole item.
    pub span: Span,
}

/// The cells of an animal declaration.
#[derive(Clone, Debug)]
pub enum AnimalCells {
    /// Coordinate tuples `(x,y)` or `(x,y,z)`, each with its span.
    Coordinates(Vec<Spanned<Vec<i64>>>),
    /// `picture { ... }`: rows of `#` (cell) and `.` (no cell), first row at
    /// the top, each row with its span.
    Picture(Vec<Spanned<String>>),
}

/// `include "path" [sha256 "hex"]`.
#[derive(Clone, Debug)]
pub struct Include {
    /// The relative path as written.
    pub path: Spanned<String>,
    /// The pinned digest, if any.
    pub sha256: Option<Spanned<String>>,
    /// The whole item.
    pub span: Span,
}

/// `claim ID: STATEMENT by METHOD`.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The claim id.
    pub id: Spanned<String>,
    /// What is claimed.
    pub statement: Spanned<Statement>,
    /// How it is supported.
    pub method: Spanned<Method>,
    /// The whole item.
    pub span: Span,
}

/// Normal or misère play, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayAst {
    /// No keyword.
    Normal,
    /// `misere`.
    Misere,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Statement {
    /// `grundy [misere] GAME = n`.
    Grundy {
        play: PlayAst,
        game: Spanned<GameExpr>,
        value: Spanned<u64>,
    },
    /// `outcome [misere] GAME = P|N` (impartial) or `= L|R|P|N` (partizan).
    Outcome {
        play: PlayAst,
        game: Spanned<GameExpr>,
        outcome: Spanned<OutcomeAst>,
    },
    /// `value GAME = GAME`.
    Value {
        game: Spanned<GameExpr>,
        value: Spanned<GameExpr>,
    },
    /// `compare GAME REL GAME`.
    Compare {
        left: Spanned<GameExpr>,
        relation: Spanned<RelationAst>,
        right: Spanned<GameExpr>,
    },
    /// `number GAME`.
    Number { game: Spanned<GameExpr> },
    /// `count [all|fixed] animals on BOARD size n = k`.
    CountAnimals {
        kind: AnimalCount,
        board: Spanned<String>,
        size: Spanned<u64>,
        count: Spanned<u64>,
    },
    /// `count positions [up to symmetry] GAME = k`.
    CountPositions {
        up_to_symmetry: bool,
        game: Spanned<GameExpr>,
        count: Spanned<u64>,
    },
    /// `period octal CODE = (n0, p)`, or `= PREFIX(PERIOD)` with the
    /// values written out (digits, then letters A = 10, B = 11, ...).
    Period {
        code: Spanned<String>,
        preperiod: Spanned<u64>,
        period: Spanned<u64>,
        /// The values of the heaps below `n0 + p`, as written.
        values: Option<Spanned<String>>,
    },
    /// `winner ANIMAL on BOARD (a,b)` or `(a->c,b)`.
    Winner {
        animal: Spanned<String>,
        board: Spanned<String>,
        game: Spanned<MakerGame>,
    },
    /// `loser ANIMAL on BOARD (a,b)`.
    Loser {
        animal: Spanned<String>,
        board: Spanned<String>,
        game: Spanned<MakerGame>,
    },
    /// `threshold ANIMAL on BOARD = (b1, ..., inf)`; `None` is `inf`.
    Threshold {
        animal: Spanned<String>,
        board: Spanned<String>,
        sequence: Spanned<Vec<Option<u64>>>,
    },
    /// `classify BOARD = (W winners, L losers)`, or with `elementary`
    /// before both words: the maximal winners and the minimal losers.
    Classify {
        board: Spanned<String>,
        winners: Spanned<u64>,
        losers: Spanned<u64>,
        elementary: bool,
    },
    /// `bound BOARD [size K] winners <= W`.
    Bound {
        board: Spanned<String>,
        size: Option<Spanned<u64>>,
        at_most: Spanned<u64>,
    },
}

impl Statement {
    /// What kind of statement this is.
    pub fn kind(&self) -> StatementKind {
        match self {
            Statement::Grundy { .. } => StatementKind::Grundy,
            Statement::Outcome { .. } => StatementKind::Outcome,
            Statement::Value { .. } => StatementKind::Value,
            Statement::Compare { .. } => StatementKind::Compare,
            Statement::Number { .. } => StatementKind::Number,
            Statement::CountAnimals { .. } => StatementKind::CountAnimals,
            Statement::CountPositions { .. } => StatementKind::CountPositions,
            Statement::Period { .. } => StatementKind::Period,
            Statement::Winner { .. } => StatementKind::Winner,
            Statement::Loser { .. } => StatementKind::Loser,
            Statement::Threshold { .. } => StatementKind::Threshold,
            Statement::Classify { .. } => StatementKind::Classify,
            Statement::Bound { .. } => StatementKind::Bound,
        }
    }
}

/// The kinds of statements, without their contents: what decides the
/// methods that apply and the help a diagnostic about the claim gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `grundy`.
    Grundy,
    /// `outcome` (impartial or partizan).
    Outcome,
    /// `count positions`.
    CountPositions,
    /// `period`.
    Period,
    /// `value`.
    Value,
    /// `compare`.
    Compare,
    /// `number`.
    Number,
    /// `count [all|fixed] animals`.
    CountAnimals,
    /// `winner`.
    Winner,
    /// `loser`.
    Loser,
    /// `threshold`.
    Threshold,
    /// `classify`.
    Classify,
    /// `bound`.
    Bound,
}

/// The families of statements, which share games, methods and help: a
/// misspelled statement is answered with its family's statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Impartial games: Grundy values, outcomes, position counts.
    Impartial,
    /// Partizan games: values, outcomes, comparisons, numbers.
    Partizan,
    /// Animals: counts, maker and breaker claims, thresholds and
    /// classifications.
    Animals,
}

impl StatementKind {
    /// Every kind, the most common first (a misspelling's suggestion goes
    /// to the first of equally close keywords).
    pub const ALL: [StatementKind; 13] = [
        StatementKind::Grundy,
        StatementKind::Outcome,
        StatementKind::CountPositions,
        StatementKind::Period,
        StatementKind::Value,
        StatementKind::Compare,
        StatementKind::Number,
        StatementKind::CountAnimals,
        StatementKind::Winner,
        StatementKind::Loser,
        StatementKind::Threshold,
        StatementKind::Classify,
        StatementKind::Bound,
    ];

    /// The statement's first word (`count` for both counts).
    pub fn keyword(self) -> &'static str {
        match self {
            StatementKind::Grundy => "grundy",
            StatementKind::Outcome => "outcome",
            StatementKind::CountPositions | StatementKind::CountAnimals => "count",
            StatementKind::Period => "period",
            StatementKind::Value => "value",
            StatementKind::Compare => "compare",
            StatementKind::Number => "number",
            StatementKind::Winner => "winner",
            StatementKind::Loser => "loser",
            StatementKind::Threshold => "threshold",
            StatementKind::Classify => "classify",
            StatementKind::Bound => "bound",
        }
    }

    /// The families the statement belongs to (`outcome` to two: its game
    /// says which).
    pub fn families(self) -> &'static [Family] {
        match self {
            StatementKind::Grundy | StatementKind::CountPositions | StatementKind::Period => {
                &[Family::Impartial]
            }
            StatementKind::Outcome => &[Family::Impartial, Family::Partizan],
            StatementKind::Value | StatementKind::Compare | StatementKind::Number => {
                &[Family::Partizan]
            }
            StatementKind::CountAnimals
            | StatementKind::Winner
            | StatementKind::Loser
            | StatementKind::Threshold
            | StatementKind::Classify
            | StatementKind::Bound => &[Family::Animals],
        }
    }

    /// The families of the statements starting with `keyword`, in the order
    /// of [`Family`] (empty for a word that starts none).
    pub fn families_of_keyword(keyword: &str) -> Vec<Family> {
        let mut families: Vec<Family> = StatementKind::ALL
            .into_iter()
            .filter(|k| k.keyword() == keyword)
            .flat_map(|k| k.families().iter().copied())
            .collect();
        families.sort_by_key(|f| *f as u8);
        families.dedup();
        families
    }
}

/// The marks per turn of a maker-breaker game: `(a,b)` or `(a->c,b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MakerGame {
    /// Maker marks per turn.
    pub a: u64,
    /// Maker marks in the turn that completes the goal, if different.
    pub finish: Option<u64>,
    /// Breaker marks per turn.
    pub b: u64,
}

/// Cells as written: coordinate tuples with their spans.
pub type CellList = Vec<Spanned<Vec<i64>>>;

/// The body of `by proof-sequence { ... }`.
#[derive(Clone, Debug, Default)]
pub struct ProofBody {
    /// The situations in order.
    pub situations: Vec<SituationAst>,
    /// `start NAME [at MAP]`.
    pub start: Option<StartAst>,
    /// `search window RxC`: the elaborator searches for the sequence on a
    /// window of the lattice (or on the finite board: `search board`).
    pub search: Option<Spanned<Option<(u16, u16)>>>,
}

/// `situation NAME: core CELLS [neighbourhood CELLS]` and its options.
#[derive(Clone, Debug)]
pub struct SituationAst {
    /// Its name.
    pub name: Spanned<String>,
    /// `turns H`: the maker wins from it within H turns, if stated.
    pub turns: Option<Spanned<u64>>,
    /// The maker's cells.
    pub core: CellList,
    /// The cells the breaker has not marked.
    pub neighbourhood: CellList,
    /// `picture { ... }` instead of the lists: `#` core, `+` neighbourhood.
    pub picture: Option<Vec<Spanned<String>>>,
    /// Its options or replies.
    pub options: Vec<OptionAst>,
}

/// Which breaker mark an option answers.
#[derive(Clone, Debug)]
pub enum Answer {
    /// `option ...`: one of a list.
    Any,
    /// `reply CELL: ...`: the answer to a breaker mark on the cell.
    Reply(Spanned<Vec<i64>>),
    /// `pass: ...`: the answer to a breaker mark outside the neighbourhood.
    Pass,
}

/// `option [CELLS] -> TARGET [at MAP]` (or `reply CELL:` / `pass:`).
#[derive(Clone, Debug)]
pub struct OptionAst {
    /// What it answers.
    pub answer: Answer,
    /// The cells the maker marks (empty: none written).
    pub mark: CellList,
    /// `goal` or a situation name.
    pub target: Spanned<String>,
    /// The congruence placing the target, if written.
    pub map: Option<Spanned<MapAst>>,
    /// The whole option.
    pub span: Span,
}

/// `start NAME [at MAP]`.
#[derive(Clone, Debug)]
pub struct StartAst {
    /// `goal` or a situation name.
    pub target: Spanned<String>,
    /// Its placement, if written.
    pub map: Option<Spanned<MapAst>>,
}

/// The body of `by label-pairing { labels N ... pairs N ... }`: Bode's
/// labels of the edge ends of a (3,q) mosaic, `labels` f(1) .. f(q) (the
/// label at an edge's other end), and the labels whose edges pair their
/// two triangles.
#[derive(Clone, Debug, Default)]
pub struct LabelPairingBody {
    /// `labels N ...`: f(1) .. f(q).
    pub labels: Vec<Spanned<u64>>,
    /// `pairs N ...`.
    pub pairs: Vec<Spanned<u64>>,
    /// The block, braces included.
    pub span: Span,
}

/// The body of `by pairing { ... }` / `by paving { ... }`: a paving
/// (`period` vectors and `pair`s), or answers to the maker's next mark.
#[derive(Clone, Debug, Default)]
pub struct PairingBody {
    /// `period V1 V2 [V3]`: generators of the translation lattice.
    pub period: CellList,
    /// `pair CELL CELL`.
    pub pairs: Vec<(WrittenCell, WrittenCell)>,
    /// `move CELL reply CELLS { ... }` or `move CELL like CELL at MAP`.
    pub moves: Vec<MoveAst>,
    /// The block, braces included.
    pub span: Span,
    /// Written `by paving` rather than `by pairing` (the same method; the
    /// word is kept as written).
    pub paving: bool,
}

/// The body of `by priority { ... }`: the classes' period, the order of
/// a turn's marks and each class's rules.
#[derive(Clone, Debug, Default)]
pub struct PriorityBody {
    /// `period V1 V2 [V3]`: translations keeping every class.
    pub period: CellList,
    /// `order KEY ...`: `x`, `-x`, `y`, `-y`, `z`, `-z`.
    pub order: Vec<Spanned<OrderKeyAst>>,
    /// `class CELL { rule ... }`.
    pub classes: Vec<ClassAst>,
    /// The block, braces included.
    pub span: Span,
}

/// `class CELL { RULE ... }`: the rules for maker marks on CELL's class.
#[derive(Clone, Debug)]
pub struct ClassAst {
    pub class: WrittenCell,
    pub rules: Vec<PriorityRuleAst>,
}

/// `rule [if CELLS] { CELLS ; CELLS ... }`: guard cells, then one priority
/// list per breaker mark, all relative to the maker's mark.
#[derive(Clone, Debug)]
pub struct PriorityRuleAst {
    pub guard: CellList,
    pub lists: Vec<CellList>,
}

/// One cell as written.
pub type WrittenCell = Spanned<Vec<i64>>;

/// The breaker's answer to one maker mark in a strategy tree.
#[derive(Clone, Debug)]
pub struct MoveAst {
    /// The maker's mark.
    pub mark: Spanned<Vec<i64>>,
    /// What the breaker does.
    pub answer: MoveAnswerAst,
}

/// `reply CELLS [as NAME] { BODY }`, `reply CELLS same NAME [at MAP]` or
/// `like CELL [at MAP]`.
#[derive(Clone, Debug)]
pub enum MoveAnswerAst {
    /// The breaker marks the cells, then follows the body; `as NAME` names
    /// the situation reached.
    Reply {
        reply: CellList,
        name: Option<Spanned<String>>,
        then: PairingBody,
    },
    /// The breaker marks the cells, reaching the named situation again
    /// (moved by the congruence).
    Same {
        reply: CellList,
        name: Spanned<String>,
        map: Option<Spanned<MapAst>>,
    },
    /// The answer to the mark on `like`, moved by the congruence.
    Like {
        like: Spanned<Vec<i64>>,
        map: Option<Spanned<MapAst>>,
    },
}

/// A congruence as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapAst {
    /// `G (dx,dy)`: point-group element G, then the translation.
    Lattice { element: u64, shift: Vec<i64> },
    /// `[i0 i1 ...]`: the image of every vertex of a finite board.
    Permutation(Vec<u64>),
}

/// A game expression.
#[derive(Clone, Debug)]
pub enum GameExpr {
    /// `nim [h1,h2,...]`.
    Nim(Vec<Spanned<u64>>),
    /// A grid ruleset on a board.
    Grid {
        ruleset: GridRuleset,
        board: Spanned<BoardExpr>,
    },
    /// `octal CODE n`.
    Octal {
        code: Spanned<String>,
        heap: Spanned<u64>,
    },
    /// `kayles n` (octal 0.77).
    Kayles(Spanned<u64>),
    /// `dawson n` (octal 0.07).
    Dawson(Spanned<u64>),
    /// `G + H + ...` (a difference `G - H` is `G + (-H)`).
    Sum(Vec<Spanned<GameExpr>>),
    /// `{A, B | C}`.
    Options {
        left: Vec<Spanned<GameExpr>>,
        right: Vec<Spanned<GameExpr>>,
    },
    /// An integer or a fraction as written: numerator, optional denominator.
    Number {
        numerator: String,
        denominator: Option<String>,
    },
    /// `*` (1) or `*n`.
    Star(u64),
    /// `^`, `^n` (positive) or `v`, `vn` (negative): n ups.
    Up(i64),
    /// `+-G`: `{G | -G}`.
    PlusMinus(Box<Spanned<GameExpr>>),
    /// `-G`.
    Neg(Box<Spanned<GameExpr>>),
    /// `hackenbush "..."` or `green-hackenbush "..."`.
    Hackenbush {
        green_only: bool,
        picture: Spanned<String>,
    },
    /// `domineering RxC` or `domineering "..#|..."`.
    Domineering(Spanned<BoardExpr>),
}

/// Which animals a counting statement counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimalCount {
    /// `count animals`: free and simply connected (Bode's polyominoes).
    Polyominoes,
    /// `count all animals`: free, holes allowed.
    All,
    /// `count fixed animals`: up to translation only.
    Fixed,
}

impl AnimalCount {
    /// The words after `count`.
    pub fn words(self) -> &'static str {
        match self {
            AnimalCount::Polyominoes => "animals",
            AnimalCount::All => "all animals",
            AnimalCount::Fixed => "fixed animals",
        }
    }
}

/// `board NAME = KIND ARGS`, the kind and its arguments as written.
#[derive(Clone, Debug)]
pub struct BoardDecl {
    /// The board's name.
    pub name: Spanned<String>,
    /// The kind (`square`, `triangle`, ...).
    pub kind: Spanned<String>,
    /// The rest of the line (dimensions, parameters), trimmed.
    pub args: Spanned<String>,
    /// A picture or graph block, for boards given cell by cell.
    pub body: Option<BoardBody>,
    /// The whole item.
    pub span: Span,
}

/// The cells of a board given cell by cell.
#[derive(Clone, Debug)]
pub enum BoardBody {
    /// `LATTICE picture { ROWS }`: a finite region, drawn as animals are.
    Picture(Vec<Spanned<String>>),
    /// `graph { a-b ... }`: the edges of a graph on vertices 0..n-1.
    Graph(Vec<Spanned<(u64, u64)>>),
    /// `tiling { basis ..., periods ..., face ..., symmetry ... }`: a
    /// periodic tiling, one line per entry.
    Tiling(Vec<TilingLine>),
}

/// One line of a `tiling { ... }` block: `basis square|hexagonal`,
/// `periods (a,b) (c,d)`, `face (x,y) ...` or `symmetry (a,b,c,d) (e,f)`.
#[derive(Clone, Debug)]
pub struct TilingLine {
    /// The entry's keyword.
    pub key: Spanned<String>,
    /// The word after `basis`.
    pub word: Option<Spanned<String>>,
    /// The coordinate tuples.
    pub tuples: CellList,
    /// The whole line.
    pub span: Span,
}

/// A comparison as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelationAst {
    /// `=`.
    Equal,
    /// `<=`.
    LessOrEqual,
    /// `>=`.
    GreaterOrEqual,
    /// `<`.
    Less,
    /// `>`.
    Greater,
    /// `||`.
    Confused,
}

impl RelationAst {
    /// The symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            RelationAst::Equal => "=",
            RelationAst::LessOrEqual => "<=",
            RelationAst::GreaterOrEqual => ">=",
            RelationAst::Less => "<",
            RelationAst::Greater => ">",
            RelationAst::Confused => "||",
        }
    }
}

/// One step of a derivation: `= GAME by RULE`.
#[derive(Clone, Debug)]
pub struct DerivationStep {
    /// The term the step arrives at.
    pub game: Spanned<GameExpr>,
    /// The rule it names.
    pub rule: Spanned<StepRuleName>,
}

/// An outcome letter as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeAst {
    /// Left wins.
    L,
    /// Right wins.
    R,
    /// The previous player wins.
    P,
    /// The next player wins.
    N,
}

impl OutcomeAst {
    /// The letter.
    pub fn letter(self) -> char {
        match self {
            OutcomeAst::L => 'L',
            OutcomeAst::R => 'R',
            OutcomeAst::P => 'P',
            OutcomeAst::N => 'N',
        }
    }
}

/// A key of a priority block's `order`: an axis, ascending or descending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderKeyAst {
    /// 0, 1 or 2 for x, y, z.
    pub axis: usize,
    /// `-x`: larger values first.
    pub descending: bool,
}

impl OrderKeyAst {
    /// The keys of the language.
    pub const ALL: [OrderKeyAst; 6] = [
        OrderKeyAst {
            axis: 0,
            descending: true,
        },
        OrderKeyAst {
            axis: 1,
            descending: true,
        },
        OrderKeyAst {
            axis: 2,
            descending: true,
        },
        OrderKeyAst {
            axis: 0,
            descending: false,
        },
        OrderKeyAst {
            axis: 1,
            descending: false,
        },
        OrderKeyAst {
            axis: 2,
            descending: false,
        },
    ];

    /// The key as written (`x`, `-y`, ...).
    pub fn keyword(self) -> &'static str {
        match (self.descending, self.axis) {
            (true, 0) => "-x",
            (true, 1) => "-y",
            (true, _) => "-z",
            (false, 0) => "x",
            (false, 1) => "y",
            (false, _) => "z",
        }
    }
}

/// A rule of a derivation step (`= GAME by RULE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRuleName {
    /// `definition`: the equality only.
    Definition,
    /// `options`: the term's options written out.
    Options,
    /// `dominated`: dominated options removed.
    Dominated,
    /// `reversible`: a reversible option bypassed.
    Reversible,
    /// `simplest-number`: the simplest number between the options.
    SimplestNumber,
}

impl StepRuleName {
    /// The rules of the language.
    pub const ALL: [StepRuleName; 5] = [
        StepRuleName::Definition,
        StepRuleName::Options,
        StepRuleName::Dominated,
        StepRuleName::Reversible,
        StepRuleName::SimplestNumber,
    ];

    /// The rule as written.
    pub fn keyword(self) -> &'static str {
        match self {
            StepRuleName::Definition => "definition",
            StepRuleName::Options => "options",
            StepRuleName::Dominated => "dominated",
            StepRuleName::Reversible => "reversible",
            StepRuleName::SimplestNumber => "simplest-number",
        }
    }
}

/// A derived rule of SPEC 3.5, as named after `by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerivedRuleName {
    /// `trivial`.
    Trivial,
    /// `proposition-2.1`.
    Proposition21,
    /// `proposition-2.2`.
    Proposition22,
    /// `corollary-3.3`.
    Corollary33,
    /// `corollary-3.4`.
    Corollary34,
    /// `theorem-3.1`.
    Theorem31,
    /// `monotonicity`.
    Monotonicity,
    /// `sub-animal`.
    SubAnimal,
    /// `ring-pairing`.
    RingPairing,
    /// `fan-pairing`.
    FanPairing,
}

impl DerivedRuleName {
    /// The rules of the language.
    pub const ALL: [DerivedRuleName; 10] = [
        DerivedRuleName::Trivial,
        DerivedRuleName::Proposition21,
        DerivedRuleName::Proposition22,
        DerivedRuleName::Corollary33,
        DerivedRuleName::Corollary34,
        DerivedRuleName::Theorem31,
        DerivedRuleName::Monotonicity,
        DerivedRuleName::SubAnimal,
        DerivedRuleName::RingPairing,
        DerivedRuleName::FanPairing,
    ];

    /// The rule as written after `by`.
    pub fn keyword(self) -> &'static str {
        match self {
            DerivedRuleName::Trivial => "trivial",
            DerivedRuleName::Proposition21 => "proposition-2.1",
            DerivedRuleName::Proposition22 => "proposition-2.2",
            DerivedRuleName::Corollary33 => "corollary-3.3",
            DerivedRuleName::Corollary34 => "corollary-3.4",
            DerivedRuleName::Theorem31 => "theorem-3.1",
            DerivedRuleName::Monotonicity => "monotonicity",
            DerivedRuleName::SubAnimal => "sub-animal",
            DerivedRuleName::RingPairing => "ring-pairing",
            DerivedRuleName::FanPairing => "fan-pairing",
        }
    }
}

/// The grid rulesets' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridRuleset {
    /// `cram`.
    Cram,
    /// `domino-juvavum`.
    DominoJuvavum,
    /// `juvavum`.
    Juvavum,
}

impl GridRuleset {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            GridRuleset::Cram => "cram",
            GridRuleset::DominoJuvavum => "domino-juvavum",
            GridRuleset::Juvavum => "juvavum",
        }
    }
}

/// A board: `RxC` (empty) or a picture string (rows separated by `|`, `.`
/// free, `#` filled).
#[derive(Clone, Debug)]
pub enum BoardExpr {
    /// `RxC`.
    Dims { rows: u64, cols: u64 },
    /// `"..#|..."`, without the quotes.
    Picture(String),
}

/// How a claim is supported.
#[derive(Clone, Debug)]
pub enum Method {
    /// `by search`.
    Search,
    /// `by table { GAME = n ... }`.
    Table(Vec<TableRow>),
    /// `by definition`.
    Definition,
    /// `by enumeration [from ID, ...]` (a classification cites its
    /// winners and losers).
    Enumeration(Vec<Spanned<String>>),
    /// `by citation from ID, ...`: a threshold sequence from cited claims.
    Citation(Vec<Spanned<String>>),
    /// `by pairing { ... }` or `by paving { ... }`: a breaker strategy.
    Pairing(PairingBody),
    /// `by priority { ... }`: a (history-dependent) priority strategy.
    Priority(PriorityBody),
    /// `by label-pairing { labels N ... pairs N ... }`: a pairing by
    /// labelled edge ends on a (3,q) mosaic.
    LabelPairing(LabelPairingBody),
    /// `by derivation { = GAME by RULE ... }`.
    Derivation(Vec<DerivationStep>),
    /// `by proof-sequence { ... }`.
    ProofSequence(ProofBody),
    /// A derived rule (`by proposition-2.2 { placement CELLS ... }`,
    /// `by corollary-3.3 from ID`, ...): its name, the claims it cites and
    /// the placements it lists.
    Derived {
        rule: Spanned<DerivedRuleName>,
        cites: Vec<Spanned<String>>,
        placements: Vec<CellList>,
    },
    /// `by cards "FILE" [sha256 "..."]`: a card file (snaky-cards-txt-v1),
    /// translated into a proof sequence when the claim is checked.
    Cards {
        path: Spanned<String>,
        sha256: Option<Spanned<String>>,
    },
    /// `by answers "FILE" sha256 "..."`: a binary file of winning answers
    /// (rule I7; the pin is required when the claim is checked).
    Answers {
        path: Spanned<String>,
        sha256: Option<Spanned<String>>,
    },
    /// Another method name of the language (not applicable to these claims yet).
    Other(String),
}

impl Method {
    /// The method's name as written after `by`.
    pub fn name(&self) -> &str {
        match self {
            Method::Search => "search",
            Method::Table(_) => "table",
            Method::Definition => "definition",
            Method::Enumeration(_) => "enumeration",
            Method::Citation(_) => "citation",
            Method::Pairing(_) => "pairing",
            Method::Priority(_) => "priority",
            Method::LabelPairing(_) => "label-pairing",
            Method::Derivation(_) => "derivation",
            Method::ProofSequence(_) => "proof-sequence",
            Method::Cards { .. } => "cards",
            Method::Answers { .. } => "answers",
            Method::Derived { rule, .. } => rule.node.keyword(),
            Method::Other(name) => name,
        }
    }
}

/// One row of a table.
#[derive(Clone, Debug)]
pub struct TableRow {
    /// The position.
    pub game: Spanned<GameExpr>,
    /// Its claimed value.
    pub value: Spanned<u64>,
}

/// What went wrong while parsing, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The kind of error.
    pub kind: SyntaxErrorKind,
    /// Where.
    pub span: Span,
}

/// The closed set of syntax errors; their wording lives in `report::diagnostics`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// The file does not start with `gamecert 1`.
    MissingHeader,
    /// `gamecert N` with an unknown version.
    UnsupportedVersion(String),
    /// Something else than the named construct was found.
    Expected(&'static str),
    /// A game keyword that no ruleset has, and the ruleset it is closest
    /// to, if one is close.
    UnknownRuleset {
        word: String,
        suggestion: Option<&'static str>,
    },
    /// A statement keyword that the language does not have (yet), and the
    /// keyword it is closest to, if one is close.
    UnknownStatement {
        word: String,
        suggestion: Option<&'static str>,
    },
    /// A method name that the language does not have, the method it is
    /// closest to, and the kind of statement it was to check (whose methods
    /// the help lists).
    UnknownMethod {
        word: String,
        suggestion: Option<&'static str>,
        statement: StatementKind,
    },
    /// A derivation step rule that the language does not have, and the rule
    /// it is closest to.
    UnknownStepRule {
        word: String,
        suggestion: Option<&'static str>,
    },
    /// A number too large to represent.
    NumberTooLarge,
    /// A string without its closing quote.
    UnclosedString,
    /// A `{` without its `}`.
    UnclosedBlock,
    /// Parentheses nested deeper than the parser allows.
    NestingTooDeep,
    /// A `-` with space before it and none after (`1 -1`): a difference
    /// or a negative, depending on the reader.
    LopsidedMinus,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_belong_to_their_families() {
        assert_eq!(
            StatementKind::families_of_keyword("winner"),
            [Family::Animals]
        );
        assert_eq!(
            StatementKind::families_of_keyword("outcome"),
            [Family::Impartial, Family::Partizan]
        );
        assert_eq!(
            StatementKind::families_of_keyword("count"),
            [Family::Impartial, Family::Animals]
        );
        assert!(StatementKind::families_of_keyword("chess").is_empty());
    }
}
