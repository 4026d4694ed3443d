//! The random suite (`problems/random.sfen`, 300 mates of 1-25 plies made by
//! `examples/gen_random.rs` from a fixed seed; each line's length was proven shortest with a
//! 20 M-node allowance): with default settings every problem is mated, its line is legal and
//! ends in mate (checked here with the rules core only), its length is never below the
//! proven one, and where the solver says "shortest proven" it is the proven one. The short
//! mates are checked against the brute force of `tests/common` as well.
//!
//! How many the defaults prove is printed (`cargo test --release --test random --
//! --nocapture`); `bench_peers --totals --all --time 10 problems/random.sfen` compares the
//! suite with the peers.

mod common;

use common::{Brute, check_line};
use tsume::Position;
use tsume::solver::{Outcome, Solver, SolverConfig};

struct Problem {
    line: usize,
    pos: Position,
    /// The proven length, if the generator could prove it.
    length: Option<u32>,
}

fn suite() -> Vec<Problem> {
    let text = std::fs::read_to_string("problems/random.sfen").expect("problems/random.sfen");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (sfen, comment) = l.split_once('#').expect("a comment with the length");
            Problem {
                line: i + 1,
                pos: Position::from_sfen(sfen.trim()).expect("a valid SFEN"),
                length: comment
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok()),
            }
        })
        .collect()
}

/// Solves every `step`-th problem from `first` with default settings (a node limit only as
/// a guard) and a table of `mib` MiB, and checks it; returns (checked, proven shortest).
fn run(first: usize, step: usize, mib: usize) -> (usize, usize) {
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(mib)
            .node_limit(Some(40_000_000)),
    );
    let (mut n, mut proven) = (0, 0);
    let mut failures = Vec::new();
    for p in suite().into_iter().skip(first).step_by(step) {
        n += 1;
        let Outcome::Mate(line) = solver.solve(&p.pos).outcome else {
            failures.push(format!("line {}: no mate found", p.line));
            continue;
        };
        if let Err(e) = check_line(&p.pos, line.moves()) {
            failures.push(format!("line {}: {e}", p.line));
        }
        if let Some(len) = p.length {
            if line.length() < len {
                failures.push(format!(
                    "line {}: mate in {} below the proven {len}",
                    p.line,
                    line.length()
                ));
            }
            if line.shortest_proven() && line.length() != len {
                failures.push(format!(
                    "line {}: shortest proven {} but the suite says {len}",
                    p.line,
                    line.length()
                ));
            }
        }
        if line.shortest_proven() {
            proven += 1;
        } else {
            eprintln!(
                "line {}: mate in at most {} (suite: {:?}), not proven shortest",
                p.line,
                line.length(),
                p.length
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{proven} of {n} proven shortest with default settings");
    (n, proven)
}

#[test]
fn random_suite_even_lines() {
    run(0, 2, 128);
}

#[test]
fn random_suite_odd_lines() {
    run(1, 2, 128);
}

/// Every third problem with a table of 1 MiB, which replaces entries all the time: the
/// proofs come in other orders and from other table states, and the same checks must hold
/// (no length below the suite's, the suite's wherever shortest is proven). A proof hand too
/// small once made a mate in 15 a mate in 13, under another order of the shortest-mate
/// searches (see `Expansion::proof`); this order and table size did not show that one.
#[test]
fn random_suite_with_a_tiny_table() {
    run(2, 3, 1);
}

#[test]
fn short_random_mates_match_the_brute_force() {
    let mut checked = 0;
    for p in suite() {
        let Some(len) = p.length.filter(|&l| l <= 5) else {
            continue;
        };
        let mut brute = Brute::new(true, 2_000_000);
        match brute.shortest(&p.pos, len) {
            Some(found) => {
                assert_eq!(found, Some(len), "line {}: brute-force length", p.line);
                checked += 1;
            }
            None => eprintln!("line {}: too big for the brute force", p.line),
        }
    }
    assert!(checked >= 50, "only {checked} short mates checked");
}
