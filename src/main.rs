//! The `gamecert` command line: argument parsing, calls into the library, and
//! the exit policy. Nothing else lives here.

mod args;
mod bench;
mod check;
mod fmt;
mod prove;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, Format};
use gamecert::driver::{CheckOptions, check_paths};
use gamecert::elaborate::canonical::Canonical;
use gamecert::elaborate::games;
use gamecert::elaborate::load::{MAX_FILE_BYTES, read_text};
use gamecert::kernel::budget::Budget;
use gamecert::kernel::impartial::{Outcome, Play, evaluate};
use gamecert::report::diagnostics::{
    LineIndex, elab_problem, read_error, render, syntax_problem, usage_error,
};
use gamecert::report::output::{Out, error};
use gamecert::syntax::parse_game;

fn main() -> ExitCode {
    // A panic is a bug: the check catches it at the claim's boundary and
    // reports the claim as an internal error; here it is said in one line
    // with where it happened, instead of the default message and trace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("gamecert: internal error (a bug, please report it): {info}");
    }));
    let cli = Cli::parse();
    // Exit policy (SPEC 5): 0 all verified, 1 refuted, 2 malformed input or
    // usage, 3 undecided. clap already exits with 2 on a usage error.
    // Every command writes its output through `out`, which stops quietly
    // when the reader closes the pipe.
    let mut out = Out::new();
    let code = match cli.command {
        Command::Check(c) => run_check(c, &mut out),
        Command::Eval(e) => run_eval(e, &mut out),
        Command::Bench(b) => run_bench(b, &mut out),
        Command::Render(r) => run_render(r, &mut out),
        Command::Import(i) => run_import(i, &mut out),
        Command::Prove(p) => run_prove(p, &mut out),
        Command::Elaborate(e) => run_elaborate(e, &mut out),
        Command::Fmt(f) => fmt::run(&f.paths, f.check, &mut out),
        Command::Diff(d) => run_diff(d, &mut out),
    };
    ExitCode::from(out.finish(code) as u8)
}

/// The search limits, or `None` after reporting a malformed `--budget`.
fn usable_limits(budget: &args::BudgetArgs) -> Option<gamecert::driver::Limits> {
    budget
        .limits()
        .map_err(|msg| error(&format!("error: {msg}\n")))
        .ok()
}

fn run_check(c: args::CheckArgs, out: &mut Out) -> i32 {
    let Some(limits) = usable_limits(&c.budget) else {
        return 2;
    };
    let jobs = jobs_or_cores(c.jobs);
    check::run(c, limits, jobs, out)
}

fn run_eval(e: args::EvalArgs, out: &mut Out) -> i32 {
    let Some(limits) = usable_limits(&e.budget) else {
        return 2;
    };
    let text = e.game.join(" ");
    let expr = match parse_game(&text) {
        Ok(g) => g,
        Err(err) => {
            error(&render(
                &syntax_problem(&err),
                "<game>",
                &LineIndex::new(&text),
            ));
            return 2;
        }
    };
    if gamecert::elaborate::partizan::uses_partizan_notation(&expr.node) {
        let term = match gamecert::elaborate::partizan::term(&expr) {
            Ok(t) => t,
            Err(err) => {
                error(&render(
                    &elab_problem(&err),
                    "<game>",
                    &LineIndex::new(&text),
                ));
                return 2;
            }
        };
        let (lines, code) = eval_partizan(&term, limits.budget());
        for line in lines {
            out.line(&line);
        }
        return code;
    }
    let game = match games::game(&expr) {
        Ok(g) => g,
        Err(err) => {
            error(&render(
                &elab_problem(&err),
                "<game>",
                &LineIndex::new(&text),
            ));
            return 2;
        }
    };
    let mut undecided = false;
    for (play, name) in [(Play::Normal, ""), (Play::Misere, " misere")] {
        if play == Play::Misere && e.normal_only {
            continue;
        }
        match evaluate(&game, play, limits.budget(), jobs_or_cores(e.jobs) - 1) {
            Ok((analysis, _)) => {
                let outcome = match Outcome::of_value(analysis.value) {
                    Outcome::P => "P",
                    Outcome::N => "N",
                };
                out.line(&format!("grundy{name}: {}", analysis.value));
                out.line(&format!("outcome{name}: {outcome}"));
            }
            Err(_) => {
                out.line(&format!("grundy{name}: undecided (budget exhausted)"));
                undecided = true;
            }
        }
    }
    if undecided { 3 } else { 0 }
}

/// The lines to print for a partizan game (its canonical form and outcome)
/// and the exit code. Runs on a thread with a large stack: canonical forms
/// recurse once per move.
fn eval_partizan(
    term: &gamecert::kernel::partizan::game::Term,
    budget: Budget,
) -> (Vec<String>, i32) {
    let term = term.clone();
    let work = move || {
        let undecided = || (vec!["value: undecided (budget exhausted)".to_string()], 3);
        let mut canon = Canonical::new(budget);
        let Ok(g) = canon.of_term(&term) else {
            return undecided();
        };
        let zero = canon.cmp.games.zero();
        let (Ok(ge), Ok(le)) = (canon.cmp.ge(g, zero), canon.cmp.ge(zero, g)) else {
            return undecided();
        };
        let outcome = match (ge, le) {
            (true, true) => "P",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "N",
        };
        let value = format!("value: {}", canon.print(g));
        (vec![value, format!("outcome: {outcome}")], 0)
    };
    std::thread::Builder::new()
        .stack_size(gamecert::parallel::STACK_BYTES)
        .spawn(work)
        .ok()
        .and_then(|h| h.join().ok())
        .unwrap_or((Vec::new(), 2))
}

/// The requested thread count, or the number of cores (at least one).
fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(gamecert::parallel::cores).max(1)
}

/// Writes an SVG file per declared animal and finite board (`board-NAME.svg`);
/// declaration errors are printed
/// and make the exit code 2.
fn run_render(r: args::RenderArgs, out: &mut Out) -> i32 {
    use gamecert::kernel::breaker::Strategy;
    let files = match gamecert::elaborate::load::load(std::slice::from_ref(&r.file)) {
        Ok(f) => f,
        Err(e) => {
            error(&usage_error(&e));
            return 2;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&r.out) {
        error(&format!("error: {}: {e}\n", r.out.display()));
        return 2;
    }
    let mut code = 0;
    for file in &files {
        let index = LineIndex::new(&file.source);
        for problem in &file.file_errors {
            error(&render(&elab_problem(problem), &file.display, &index));
            code = 2;
        }
        let boards = file.boards.iter().filter_map(|(name, board)| {
            gamecert::render::board_svg(name, board).map(|svg| (format!("board-{name}"), svg))
        });
        let animals = file
            .animals
            .iter()
            .map(|animal| (animal.name.clone(), gamecert::render::animal_svg(animal)));
        let digraphs = file
            .claims
            .iter()
            .filter_map(|claim| match &claim.explicit {
                Ok(gamecert::elaborate::Explicit::Priority(game, strategy)) => {
                    gamecert::render::digraph::dependency_dot(&claim.id, game, strategy)
                        .map(|dot| (format!("digraph-{}.dot", claim.id), dot))
                }
                _ => None,
            });
        // A pairing on a solid, a paving on a plane lattice or region:
        // each renderer draws the boards it knows and declines the rest.
        let pavings = file.claims.iter().flat_map(|claim| {
            let Ok(gamecert::elaborate::Explicit::Breaker(game, Strategy::Paving(paving))) =
                &claim.explicit
            else {
                return Vec::new();
            };
            let on_solid =
                gamecert::render::pairing_svg(&claim.id, &game.board, &game.goal, &paving.pairs)
                    .map(|svg| (format!("pairing-{}", claim.id), svg));
            let on_plane =
                gamecert::render::paving_svg(&claim.id, &game.board, &paving.pairs, &paving.period)
                    .map(|svg| (format!("paving-{}", claim.id), svg));
            on_solid.into_iter().chain(on_plane).collect()
        });
        let situations = file.claims.iter().flat_map(|claim| {
            let Ok(gamecert::elaborate::Explicit::Maker(game, proof)) = &claim.explicit else {
                return Vec::new();
            };
            proof
                .situations
                .iter()
                .filter_map(|(situation, _)| {
                    let title = format!("{}: {}", claim.id, situation.name);
                    gamecert::render::situation_svg(
                        &title,
                        &game.board,
                        &situation.core,
                        &situation.neighbourhood,
                    )
                    .map(|svg| (format!("situation-{}-{}", claim.id, situation.name), svg))
                })
                .collect()
        });
        let pictures = boards
            .chain(animals)
            .chain(pavings)
            .chain(situations)
            .map(|(name, svg)| (format!("{name}.svg"), svg));
        for (name, text) in pictures.chain(digraphs) {
            let path = r.out.join(name);
            match std::fs::write(&path, text) {
                Ok(()) => out.line(&path.display().to_string()),
                Err(e) => {
                    error(&format!("error: {}: {e}\n", path.display()));
                    code = 2;
                }
            }
        }
    }
    code
}

/// Prints the file with each maker claim's proof sequence written out as
/// the kernel checks it; other items as written. Exit 2 when a claim cannot
/// be elaborated (its diagnostic goes to standard error).
fn run_elaborate(e: args::ElaborateArgs, out: &mut Out) -> i32 {
    let files = match gamecert::elaborate::load::load(std::slice::from_ref(&e.file)) {
        Ok(f) => f,
        Err(err) => {
            error(&usage_error(&err));
            return 2;
        }
    };
    // The file named, not an include that sorts before it.
    let named = e.file.canonicalize().ok();
    let Some(file) = files
        .iter()
        .find(|f| Some(&f.key) == named.as_ref())
        .or_else(|| files.first())
    else {
        return 2;
    };
    let index = LineIndex::new(&file.source);
    // A file with a syntax error lost what the parser skipped: refuse it.
    if !file.ast.errors.is_empty() {
        for e in &file.ast.errors {
            error(&render(&syntax_problem(e), &file.display, &index));
        }
        return 2;
    }
    let mut code = 0;
    for problem in &file.file_errors {
        error(&render(&elab_problem(problem), &file.display, &index));
        code = 2;
    }
    let tree = gamecert::elaborate::explicit::explicit_tree(file);
    out.write(&gamecert::syntax::format::format_file(&tree, &file.source));
    for claim in &file.claims {
        if let Err(err) = &claim.explicit {
            error(&render(&elab_problem(err), &file.display, &index));
            code = 2;
        }
    }
    code
}

/// Searches for a maker win; writes the certificate and says whether the
/// kernel accepts it (exit 0), or why there is none (exit 1 lost, 3 budget
/// or too large, 2 bad input).
fn run_prove(p: args::ProveArgs, out: &mut Out) -> i32 {
    let Some(limits) = usable_limits(&p.limits) else {
        return 2;
    };
    let declarations = match &p.file {
        Some(path) => match read_text(path, MAX_FILE_BYTES) {
            Ok(text) => text,
            Err(e) => {
                error(&format!("error: {}: {}\n", path.display(), read_error(&e)));
                return 2;
            }
        },
        None => "gamecert 1\n".to_string(),
    };
    let statement = p.statement.join(" ");
    let window = match p.window.as_deref().map(parse_window) {
        Some(None) => {
            error("error: --window takes ROWSxCOLS, e.g. 5x5\n");
            return 2;
        }
        Some(Some(w)) => Some(w),
        None => None,
    };
    let answers = ["grundy ", "outcome "]
        .iter()
        .any(|k| statement.trim_start().starts_with(k));
    let proved = if answers {
        let Some(path) = &p.out else {
            error(
                "error: `prove grundy` and `prove outcome` need -o FILE (the answer file goes beside it)\n",
            );
            return 2;
        };
        prove::prove_answers(&statement, path, &limits, jobs_or_cores(p.jobs).max(1) - 1)
    } else {
        prove::prove_text(&declarations, &statement, window, &limits)
    };
    match proved {
        Ok((certificate, code)) => {
            match &p.out {
                Some(path) => {
                    if let Err(e) = std::fs::write(path, &certificate) {
                        error(&format!("error: {}: {e}\n", path.display()));
                        return 2;
                    }
                }
                None => out.write(&certificate),
            }
            code
        }
        Err((message, code)) => {
            error(&format!("{message}\n"));
            code
        }
    }
}

fn parse_window(text: &str) -> Option<(u16, u16)> {
    let (r, c) = text.split_once('x')?;
    let (r, c) = (r.trim().parse().ok()?, c.trim().parse().ok()?);
    let cells = u32::from(r) * u32::from(c);
    (r > 0 && c > 0 && cells as usize <= gamecert::produce::maker::MAX_CELLS).then_some((r, c))
}

/// Translates a machine-made certificate; errors name the card and the
/// line and column, and exit with 2.
fn run_import(i: args::ImportArgs, out: &mut Out) -> i32 {
    let args::ImportFormat::SnakyCards = i.format;
    let (name, goal) = match i.goal.to_ascii_lowercase().as_str() {
        "snaky" => ("Snaky", gamecert::import::SNAKY.to_vec()),
        "domino" => ("Domino", gamecert::import::DOMINO.to_vec()),
        _ => match gamecert::import::parse_cells(&i.goal) {
            Some(cells) => ("Goal", cells),
            None => {
                error("error: --goal takes `snaky`, `domino` or cells `(x,y) (x,y) ...`\n");
                return 2;
            }
        },
    };
    let text = match read_text(&i.file, gamecert::import::MAX_CARD_BYTES as u64) {
        Ok(t) => t,
        Err(e) => {
            error(&format!(
                "error: {}: {}\n",
                i.file.display(),
                read_error(&e)
            ));
            return 2;
        }
    };
    let cards = match gamecert::import::CardFile::parse(&text) {
        Ok(c) => c,
        Err(e) => {
            let (line, column) = LineIndex::new(&text).line_column(e.offset);
            let file = i.file.display();
            error(&format!("error: {file}:{line}:{column}: {}\n", e.message));
            return 2;
        }
    };
    let source = i
        .file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let certificate = cards.certificate(&source, name, &goal, &i.id);
    match &i.out {
        Some(path) => match std::fs::write(path, certificate) {
            Ok(()) => 0,
            Err(e) => {
                error(&format!("error: {}: {e}\n", path.display()));
                2
            }
        },
        None => {
            out.write(&certificate);
            0
        }
    }
}

/// Times the performance targets (or the given games).
fn run_bench(b: args::BenchArgs, out: &mut Out) -> i32 {
    bench::run(b.games, jobs_or_cores(b.jobs), out)
}

/// `gamecert diff`: reads both versions, checks them with `--check` (each
/// written to a scratch directory, so that git revisions are checked as
/// files), and prints the changes.
fn run_diff(d: args::DiffArgs, out: &mut Out) -> i32 {
    use gamecert::diff::{Version, diff, human, materialize};
    let versions = match (&d.git, d.paths.as_slice()) {
        (Some(range), [path]) => match range.split_once("..") {
            Some((a, b)) => {
                Version::from_git(a, path).and_then(|old| Ok((old, Version::from_git(b, path)?)))
            }
            None => Err("--git takes REV1..REV2".to_string()),
        },
        (None, [old, new]) => {
            Version::from_path(old).and_then(|o| Ok((o, Version::from_path(new)?)))
        }
        _ => Err("give OLD and NEW, or --git REV1..REV2 and one path".to_string()),
    };
    let (old, new) = match versions {
        Ok(v) => v,
        Err(e) => {
            error(&format!("error: {e}\n"));
            return 2;
        }
    };
    if d.format == Format::Junit {
        error("error: diff writes human or json, not junit\n");
        return 2;
    }
    let reports = if d.check {
        let Some(limits) = usable_limits(&d.budget) else {
            return 2;
        };
        let options = CheckOptions {
            jobs: jobs_or_cores(d.jobs),
            limits,
            timings: false,
            only: None,
        };
        let check = |version: &Version, name: &str| -> Result<gamecert::report::Report, String> {
            let dir =
                std::env::temp_dir().join(format!("gamecert-diff-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            materialize(version, &dir).map_err(|e| e.to_string())?;
            let outcome =
                check_paths(std::slice::from_ref(&dir), &options).map_err(|e| usage_error(&e));
            let _ = std::fs::remove_dir_all(&dir);
            Ok(outcome?.report)
        };
        match check(&old, "old").and_then(|o| Ok((o, check(&new, "new")?))) {
            Ok(r) => Some(r),
            Err(e) => {
                error(&format!("error: {e}\n"));
                return 2;
            }
        }
    } else {
        None
    };
    let result = diff(&old, &new, reports.as_ref().map(|(o, n)| (o, n)));
    match d.format {
        Format::Human => out.write(&human(&result)),
        Format::Json | Format::Junit => out.write(
            &(serde_json::to_string_pretty(&result)
                .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
                + "\n"),
        ),
    }
    if result.files.iter().any(|f| !f.unreadable.is_empty()) {
        2
    } else if result.worse > 0 {
        1
    } else {
        0
    }
}
