//! What the kernel concludes about a claim: facts, never sentences.
//!
//! Every variant carries ids, cells and values only; `report` turns them into
//! words. Each fact has a stable code (`Verdict::code`) that tests match on.

use crate::kernel::animals::lattice::Cell;
use crate::kernel::budget::Exhausted;
use crate::kernel::impartial::answers::Failure as AnswersFailure;
use crate::kernel::impartial::period::PeriodFailure;
use crate::kernel::impartial::{MoveFact, Outcome, ValuedOption};
use crate::kernel::ledger::Theorem;
use crate::kernel::partizan::game::Player;

/// The kernel rule a verdict rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// I1-I3: memoised search with components and symmetry.
    ImpartialSearch,
    /// I4: an author's table, every entry checked (with I1-I3 below it).
    ImpartialTable,
    /// I5: exhaustive traversal of the reachable positions.
    PositionCount,
    /// I6: an octal game's nim sequence by the periodicity theorem.
    OctalPeriod,
    /// I7: an outcome or Grundy value from a file of winning answers.
    ImpartialAnswers,
    /// P5: a Domineering outcome from a file of winning answers.
    PartizanAnswers,
    /// P1-P4: partizan comparison by the recursive definition.
    PartizanDefinition,
    /// P1-P4 applied to each step of an author's derivation.
    PartizanDerivation,
    /// A1: animals counted by enumeration.
    AnimalEnumeration,
    /// M1: a maker win by a proof sequence.
    ProofSequence,
    /// M2-M8: a derived result.
    Derived(DerivedKind),
    /// B1-B2: a loser by a paving, or a strategy tree ending in pavings.
    Paving,
    /// B3: a threshold sequence from cited claims.
    Threshold,
    /// B4: a classification of a finite board from cited claims.
    Classification,
    /// B5: a loser by a (history-dependent) priority strategy.
    Priority,
    /// B6: an upper bound on the winners of a finite board from cited losers.
    Bound,
}

/// The derived rules of SPEC 3.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerivedKind {
    Trivial,
    Proposition21,
    Proposition22,
    Corollary33,
    Corollary34,
    Theorem31,
    Monotonicity,
    SubAnimal,
    RingPairing,
    FanPairing,
    LabelPairing,
}

impl Rule {
    /// The stable name printed in reports.
    pub fn code(self) -> &'static str {
        match self {
            Rule::ImpartialSearch => "impartial.search",
            Rule::ImpartialTable => "impartial.table",
            Rule::PositionCount => "impartial.count",
            Rule::OctalPeriod => "impartial.period",
            Rule::ImpartialAnswers => "impartial.answers",
            Rule::PartizanAnswers => "partizan.answers",
            Rule::PartizanDefinition => "partizan.definition",
            Rule::PartizanDerivation => "partizan.derivation",
            Rule::AnimalEnumeration => "animals.enumeration",
            Rule::ProofSequence => "maker.proof-sequence",
            Rule::Paving => "breaker.paving",
            Rule::Threshold => "breaker.threshold",
            Rule::Classification => "breaker.classification",
            Rule::Priority => "breaker.priority",
            Rule::Bound => "breaker.bound",
            Rule::Derived(kind) => match kind {
                DerivedKind::Trivial => "maker.trivial",
                DerivedKind::Proposition21 => "maker.proposition-2.1",
                DerivedKind::Proposition22 => "maker.proposition-2.2",
                DerivedKind::Corollary33 => "maker.corollary-3.3",
                DerivedKind::Corollary34 => "maker.corollary-3.4",
                DerivedKind::Theorem31 => "maker.theorem-3.1",
                DerivedKind::Monotonicity => "maker.monotonicity",
                DerivedKind::SubAnimal => "maker.sub-animal",
                DerivedKind::RingPairing => "breaker.ring-pairing",
                DerivedKind::FanPairing => "breaker.fan-pairing",
                DerivedKind::LabelPairing => "breaker.label-pairing",
            },
        }
    }
}

/// Why a Grundy value is not the claimed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrundyWitness {
    /// An option has the claimed value (so the value is not it).
    OptionWithClaimedValue(ValuedOption),
    /// No option has this smaller value (so the value is at most it).
    MissingValue(u32),
    /// A misère position without moves has value 1.
    MisereTerminal,
}

/// How two games compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
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

/// Who wins a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartizanOutcome {
    /// Left wins whoever starts.
    L,
    /// Right wins whoever starts.
    R,
    /// The second player wins.
    P,
    /// The first player wins.
    N,
}

/// The move that breaks a needed comparison or outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveWitness {
    /// `player` moves in the claim's left-hand game (or the right-hand one) to `option`.
    Move {
        player: Player,
        in_left_game: bool,
        option: String,
    },
    /// Both games are numbers (or sums of numbers) and the first is the smaller.
    SmallerNumber,
}

/// Why a derivation step does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepFailure {
    /// The two terms are not equal.
    NotEqual { witness: Option<MoveWitness> },
    /// `by options`: the written options are not the position's options.
    NotTheOptions,
    /// The rule needs terms written as `{...|...}`.
    NotExplicit,
    /// `by dominated`: an option appears that was not there before.
    NotASubset,
    /// `by dominated`: this removed option is not dominated by a kept one.
    NotDominated { option: String },
    /// `by reversible`: no option is bypassed as the step says.
    NotReversible,
    /// `by simplest-number`: the options are not all numbers, or left >= right.
    OptionsNotNumbers,
    /// `by simplest-number`: the simplest number is another one.
    NotSimplest { expected: String },
}

/// Why a proof sequence does not prove its claim. Options count from 1
/// within their situation; option 0 is the pass of the per-reply form (or,
/// at the start, the start's placement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MakerFailure {
    /// A cell is listed twice in a core or a neighbourhood.
    RepeatedCell { cell: Cell },
    /// A cell is in both the core and the neighbourhood.
    CoreInNeighbourhood { cell: Cell },
    /// An option marks more cells than the maker may.
    MarkTooLarge {
        option: usize,
        size: usize,
        max: usize,
    },
    /// An option marks a cell outside the neighbourhood.
    MarkOutside { option: usize, cell: Cell },
    /// An option's target is not an earlier situation.
    TargetNotEarlier { option: usize },
    /// An option's congruence is not a congruence of the board.
    BadCongruence { option: usize },
    /// The target's core lands on this cell, which the maker does not own.
    CoreNotOwned { option: usize, cell: Cell },
    /// The target lands on this cell, outside the situation.
    OutsideSituation { option: usize, cell: Cell },
    /// The breaker marks these cells and every option needs one of them.
    Hit { cells: Vec<Cell> },
    /// The per-reply form is for games where the breaker marks one cell.
    RepliesNeedOneBreakerMark,
    /// The per-reply form has no option for a mark outside the neighbourhood.
    NoPass,
    /// A reply answers a mark outside the neighbourhood.
    ReplyOutside { cell: Cell },
    /// The reply to a mark on this cell needs the cell.
    ReplyNeedsMark { cell: Cell },
    /// No reply answers a breaker mark on this neighbourhood cell.
    MissingReply { cell: Cell },
    /// The situation needs more maker turns than it states (its options
    /// reach situations that need as many or more).
    TooManyTurns { stated: usize, needed: usize },
    /// The option's target states as many turns as this situation, or more.
    TurnsDoNotDrop {
        option: usize,
        stated: usize,
        target: usize,
    },
    /// The start has more core cells than the maker's first turn marks.
    StartTooLarge { size: usize, max: usize },
    /// The start, placed, has this cell off the board.
    StartOffBoard { cell: Cell },
}

/// A hypothesis of a derived rule (the checklists of docs/soundness.md,
/// rules M2-M8, B3, B4), named when it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// M2: c >= |A|, the maker marks a whole placement in his first turn.
    CompletingCoversGoal,
    /// M2: the goal has a placement on the board.
    GoalFits,
    /// M3: c < |A| (so also a < |A|): no turn's marks hold the goal.
    CompletingBelowGoal,
    /// M3: a * delta <= b, the breaker marks every cell around a turn's marks.
    BreakerSurrounds { delta: usize },
    /// M4: |A| = a + 1.
    GoalOneMoreThanMarks,
    /// M4: a * h > b, one arm of a copies survives the breaker's turn.
    ArmsOutnumberBreaker,
    /// M5: b < a.
    BreakerBelowMaker,
    /// M6: the marks move the right way (more for the maker and fewer for
    /// the breaker from a winner, the reverse from a loser).
    MarksMoveTheRightWay,
    /// M7: the same game (a, c, b) as the cited claim.
    SameGame,
    /// M7: the smaller goal lies inside the larger one.
    GoalInside,
    /// M8: every cited game's completing turn marks at most the claim's a.
    CitedCompletingWithinMarks,
    /// B8: b >= 1, the breaker answers every mark.
    BreakerAnswers,
    /// B8: no placement of the goal lies inside one ring around a vertex.
    GoalMissesEveryRing,
    /// B9: the goal is not a fan (triangles around one vertex).
    GoalNotAFan,
    /// B10: the labels are a labelling of the mosaic's edge ends (one per
    /// label 1..q, the other end's label an involution, every triangle
    /// closing up).
    LabelsConsistent,
    /// B10: no triangle has two edges whose labels pair.
    OnePairPerTriangle,
    /// B10: every placement of the goal holds a pair.
    EveryPlacementHoldsAPair,
}

/// Why a derived result does not follow from its citations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DerivedFailure {
    /// The rule's hypothesis fails.
    Hypothesis(Hypothesis),
    /// The rule cites the wrong number of claims.
    Citations,
    /// The cited claim (counting from 1) is not a winner or loser claim
    /// of the same side, board and goal.
    CitedOtherGame { citation: usize },
    /// A listed placement is not a placement of the goal (counting from 1).
    NotAPlacement { placement: usize },
    /// Two placements share `shared` cells, or not all share one cell.
    PlacementsMeet {
        first: usize,
        second: usize,
        shared: usize,
    },
    /// The cited win (counting from 1) has no turn bound (it is not a
    /// proof sequence or a rule that bounds its turns).
    Unbounded { citation: usize },
    /// The marks per turn do not add up as the theorem needs.
    SumsDoNotMatch,
}

/// Why a breaker strategy (a paving or a tree of answers ending in
/// pavings) does not prove its loser claim. `path` is the maker's marks
/// leading to the node where the check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BreakerFailure {
    /// A pair has a cell off the board.
    PairOffBoard { cell: Cell },
    /// A pair relates a cell to itself.
    PairOfOneCell { cell: Cell },
    /// A paving on a lattice needs a period.
    NoPeriod,
    /// A finite board's pairing is explicit: no period.
    PeriodOnFiniteBoard,
    /// The period's generator (counting from 1) is not a translation of the lattice.
    PeriodNotATranslation { index: usize },
    /// The period's generators do not span the lattice's dimensions.
    PeriodSingular,
    /// A cell is related to more cells than the breaker marks per turn.
    Degree { cell: Cell, partners: Vec<Cell> },
    /// This placement holds no related pair of free cells.
    Unpaired {
        path: Vec<Cell>,
        placement: Vec<Cell>,
    },
    /// The maker may mark this free cell and the tree does not answer it.
    MissingMove { path: Vec<Cell>, cell: Cell },
    /// A move is answered twice.
    MoveTwice { path: Vec<Cell>, cell: Cell },
    /// A move the tree answers is not a free cell of the board.
    MoveNotFree { path: Vec<Cell>, cell: Cell },
    /// The maker completes a placement with this mark.
    MakerCompletes { path: Vec<Cell>, cell: Cell },
    /// The reply to the maker's mark on this cell has more than b cells or repeats one.
    ReplyTooLarge { path: Vec<Cell>, cell: Cell },
    /// A reply cell is not free.
    ReplyNotFree { path: Vec<Cell>, cell: Cell },
    /// The congruence answering this move is not a symmetry of the position
    /// taking an answered move to it.
    BadSymmetry { path: Vec<Cell>, cell: Cell },
    /// `same NAME` names no situation completed earlier in the tree.
    UnknownSituation { path: Vec<Cell>, name: String },
    /// The position reached is not the named situation's image under the
    /// congruence given.
    SituationDiffers { path: Vec<Cell>, name: String },
    /// Two nodes of the tree carry this name.
    SituationTwice { path: Vec<Cell>, name: String },
    /// Two class blocks name the same class (this cell's).
    ClassTwice { class: Cell },
    /// A rule (counting from 1 in its class) never applies: the guard of
    /// an earlier rule is part of its guard.
    RuleNeverApplies {
        class: Cell,
        rule: usize,
        shadowed_by: usize,
    },
    /// Marking the relevant cells in these turns, the maker completes the
    /// placement as far as the kernel can tell.
    MakerOrder {
        placement: Vec<Cell>,
        turns: Vec<Vec<Cell>>,
    },
}

/// Why a threshold sequence is not established by its citations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThresholdFailure {
    /// A cited claim (counting from 1) is not a winner or loser claim
    /// about this goal and board.
    CitedOtherGoal { citation: usize },
    /// No cited claim makes the goal an (n,b)-winner.
    MissingWinner { n: usize, b: usize },
    /// No cited claim makes the goal an (n,b)-loser.
    MissingLoser { n: usize, b: usize },
}

/// Why a classification does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassifyFailure {
    /// A cited claim (counting from 1) is not about this board's (1,1) game.
    CitedOtherGame { citation: usize },
    /// No cited winner contains this animal and it contains no cited loser
    /// (cells of `dimension` coordinates: 1 on finite boards).
    Unaccounted { animal: Vec<Cell>, dimension: usize },
    /// The cited claims make this animal both a winner and a loser.
    Contradiction { animal: Vec<Cell>, dimension: usize },
    /// The automorphisms listed do not form a group, so orbits cannot be
    /// counted (a defect of the kernel's listing, never of the input).
    NoGroup,
}

/// Why a bound on the winners is not established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundFailure {
    /// A cited claim (counting from 1) is not a loser of this board's (1,1)
    /// game.
    CitedOtherGame { citation: usize },
    /// More polyominoes contain no cited loser than the bound allows; this
    /// is one of them.
    TooMany {
        candidates: u64,
        example: Vec<Cell>,
        dimension: usize,
    },
}

/// What the rules of a maker-breaker game decide without a certificate
/// (`kernel::game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFact {
    /// c >= |A| and the goal fits: the maker marks a whole placement in his
    /// first turn, so he wins.
    WholeGoalInOneTurn,
    /// The goal has no placement on the board, so the maker never wins.
    NoPlacement,
    /// On a lattice with b < a the maker wins (Cor. 3.4).
    BreakerMarksFewer,
}

/// Why a maker-breaker game is not a game of SPEC 3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllFormed {
    /// a = 0.
    NoMakerMarks,
    /// (a->c,b) with c < a.
    CompletingBelowMarks { a: usize, c: usize },
    /// The goal is not an animal of the board (empty, a cell off the
    /// board or twice, not connected).
    GoalNotAnAnimal,
}

/// What a method needs of the statement it proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// A winner claim.
    WinnerClaim,
    /// A loser claim.
    LoserClaim,
    /// A (1,b) loser claim (pavings answer one maker mark per turn).
    OneMakerMark,
    /// An (a,b) game, without a completing turn of more marks.
    PlainGame,
    /// An infinite lattice (room for copies far apart, or the stage diagram).
    InfiniteLattice,
    /// A finite board (strategy trees).
    FiniteBoard,
    /// A lattice or a region of one (priority strategies).
    LatticeOrRegion,
    /// A `value` claim (derivations).
    ValueClaim,
    /// A board other than a hyperbolic mosaic (only counting, proof
    /// sequences and the derived rules that read congruence alone apply
    /// to mosaics).
    NotAMosaic,
    /// A hyperbolic mosaic (3,q) with q >= 7 (the ring pairing).
    HyperbolicMosaic,
    /// A hyperbolic mosaic (3,q) with q even (the fan pairing).
    EvenHyperbolicMosaic,
}

/// Why a claim cannot be read as a certificate of its statement (an ERROR,
/// like a syntax error, not a verdict about the claim).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// The game is not a game of SPEC 3.2.
    Game(IllFormed),
    /// The method does not apply to this statement.
    NotApplicable(Requirement),
    /// A threshold sequence must end with its one `inf`.
    ThresholdShape,
    /// The cited claim (counting from 1) is not defined before this one.
    CitesLater { citation: usize },
    /// A cell has a coordinate beyond `bounds::MAX_COORDINATE`.
    CoordinateTooLarge,
}

/// The position of the item at `index`, counting from 1 (as reports number
/// options, citations, placements and steps).
pub fn ordinal(index: usize) -> usize {
    index.saturating_add(1)
}

/// A claim shown false, with the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The Grundy value differs.
    Grundy {
        claimed: u32,
        actual: u32,
        witness: GrundyWitness,
    },
    /// The outcome differs; for a claimed P the winning move of the next player.
    Outcome {
        claimed: Outcome,
        value: u32,
        winning_move: Option<MoveFact>,
        options: usize,
    },
    /// The position count differs.
    Count { claimed: u64, actual: u64 },
    /// The nim sequence is not ultimately periodic as claimed.
    Period(PeriodFailure),
    /// An answer file establishes the other outcome of the claim's position
    /// (for a Grundy claim G = n: of G + *n), in this record.
    Answers { outcome: Outcome, record: u32 },
    /// A misère answer file establishes that the claim's position has
    /// (`equals`) or does not have misère value `value`, which the claim
    /// denies; `record` last added to what is known of the position.
    MisereAnswers {
        equals: bool,
        value: u32,
        record: u32,
    },
    /// An answer file establishes that `mover`, moving first, wins (or loses),
    /// which the claimed partizan outcome denies.
    MoverFact { mover: Player, wins: bool },
    /// The animal count differs.
    AnimalCount { claimed: u64, actual: u64 },
    /// Two partizan games do not compare as claimed.
    Relation {
        claimed: Relation,
        actual: Relation,
        witness: Option<MoveWitness>,
    },
    /// A partizan outcome differs.
    PartizanOutcome {
        claimed: PartizanOutcome,
        actual: PartizanOutcome,
        witness: Option<MoveWitness>,
    },
    /// The game is confused with this number, so it is not a number.
    NotANumber { confused_with: String },
    /// The game lies strictly between two numbers closer than any number it
    /// could equal, so it is not a number.
    NotANumberBetween { low: String, high: String },
    /// The rules of the game decide it the other way.
    Game(GameFact),
    /// `inf` at n maker marks, fewer than the goal's cells: with enough
    /// breaker marks the n-mark game is a loss (Prop. 2.1 on a lattice,
    /// every cell marked on a finite board).
    InfinityTooEarly { n: usize, size: usize },
    /// Every animal of the board is accounted for by verified claims, and
    /// these are the counts.
    ClassificationCounts {
        winners: u64,
        losers: u64,
        /// The counts are of the elementary winners and losers (rule B7).
        elementary: bool,
    },
}

/// How a cited claim ended, when it is not VERIFIED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CitedVerdict {
    /// It was refuted.
    Refuted,
    /// Its certificate does not establish it.
    Rejected,
    /// It could not be read.
    Error,
}

/// A certificate that does not establish its claim; nothing is said about
/// whether the claim is true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// A derivation step fails (steps count from 1; the last is the value).
    Step { step: usize, failure: StepFailure },
    /// A proof sequence fails at a situation (or, without one, at its start).
    Maker {
        situation: Option<String>,
        failure: MakerFailure,
        /// Coordinates per cell on the board (1: a vertex number, 2: the
        /// plane, 3: cubic), for printing cells.
        dimension: usize,
    },
    /// A derived result does not follow.
    Derived(DerivedFailure),
    /// A breaker strategy fails.
    Breaker {
        failure: BreakerFailure,
        /// Coordinates per cell, as for proof sequences.
        dimension: usize,
    },
    /// A threshold sequence is not established by its citations.
    Threshold(ThresholdFailure),
    /// A classification is not established by its citations.
    Classify(ClassifyFailure),
    /// A bound on the winners is not established by its citations.
    Bound(BoundFailure),
    /// A table entry is wrong (so the table does not support the claim).
    TableEntry {
        entry: usize,
        claimed: u32,
        actual: u32,
        witness: GrundyWitness,
    },
    /// The cited claim (counting from 1) is not verified.
    Citation {
        citation: usize,
        verdict: CitedVerdict,
    },
    /// An answer file does not establish the claim.
    Answers(AnswersFailure),
}

/// Why the kernel did not decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// The search budget ran out.
    Budget(Exhausted),
    /// Position counts are defined for a single grid game only.
    CountNotAGrid,
    /// A game is larger than the kernel represents (a Hackenbush picture of
    /// more than 64 edges).
    OutsideLimits,
    /// `number G`: no number was found that G equals or is confused with.
    NoNumberCandidate,
    /// The cited claim (counting from 1) is undecided.
    CitationUndecided { citation: usize },
}

/// The kernel's answer for one claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every step was checked; `nodes` positions were expanded; `measure`
    /// is a number for the report only (what was counted: positions,
    /// animals, turns, tree nodes, entries), never read by a rule; the
    /// theorem is what the claim established, for the claims citing it.
    Verified {
        rule: Rule,
        nodes: u64,
        measure: u64,
        theorem: Theorem,
    },
    /// The claim is false.
    Refuted { rule: Rule, refutation: Refutation },
    /// The certificate does not establish the claim.
    Rejected { rule: Rule, rejection: Rejection },
    /// Not decided.
    Undecided { rule: Rule, reason: Undecided },
    /// The claim cannot be read as a certificate of its statement.
    Malformed { rule: Rule, reason: Malformed },
}

impl Verdict {
    /// The rule the verdict rests on.
    pub fn rule(&self) -> Rule {
        match self {
            Verdict::Verified { rule, .. }
            | Verdict::Refuted { rule, .. }
            | Verdict::Rejected { rule, .. }
            | Verdict::Undecided { rule, .. }
            | Verdict::Malformed { rule, .. } => *rule,
        }
    }

    /// Whether the claim was established.
    pub fn is_verified(&self) -> bool {
        matches!(self, Verdict::Verified { .. })
    }
}
