//! Solver cases beside tests/solver.rs: a stopped solver runs the next search to the end, a
//! table far too small for the proof still gives a verified mate, and a White attacker is solved
//! like the same problem for Black.

use std::time::Duration;
use tsume::{Outcome, Position, Solver, SolverConfig, StopReason};

/// 寿 (図巧 No. 100): a mate of 611 plies that takes the solver a few hundred thousand nodes.
const KOTOBUKI: &str =
    "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";

fn kotobuki() -> Position {
    Position::from_sfen(KOTOBUKI).unwrap()
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
fn small_table_still_solves() {
    // 1 MiB is far too small to keep the whole proof of 寿: replacement and re-search must
    // still give a verified mate.
    let mut solver = Solver::new(SolverConfig::new().hash_mib(1).node_limit(Some(20_000_000)));
    // It needs about 0.37 M nodes there; 20 M leaves a wide margin.
    match solver.solve(&kotobuki()).outcome {
        Outcome::Mate(line) => assert!(tsume::verify_mate(&kotobuki(), &line.moves).is_ok()),
        other => panic!("expected a mate, got {other:?}"),
    }
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
