//! Unnecessary pieces (不要駒, `CheckConfig::unnecessary_pieces`): a piece that plays no part
//! is found, the pieces a problem needs are not, and only a sound problem is examined.

use tsume::Position;
use tsume::check::{CheckConfig, Verdict};
use tsume::solver::{Solver, SolverConfig};

fn check(sfen: &str, on: bool) -> tsume::check::Report {
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    let pos = Position::from_sfen(sfen).unwrap();
    solver.check(&pos, None, &CheckConfig::new().unnecessary_pieces(on))
}

fn found(sfen: &str) -> Vec<String> {
    let report = check(sfen, true);
    assert_eq!(report.verdict, Verdict::Sound, "{sfen}");
    let u = report.unnecessary_pieces.expect("examined");
    assert!(u.undecided.is_empty(), "{sfen}: {:?}", u.undecided);
    u.found.iter().map(|p| p.japanese()).collect()
}

/// 古典3手詰 (▲５二角成 △同銀 ▲４二銀打): the bishop and the silver on 5c are played or
/// needed, the defender's silvers guard, nothing is spare.
const CLASSIC: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";

#[test]
fn a_problem_with_no_spare_piece_has_none() {
    assert!(found(CLASSIC).is_empty());
}

#[test]
fn a_piece_far_from_the_play_is_unnecessary() {
    // A black pawn on 1i: it neither checks, guards nor blocks anything.
    assert_eq!(
        found("3sks3/9/4S4/9/9/B8/9/9/8P b S2rb4g4n4l17p 1"),
        ["▲１九歩"]
    );
    // A white gold on 9i: taken off, it goes to the defender's hand, where it cannot
    // interpose against a mate by captures and drops next to the king either.
    assert_eq!(
        found("3sks3/9/4S4/9/9/B8/9/9/g8 b S2rb3g4n4l18p 1"),
        ["△９九金"]
    );
}

#[test]
fn only_a_sound_problem_is_examined_and_only_when_asked() {
    // Pieces left over: unsound, so no answer.
    let report = check("3sks3/9/4S4/9/9/B8/9/9/8P b SL2rb4g4n3l17p 1", true);
    assert_eq!(report.verdict, Verdict::Unsound);
    assert!(report.unnecessary_pieces.is_none());
    assert!(check(CLASSIC, false).unnecessary_pieces.is_none());
}
