//! The solver's limits and its embedding API: node and time limits, the stop handle, the table
//! budget, reuse across problems, `Send`, and progress reports.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tsume::{Outcome, Position, Solver, SolverConfig, StopReason};

/// 寿 (図巧 No. 100): a mate of 611 plies that takes the solver a few hundred thousand nodes.
const KOTOBUKI: &str =
    "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";

fn kotobuki() -> Position {
    Position::from_sfen(KOTOBUKI).unwrap()
}

#[test]
fn node_limit_stops_with_unknown() {
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16).node_limit(Some(1000)));
    let sol = solver.solve(&kotobuki());
    assert_eq!(sol.outcome, Outcome::Unknown(StopReason::NodeLimit));
    // Limits are checked every 1024 nodes.
    assert!(
        sol.stats.nodes >= 1000 && sol.stats.nodes <= 1000 + 2048,
        "{}",
        sol.stats.nodes
    );
}

#[test]
fn time_limit_stops_with_unknown() {
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(64)
            .time_limit(Some(Duration::from_millis(50))),
    );
    let start = Instant::now();
    let sol = solver.solve(&kotobuki());
    assert_eq!(sol.outcome, Outcome::Unknown(StopReason::TimeLimit));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn stop_handle_stops_a_running_search() {
    let mut solver = Solver::new(SolverConfig::new().hash_mib(64));
    let stop = solver.stop_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        stop.stop();
    });
    let sol = solver.solve(&kotobuki());
    stopper.join().unwrap();
    assert_eq!(sol.outcome, Outcome::Unknown(StopReason::Stopped));
    // The stop applies to that search only: the next one runs to the end.
    let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
    assert!(matches!(solver.solve(&pos).outcome, Outcome::Mate(_)));
}

#[test]
fn table_never_exceeds_its_budget() {
    for mib in [1, 3, 16] {
        let mut solver = Solver::new(SolverConfig::new().hash_mib(mib).node_limit(Some(300_000)));
        let sol = solver.solve(&kotobuki());
        assert!(
            sol.stats.table_bytes <= mib << 20,
            "{mib} MiB: {}",
            sol.stats.table_bytes
        );
        assert!(
            sol.stats.table_bytes > (mib << 20) / 2,
            "{mib} MiB: table too small"
        );
        assert!(sol.stats.table_fill > 0.0 && sol.stats.table_fill <= 1.0);
    }
}

#[test]
fn small_table_still_solves() {
    // 1 MiB is far too small to keep the whole proof of 寿: replacement and re-search must
    // still give a verified mate.
    let mut solver = Solver::new(SolverConfig::new().hash_mib(1).node_limit(Some(20_000_000)));
    match solver.solve(&kotobuki()).outcome {
        Outcome::Mate(line) => assert!(tsume::verify_mate(&kotobuki(), &line.moves).is_ok()),
        Outcome::Unknown(StopReason::NodeLimit) => {} // acceptable: the budget is tiny
        other => panic!("expected a mate, got {other:?}"),
    }
}

#[test]
fn solver_is_send_and_works_on_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Solver>();
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    let handle = std::thread::spawn(move || {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G").unwrap();
        solver.solve(&pos).outcome
    });
    assert!(matches!(handle.join().unwrap(), Outcome::Mate(l) if l.len() == 1));
}

#[test]
fn progress_is_reported_with_growing_node_counts() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(64)
            .progress_interval(Duration::from_millis(20))
            .node_limit(Some(150_000)),
    );
    solver.set_progress(move |p| sink.lock().unwrap().push(p.nodes));
    let sol = solver.solve(&kotobuki());
    let seen = seen.lock().unwrap();
    assert!(sol.stats.elapsed < Duration::from_millis(60) || !seen.is_empty());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().all(|&n| n <= sol.stats.nodes));
}

#[test]
fn white_attacker_is_solved_like_black() {
    // The same mate in 3 with colours swapped and the board turned round.
    let black = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
    let white = Position::from_sfen("9/9/9/8b/9/9/4s4/9/3SKS3 w s2RB4G4N4L18P 1").unwrap();
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    let (Outcome::Mate(a), Outcome::Mate(b)) =
        (solver.solve(&black).outcome, solver.solve(&white).outcome)
    else {
        panic!("both are mates");
    };
    assert_eq!(a.len(), b.len());
}
