//! Solves the long problems and prints a table: problem, verdict, length (stated and found),
//! nodes, seconds, nodes per second, and the process's peak resident memory so far.
//!
//! ```text
//! cargo run --release --example bench_long -- [--hash-mb 1024] [--time 300] [--runs 1] [FILE]
//! ```
//!
//! FILE defaults to problems/long.sfen; only problems with a stated length (or `nomate`) are
//! run unless `--all` is given. With `--runs N` each problem is solved N times and the median
//! time is shown.

mod common;

use clap::Parser;
use std::time::Duration;
use tsume::solver::{Outcome, Solver, SolverConfig};

#[derive(Parser, Debug)]
struct Args {
    /// Problem file (`<sfen> # <expected> <name>` per line).
    #[arg(default_value = "problems/long.sfen")]
    file: String,
    /// Table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Time limit per problem in seconds.
    #[arg(long, default_value_t = 300.0)]
    time: f64,
    /// Solve each problem this many times and report the median time.
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// Also run problems whose length is not stated.
    #[arg(long)]
    all: bool,
    /// Nodes allowed after the first proof for the shortest-mate proof and the line walk
    /// (default: SolverConfig::DEFAULT_SHORTEST_NODES, 10 M; `unlimited`: no limit).
    #[arg(long = "shortest-nodes", value_parser = common::parse_allowance)]
    shortest_nodes: Option<u64>,
    /// Do not tighten the line when a search for a shorter mate runs out of nodes (see
    /// `SolverConfig::tighten_line`).
    #[arg(long = "no-tighten-line")]
    no_tighten_line: bool,
    /// Only problems whose name contains this text.
    #[arg(long)]
    only: Option<String>,
}

/// Peak resident set size of this process in MiB (Linux), if known.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let args = Args::parse();
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(args.hash_mb)
            .time_limit(Some(Duration::from_secs_f64(args.time)))
            .shortest_node_limit(args.shortest_nodes)
            .tighten_line(!args.no_tighten_line),
    );
    // Mapped now, as a solver that has run before is: the first run is not charged for it.
    solver.prefault();
    println!("| problem | stated | verdict | length | nodes | seconds | nodes/s | peak RSS MiB |");
    println!("|---|---|---|---|---|---|---|---|");
    for common::BenchProblem {
        position,
        expected,
        name,
    } in common::bench_problems(&args.file)
    {
        if expected == "?" && !args.all {
            continue;
        }
        if let Some(o) = &args.only {
            if !name.contains(o.as_str()) {
                continue;
            }
        }
        let pos = position;
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..args.runs.max(1) {
            let sol = solver.solve(&pos);
            times.push(sol.stats.elapsed);
            last = Some(sol);
        }
        times.sort();
        let sol = last.expect("at least one run");
        let median = times[times.len() / 2];
        let (verdict, length) = match &sol.outcome {
            Outcome::Mate(l) => (
                if l.shortest_proven() {
                    "mate (shortest proven)".to_string()
                } else {
                    "mate".to_string()
                },
                if l.is_main_line() {
                    l.length().to_string()
                } else {
                    format!(
                        "at most {} (line of {}, not the main line)",
                        l.length(),
                        l.line_len()
                    )
                },
            ),
            Outcome::NoMate => ("nomate".to_string(), "-".to_string()),
            Outcome::Unknown(r) => (format!("unknown ({r})"), "-".to_string()),
        };
        println!(
            "| {name} | {expected} | {verdict} | {length} | {} | {:.2} | {} | {} |",
            sol.stats.nodes,
            median.as_secs_f64(),
            (sol.stats.nodes as f64 / median.as_secs_f64().max(1e-9)) as u64,
            peak_rss_mib().map_or("?".to_string(), |m| format!("{m:.0}")),
        );
    }
}
