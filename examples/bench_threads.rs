//! The parallel search measured: ours with 1, 2, 4 and 8 threads beside shtsume (one thread)
//! and KomoringHeights (Threads 1 and 2), all in one run on one machine; and the checker with
//! 1 and 2 threads.
//!
//! ```text
//! PEERS_DIR=$HOME/peers cargo run --release --example bench_threads -- [--runs 3]
//!     [--wide-runs 1] [--komoring-runs 1] [--hash-mb 1024] [--time 60]
//!     [--only NAME[,NAME...]] [--peers shtsume,komoring] [--checks] [--write FILE]
//! ```
//!
//! **Solving** (`<!-- bench_threads solve -->`): for each problem of `problems/long.sfen`
//! named by `--only` (default: 寿, ACTの夢, Astral Traveler, 橋本587, 図巧98番, Microcosmos),
//! one search at a time, the same table size for every engine:
//!
//! - ours with 1 and 2 threads, `--runs` times each: the length (and whether it is proven
//!   shortest), the median seconds to the first proof and to the proven answer, and the
//!   ratios 2 threads / 1 thread of both;
//! - ours with 4 and 8 threads (oversubscribed on a 2-core machine), `--wide-runs` times:
//!   total nodes of all threads to the answer and to the first proof over one thread's (the
//!   figures that tell how the search would scale on more cores, whatever this machine's
//!   core count);
//! - shtsume (one thread, it stops at its first proof): our first proof's time with 1 and
//!   2 threads over its answer's time;
//! - KomoringHeights with Threads 1 and 2 (`--komoring-runs` each; it proves its length
//!   shortest, MinLength): our proven answer's time over its, with the same thread count.
//!
//! The lengths of every run are listed (`611p/611p/611p/611p`, `p` when proven shortest):
//! with several threads the search is not repeatable node for node, and a length that
//! differs between thread counts without being a bound is a bug.
//!
//! **Checking** (`--checks`, `<!-- bench_threads checks -->`): the full report of every
//! problem of problems/yaneuraou.sfen and problems/antma.sfen (`--runs` times each, as
//! `check_unique --hash-mb 256` does: its tables mapped first, as `--prefault auto` does for
//! a suite) with 1 and 2 threads, the totals and the ratio; then the
//! random mates of 7 to 15 plies of problems/random.sfen (made by `gen_random`) checked with
//! 1 and 2 threads and a 5 s limit each: how many reports are complete within it (no question
//! cut by the time limit; a question at its own node share is part of a complete report), and
//! how many questions were left at their share or cut by the time limit (a ply left
//! unexamined counts as one).

mod common;

use clap::Parser;
use common::bench::{Peer, PeerAnswer, median, write_section};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tsume::Position;
use tsume::check::CheckConfig;
use tsume::solver::{Outcome, Solver, SolverConfig, StopReason};

#[derive(Parser, Debug)]
struct Args {
    /// Runs of ours with 1 and 2 threads, of shtsume, and of each check suite.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Runs of ours with 4 and 8 threads.
    #[arg(long, default_value_t = 1)]
    wide_runs: usize,
    /// Runs of KomoringHeights with each thread count.
    #[arg(long, default_value_t = 1)]
    komoring_runs: usize,
    /// Table size in MiB, for every engine (shtsume's maximum is 2047).
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Time limit per search in seconds, for every engine.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Problems of problems/long.sfen whose names contain one of these comma-separated texts.
    #[arg(
        long,
        default_value = "寿,ACT,Astral Traveler,橋本587,図巧98,Microcosmos"
    )]
    only: String,
    /// Peers to run, comma-separated (`shtsume`, `komoring`; empty for none).
    #[arg(long, default_value = "shtsume,komoring")]
    peers: String,
    /// Folder of the peer wrappers.
    #[arg(long, default_value = "../shared/peers")]
    wrappers: PathBuf,
    /// Measure the checker instead of the solver.
    #[arg(long)]
    checks: bool,
    /// Also write the table into this Markdown file, between `<!-- bench_threads solve -->`
    /// (or `checks`) and `<!-- /bench_threads solve -->`. Repeatable.
    #[arg(long)]
    write: Vec<PathBuf>,
}

/// Ours on one problem with one thread count: medians, and the lengths of every run.
struct Ours {
    lengths: Vec<String>,
    seconds: f64,
    first_seconds: Option<f64>,
    first_nodes: Option<f64>,
    nodes: f64,
}

fn ours(args: &Args, threads: usize, pos: &Position, runs: usize) -> Ours {
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(args.hash_mb)
            .threads(threads)
            .time_limit(Some(Duration::from_secs_f64(args.time))),
    );
    solver.prefault();
    let (mut lengths, mut times, mut firsts, mut nodes) = (vec![], vec![], vec![], vec![]);
    let mut first_nodes = vec![];
    for _ in 0..runs.max(1) {
        let sol = solver.solve(pos);
        lengths.push(match &sol.outcome {
            Outcome::Mate(l) if l.shortest_proven() => format!("{}p", l.length()),
            Outcome::Mate(l) => l.length().to_string(),
            Outcome::NoMate => "nomate".into(),
            Outcome::Unknown(_) => "?".into(),
        });
        times.push(sol.stats.elapsed.as_secs_f64());
        if let Some(t) = sol.stats.first_proof_time {
            firsts.push(t.as_secs_f64());
        }
        if let Some(n) = sol.stats.first_proof_nodes {
            first_nodes.push(n as f64);
        }
        nodes.push(sol.stats.nodes as f64);
    }
    Ours {
        lengths,
        seconds: median(times),
        first_seconds: (!firsts.is_empty()).then(|| median(firsts)),
        first_nodes: (!first_nodes.is_empty()).then(|| median(first_nodes)),
        nodes: median(nodes),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "-".into(),
    }
}

fn secs(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{s:.2}"))
}

/// A peer's cell: its length and seconds, or "at the limit" when the time limit stopped it
/// (KomoringHeights then gives the mate it has, before its length is proven: no answer to
/// compare with).
fn peer_cell(a: &Option<PeerAnswer>, limit: f64) -> String {
    match a {
        Some(a) if a.finished(limit) => format!("{} {:.2}", a.length.unwrap_or(0), a.seconds),
        Some(a) => format!(
            "{} at the limit",
            a.length
                .map_or(a.verdict.clone(), |n| format!("{n} unproven"))
        ),
        None => "-".into(),
    }
}

/// Seconds of a peer's answer, when it finished.
fn peer_secs(a: &Option<PeerAnswer>, limit: f64) -> Option<f64> {
    a.as_ref().filter(|a| a.finished(limit)).map(|a| a.seconds)
}

fn solving(args: &Args) -> String {
    let peers: Vec<&str> = args.peers.split(',').filter(|p| !p.is_empty()).collect();
    let only: Vec<&str> = args.only.split(',').collect();
    let mut out = String::new();
    let header = "| problem | lengths 1/2/4/8 threads | first proof s, 1 thread | 2 threads | 2/1 | \
                  answer s, 1 thread | 2 threads | 2/1 | nodes, 1 thread | 4 threads / 1 | \
                  8 threads / 1 | first proof nodes, 1 thread | 4 threads / 1 | 8 threads / 1 | \
                  shtsume | first proof / shtsume, 1 thread | 2 threads | \
                  komoring, Threads 1 | Threads 2 | answer / komoring, 1 thread | 2 threads |";
    let rule = format!("|{}", "---|".repeat(header.matches(" | ").count() + 1));
    writeln!(out, "{header}\n{rule}").unwrap();
    println!("{header}\n{rule}");
    let peer = |name, threads, runs, sfen: &str| -> Option<PeerAnswer> {
        if !peers.contains(&name) {
            return None;
        }
        let p = Peer {
            wrappers: &args.wrappers,
            name,
            hash_mb: args.hash_mb,
            seconds: args.time,
            threads,
        };
        match p.solve(sfen, runs) {
            Ok(a) => Some(a),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    };
    for problem in common::bench_problems("problems/long.sfen") {
        if !only.iter().any(|o| problem.name.contains(o)) {
            continue;
        }
        let pos = &problem.position;
        let sfen = pos.to_sfen();
        let one = ours(args, 1, pos, args.runs);
        let two = ours(args, 2, pos, args.runs);
        let four = ours(args, 4, pos, args.wide_runs);
        let eight = ours(args, 8, pos, args.wide_runs);
        let shtsume = peer("shtsume", 1, args.runs, &sfen);
        let komoring1 = peer("komoring", 1, args.komoring_runs, &sfen);
        let komoring2 = peer("komoring", 2, args.komoring_runs, &sfen);
        let lengths = [&one, &two, &four, &eight]
            .iter()
            .map(|o| o.lengths.join(","))
            .collect::<Vec<_>>()
            .join(" / ");
        let name = problem.name.split(" (").next().unwrap_or(&problem.name);
        let row = format!(
            "| {name} | {lengths} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.0} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            secs(one.first_seconds),
            secs(two.first_seconds),
            ratio(two.first_seconds, one.first_seconds),
            one.seconds,
            two.seconds,
            two.seconds / one.seconds.max(1e-9),
            one.nodes,
            ratio(Some(four.nodes), Some(one.nodes)),
            ratio(Some(eight.nodes), Some(one.nodes)),
            one.first_nodes.map_or("-".into(), |n| format!("{n:.0}")),
            ratio(four.first_nodes, one.first_nodes),
            ratio(eight.first_nodes, one.first_nodes),
            peer_cell(&shtsume, args.time),
            ratio(one.first_seconds, peer_secs(&shtsume, args.time)),
            ratio(two.first_seconds, peer_secs(&shtsume, args.time)),
            peer_cell(&komoring1, args.time),
            peer_cell(&komoring2, args.time),
            ratio(Some(one.seconds), peer_secs(&komoring1, args.time)),
            ratio(Some(two.seconds), peer_secs(&komoring2, args.time)),
        );
        writeln!(out, "{row}").unwrap();
        println!("{row}");
    }
    out
}

/// Checks every problem of `file` with `threads` threads on one solver (as `check_unique`
/// does); the seconds and the nodes.
fn check_suite(file: &str, threads: usize) -> (f64, u64) {
    let problems: Vec<_> = tsume::problem::read_file(file)
        .into_iter()
        .map(|p| p.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut solver = Solver::new(SolverConfig::new().hash_mib(256).threads(threads));
    // As `check_unique` does for a suite (`--prefault auto`, at least 32 problems): the
    // tables are mapped before the clock starts.
    solver.prefault_checks();
    let started = Instant::now();
    let mut nodes = 0;
    for p in &problems {
        let intended = (!p.moves.is_empty()).then_some(p.moves.as_slice());
        nodes += solver
            .check(&p.position, intended, &CheckConfig::new())
            .stats
            .nodes;
    }
    (started.elapsed().as_secs_f64(), nodes)
}

fn checking(args: &Args) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "| suite | problems | 1 thread s | 2 threads s | 2/1 | nodes, 1 thread | 2 threads |\n|---|---|---|---|---|---|---|"
    )
    .unwrap();
    for file in ["problems/yaneuraou.sfen", "problems/antma.sfen"] {
        let count = tsume::problem::read_file(file).len();
        let measure = |threads| {
            let runs: Vec<(f64, u64)> = (0..args.runs.max(1))
                .map(|_| check_suite(file, threads))
                .collect();
            let t = median(runs.iter().map(|r| r.0).collect());
            (t, runs.last().map_or(0, |r| r.1))
        };
        let (t1, n1) = measure(1);
        let (t2, n2) = measure(2);
        writeln!(
            out,
            "| {file} | {count} | {t1:.2} | {t2:.2} | {:.2} | {n1} | {n2} |",
            t2 / t1.max(1e-9)
        )
        .unwrap();
        echo_last(&out);
    }
    // The generated mates of 7-15 plies: complete reports within 5 s, 1 and 2 threads.
    let mates: Vec<_> = common::bench_problems("problems/random.sfen")
        .into_iter()
        .filter(|p| {
            p.expected
                .parse::<u32>()
                .is_ok_and(|n| (7..=15).contains(&n))
        })
        .collect();
    writeln!(
        out,
        "\nThe {} random mates of 7 to 15 plies of problems/random.sfen, each checked with a 5 s \
         limit: complete reports (no question cut by the time limit), the median time, the \
         questions left undecided at their node share (`CheckConfig::question_node_limit`: part \
         of a complete report) and those the time limit cut (a ply left unexamined counts as \
         one), over all the checks.\n\n\
         | threads | complete | median s | questions at their share | cut by the time limit |\n|---|---|---|---|---|",
        mates.len()
    )
    .unwrap();
    for threads in [1, 2] {
        let mut solver = Solver::new(
            SolverConfig::new()
                .hash_mib(256)
                .threads(threads)
                .time_limit(Some(Duration::from_secs(5))),
        );
        let (mut complete, mut times, mut at_share, mut cut_by_time) = (0, Vec::new(), 0, 0);
        for p in &mates {
            let report = solver.check(&p.position, None, &CheckConfig::new());
            let count = |reason| {
                report
                    .undecided
                    .iter()
                    .filter(|u| u.reason == reason)
                    .count()
            };
            let cut = count(StopReason::TimeLimit);
            at_share += count(StopReason::QuestionLimit);
            cut_by_time += cut;
            complete += usize::from(cut == 0);
            times.push(report.stats.elapsed.as_secs_f64());
        }
        writeln!(
            out,
            "| {threads} | {complete} ({:.1} %) | {:.2} | {at_share} | {cut_by_time} |",
            100.0 * complete as f64 / mates.len().max(1) as f64,
            if times.is_empty() { 0.0 } else { median(times) }
        )
        .unwrap();
        echo_last(&out);
    }
    out
}

/// Prints the last line of `out` (the row just written), for progress on the terminal.
fn echo_last(out: &str) {
    if let Some(line) = out.lines().last() {
        println!("{line}");
    }
}

fn main() {
    let args = Args::parse();
    if !args.checks && !args.peers.is_empty() && std::env::var_os("PEERS_DIR").is_none() {
        eprintln!(
            "PEERS_DIR is not set: build the peers as ../shared/peers/README.md says \
             and export PEERS_DIR, or pass --peers ''"
        );
        std::process::exit(2);
    }
    let (section, out) = if args.checks {
        ("checks", checking(&args))
    } else {
        ("solve", solving(&args))
    };
    for file in &args.write {
        if let Err(e) = write_section(file, "bench_threads", section, &out) {
            eprintln!("{}: {e}", file.display());
            std::process::exit(1);
        }
    }
}
