//! Solver benchmarks over the short problem suites (antma tsume1-9 and the YaneuraOu samples).
//!
//! `cargo bench --bench solver`. The long problems are timed by
//! `cargo run --release --example bench_long` instead (seconds to minutes each).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tsume::Position;
use tsume::solver::{Outcome, Solver, SolverConfig};

fn suite(text: &str) -> Vec<Position> {
    tsume::problem::read_str(text, "suite")
        .into_iter()
        .map(|p| p.expect("valid suite position").position)
        .collect()
}

fn benches(c: &mut Criterion) {
    let antma = suite(include_str!("../problems/antma.sfen"));
    let yaneuraou = suite(include_str!("../problems/yaneuraou.sfen"));
    let mut solver = Solver::new(SolverConfig::new().hash_mib(64));
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    for (name, set) in [("antma_x70", &antma), ("yaneuraou_x35", &yaneuraou)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut mates = 0;
                for p in set.iter() {
                    if let Outcome::Mate(_) = solver.solve(black_box(p)).outcome {
                        mates += 1;
                    }
                }
                mates
            })
        });
    }
    g.finish();
}

criterion_group!(solver, benches);
criterion_main!(solver);
