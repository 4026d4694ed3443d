//! The consistency sweep: solves each problem of a file at several table sizes and with the
//! allowance after the first proof doubled, and reports every pair of answers that
//! contradict each other (mate against no mate, two proven lengths that differ, a proven
//! length longer than a mate found elsewhere); then solves positions along the main line
//! on their own and compares them with what the line leaves. The rules it checks are in
//! `examples/common/consistency.rs`.
//!
//! ```text
//! cargo run --release --example consistency -- [--sizes 64,256,1024,4096] [--time 60]
//!     [--threads 2,8] [--along 10] [--only NAME] [FILE]
//! ```
//!
//! FILE defaults to problems/long.sfen. `--sizes` are MiB (`--kib`: KiB). `--threads` adds
//! an answer with each of these thread counts at the first size. `--along N`
//! checks the main line every N attacker moves (0: not at all) with the first size. A
//! problem none of whose answers is a mate within `--time` is listed as unanswered. Exits
//! with 1 when some answer contradicts another.

mod common;

use clap::Parser;
use common::consistency::{Answer, Verdict, along_line, answer, contradictions};
use std::time::Duration;
use tsume::solver::SolverConfig;

#[derive(Parser, Debug)]
struct Args {
    /// Problem file (`<sfen> # <expected> <name>` per line).
    #[arg(default_value = "problems/long.sfen")]
    file: String,
    /// Table sizes, comma-separated (MiB, or KiB with `--kib`).
    #[arg(long, default_value = "64,256,1024,4096", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// The sizes are KiB.
    #[arg(long)]
    kib: bool,
    /// Time limit per search in seconds.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Check the main line every N attacker moves (0: not at all).
    #[arg(long, default_value_t = 10)]
    along: usize,
    /// Also solve with each of these thread counts (comma-separated), at the first size.
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Only problems whose name contains this text.
    #[arg(long)]
    only: Option<String>,
}

fn main() {
    let args = Args::parse();
    let config = |size: usize| {
        let c = SolverConfig::new().time_limit(Some(Duration::from_secs_f64(args.time)));
        if args.kib {
            c.hash_kib(size)
        } else {
            c.hash_mib(size)
        }
    };
    let unit = if args.kib { "KiB" } else { "MiB" };
    let mut total = 0;
    for p in common::bench_problems(&args.file) {
        if args
            .only
            .as_ref()
            .is_some_and(|o| !p.name.contains(o.as_str()))
        {
            continue;
        }
        let mut answers: Vec<Answer> = Vec::new();
        for &size in &args.sizes {
            answers.push(answer(&p.position, config(size), &format!("{size} {unit}")));
        }
        let first = args.sizes[0];
        let doubled = SolverConfig::DEFAULT_SHORTEST_NODES * 2;
        answers.push(answer(
            &p.position,
            config(first).shortest_node_limit(Some(doubled)),
            &format!("{first} {unit}, allowance doubled"),
        ));
        for &threads in &args.threads {
            answers.push(answer(
                &p.position,
                config(first).threads(threads),
                &format!("{first} {unit}, {threads} threads"),
            ));
        }
        let shown: Vec<String> = answers
            .iter()
            .map(|a| format!("{}: {}", a.setting, a.verdict))
            .collect();
        println!("{} ({}): {}", p.name, p.expected, shown.join("; "));
        if answers.iter().all(|a| a.verdict == Verdict::Unknown) {
            println!("  unanswered within {} s", args.time);
            continue;
        }
        let bad = contradictions(&answers);
        for b in &bad {
            println!("  CONTRADICTION {b}");
        }
        total += bad.len();
        let main = answers.iter().find(|a| {
            matches!(
                a.verdict,
                Verdict::Mate {
                    proven: true,
                    main_line: true,
                    ..
                }
            )
        });
        if let (Some(main), true) = (main, args.along > 0) {
            let Verdict::Mate { length, .. } = main.verdict else {
                unreachable!()
            };
            let along = along_line(&main.line, length, args.along, &config(first));
            println!(
                "  along the line ({}): {} positions checked, {} contradictions, {} explained",
                main.setting,
                along.checked,
                along.contradictions.len(),
                along.explained.len()
            );
            for c in &along.contradictions {
                println!("  CONTRADICTION {c}");
            }
            for e in &along.explained {
                println!("  explained: {e}");
            }
            total += along.contradictions.len();
        }
    }
    println!("{total} contradictions");
    if total > 0 {
        std::process::exit(1);
    }
}
