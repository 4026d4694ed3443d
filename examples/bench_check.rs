//! What checking a problem costs next to solving it: a table of both, per problem.
//!
//! ```text
//! cargo run --release --example bench_check -- [--runs 3] [--hash-mb 1024] [--quick] [--suites-only]
//! ```
//!
//! For each sound problem below, solves it and checks it (`Solver::check`) `--runs` times each
//! on a fresh solver with the same settings, and prints the median times, the node counts
//! (exact and repeatable) and the ratios check / solve. `--quick` leaves out 図巧98番, whose
//! shortest length takes about a minute to prove, and the suites.
//!
//! Then the suites, once each: every problem of `problems/yaneuraou.sfen` and
//! `problems/antma.sfen` solved, then checked, in order on one solver with a
//! [`SUITE_HASH_MIB`] table and default settings otherwise (as `check_unique --hash-mb 256`
//! does), with the totals: time, nodes (repeatable, unlike the times on a shared machine) and
//! the verdicts; then each problem checked again with `CheckConfig::first_flaw` (the quick
//! verdict, `check_unique --first-flaw`), with its totals and how many verdicts agree.

use clap::Parser;
use std::time::Duration;
use tsume::Position;
use tsume::check::{CheckConfig, Verdict};
use tsume::solver::{Outcome, Solver, SolverConfig};

#[derive(Parser, Debug)]
struct Args {
    /// Runs per problem (the median time is shown).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Transposition table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Only the problems that take less than a second (no suites).
    #[arg(long)]
    quick: bool,
    /// Only the suites' totals.
    #[arg(long)]
    suites_only: bool,
}

/// The table size of the suites' solver, in MiB (the figure the timings are quoted for).
const SUITE_HASH_MIB: usize = 256;

/// The suites whose totals are measured.
const SUITES: &[&str] = &["problems/yaneuraou.sfen", "problems/antma.sfen"];

/// Solves, then checks, every problem of `file` on one solver each; prints the totals.
fn suite(file: &str) {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let problems: Vec<_> = tsume::problem::read_file(&path)
        .into_iter()
        .map(|p| p.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let config = SolverConfig::new().hash_mib(SUITE_HASH_MIB);
    let mut solver = Solver::new(config.clone());
    let (mut solve_time, mut solve_nodes) = (Duration::ZERO, 0);
    for p in &problems {
        let sol = solver.solve(&p.position);
        solve_time += sol.stats.elapsed;
        solve_nodes += sol.stats.nodes;
    }
    let full = check_all(&problems, config.clone(), &CheckConfig::new());
    let quick = check_all(&problems, config, &CheckConfig::new().first_flaw(true));
    let count = |v: Verdict| full.verdicts.iter().filter(|&&w| w == v).count();
    let (sound, unsound, undecided) = (
        count(Verdict::Sound),
        count(Verdict::Unsound),
        count(Verdict::Undecided),
    );
    let same = full
        .verdicts
        .iter()
        .zip(&quick.verdicts)
        .filter(|(a, b)| a == b)
        .count();
    println!(
        "| {file} | {} | {:.3} | {solve_nodes} | {:.3} | {} | {sound} / {unsound} / {undecided} | {} | {:.3} | {} | {same} |",
        problems.len(),
        solve_time.as_secs_f64(),
        full.time.as_secs_f64(),
        full.nodes,
        full.flaws,
        quick.time.as_secs_f64(),
        quick.nodes,
    );
}

/// The totals of checking every problem in order on one fresh solver.
struct Checked {
    time: Duration,
    nodes: u64,
    flaws: usize,
    verdicts: Vec<Verdict>,
}

fn check_all(
    problems: &[tsume::problem::Problem],
    config: SolverConfig,
    check: &CheckConfig,
) -> Checked {
    let mut solver = Solver::new(config);
    let mut out = Checked {
        time: Duration::ZERO,
        nodes: 0,
        flaws: 0,
        verdicts: Vec::new(),
    };
    for p in problems {
        let intended = (!p.moves.is_empty()).then_some(p.moves.as_slice());
        let report = solver.check(&p.position, intended, check);
        out.time += report.stats.elapsed;
        out.nodes += report.stats.nodes;
        out.flaws += report.flaws.len();
        out.verdicts.push(report.verdict);
    }
    out
}

/// (name, sfen, nodes allowed after the first proof for proving the length shortest).
const PROBLEMS: &[(&str, &str, Option<u64>)] = &[
    (
        "古典3手詰 (3)",
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        None,
    ),
    (
        "tsume7-5 (7)",
        "l8/1ks+P5/1ppp5/p8/9/2P6/9/9/9 b G2SN2r2b3gs3n3l12p 1",
        None,
    ),
    (
        "mog_mate9 (9)",
        "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1",
        None,
    ),
    (
        "tsume9-1 (9)",
        "ln7/1k1+P5/1pp1S4/p8/9/2P6/9/9/9 b BGN2rbg2s2n3l13p 1",
        None,
    ),
    (
        "二上 金剛篇 (b) (9)",
        "6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1",
        None,
    ),
    (
        "Karolina (13)",
        "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1",
        None,
    ),
    (
        "図巧98番 (31)",
        "8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1",
        Some(300_000_000),
    ),
];

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args = Args::parse();
    if !args.suites_only {
        problems(&args);
    }
    if !args.quick {
        println!();
        println!(
            "| suite | problems | solve s | solve nodes | check s | check nodes | sound / unsound / undecided | flaws | first-flaw check s | first-flaw nodes | same verdicts |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        for file in SUITES {
            suite(file);
        }
    }
}

/// The table of single problems.
fn problems(args: &Args) {
    println!(
        "| problem | solve: length | solve nodes | solve s | check: verdict | check nodes | check s | nodes ratio | time ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for &(name, sfen, shortest) in PROBLEMS {
        if args.quick && shortest.is_some() {
            continue;
        }
        let pos = Position::from_sfen(sfen).expect("a valid sfen");
        let config = SolverConfig::new()
            .hash_mib(args.hash_mb)
            .shortest_node_limit(shortest);
        let check = CheckConfig::new().question_node_limit(Some(5_000_000));
        let (mut solve_times, mut check_times) = (Vec::new(), Vec::new());
        let (mut solve_nodes, mut check_nodes) = (0, 0);
        let (mut length, mut verdict) = (String::new(), String::new());
        for _ in 0..args.runs.max(1) {
            let sol = Solver::new(config.clone()).solve(&pos);
            solve_times.push(sol.stats.elapsed);
            solve_nodes = sol.stats.nodes;
            length = match &sol.outcome {
                Outcome::Mate(l) if !l.is_main_line() => {
                    format!("at most {} (line of {})", l.length(), l.line_len())
                }
                Outcome::Mate(l) if l.shortest_proven() => format!("{} (shortest)", l.length()),
                Outcome::Mate(l) => l.length().to_string(),
                other => format!("{other:?}"),
            };
            let report = Solver::new(config.clone()).check(&pos, None, &check);
            check_times.push(report.stats.elapsed);
            check_nodes = report.stats.nodes;
            verdict = format!(
                "{} ({} flaws, {} notes)",
                report.verdict,
                report.fatal_flaws().count(),
                report.flaws.len() - report.fatal_flaws().count()
            );
        }
        let (s, c) = (median(solve_times), median(check_times));
        println!(
            "| {name} | {length} | {solve_nodes} | {:.3} | {verdict} | {check_nodes} | {:.3} | {:.2} | {:.2} |",
            s.as_secs_f64(),
            c.as_secs_f64(),
            check_nodes as f64 / solve_nodes.max(1) as f64,
            c.as_secs_f64() / s.as_secs_f64().max(1e-9),
        );
    }
}
