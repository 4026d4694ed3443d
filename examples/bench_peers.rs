//! Ours next to the peer solvers, in one run on one machine: for each problem, the crate's
//! answer (default settings: the first proof, the length proof and the line walk), then
//! shtsume's and KomoringHeights' (through the wrappers of `../shared/peers/`), one search
//! at a time, one thread each, the same table size; medians of `--runs` times, nodes beside
//! seconds, and the ratio ours / peer. Beside ours, the nodes of our first proof
//! (`Stats::first_proof_nodes`, before the length is shortened and the line walked) and
//! its time (`Stats::first_proof_time`, median), and their ratios to shtsume's nodes and
//! seconds: shtsume stops at its first proof, so our first proof is what compares with it,
//! and our whole answer (the length proven shortest) with KomoringHeights' MinLength proof.
//!
//! ```text
//! export PEERS_DIR=$HOME/peers          # see ../shared/peers/README.md to build them
//! cargo run --release --example bench_peers -- [--runs 3] [--hash-mb 1024] [--time 60]
//!     [--only NAME[,NAME...]] [--peers shtsume,komoring] [--wrappers ../shared/peers]
//!     [--shortest-nodes N] [FILE]
//! ```
//!
//! With `--totals`, one row per engine for the whole file instead (for a suite such as
//! problems/random.sfen: `--totals --all --time 10`).
//!
//! FILE defaults to problems/long.sfen (`<sfen> # <expected> <name>` per line); without
//! `--only`, the problems with a stated length are run (`--all` for every one). A peer's
//! seconds are the wrapper's wall clock from `go mate` to its answer; ours are the solver's
//! elapsed time (the table is allocated and its pages mapped before, `Solver::prefault`, as
//! KomoringHeights writes its whole table at `isready`; shtsume allocates its table at
//! `isready` and takes its page faults in the search, only for the part it fills).
//! KomoringHeights runs with its default post-search (MinLength: it keeps searching until its
//! length is proven shortest, as ours does); shtsume stops at its first proof. A peer the
//! time limit stopped shows "at the limit" beside what it had then, and no ratio: its time
//! is the limit's.

mod common;

use clap::Parser;
use common::bench::{Peer, median, write_section};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use tsume::solver::{Outcome, Solver, SolverConfig};

#[derive(Parser, Debug)]
struct Args {
    /// Problem file (`<sfen> # <expected> <name>` per line).
    #[arg(default_value = "problems/long.sfen")]
    file: String,
    /// Table size in MiB, for every engine (shtsume's maximum is 2047).
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Time limit per search in seconds, for every engine.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Runs per engine and problem; the median time is shown.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Ours: nodes allowed after the first proof for proving the length shortest and walking
    /// the line (`SolverConfig::shortest_node_limit`; default: the library's; `unlimited`: no
    /// limit).
    #[arg(long = "shortest-nodes", value_parser = common::parse_allowance)]
    shortest_nodes: Option<u64>,
    /// Also run problems whose length is not stated.
    #[arg(long)]
    all: bool,
    /// Only problems whose name contains one of these comma-separated texts.
    #[arg(long)]
    only: Option<String>,
    /// Peers to run, comma-separated (`shtsume`, `komoring`; empty for none).
    #[arg(long, default_value = "shtsume,komoring")]
    peers: String,
    /// Print only the totals over the problems (a suite such as problems/random.sfen), with
    /// every problem whose lengths differ listed on standard error.
    #[arg(long)]
    totals: bool,
    /// Folder of the peer wrappers (`shtsume_solve.sh`, `komoring_solve.sh`).
    #[arg(long, default_value = "../shared/peers")]
    wrappers: PathBuf,
    /// Also write the table into this Markdown file, between the lines
    /// `<!-- bench_peers NAME -->` and `<!-- /bench_peers NAME -->` (NAME: `--section`),
    /// with the command and the machine above it. Repeatable.
    #[arg(long)]
    write: Vec<PathBuf>,
    /// The name of the section `--write` replaces.
    #[arg(long, default_value = "long")]
    section: String,
}

/// One engine's answer on one problem (the median run's time; nodes and length of the last).
struct Answer {
    verdict: String,
    length: Option<u32>,
    proven: Option<bool>,
    seconds: f64,
    nodes: Option<u64>,
    /// Ours: nodes when the first proof was complete (`Stats::first_proof_nodes`).
    first_proof: Option<u64>,
    /// Ours: the median time when the first proof was complete (`Stats::first_proof_time`).
    first_proof_seconds: Option<f64>,
    /// Whether it answered within the time limit (ours: always, its answer is what it had
    /// then).
    finished: bool,
}

fn ours(solver: &mut Solver, pos: &tsume::Position, runs: usize) -> Answer {
    let mut times = Vec::new();
    let mut first_times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let sol = solver.solve(pos);
        times.push(sol.stats.elapsed.as_secs_f64());
        if let Some(t) = sol.stats.first_proof_time {
            first_times.push(t.as_secs_f64());
        }
        last = Some(sol);
    }
    let sol = last.expect("at least one run");
    let (verdict, length, proven) = match &sol.outcome {
        Outcome::Mate(l) => (
            "mate".to_string(),
            Some(l.length()),
            Some(l.shortest_proven()),
        ),
        Outcome::NoMate => ("nomate".to_string(), None, None),
        Outcome::Unknown(r) => (format!("unknown ({r})"), None, None),
    };
    Answer {
        verdict,
        length,
        proven,
        seconds: median(times),
        nodes: Some(sol.stats.nodes),
        first_proof: sol.stats.first_proof_nodes,
        first_proof_seconds: (first_times.len() == runs).then(|| median(first_times)),
        finished: true,
    }
}

/// Runs a peer wrapper `runs` times, with one thread.
fn peer(args: &Args, name: &str, sfen: &str) -> Result<Answer, String> {
    let peer = Peer {
        wrappers: &args.wrappers,
        name,
        hash_mb: args.hash_mb,
        seconds: args.time,
        threads: 1,
    };
    let a = peer.solve(sfen, args.runs)?;
    Ok(Answer {
        finished: a.finished(args.time),
        verdict: a.verdict,
        length: a.length,
        proven: None,
        seconds: a.seconds,
        nodes: a.nodes,
        first_proof: None,
        first_proof_seconds: None,
    })
}

/// The length, seconds and nodes cells; a peer stopped by the time limit says so beside
/// what it had then.
fn cells(a: &Answer) -> String {
    let length = match (a.length, a.proven) {
        (Some(n), Some(true)) => format!("{n} (proven)"),
        (Some(n), _) => n.to_string(),
        (None, _) => a.verdict.clone(),
    };
    let length = if a.finished {
        length
    } else {
        format!("{length} at the limit")
    };
    let nodes = a.nodes.map_or("?".to_string(), |n| n.to_string());
    format!("{length} | {:.2} | {nodes}", a.seconds)
}

fn main() {
    let args = Args::parse();
    let peers: Vec<&str> = args.peers.split(',').filter(|p| !p.is_empty()).collect();
    for p in &peers {
        if !matches!(*p, "shtsume" | "komoring") {
            eprintln!("unknown peer {p:?} (shtsume, komoring)");
            std::process::exit(2);
        }
    }
    if !peers.is_empty() && std::env::var_os("PEERS_DIR").is_none() {
        eprintln!(
            "PEERS_DIR is not set: build the peers as ../shared/peers/README.md says \
             and export PEERS_DIR, or pass --peers ''"
        );
        std::process::exit(2);
    }
    let only: Vec<&str> = args
        .only
        .as_deref()
        .map_or(Vec::new(), |o| o.split(',').collect());
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(args.hash_mb)
            .time_limit(Some(Duration::from_secs_f64(args.time)))
            .shortest_node_limit(args.shortest_nodes),
    );
    solver.prefault();
    let mut header = "| problem | ours | s | nodes | first proof | first proof s |".to_string();
    let mut rule = "|---|---|---|---|---|---|".to_string();
    // Like with like: our first proof beside shtsume's answer (it stops at its first proof),
    // our proven answer beside KomoringHeights' (MinLength: it proves its length too).
    for p in &peers {
        header.push_str(&format!(" {p} | s | nodes | ours/{p} |"));
        rule.push_str("---|---|---|---|");
        if *p == "shtsume" {
            header.push_str(&format!(" first proof / {p} nodes | first proof / {p} s |"));
            rule.push_str("---|---|");
        }
    }
    let mut out = String::new();
    if !args.totals {
        writeln!(out, "{header}\n{rule}").unwrap();
        println!("{header}\n{rule}");
    }
    let mut sums = vec![Total::default(); peers.len() + 1];
    for common::BenchProblem {
        position,
        expected,
        name,
    } in common::bench_problems(&args.file)
    {
        if only.is_empty() {
            if expected == "?" && !args.all {
                continue;
            }
        } else if !only.iter().any(|o| name.contains(o)) {
            continue;
        }
        let sfen = position.to_sfen();
        let mine = ours(&mut solver, &position, args.runs.max(1));
        sums[0].add(&mine, mine.length);
        let first = mine.first_proof.map_or("-".to_string(), |n| n.to_string());
        let first_s = mine
            .first_proof_seconds
            .map_or("-".to_string(), |s| format!("{s:.2}"));
        let mut row = format!(
            "| {} | {} | {first} | {first_s} |",
            short_name(&name),
            cells(&mine)
        );
        for p in &peers {
            match peer(&args, p, &sfen) {
                Ok(a) => {
                    let i = 1 + peers
                        .iter()
                        .position(|q| q == p)
                        .expect("a peer of the list");
                    sums[i].add(&a, mine.length);
                    if args.totals && a.length != mine.length {
                        eprintln!(
                            "{name}: ours {:?} (proven {:?}), {p} {:?} ({})",
                            mine.length, mine.proven, a.length, a.verdict
                        );
                    }
                    // No ratio against a peer stopped by the time limit: its time is the
                    // limit's, not an answer's.
                    let ratio = |r: f64| {
                        if a.finished {
                            format!("{r:.2}")
                        } else {
                            "-".to_string()
                        }
                    };
                    let first_ratio = match (mine.first_proof, a.nodes) {
                        (Some(f), Some(n)) if n > 0 => ratio(f as f64 / n as f64),
                        _ => "-".to_string(),
                    };
                    let first_time_ratio = mine
                        .first_proof_seconds
                        .map_or("-".to_string(), |s| ratio(s / a.seconds.max(1e-3)));
                    row.push_str(&format!(
                        " {} | {} |",
                        cells(&a),
                        ratio(mine.seconds / a.seconds.max(1e-3))
                    ));
                    if *p == "shtsume" {
                        row.push_str(&format!(" {first_ratio} | {first_time_ratio} |"));
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
        }
        if !args.totals {
            writeln!(out, "{row}").unwrap();
            println!("{row}");
        }
    }
    if args.totals {
        let t = &sums[0];
        writeln!(
            out,
            "| engine | problems | mates | proven shortest | same length as ours | seconds (sum of medians) | nodes | time / ours |"
        )
        .unwrap();
        writeln!(out, "|---|---|---|---|---|---|---|---|").unwrap();
        writeln!(
            out,
            "| ours | {} | {} | {} | - | {:.2} | {} | 1.00 |",
            t.problems, t.mates, t.proven, t.seconds, t.nodes
        )
        .unwrap();
        for (p, s) in peers.iter().zip(&sums[1..]) {
            writeln!(
                out,
                "| {p} | {} | {} | - | {} | {:.2} | {}{} | {:.2} |",
                s.problems,
                s.mates,
                s.same,
                s.seconds,
                s.nodes,
                if s.nodes_missing > 0 {
                    format!(" ({} without a count)", s.nodes_missing)
                } else {
                    String::new()
                },
                s.seconds / t.seconds.max(1e-9)
            )
            .unwrap();
        }
        print!("{out}");
    }
    for file in &args.write {
        if let Err(e) = write_section(file, "bench_peers", &args.section, &out) {
            eprintln!("{}: {e}", file.display());
            std::process::exit(1);
        }
    }
}

/// A problem's name for the table: without a long remark in parentheses after it.
fn short_name(name: &str) -> &str {
    match name.find(" (") {
        Some(i) if name.len() - i > 40 => &name[..i],
        _ => name,
    }
}

/// Sums over a suite for one engine.
#[derive(Clone, Default)]
struct Total {
    problems: usize,
    mates: usize,
    proven: usize,
    same: usize,
    seconds: f64,
    nodes: u64,
    nodes_missing: usize,
}

impl Total {
    fn add(&mut self, a: &Answer, ours: Option<u32>) {
        self.problems += 1;
        self.mates += a.length.is_some() as usize;
        self.proven += (a.proven == Some(true)) as usize;
        self.same += (a.length.is_some() && a.length == ours) as usize;
        self.seconds += a.seconds;
        match a.nodes {
            Some(n) => self.nodes += n,
            None => self.nodes_missing += 1,
        }
    }
}
