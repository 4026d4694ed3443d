//! Move generation benchmarks: perft from the start position and the matsuri position, and
//! `check_moves` / `evasions` over a set of tsume positions.
//!
//! `cargo bench --bench movegen` (add `-- perft` etc. to filter).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tsume::{Position, perft};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

/// Tsume positions (attacker to move) from the antma and YaneuraOu test sets.
fn tsume_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for line in include_str!("../tests/data/tsume_bench_positions.sfen").lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        out.push(Position::from_sfen(line).expect("valid bench position"));
    }
    out
}

/// Positions reached by one check from each tsume position: the defender to move, in check.
fn evasion_positions(tsume: &[Position]) -> Vec<Position> {
    let mut out = Vec::new();
    for p in tsume {
        for m in p.check_moves().into_iter().take(4) {
            let mut c = p.clone();
            c.play_unchecked(m);
            out.push(c);
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let start = Position::startpos();
    let matsuri = Position::from_sfen(MATSURI).unwrap();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("startpos_4", |b| b.iter(|| perft(black_box(&start), 4)));
    g.bench_function("startpos_5", |b| b.iter(|| perft(black_box(&start), 5)));
    g.bench_function("matsuri_2", |b| b.iter(|| perft(black_box(&matsuri), 2)));
    g.bench_function("matsuri_3", |b| b.iter(|| perft(black_box(&matsuri), 3)));
    g.finish();

    let tsume = tsume_positions();
    let evasion = evasion_positions(&tsume);
    let mut g = c.benchmark_group("tsume");
    g.bench_function(format!("check_moves_x{}", tsume.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &tsume {
                n += black_box(p).check_moves().len();
            }
            n
        })
    });
    g.bench_function(format!("evasions_x{}", evasion.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &evasion {
                n += black_box(p).evasions().len();
            }
            n
        })
    });
    g.bench_function("play_unchecked_copy", |b| {
        let m = tsume[0].check_moves()[0];
        b.iter_batched(
            || tsume[0].clone(),
            |mut p| {
                p.play_unchecked(black_box(m));
                p
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(movegen, benches);
criterion_main!(movegen);
