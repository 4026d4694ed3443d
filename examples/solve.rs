//! Solves tsume problems.
//!
//! ```text
//! cargo run --release --example solve -- [options] FILE... | PROBLEM | -
//! ```
//!
//! Input: problem files in any format `tsume::problem` reads (SFEN lines, USI `position`
//! lines, KIF / KI2 with board diagrams, CSA; found from the content, in UTF-8 or Shift-JIS),
//! problems given as text (an SFEN, a `position` line), or `-` for standard input. A record's
//! start position is solved, or the position after move N with `--ply N` (after the last
//! move with `--last`). Output per problem: the board, the verdict, the line in USI and
//! Japanese notation, length, nodes, time and nodes per second; with `--json` exactly one JSON
//! object per problem per line instead (schema: the `tsume::json` module). `--jobs N` solves
//! N problems at once, the output still in input order. `--kif FILE` / `--kif-dir DIR` and
//! `--csa FILE` / `--csa-dir DIR` write the main line for GUIs. A bad problem is reported
//! once, on standard error, with its file, line and what is wrong (in JSON mode also as an
//! `error` object), the others are still solved, and the exit status is then 2.
//!
//! # Many problems: jobs and sharding
//!
//! `solve --jobs N` and `check_unique --jobs N` (0 = one per core) run N solvers, one per thread,
//! each with `--hash-mb / N` of table, take the problems in turn and print the results in input
//! order; with standard error on a terminal they show `done/total problems, rate/s, seconds left`.
//! Per-search progress lines are only printed with one job. Throughput on a file of 10,000 short
//! problems (the 105 problems of `problems/antma.sfen` and `problems/yaneuraou.sfen` repeated, 1-13
//! plies), `--json --hash-mb 64`, measured side by side in one session:
//!
//! | `--jobs` | wall time | problems/s | CPU time (user) |
//! |---|---|---|---|
//! | 1 | 26.3 s | 383 | 25.3 s |
//! | 2 | 12.2 s | 827 | 22.4 s |
//!
//! (10,080 problems, on the project's 2-core machine with nothing else running but a light load of
//! about 2 from earlier jobs; the output of both runs is identical and in the same order.) The work
//! per problem does not grow with the jobs (about 2.5 ms a problem, which is the solver's: the first
//! proof, the proof that no shorter mate exists and the line walk; reading the lines takes a few
//! milliseconds). Reproduce with `solve --json --hash-mb 64 --jobs N FILE`, FILE made by repeating
//! the non-comment lines of the two suites to 10,080 lines.
//!
//! For sets larger than one machine, shard the input and concatenate the outputs: JSON lines
//! in, JSON lines out, every object carrying its `file` and `line`. With GNU parallel on one or
//! many hosts:
//!
//! ```sh
//! # chunks of 20,000 lines, each solved with all cores (add -S host1,host2 for other machines)
//! parallel --pipe -N 20000 --keep-order \
//!   'cargo run --release --example solve -- --json --jobs 0 --hash-mb 2048 -' \
//!   < big.sfen > big.jsonl
//! # or with a batch scheduler's array jobs (task i of n takes every n-th line):
//! awk -v n="$N" -v i="$TASK_ID" 'NR % n == i' big.sfen > part-$TASK_ID.sfen
//! solve --json --jobs 0 part-$TASK_ID.sfen > part-$TASK_ID.jsonl
//! ```
//!
//! (With `-` the `file` is `<stdin>` and `line` counts within the chunk; split into files first if
//! the line numbers of the big file matter.)

#[path = "common/mod.rs"]
mod common;

use clap::Parser;
use common::Outputs;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use tsume::json::{ErrorRecord, SolveRecord, to_line};
use tsume::problem::{Problem, ProblemError, ProblemErrorKind};
use tsume::solver::{Outcome, Solution, Solver};
use tsume::{Position, board_diagram, japanese_line};

#[derive(Parser, Debug)]
#[command(about = "Solve tsume-shogi problems (df-pn)")]
struct Args {
    /// Problem files (SFEN, USI, KIF, KI2, CSA), problems as text, or - for standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Time limit per problem, in seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Node limit per problem.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB, shared out among the jobs.
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
    /// No board diagram in the human output.
    #[arg(long)]
    no_board: bool,
    /// For a record: solve the position after its first N moves.
    #[arg(long, conflicts_with = "last")]
    ply: Option<usize>,
    /// For a record: solve the position after its last move.
    #[arg(long)]
    last: bool,
    /// Problems solved at once, one solver (and its share of --hash-mb) each; 0 = one per
    /// core.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Search threads per problem (default: the cores, shared out among the --jobs).
    #[arg(long)]
    threads: Option<usize>,
    /// Map the table's memory (with huge pages where the system gives them) before the first
    /// problem (about 0.1 s per GiB, up to 2 s when the system must first free memory for huge
    /// pages), rather than during the first search; `auto` does it for inputs of at least 32
    /// problems per job.
    #[arg(long, value_enum, default_value_t = common::Prefault::Auto)]
    prefault: common::Prefault,
    #[command(flatten)]
    outputs: Outputs,
}

/// The position to solve: the start, or after `--ply N` / `--last` moves of the line.
fn target(args: &Args, p: &Problem) -> Result<(Position, Option<usize>), ProblemError> {
    let ply = if args.last {
        Some(p.moves.len())
    } else {
        args.ply
    };
    match ply {
        None | Some(0) => Ok((p.position.clone(), ply)),
        Some(n) => match p.position_after(n) {
            Some(pos) => Ok((pos, Some(n))),
            None => Err(ProblemError::new(
                &p.origin.file,
                p.origin.line,
                ProblemErrorKind::PlyBeyondLine {
                    ply: n,
                    moves: p.moves.len(),
                },
            )),
        },
    }
}

/// What one problem gives: its text for standard output, and the KIF / CSA problem to write.
struct Done {
    text: String,
    written: Option<Problem>,
}

fn human(args: &Args, p: &Problem, pos: &Position, ply: Option<usize>, sol: &Solution) -> String {
    let mut s = String::new();
    let at = ply
        .map(|n| format!(" (after move {n})"))
        .unwrap_or_default();
    s.push_str(&format!(
        "== {}{at}\nsfen {}\n",
        common::place(p),
        pos.to_sfen()
    ));
    if !args.no_board {
        s.push_str(&format!("{}\n", board_diagram(pos)));
    }
    match &sol.outcome {
        Outcome::Mate(line) => {
            s.push_str(&format!("{}\n", line.status()));
            let usi: Vec<String> = line.moves().iter().map(|m| m.to_string()).collect();
            s.push_str(&format!("usi: {}\n", usi.join(" ")));
            s.push_str(&format!(
                "kif: {}\n",
                japanese_line(pos, line.moves()).join(" ")
            ));
            s.push_str(&format!(
                "attacker's hand at the end{}: {}\n",
                if line.is_main_line() {
                    ""
                } else {
                    " of the line shown"
                },
                if line.hand_left().is_empty() {
                    "none".to_string()
                } else {
                    line.hand_left().japanese()
                }
            ));
        }
        Outcome::NoMate => s.push_str("no mate\n"),
        Outcome::Unknown(reason) => s.push_str(&format!("unknown ({reason})\n")),
    }
    let st = &sol.stats;
    s.push_str(&format!(
        "nodes {} time {:.3} s nps {} table {:.1}%\n",
        st.nodes,
        st.elapsed.as_secs_f64(),
        st.nodes_per_second(),
        st.table_fill * 100.0
    ));
    if let (Outcome::Mate(_), Some(n), Some(t)) =
        (&sol.outcome, st.first_proof_nodes, st.first_proof_time)
    {
        s.push_str(&format!(
            "first proof: nodes {n} time {:.3} s\n",
            t.as_secs_f64()
        ));
    }
    s.push('\n');
    s
}

fn solve_one(args: &Args, solver: &mut Solver, p: &Problem) -> Result<Done, ProblemError> {
    let (pos, ply) = target(args, p)?;
    let sol = solver.solve(&pos);
    let text = if args.json {
        to_line(&SolveRecord {
            sfen: pos.to_sfen(),
            file: &p.origin.file,
            line: (p.origin.file != "<argument>").then_some(p.origin.line),
            ply,
            solution: &sol,
        })
    } else {
        human(args, p, &pos, ply, &sol)
    };
    let mut out = Problem::new(pos, p.origin.clone(), p.format);
    out.name = p.name.clone();
    match &sol.outcome {
        Outcome::Mate(line) => {
            out.moves = line.moves().to_vec();
            out.termination = Some("詰み".to_string());
        }
        Outcome::NoMate => out.comment = "不詰 (no mate)".to_string(),
        Outcome::Unknown(r) => out.comment = format!("undecided: {r}"),
    }
    Ok(Done {
        text,
        written: Some(out),
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
    // Per-search progress only with one job: several would interleave.
    let search_progress = jobs == 1 && (std::io::stderr().is_terminal() || !args.json);
    let prefault = args.prefault.wanted(problems.len(), jobs);
    common::ensure_table(&config, jobs);
    let mapped = if prefault {
        common::Mapped::Table
    } else {
        common::Mapped::Nothing
    };
    let init = || common::new_solver(&config, search_progress, true, mapped);
    let work = |solver: &mut Solver, item: &Result<Problem, ProblemError>| match item {
        Ok(p) => solve_one(&args, solver, p),
        Err(e) => Err(e.clone()),
    };
    let mut bad_input = false;
    let stdout = std::io::stdout();
    common::run_ordered(&problems, jobs, init, work, |i, done| {
        let mut out = stdout.lock();
        match done {
            Ok(d) => {
                // Human reports end with their blank line, JSON lines need their newline.
                let nl = if d.text.ends_with('\n') { "" } else { "\n" };
                let _ = write!(out, "{}{nl}", d.text);
                if let (Some(w), Ok(src)) = (&d.written, &problems[i]) {
                    if outputs.any() {
                        if let Err(e) = outputs.write(src, i, w) {
                            eprintln!("error: {e}");
                            bad_input = true;
                        }
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
    } else {
        ExitCode::SUCCESS
    }
}
