//! `gamecert prove`: the command glue around the producers (which live in
//! the library, `gamecert::produce`): read the declarations and the
//! statement, search, have the kernel check what was found, and write the
//! certificate.

use gamecert::elaborate::Explicit;
use gamecert::kernel::budget::{Budget, Limits};
use gamecert::kernel::verdict::Verdict;
use gamecert::produce::breaker::{self, TREE_DEPTH};
use gamecert::produce::certificate::proof_text;
use gamecert::produce::{maker, priority};
use gamecert::syntax::ast::Item;

/// `gamecert prove`: the certificate for `statement` (a `winner` claim using
/// the board and animal declarations of `declarations`, a certificate's
/// text), with the kernel's verdict on it as the exit code; or a message and
/// an exit code (1: the maker loses on the board searched, 2: bad input, 3:
/// budget exhausted or board too large).
pub fn prove_text(
    declarations: &str,
    statement: &str,
    window: Option<(u16, u16)>,
    limits: &Limits,
) -> Result<(String, i32), (String, i32)> {
    let decls = gamecert::syntax::parse_file(declarations);
    let header: String = decls
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Board(b) => Some(&declarations[b.span.start..b.span.end]),
            Item::Animal(a) => Some(&declarations[a.span.start..a.span.end]),
            _ => None,
        })
        .map(|text| format!("{text}\n"))
        .collect();
    if statement.trim_start().starts_with("loser") {
        return prove_loser(&header, statement, limits.budget());
    }
    if let Some(rest) = statement.trim_start().strip_prefix("bound ") {
        return survey_bound(&header, rest, limits);
    }
    if let Some(rest) = statement.trim_start().strip_prefix("classify ") {
        return match rest.split_once(" up to ") {
            Some((board, size)) => match size.trim().parse::<usize>() {
                Ok(size) => survey_board(&header, board.trim(), size, limits),
                Err(_) => Err(("error: `up to N` takes a number of faces".into(), 2)),
            },
            None => prove_classification(&header, rest.trim(), limits.budget()),
        };
    }
    let mut budget = limits.budget();
    let probe = format!(
        "gamecert 1\n{header}claim proved: {statement} by proof-sequence {{\n  start goal\n}}\n"
    );
    let claim = match elaborate_probe(&probe, "claim")? {
        Some(Explicit::Maker(claim, _)) => claim,
        Some(_) => return Err(("error: `prove` proves `winner` claims".into(), 2)),
        None => return Err(("error: the claim cannot be read".into(), 2)),
    };
    let proof = match maker::prove(&claim, window, &mut budget) {
        Ok(maker::Search::Won(proof)) => proof,
        Ok(maker::Search::Lost) => {
            let on = if window.is_some() {
                "on the window"
            } else {
                "on the board"
            };
            return Err((format!("the breaker wins {on}: no maker win to write"), 1));
        }
        Ok(maker::Search::TooLarge) => {
            return Err((
                "the board is infinite (give --window ROWSxCOLS), has more than 128 cells, \
                 or is a mosaic whose disc for these cells is beyond the kernel's limits \
                 (give a smaller --window)"
                    .into(),
                3,
            ));
        }
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let verdict = gamecert::kernel::maker::check(&claim, &proof, Budget::unlimited());
    let (code, word) = match &verdict {
        Verdict::Verified { .. } => (0, "VERIFIED"),
        Verdict::Refuted { .. } => (1, "REFUTED"),
        Verdict::Rejected { .. } => (1, "REJECTED"),
        Verdict::Undecided { .. } => (3, "UNDECIDED"),
        Verdict::Malformed { .. } => (2, "ERROR"),
    };
    let detail = gamecert::report::wording::detail(&verdict);
    gamecert::report::output::error(&format!("{word}: {detail}\n"));
    let body = proof_text(&proof, claim.board.dimension());
    Ok((
        format!(
            "gamecert 1\n# Written by `gamecert prove {statement}`{}; {} situations.\n{header}claim proved: {statement} by proof-sequence {{\n{body}}}\n",
            window.map_or_else(String::new, |(r, c)| format!(" on a {r}x{c} window")),
            proof.situations.len()
        ),
        code,
    ))
}

/// Reads the kernel's board named `board` (declared in `header` or built
/// in) through the elaborator, as the board of a probe claim.
fn board_of(header: &str, board: &str) -> Result<gamecert::kernel::animals::Board, (String, i32)> {
    // The probe's one cell is written in each dimension in turn (a face of
    // a solid, a lattice cell, a tiling face); the first that reads wins.
    let mut failure = ("error: the board cannot be read".to_string(), 2);
    for cell in ["(0)", "(0,0)", "(0,0,0)"] {
        let probe = format!(
            "gamecert 1\n{header}animal PROBE on {board} = {cell}\nclaim proved: winner PROBE on {board} (1,1) by proof-sequence {{\n  start goal\n}}\n"
        );
        match elaborate_probe(&probe, "board") {
            Ok(Some(Explicit::Maker(claim, _))) => return Ok(claim.board),
            Ok(_) => {}
            Err(e) if cell == "(0)" => failure = e,
            Err(_) => {}
        }
    }
    Err(failure)
}

/// The claim `proved` of a probe certificate the command writes around the
/// user's words, as the elaborator makes it explicit (`None`: the probe has
/// no such claim); `what` names the user's part in the message for a
/// syntax error.
fn elaborate_probe(probe: &str, what: &str) -> Result<Option<Explicit>, (String, i32)> {
    let file = gamecert::syntax::parse_file(probe);
    if let Some(e) = file.errors.first() {
        let problem = gamecert::report::diagnostics::syntax_problem(e);
        return Err((
            format!("error: the {what} cannot be read: {}", problem.message),
            2,
        ));
    }
    match gamecert::elaborate::claims(&file)
        .into_iter()
        .find(|c| c.id == "proved")
        .map(|c| c.explicit)
    {
        Some(Ok(explicit)) => Ok(Some(explicit)),
        Some(Err(e)) => {
            let problem = gamecert::report::diagnostics::elab_problem(&e);
            Err((format!("error: {}", problem.message), 2))
        }
        None => Ok(None),
    }
}

/// How a written classification names a board's claims (`co-w1`) and
/// animals (`CO_W1`).
struct Naming {
    id: String,
    name: String,
}

impl Naming {
    fn of(board: &str) -> Naming {
        Naming {
            id: board.to_lowercase().replace(' ', "-"),
            name: board.to_uppercase().replace([' ', '-'], "_"),
        }
    }
}

/// The (1,1) loser claim `claim` on the animal `animal` of a finite
/// board, proved by a pairing or strategy tree.
fn loser_claim(claim: &str, animal: &str, board: &str, tree: &breaker::Tree) -> String {
    format!(
        "claim {claim}: loser {animal} on {board} (1,1) by pairing {{\n{}}}\n",
        breaker::tree_text(tree, 1, 1)
    )
}

/// A face set as the cells of an animal declaration: `(0) (3) (7)`.
fn face_list(set: u128) -> String {
    gamecert::produce::classify::faces(set)
        .iter()
        .map(|c| format!("({})", c[0]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `gamecert prove classify BOARD`: every polyomino of a finite board
/// decided by the exhaustive solver; the certificate cites the maximal
/// winners (proof sequences searched at check time) and the elementary
/// losers (pairings or strategy trees, written here), and is checked by
/// the kernel before it is written. An elementary loser without a
/// strategy found is listed as open and the classification claim left out.
fn prove_classification(
    header: &str,
    board: &str,
    mut budget: Budget,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::produce::classify::{classify, unbiased};
    let kernel_board = board_of(header, board)?;
    let found = match classify(&kernel_board, &mut budget) {
        Ok(Some(found)) => found,
        Ok(None) => {
            return Err((
                format!("`{board}` is not a finite solid or graph board of at most 64 faces"),
                2,
            ));
        }
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let (winners, losers) = found.counts();
    let Naming { id, name } = Naming::of(board);
    let mut body = String::new();
    let mut cited = Vec::new();
    // The elementary losers written with a strategy: their faces and ids.
    let mut certified: Vec<(u128, String)> = Vec::new();
    for (i, &w) in found.maximal_winners.iter().enumerate() {
        let (animal, claim) = (format!("{name}_W{}", i + 1), format!("{id}-w{}", i + 1));
        body.push_str(&format!(
            "animal {animal} on {board} = {}\nclaim {claim}: winner {animal} on {board} (1,1) by proof-sequence {{\n  search board\n}}\n",
            face_list(w)
        ));
        cited.push(claim);
    }
    let mut open = Vec::new();
    for (i, &l) in found.elementary_losers.iter().enumerate() {
        let (animal, claim) = (format!("{name}_L{}", i + 1), format!("{id}-l{}", i + 1));
        let goal = gamecert::kernel::game::GameClaim::of(
            gamecert::kernel::game::Side::Loser,
            unbiased(&kernel_board, l),
        );
        body.push_str(&format!("animal {animal} on {board} = {}\n", face_list(l)));
        match breaker::prove(&goal, TREE_DEPTH, &mut budget) {
            Ok(Some(tree)) => {
                body.push_str(&loser_claim(&claim, &animal, board, &tree));
                cited.push(claim.clone());
                certified.push((l, claim));
            }
            Ok(None) => open.push(animal),
            Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
        }
    }
    let closing = if open.is_empty() {
        format!(
            "claim {id}-classify: classify {board} = ({winners} winners, {losers} losers) by enumeration from {}\n",
            cited.join(", ")
        )
    } else {
        // Without a certificate for every elementary loser, what the
        // certified losers show is a bound: the polyominoes containing none
        // of them.
        let left = found
            .decided
            .iter()
            .filter(|(set, _)| !certified.iter().any(|(l, _)| found.inside(*l, *set)))
            .count();
        format!(
            "# Open: no pairing or strategy tree of depth {TREE_DEPTH} was found for {}, so the\n# classification ({winners} winners, {losers} losers by the solver) is not claimed;\n# the certified losers leave {left} possible winners.\nclaim {id}-bound: bound {board} winners <= {left} by enumeration from {}\n",
            open.join(", "),
            certified
                .iter()
                .map(|(_, id)| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove classify {board}`: the exhaustive solver decided\n# each of the {} polyominoes ({winners} winners, {losers} losers); cited are the\n# {} maximal winners and the {} elementary losers.\n{header}{body}{closing}",
        found.decided.len(),
        found.maximal_winners.len(),
        found.elementary_losers.len()
    );
    let code = check_written(&text);
    Ok((text, code))
}

/// `gamecert prove classify BOARD up to N`: the polyominoes of up to N
/// faces of a board of any size, each settled if the producers can (each
/// search under the run's limits); the certificate proves every winner
/// found (its proof sequence written out: a board of more than 128 faces
/// cannot be searched at check time) and every elementary loser found,
/// and lists the open cases.
fn survey_board(
    header: &str,
    board: &str,
    max_size: usize,
    limits: &Limits,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::produce::classify::{Found, survey};
    let kernel_board = board_of(header, board)?;
    let dimension = kernel_board.dimension();
    let searchable = kernel_board
        .face_graph()
        .is_some_and(|g| g.faces() <= gamecert::produce::maker::MAX_CELLS);
    let found = match survey(&kernel_board, max_size, TREE_DEPTH, &|| limits.budget()) {
        Ok(Some(found)) => found,
        Ok(None) => return Err((format!("`{board}` is not a solid or graph board"), 2)),
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let Naming { id, name } = Naming::of(board);
    let mut table = String::new();
    let mut body = String::new();
    let (mut winners, mut losers, mut open) = (0, 0, 0);
    // Per size, the polyominoes that contain no elementary loser found.
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for size in 1..=max_size {
        let of_size: Vec<&(u128, Found)> = found
            .iter()
            .filter(|(set, _)| set.count_ones() as usize == size)
            .collect();
        let count = |f: fn(&Found) -> bool| of_size.iter().filter(|(_, x)| f(x)).count();
        let w = count(|f| matches!(f, Found::Winner(_)));
        let l = count(|f| matches!(f, Found::Loser(_)));
        let o = count(|f| matches!(f, Found::Open));
        candidates.push((size, w + o));
        table.push_str(&format!(
            "#   size {size}: {} polyominoes hold no smaller loser: {w} winners, {l} elementary losers, {o} open\n",
            of_size.len()
        ));
        if of_size.is_empty() {
            // Every polyomino of this size holds a loser, so does every
            // larger one.
            break;
        }
        for (set, f) in of_size {
            match f {
                Found::Winner(proof) => {
                    winners += 1;
                    let (animal, claim) =
                        (format!("{name}_W{winners}"), format!("{id}-w{winners}"));
                    // A board the solver plays on whole is searched again at
                    // check time; a larger one needs its sequence written.
                    let sequence = if searchable {
                        "  search board\n".to_string()
                    } else {
                        proof_text(proof, dimension)
                    };
                    body.push_str(&format!(
                        "animal {animal} on {board} = {}\nclaim {claim}: winner {animal} on {board} (1,1) by proof-sequence {{\n{sequence}}}\n",
                        face_list(*set),
                    ));
                }
                Found::Loser(tree) => {
                    losers += 1;
                    let (animal, claim) = (format!("{name}_L{losers}"), format!("{id}-l{losers}"));
                    body.push_str(&format!(
                        "animal {animal} on {board} = {}\n",
                        face_list(*set)
                    ));
                    body.push_str(&loser_claim(&claim, &animal, board, tree));
                }
                Found::Open => {
                    open += 1;
                    body.push_str(&format!(
                        "# Open: neither a pairing nor a maker win was found.\nanimal {name}_OPEN{open} on {board} = {}\n",
                        face_list(*set)
                    ));
                }
            }
        }
    }
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove classify {board} up to {max_size}`: every polyomino\n# of up to {max_size} faces, a pairing or strategy tree searched first, then a\n# maker win on a ball of the board around it:\n{table}{header}{body}{}",
        bounds(&id, board, losers, &candidates)
    );
    let code = check_written(&text);
    Ok((text, code))
}

/// The bound claims a survey supports, citing its `losers` elementary
/// losers: one per size, and the total when no polyomino of the largest
/// size surveyed is left (then no larger one is a winner either).
fn bounds(id: &str, board: &str, losers: usize, candidates: &[(usize, usize)]) -> String {
    if losers == 0 {
        return String::new();
    }
    let cites = (1..=losers)
        .map(|i| format!("{id}-l{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    // The total first: the kernel's count for it serves the sizes after.
    let mut out = String::new();
    if candidates.last().is_some_and(|&(_, left)| left == 0) {
        let total: usize = candidates.iter().map(|c| c.1).sum();
        out.push_str(&format!(
            "claim {id}-bound: bound {board} winners <= {total} by enumeration from {cites}\n"
        ));
    }
    for (size, left) in candidates {
        out.push_str(&format!(
            "claim {id}-bound-{size}: bound {board} size {size} winners <= {left} by enumeration from {cites}\n"
        ));
    }
    out
}

/// A survey's table as comment lines, one per size from 1 (polyominoes
/// holding no smaller loser, how many a pairing spoils, how many are
/// left), and the (size, left) pairs the bound claims state.
fn survey_table(sizes: &[(usize, usize)]) -> (String, Vec<(usize, usize)>) {
    let mut table = String::new();
    let mut candidates = Vec::new();
    for (i, &(polyominoes, left)) in sizes.iter().enumerate() {
        table.push_str(&format!(
            "#   size {}: {polyominoes} polyominoes hold no smaller loser, {} spoiled by a pairing, {left} left\n",
            i + 1,
            polyominoes - left
        ));
        candidates.push((i + 1, left));
    }
    (table, candidates)
}

/// `gamecert prove bound BOARD up to N [with (S,L) ...]`: Bode's upper
/// bound on the winners of a solid from symmetric pairings of the
/// properties given (default: any nontrivial symmetry, any length). The
/// certificate proves every loser found by its pairing, names the
/// polyominoes no pairing spoils as open cases and claims the bound per
/// size, and in total once a size is reached where none is left.
fn survey_bound(header: &str, rest: &str, limits: &Limits) -> Result<(String, i32), (String, i32)> {
    use gamecert::produce::bound::{Strategy, survey};
    use gamecert::produce::symmetric::Property;
    let usage = || {
        (
            "error: write `bound BOARD up to N [with (S,L) ...]`".to_string(),
            2,
        )
    };
    let (board, rest) = rest.split_once(" up to ").ok_or_else(usage)?;
    let (size, with) = rest.split_once(" with ").unwrap_or((rest, ""));
    let max_size: usize = size.trim().parse().map_err(|_| usage())?;
    let board = board.trim();
    let kernel_board = board_of(header, board)?;
    if matches!(
        kernel_board,
        gamecert::kernel::animals::Board::Lattice(_) | gamecert::kernel::animals::Board::Tiling(_)
    ) {
        return survey_plane_bound(header, board, &kernel_board, max_size, with, limits);
    }
    let trees = with.split_whitespace().any(|w| w == "tree");
    let mut properties: Vec<Property> = with
        .split_whitespace()
        .filter(|w| *w != "tree")
        .map(|p| Property::parse(p).ok_or_else(usage))
        .collect::<Result<_, _>>()?;
    if properties.is_empty() {
        properties.push(Property {
            symmetries: 2,
            length: None,
        });
    }
    let found = match survey(&kernel_board, max_size, &properties, trees, &|| {
        limits.budget()
    }) {
        Ok(Some(found)) => found,
        Ok(None) => return Err((format!("`{board}` is not a solid or graph board"), 2)),
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let Naming { id, name } = Naming::of(board);
    let mut listed: Vec<String> = properties.iter().map(|p| p.to_string()).collect();
    if trees {
        listed.push("tree".into());
    }
    let listed = listed.join(" ");
    let (table, candidates) = survey_table(&found.sizes);
    let mut body = String::new();
    for (i, (set, strategy)) in found.losers.iter().enumerate() {
        let (animal, claim) = (format!("{name}_L{}", i + 1), format!("{id}-l{}", i + 1));
        let (how, tree) = match strategy {
            Strategy::Pairing(property, pairs) => {
                let pairs = pairs
                    .iter()
                    .map(|&(u, w)| ([u as i32, 0, 0], [w as i32, 0, 0]))
                    .collect();
                (
                    format!("A pairing of property {property}."),
                    breaker::Tree::Paving((pairs, Vec::new())),
                )
            }
            Strategy::Tree(tree) => (
                "No symmetric pairing: a strategy tree.".into(),
                tree.clone(),
            ),
        };
        body.push_str(&format!(
            "animal {animal} on {board} = {}\n# {how}\n",
            face_list(*set)
        ));
        body.push_str(&loser_claim(&claim, &animal, board, &tree));
    }
    for (i, &set) in found.open.iter().enumerate() {
        body.push_str(&format!(
            "# Open: no pairing found.\nanimal {name}_OPEN{} on {board} = {}\n",
            i + 1,
            face_list(set)
        ));
    }
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove bound {board} up to {max_size} with {listed}`: every\n# polyomino of up to {max_size} faces that holds no smaller loser, and a pairing\n# searched for it of the properties (symmetries, pair length) in turn:\n{table}{header}{body}{}",
        bounds(&id, board, found.losers.len(), &candidates)
    );
    let code = check_written(&text);
    Ok((text, code))
}

/// `gamecert prove bound BOARD up to N [with (P,L) ...]` on a plane
/// lattice or tiling: Bode's survey with periodic pairings of the
/// properties given (periods of at most P classes, pairs at most L steps
/// apart; default (8,inf)), written as for a solid.
fn survey_plane_bound(
    header: &str,
    board: &str,
    kernel_board: &gamecert::kernel::animals::Board,
    max_size: usize,
    with: &str,
    limits: &Limits,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::produce::bound::survey_plane;
    use gamecert::produce::breaker::PlaneProperty;
    let usage = || {
        (
            "error: write `bound BOARD up to N [with (P,L) ...]`, P classes of the period and L the longest pair"
                .to_string(),
            2,
        )
    };
    let mut properties: Vec<PlaneProperty> = with
        .split_whitespace()
        .map(|p| PlaneProperty::parse(p).ok_or_else(usage))
        .collect::<Result<_, _>>()?;
    if properties.is_empty() {
        properties.push(PlaneProperty {
            classes: 8,
            length: None,
        });
    }
    let found = match survey_plane(kernel_board, max_size, &properties, &|| limits.budget()) {
        Ok(Some(found)) => found,
        Ok(None) => return Err((format!("`{board}` is not a plane board"), 2)),
        Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
    };
    let dimension = kernel_board.dimension();
    let cells = |set: &[gamecert::kernel::animals::lattice::Cell]| {
        set.iter()
            .map(|c| gamecert::syntax::printer::cell(c, dimension))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let Naming { id, name } = Naming::of(board);
    let listed = properties
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let (table, candidates) = survey_table(&found.sizes);
    let mut body = String::new();
    for (i, (set, paving, property)) in found.losers.iter().enumerate() {
        let (animal, claim) = (format!("{name}_L{}", i + 1), format!("{id}-l{}", i + 1));
        body.push_str(&format!(
            "animal {animal} on {board} = {}\n# A periodic pairing of property {property}.\n",
            cells(set)
        ));
        body.push_str(&format!(
            "claim {claim}: loser {animal} on {board} (1,1) by pairing {{\n{}}}\n",
            breaker::tree_text(&breaker::Tree::Paving(paving.clone()), dimension, 1)
        ));
    }
    for (i, set) in found.open.iter().enumerate() {
        body.push_str(&format!(
            "# Open: no pairing found.\nanimal {name}_OPEN{} on {board} = {}\n",
            i + 1,
            cells(set)
        ));
    }
    // The total is claimed once a size has every polyomino spoiled.
    let claims = bounds(&id, board, found.losers.len(), &candidates);
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove bound {board} up to {max_size} with {listed}`: every\n# polyomino of up to {max_size} cells that holds no smaller loser, and a periodic\n# pairing searched for it of the properties (classes of the period, longest\n# pair) in turn:\n{table}{header}{body}{claims}"
    );
    let code = check_written(&text);
    Ok((text, code))
}

/// Mutations tried from each random start of the history-dependent search.
const HISTORY_ROUNDS: usize = 3000;

/// The longest priority list the priority producer tries.
const PRIORITY_LIST_LENGTH: usize = 3;

/// `gamecert prove loser ...`: a paving (periodic on a lattice), or on a
/// finite board a pairing or a strategy tree ending in pairings, checked by
/// the kernel before it is written.
fn prove_loser(
    header: &str,
    statement: &str,
    mut budget: Budget,
) -> Result<(String, i32), (String, i32)> {
    // `... with (40,1) (16,2)`: on a plane board, periodic pairings of
    // these properties in turn (Bode's property: classes, pair length).
    // Names may be `with` too: only a last `with` after the game's `(a,b)`
    // and before a list (or before nothing, an error) starts the properties.
    let command = statement;
    let trimmed = statement.trim_end();
    let (statement, properties) = match trimmed.rsplit_once(" with ") {
        Some((claim, list))
            if claim.trim_end().ends_with(')') && list.trim_start().starts_with('(') =>
        {
            (claim.trim(), plane_properties(list)?)
        }
        _ if trimmed.ends_with(" with") => {
            return Err((
                "error: `with` takes properties `(classes,length)`".into(),
                2,
            ));
        }
        _ => (statement, Vec::new()),
    };
    let probe = format!("gamecert 1\n{header}claim proved: {statement} by paving {{\n}}\n");
    let claim = match elaborate_probe(&probe, "claim")? {
        Some(Explicit::Breaker(claim, _)) => claim,
        _ => return Err(("error: the claim cannot be read".into(), 2)),
    };
    if claim.finish.is_some() {
        return Err(("error: breaker strategies answer (a,b) games".into(), 2));
    }
    if claim.a != 1 && !properties.is_empty() {
        return Err((
            "error: `with` properties are for pavings of (1,b) games".into(),
            2,
        ));
    }
    let dimension = claim.board.dimension();
    let (method, body) = if claim.a == 1 {
        let found = if properties.is_empty() {
            breaker::prove(&claim, TREE_DEPTH, &mut budget)
        } else if is_plane(&claim.board) {
            plane_paving(&claim, &properties, &mut budget)
        } else {
            return Err((
                "error: `with` properties are for pavings of plane boards".into(),
                2,
            ));
        };
        let tree = match found {
            Ok(Some(tree)) => tree,
            Ok(None) if !properties.is_empty() => {
                return Err(("no paving of these properties found".into(), 1));
            }
            Ok(None) => {
                return Err((
                    format!(
                        "no paving found (periods of up to {} classes; on a finite board, trees of depth {TREE_DEPTH})",
                        gamecert::produce::periodic::MAX_CLASSES
                    ),
                    1,
                ));
            }
            Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
        };
        // Finite boards list their pairs: a pairing; lattices repeat them: a paving.
        let method = if matches!(claim.board, gamecert::kernel::animals::Board::Lattice(_)) {
            "paving"
        } else {
            "pairing"
        };
        (method, breaker::tree_text(&tree, dimension, 1))
    } else {
        let found =
            priority::prove(&claim, PRIORITY_LIST_LENGTH, &mut budget).and_then(
                |plain| match plain {
                    Some(s) => Ok(Some(s)),
                    None => priority::prove_history(&claim, HISTORY_ROUNDS, &mut budget),
                },
            );
        match found {
            Ok(Some(strategy)) => ("priority", priority::text(&strategy, dimension, 1)),
            Ok(None) => {
                return Err((
                    "no priority strategy found (one rule per class, lists of up to 2 cells within 2 steps)"
                        .into(),
                    1,
                ));
            }
            Err(e) => return Err((format!("budget exhausted: {e:?}"), 3)),
        }
    };
    let text = format!(
        "gamecert 1\n# Written by `gamecert prove {command}`.\n{header}claim proved: {statement} by {method} {{\n{body}}}\n"
    );
    let code = check_written(&text);
    Ok((text, code))
}

/// Reads a list of Bode's properties, `(40,1) (16,2)`, each of at most
/// [`periodic::MAX_CLASSES`](gamecert::produce::periodic::MAX_CLASSES) classes.
fn plane_properties(list: &str) -> Result<Vec<breaker::PlaneProperty>, (String, i32)> {
    let max = gamecert::produce::periodic::MAX_CLASSES as usize;
    list.split_inclusive(')')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match breaker::PlaneProperty::parse(p) {
            Some(property) if (1..=max).contains(&property.classes) => Ok(property),
            _ => Err((
                format!(
                    "error: `{p}` is not a property `(classes,length)` with 1 to {max} classes"
                ),
                2,
            )),
        })
        .collect()
}

/// Whether `board` is a plane board: the periodic pavings' (a lattice
/// other than the cubic one, or a tiling).
fn is_plane(board: &gamecert::kernel::animals::Board) -> bool {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::lattice::Lattice;
    match board {
        Board::Lattice(lattice) => *lattice != Lattice::Cubic,
        Board::Tiling(_) => true,
        _ => false,
    }
}

/// The first periodic (1,b) paving of `claim`'s plane board with one of
/// `properties`, tried in turn under one budget.
fn plane_paving(
    claim: &gamecert::kernel::game::GameClaim,
    properties: &[breaker::PlaneProperty],
    budget: &mut Budget,
) -> Result<Option<breaker::Tree>, gamecert::kernel::budget::Exhausted> {
    for &property in properties {
        if let Some(found) =
            breaker::paving_with(&claim.board, &claim.goal, claim.b, property, budget)?
        {
            return Ok(Some(breaker::Tree::Paving(found)));
        }
    }
    Ok(None)
}

/// Checks a written certificate as `check` will, says the verdicts on
/// standard error, and returns the exit code `check` would give.
fn check_written(text: &str) -> i32 {
    let outcome = gamecert::driver::check_source(
        "proved.cert",
        text,
        &gamecert::driver::CheckOptions {
            jobs: 1,
            limits: gamecert::driver::Limits {
                max_nodes: None,
                time: None,
                max_entries: 1 << 20,
            },
            timings: false,
            only: None,
        },
    );
    for claim in outcome.report.files.iter().flat_map(|f| &f.claims) {
        gamecert::report::output::error(&format!(
            "{} {}: {}\n",
            claim.verdict.word(),
            claim.id,
            claim.detail
        ));
    }
    gamecert::driver::exit_code(&outcome.report.summary)
}

/// `gamecert prove grundy GAME` / `prove outcome GAME`: the value or outcome
/// of a sum of grid games and nim heaps by the answer producer; `out` is
/// the certificate to write, and the answer file goes beside it (same name,
/// extension `gcwa`). The kernel's ledger admits every record as the writer
/// plans it (rule I7's checks; on a thread of its own when there are
/// helpers), so the file is checked as it is made; it is not checked again
/// as a whole.
pub fn prove_answers(
    statement: &str,
    out: &std::path::Path,
    limits: &Limits,
    helpers: usize,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::kernel::impartial::Play;
    use gamecert::kernel::impartial::answers::as_sum;
    use gamecert::kernel::impartial::check::Statement;
    use gamecert::kernel::impartial::grid::GridRules;
    use gamecert::produce::answers;
    let (kind, game_text) = statement
        .trim()
        .split_once(' ')
        .ok_or_else(|| ("error: `prove grundy GAME` names a game".to_string(), 2))?;
    if game_text.trim_start().starts_with("domineering") {
        return prove_domineering(kind, game_text, out, limits);
    }
    if kind != "grundy" && kind != "outcome" {
        return Err((
            "error: `prove grundy GAME` or `prove outcome GAME`".into(),
            2,
        ));
    }
    let probe = format!("gamecert 1\nclaim proved: grundy {game_text} = 0 by search\n");
    let (game, play) = match elaborate_probe(&probe, "game")? {
        Some(Explicit::Impartial(Statement::Grundy { game, play, .. }, _)) => (game, play),
        _ => return Err(("error: the game cannot be read".into(), 2)),
    };
    let rules = [
        GridRules::Cram,
        GridRules::DominoJuvavum,
        GridRules::Juvavum,
    ]
    .into_iter()
    .find_map(|rules| as_sum(&game, rules).map(|sum| (rules, sum)));
    let Some((rules, (grids, heap))) = rules else {
        return Err((
            "error: answer files cover sums of grids of one ruleset and nim heaps".into(),
            2,
        ));
    };
    if play == Play::Misere {
        return prove_misere(kind, game_text, &game, rules, out, limits);
    }
    let started = std::time::Instant::now();
    let produced = if kind == "grundy" {
        answers::grundy(rules, &grids, heap, limits.budget(), helpers)
    } else {
        answers::outcome(rules, &grids, heap, limits.budget(), helpers)
    };
    let produced = produced.map_err(produce_error)?;
    let claim = claim_text(game_text, produced.value, produced.outcome);
    let found = format!("{} component values found", produced.decided);
    let made = made_line(
        kind,
        game_text,
        started,
        produced.searched,
        &found,
        produced.written,
    );
    answers_certificate(game_text, &claim, &made, &produced.bytes, out)
}

/// `gamecert prove grundy misere GAME` / `prove outcome misere GAME`: the
/// misère answer producer (rule I8) on a sum of grids (no heaps).
fn prove_misere(
    kind: &str,
    game_text: &str,
    game: &gamecert::kernel::impartial::Game,
    rules: gamecert::kernel::impartial::grid::GridRules,
    out: &std::path::Path,
    limits: &Limits,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::produce::misere;
    let Some(grids) = gamecert::kernel::impartial::misere::grids_of(game, rules) else {
        return Err((
            "error: misère answer files cover sums of grids without nim heaps".into(),
            2,
        ));
    };
    let started = std::time::Instant::now();
    let produced = if kind == "grundy" {
        misere::grundy(rules, &grids, limits.budget())
    } else {
        misere::outcome(rules, &grids, limits.budget())
    };
    let produced = produced.map_err(produce_error)?;
    let claim = claim_text(game_text, produced.value, produced.outcome);
    let found = format!("{} positions searched", produced.decided);
    let made = made_line(
        kind,
        game_text,
        started,
        produced.searched,
        &found,
        produced.written,
    );
    answers_certificate(game_text, &claim, &made, &produced.bytes, out)
}

/// The claim an answer producer proved: the value when it was asked for,
/// otherwise the outcome.
fn claim_text(
    game_text: &str,
    value: Option<u32>,
    outcome: gamecert::kernel::impartial::Outcome,
) -> String {
    match value {
        Some(value) => format!("grundy {game_text} = {value}"),
        None => format!("outcome {game_text} = {outcome:?}"),
    }
}

/// How an answer file was made, for the certificate's comment line.
fn made_line(
    kind: &str,
    game_text: &str,
    started: std::time::Instant,
    searched: std::time::Duration,
    found: &str,
    written: usize,
) -> String {
    format!(
        "`gamecert prove {kind} {game_text}` in {:.2} s (search {:.2} s): {found}, {written} records written",
        started.elapsed().as_secs_f64(),
        searched.as_secs_f64(),
    )
}

/// The message and exit code of an answer producer that stopped: 3 when
/// its budget ran out, 4 when the kernel refused one of its records (a bug).
fn produce_error(e: gamecert::produce::answers::ProduceError) -> (String, i32) {
    use gamecert::produce::answers::ProduceError;
    match e {
        ProduceError::Exhausted(e) => (format!("undecided: {e:?}"), 3),
        ProduceError::TooManyOptions => (
            format!(
                "undecided: a component has {} or more options; the producer holds values below 256",
                gamecert::produce::pruned::MAX_OPTIONS + 1
            ),
            3,
        ),
        ProduceError::Refused(f) => (
            format!("internal error: the kernel refused a record: {f:?}"),
            4,
        ),
    }
}

/// Writes the answer file beside `out` (extension `gcwa`) and returns the
/// certificate text naming it with its pin.
fn answers_certificate(
    game_text: &str,
    claim: &str,
    made: &str,
    bytes: &[u8],
    out: &std::path::Path,
) -> Result<(String, i32), (String, i32)> {
    let binary = out.with_extension("gcwa");
    std::fs::write(&binary, bytes).map_err(|e| (format!("error: {}: {e}", binary.display()), 2))?;
    let name = binary
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let sha = gamecert::elaborate::load::sha256_hex(bytes);
    let id: String = game_text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let certificate = format!(
        "gamecert 1\n# Made by {made} ({} bytes).\nclaim {id}: {claim} by answers \"{name}\" sha256 \"{sha}\"\n",
        bytes.len()
    );
    Ok((certificate, 0))
}

/// `gamecert prove outcome domineering ...`: the Domineering producer.
fn prove_domineering(
    kind: &str,
    game_text: &str,
    out: &std::path::Path,
    limits: &Limits,
) -> Result<(String, i32), (String, i32)> {
    use gamecert::kernel::partizan::check::Statement;
    use gamecert::kernel::partizan::game::Term;
    use gamecert::produce::domineering;
    if kind != "outcome" {
        return Err(("error: Domineering answer files prove outcomes".into(), 2));
    }
    let probe = format!("gamecert 1\nclaim proved: outcome {game_text} = N by definition\n");
    let grids = match elaborate_probe(&probe, "game")? {
        Some(Explicit::Partizan(
            Statement::Outcome {
                game: Term::Domineering(grid),
                ..
            },
            _,
        )) => {
            vec![grid]
        }
        _ => {
            return Err((
                "error: one Domineering board, e.g. `domineering 6x6`".into(),
                2,
            ));
        }
    };
    let started = std::time::Instant::now();
    let produced = domineering::outcome(&grids, limits.budget()).map_err(produce_error)?;
    let claim = format!("outcome {game_text} = {:?}", produced.outcome);
    let made = format!(
        "`gamecert prove outcome {game_text}` in {:.2} s: {} records decided, {} written",
        started.elapsed().as_secs_f64(),
        produced.decided,
        produced.written
    );
    answers_certificate(game_text, &claim, &made, &produced.bytes, out)
}
