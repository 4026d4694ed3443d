//! Checks composed tsume problems for soundness: a composer's report of every flaw.
//!
//! ```text
//! cargo run --release --example check_unique -- [options] FILE... | PROBLEM | -
//! ```
//!
//! Input: problem files in any format `tsume::problem` reads (SFEN lines `<sfen> [moves
//! <usi move> ...] [# comment]`, USI `position` lines, KIF / KI2 with board diagrams, CSA);
//! a record's main line (the moves after the diagram, or after `moves`) is the intended line
//! (作意). Output per problem: the verdict (sound / unsound / undecided), the line checked in
//! USI and Japanese notation, and each flaw on its own line with its ply, moves, lengths and
//! Japanese term; with `--json` one JSON object per problem per line instead (schema: the
//! `tsume::json` module). `--kif FILE` / `--kif-dir DIR` write the line checked as KIF with
//! every flaw's alternative as a variation (`変化：N手`, commented `*余詰 ...`); `--csa` the
//! line alone. `--jobs N` checks N problems at once, the output in input order; `--threads N`
//! gives each check N threads (default: the cores, shared out among the jobs). Exit status:
//! 0 when every problem is sound, 1 when any is unsound or undecided, 2 when some input
//! could not be read (the others are still checked; each error is printed once, on standard
//! error, and in JSON mode also as an `error` object).

#[path = "common/mod.rs"]
mod common;

use clap::Parser;
use common::Outputs;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;
use tsume::check::{CheckConfig, Report, Verdict};
use tsume::json::{CheckRecord, ErrorRecord, to_line};
use tsume::problem::{Problem, ProblemError};
use tsume::solver::{MateLine, Solver, StopReason};
use tsume::{Move, Position, japanese_line};

#[derive(Parser, Debug)]
#[command(about = "Check tsume-shogi problems for a unique solution (余詰検討)")]
struct Args {
    /// Problem files (SFEN, USI, KIF, KI2, CSA), problems as text, or - for standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Time limit per problem (the whole check, and the flaws' lines written with `--kif` or
    /// `--csa`), in seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Node limit per problem (the whole check).
    #[arg(long)]
    nodes: Option<u64>,
    /// Nodes each question (one alternative move) may search before it is left undecided
    /// (default: as many as the solution took, at least SolverConfig::MIN_QUESTION_NODES).
    #[arg(long)]
    question_nodes: Option<u64>,
    /// Transposition table size in MiB (the checker adds a second table of half this size
    /// when it must search for a second solution that avoids the main line).
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Nodes allowed after the first proof for proving the length shortest and walking the
    /// line (default: SolverConfig::DEFAULT_SHORTEST_NODES = 10,000,000; 1 for the first
    /// verified mate at once; `unlimited` for an allowance that does not run out: Microcosmos'
    /// 1525 is then proven in 6-8 minutes with 1 GiB).
    #[arg(long = "shortest-nodes", value_parser = common::parse_allowance)]
    shortest_nodes: Option<u64>,
    /// One JSON object per problem per line.
    #[arg(long)]
    json: bool,
    /// Count 成・不成の非限定 (promotion_choice) and 手順前後 (transposition) as fatal, as the
    /// letter of the rules does (default: notes).
    #[arg(long)]
    strict: bool,
    /// Also look for 変化別詰 (variation_alternative_mate, a note): a second mating move at
    /// the first attacker ply of each side variation. Costs a search per check there.
    #[arg(long)]
    variations: bool,
    /// Stop at the first fatal flaw found (the same verdict, barring --nodes/--time; the
    /// other flaws are not looked for): quick answers for drafts and unsound problems.
    #[arg(long)]
    first_flaw: bool,
    /// Also list the unnecessary pieces (不要駒) of a sound problem: pieces that can be taken
    /// off the board (into the defender's hand) with the problem still sound by the same
    /// line (definition: CheckConfig::unnecessary_pieces). Costs a check per piece.
    #[arg(long)]
    unnecessary_pieces: bool,
    /// Problems checked at once, one solver (and its share of --hash-mb) each; 0 = one per
    /// core.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Threads per problem (default: the cores, shared out among the --jobs): they solve the
    /// problem together, then share out the line's questions; a question settled with any count
    /// gets the same answer.
    #[arg(long)]
    threads: Option<usize>,
    /// Map the tables' memory (the table and the checker's side tables, with huge pages
    /// where the system gives them) before the first problem (about 0.1 s per GiB, up to 2 s
    /// when the system must first free memory for huge pages), rather than during the first
    /// checks; `auto` does it for inputs of at least 32 problems per job.
    #[arg(long, value_enum, default_value_t = common::Prefault::Auto)]
    prefault: common::Prefault,
    #[command(flatten)]
    outputs: Outputs,
}

/// The solver's mate: its status sentence ([`MateLine::status`], which names the line's
/// length where it differs from the mate's), and the line's length where it does not.
fn mate_text(ml: &MateLine) -> String {
    if ml.is_main_line() && ml.line_len() == ml.length() {
        format!("{}, {} plies", ml.status(), ml.line_len())
    } else {
        ml.status().to_string()
    }
}

fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn hand_text(report: &Report) -> String {
    if report.hand_left.is_empty() {
        "none".into()
    } else {
        report.hand_left.japanese()
    }
}

fn human_text(place: &str, comment: &str, pos: &Position, report: &Report) -> String {
    let mut out = String::new();
    macro_rules! say {
        ($($t:tt)*) => {{
            out.push_str(&format!($($t)*));
            out.push('\n');
        }};
    }
    say!(
        "== {place}{}",
        if comment.is_empty() {
            String::new()
        } else {
            format!("  # {comment}")
        }
    );
    say!("sfen {}", pos.to_sfen());
    let fatal = report.fatal_flaws().count();
    let notes = report.flaws.len() - fatal;
    // With --first-flaw, where the walk stopped is listed with the undecided questions but
    // is not one.
    let stopped = report
        .undecided
        .iter()
        .any(|u| u.reason == StopReason::FirstFlaw);
    say!(
        "verdict: {} ({fatal} fatal flaw{}, {notes} note{}, {} undecided{})",
        report.verdict,
        if fatal == 1 { "" } else { "s" },
        if notes == 1 { "" } else { "s" },
        report.undecided.len() - usize::from(stopped),
        if stopped {
            "; stopped at the first fatal flaw"
        } else {
            ""
        }
    );
    if !report.line.is_empty() {
        let what = match (&report.main_line, report.checked_intended) {
            (Some(ml), false) => format!("main line ({}", mate_text(ml)),
            _ => format!("intended line ({} plies", report.line.len()),
        };
        say!("{what}, attacker's hand at the end: {})", hand_text(report));
        say!("usi: {}", usi(&report.line));
        say!("kif: {}", japanese_line(pos, &report.line).join(" "));
    }
    if let (false, Some(given)) = (report.checked_intended, &report.intended) {
        say!(
            "intended line (not a valid tsume line, see below): {}",
            usi(given)
        );
    }
    if report.checked_intended {
        if let Some(ml) = &report.main_line {
            if ml.moves() != report.line {
                say!(
                    "solver's main line ({}): {}",
                    mate_text(ml),
                    usi(ml.moves())
                );
            }
        }
    }
    for f in &report.flaws {
        let mut what = format!(
            "  ply {:>3}  {} {} ({}): {}",
            f.ply,
            if f.fatal { "FLAW" } else { "note" },
            f.kind.japanese(),
            f.kind,
            f.detail
        );
        if !f.moves.is_empty() {
            what.push_str(&format!(
                "; {} [{}]",
                report.flaw_in_japanese(pos, f),
                usi(&f.moves)
            ));
        }
        // 手順前後 / 非限定: the line's own order up to where the two meet.
        if let Some(j) = f
            .rejoin_ply
            .map(|j| j as usize)
            .filter(|&j| j >= f.ply as usize && j <= report.line.len())
        {
            let mut before = pos.clone();
            for &m in &report.line[..f.ply as usize - 1] {
                before.play_unchecked(m);
            }
            let order = &report.line[f.ply as usize - 1..j];
            what.push_str(&format!(
                "; the line's order: {} [{}]",
                japanese_line(&before, order).join(" "),
                usi(order)
            ));
        }
        say!("{what}");
    }
    for u in &report.undecided {
        say!(
            "  ply {:>3}  {}: {}{} ({})",
            u.ply,
            if u.reason == StopReason::FirstFlaw {
                "stopped"
            } else {
                "undecided"
            },
            u.mv.map(|m| format!("{m}: ")).unwrap_or_default(),
            u.question,
            u.reason
        );
    }
    if let Some(u) = &report.unnecessary_pieces {
        let names = |v: Vec<String>| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        say!(
            "unnecessary pieces (不要駒): {}",
            names(u.found.iter().map(|p| p.japanese()).collect())
        );
        if !u.undecided.is_empty() {
            say!(
                "  not decided: {}",
                names(
                    u.undecided
                        .iter()
                        .map(|(p, r)| format!("{} ({r})", p.japanese()))
                        .collect()
                )
            );
        }
    }
    let st = &report.stats;
    say!(
        "nodes {} time {:.3} s nps {}\n",
        st.nodes,
        st.elapsed.as_secs_f64(),
        st.nodes_per_second()
    );
    out
}

struct Done {
    text: String,
    sound: bool,
    written: Problem,
}

fn check_one(
    args: &Args,
    check: &CheckConfig,
    files: bool,
    solver: &mut Solver,
    p: &Problem,
) -> Result<Done, ProblemError> {
    p.check_tsume()?;
    let started = Instant::now();
    let pos = &p.position;
    let intended = (!p.moves.is_empty()).then_some(p.moves.as_slice());
    let report = solver.check(pos, intended, check);
    let text = if args.json {
        to_line(&CheckRecord {
            sfen: pos.to_sfen(),
            file: &p.origin.file,
            line: (p.origin.file != "<argument>").then_some(p.origin.line),
            comment: &p.comment,
            report: &report,
        })
    } else {
        human_text(&common::place(p), &p.comment, pos, &report)
    };
    // The alternatives' lines cost a search each: only when a file is written, and within
    // what is left of the problem's time limit (`--time` is for the whole check), else the
    // flaw is written without its line.
    let written = if files {
        // The alternatives' lines cost a search each: within what is left of the problem's
        // time limit (`--time` is for the whole check), else a flaw is written without them.
        let deadline = solver.config().get_time_limit().map(|t| started + t);
        report.to_problem(p, |after| solver.longest_defence(after, deadline))
    } else {
        Problem::new(pos.clone(), p.origin.clone(), p.format)
    };
    Ok(Done {
        text,
        sound: report.verdict == Verdict::Sound,
        written,
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let problems = common::read_inputs(&args.inputs);
    let outputs = &args.outputs;
    if let Err(e) = outputs.prepare(problems.len()) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let jobs = common::job_count(args.jobs);
    let config = common::solver_config(
        args.hash_mb,
        jobs,
        args.threads,
        args.nodes,
        args.shortest_nodes,
        args.time,
    );
    let check = CheckConfig::new()
        .question_node_limit(args.question_nodes)
        .strict(args.strict)
        .variations(args.variations)
        .first_flaw(args.first_flaw)
        .unnecessary_pieces(args.unnecessary_pieces);
    let search_progress = jobs == 1 && (std::io::stderr().is_terminal() || !args.json);
    let prefault = args.prefault.wanted(problems.len(), jobs);
    common::ensure_table(&config, jobs);
    // The checker's side tables too: every check uses them.
    let mapped = if prefault {
        common::Mapped::ForChecks
    } else {
        common::Mapped::Nothing
    };
    let init = || common::new_solver(&config, search_progress, false, mapped);
    let work = |solver: &mut Solver, item: &Result<Problem, ProblemError>| match item {
        Ok(p) => check_one(&args, &check, outputs.any(), solver, p),
        Err(e) => Err(e.clone()),
    };
    let mut bad_input = false;
    let mut all_sound = true;
    let stdout = std::io::stdout();
    common::run_ordered(&problems, jobs, init, work, |i, done| {
        let mut out = stdout.lock();
        match done {
            Ok(d) => {
                // Human reports end with their blank line, JSON lines need their newline.
                let nl = if d.text.ends_with('\n') { "" } else { "\n" };
                let _ = write!(out, "{}{nl}", d.text);
                all_sound &= d.sound;
                if let (true, Ok(src)) = (outputs.any(), &problems[i]) {
                    if let Err(e) = outputs.write(src, i, &d.written) {
                        eprintln!("error: {e}");
                        bad_input = true;
                    }
                }
            }
            Err(e) => {
                bad_input = true;
                eprintln!("{e}");
                if args.json {
                    let _ = writeln!(out, "{}", to_line(&ErrorRecord(&e)));
                }
            }
        }
    });
    if bad_input {
        ExitCode::from(2)
    } else if all_sound {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
