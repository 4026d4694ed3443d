//! One position, one proven length: the consistency sweep of `examples/consistency.rs` on
//! the short suites and on random mates, with tables from a few hundred KiB (entries
//! replaced all the time) to 16 MiB, with the allowance after the first proof doubled, and
//! with 2 and 8 threads;
//! plus a property over table sizes. The rules of the check are in
//! `examples/common/consistency.rs`.
//!
//! The long problems are swept by the example (minutes each):
//! `cargo run --release --example consistency -- problems/long.sfen`.

#[path = "../examples/common/consistency.rs"]
mod consistency;

use consistency::{Answer, Verdict, along_line, answer, contradictions};
use proptest::prelude::*;
use std::time::Duration;
use tsume::solver::SolverConfig;
use tsume::{Position, problem};

/// The problems of a suite file, in order.
fn suite(file: &str) -> Vec<(String, Position)> {
    problem::read_file(file)
        .into_iter()
        .map(|p| {
            let p = p.unwrap_or_else(|e| panic!("{e}"));
            (format!("{file}:{}", p.comment), p.position)
        })
        .collect()
}

fn config(kib: usize) -> SolverConfig {
    SolverConfig::new()
        .hash_kib(kib)
        .time_limit(Some(Duration::from_secs(5)))
}

/// Solves each problem at the table sizes `kibs` and with the allowance doubled at the
/// largest, checks the answers against each other and, every `along` problems, the main
/// line's positions; returns what contradicts.
fn sweep(problems: &[(String, Position)], kibs: &[usize], along: usize) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, (name, pos)) in problems.iter().enumerate() {
        let mut answers: Vec<Answer> = kibs
            .iter()
            .map(|&k| answer(pos, config(k), &format!("{k} KiB")))
            .collect();
        let big = *kibs.last().unwrap();
        answers.push(answer(
            pos,
            config(big).shortest_node_limit(Some(2 * SolverConfig::DEFAULT_SHORTEST_NODES)),
            "allowance doubled",
        ));
        // Threads: the parallel search's answers must agree too (8 is more than the test
        // machines have cores).
        for threads in [2, 8] {
            answers.push(answer(
                pos,
                config(big).threads(threads),
                &format!("{threads} threads"),
            ));
        }
        bad.extend(
            contradictions(&answers)
                .into_iter()
                .map(|c| format!("{name}: {c}")),
        );
        if along > 0 && i % along == 0 {
            if let Some(a) = answers.iter().find(|a| {
                matches!(
                    a.verdict,
                    Verdict::Mate {
                        proven: true,
                        main_line: true,
                        ..
                    }
                )
            }) {
                let Verdict::Mate { length, .. } = a.verdict else {
                    unreachable!()
                };
                let found = along_line(&a.line, length, 1, &config(big));
                bad.extend(
                    found
                        .contradictions
                        .into_iter()
                        .map(|c| format!("{name}: {c}")),
                );
            }
        }
    }
    bad
}

#[test]
fn short_suites_give_one_length_at_every_table_size() {
    let mut problems = suite("problems/antma.sfen");
    problems.extend(suite("problems/yaneuraou.sfen"));
    let bad = sweep(&problems, &[256, 1024, 16 * 1024], 4);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn random_mates_give_one_length_with_tiny_tables() {
    // Every third of the random suite (100 mates), with tables of 128 and 512 KiB.
    let problems: Vec<_> = suite("problems/random.sfen")
        .into_iter()
        .step_by(3)
        .collect();
    let bad = sweep(&problems, &[128, 512, 16 * 1024], 10);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any table size from 32 KiB to 8 MiB gives an answer that does not contradict the one
    /// of a 16 MiB table.
    #[test]
    fn any_table_size_agrees(index in 0usize..300, kib in 32usize..8192) {
        let problems = suite("problems/random.sfen");
        let (name, pos) = &problems[index % problems.len()];
        let answers = [
            answer(pos, config(16 * 1024), "16 MiB"),
            answer(pos, config(kib), &format!("{kib} KiB")),
        ];
        let bad = contradictions(&answers);
        prop_assert!(bad.is_empty(), "{}: {}", name, bad.join("; "));
    }
}

/// Issue 40, still open: a position of 世界大戦's line (after 172 plies) is "mate in 193,
/// proven shortest" with a 1 MiB table and "mate in 195, proven shortest" with 16 MiB. The
/// saw rule (a drop whose capture position is a position of the line is not counted) makes
/// a position's length depend on the line that led to it, and the table mixes lengths learned
/// on different lines. Fails today; run with
/// `cargo test --release --test consistency -- --ignored`.
#[test]
#[ignore]
fn a_saw_position_gives_one_length_at_every_table_size() {
    let pos = Position::from_sfen(
        "p+R2g3S/n2P2LPP/2+B2+LP2/5S+R2/2L3+PpS/2+P5n/4L3B/3+p2S1k/+p8 b 2N6P3g2p 173",
    )
    .unwrap();
    let answers: Vec<Answer> = [1024, 16 * 1024, 64 * 1024]
        .iter()
        .map(|&k| answer(&pos, config(k), &format!("{k} KiB")))
        .collect();
    let bad = contradictions(&answers);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
