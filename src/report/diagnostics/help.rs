//! Help texts chosen by what the author was writing: the statements of the
//! family a misspelled keyword belongs to, the methods of the kind of
//! statement a method was to check, the games of a misspelled game's
//! family, each after a "did you mean" line when a close name exists.
//!
//! Key decision: the help never lists one fixed family (a misspelled
//! `winner` used to be shown the impartial statements). When the family is
//! not known (a word close to nothing), the help lists every family, one
//! line each, rather than guessing.

use crate::syntax::ast::{Family, StatementKind};

/// `did you mean `X`?` (when there is a suggestion) followed by `help`, one
/// per line.
pub fn did_you_mean(suggestion: Option<&str>, help: &str) -> String {
    match suggestion {
        Some(name) => format!("did you mean `{name}`?\n{help}"),
        None => help.to_string(),
    }
}

/// The statement forms of `families`, one line per family; every family
/// when `families` is empty.
pub fn statements(families: &[Family]) -> String {
    let all = [Family::Impartial, Family::Partizan, Family::Animals];
    let families = if families.is_empty() {
        &all[..]
    } else {
        families
    };
    families
        .iter()
        .map(|family| match family {
            Family::Impartial => {
                "impartial statements: grundy [misere] GAME = n, outcome [misere] GAME = P|N, \
                 count positions [up to symmetry] GAME = k, period octal CODE = (n0, p)"
            }
            Family::Partizan => {
                "partizan statements: value GAME = GAME, outcome GAME = L|R|P|N, \
                 compare GAME REL GAME, number GAME"
            }
            Family::Animals => {
                "animal statements: winner ANIMAL on BOARD (a,b), loser ANIMAL on BOARD (a,b), \
                 threshold ANIMAL on BOARD = (b1, ..., inf), classify BOARD = (W winners, L losers), \
                 count [all|fixed] animals on BOARD size n = k"
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The methods that check a statement of kind `kind`.
pub fn methods(kind: StatementKind) -> &'static str {
    match kind {
        StatementKind::Grundy => {
            "grundy values are checked `by search`, `by table { GAME = n ... }` or `by answers \
             \"FILE\" sha256 \"HEX\"` (normal or misère play), and games in the partizan notation \
             `by definition`"
        }
        StatementKind::Outcome => {
            "outcomes of impartial games are checked `by search`, `by table { GAME = n ... }` or \
             `by answers \"FILE\" sha256 \"HEX\"` (normal or misère play), of partizan games `by definition` \
             (Domineering boards also `by answers`)"
        }
        StatementKind::CountPositions => "position counts are checked `by search`",
        StatementKind::Period => {
            "octal periods are checked `by search`: the kernel computes the values the \
             periodicity theorem needs"
        }
        StatementKind::Value => {
            "partizan values are checked `by definition` or `by derivation { = GAME by RULE ... }`"
        }
        StatementKind::Compare => "comparisons are checked `by definition`",
        StatementKind::Number => "`number` claims are checked `by definition`",
        StatementKind::CountAnimals => "animal counts are checked `by enumeration`",
        StatementKind::Winner => {
            "winner claims are checked `by proof-sequence { ... }` (or `{ search window RxC }`), \
             `by cards \"FILE\"`, or a derived rule: trivial, proposition-2.2, corollary-3.3, \
             corollary-3.4, theorem-3.1, monotonicity, sub-animal (`from ID, ...`)"
        }
        StatementKind::Loser => {
            "loser claims are checked `by paving { ... }`, `by pairing { ... }`, \
             `by priority { ... }`, or a derived rule: proposition-2.1, monotonicity, sub-animal \
             (`from ID, ...`)"
        }
        StatementKind::Threshold => "thresholds are checked `by citation from ID, ...`",
        StatementKind::Classify => "classifications are checked `by enumeration from ID, ...`",
        StatementKind::Bound => {
            "bounds on the winners are checked `by enumeration from ID, ...` (cited losers)"
        }
    }
}

/// The games of the family of `suggestion` (a ruleset keyword), or of
/// both families when there is none.
pub fn games(suggestion: Option<&str>) -> String {
    let impartial = "impartial games: nim [..], cram RxC, domino-juvavum RxC, juvavum RxC, \
                     octal 0.07 n, kayles n, dawson n";
    let partizan = "partizan games: {L | R}, numbers, *n, ^, hackenbush \"...\", \
                    green-hackenbush \"...\", domineering RxC";
    match suggestion {
        Some("hackenbush" | "green-hackenbush" | "domineering") => partizan.to_string(),
        Some(_) => impartial.to_string(),
        None => format!("{impartial}\n{partizan}"),
    }
}
